"""Enrolment: teaching the companion which NFC tag is glued under which tile.

The person enrolling puts each tile asked for alone on one square (NW unless chosen
otherwise); the enrolment watches that square's reader and takes a tag once it has read
it cleanly (status ok, exactly one UID) in `sweeps` sweeps in a row, so a tag half seen
while the tile is being put down, or a neighbour's crosstalk, is never taken. Then it asks
for the square to be cleared (empty in `empty_sweeps` sweeps in a row: a tag can be missed
for a sweep or three) before asking for the next tile.

Caught on the way: a tag that is already another tile's ("this tag is already star-3: is it
the right tile?"), two tags on the square, nothing read for a long while (check the tag),
the square's reader in fault, and a silent hub. The registry is saved atomically after
each tile, so a restart continues with the tiles still missing.

Everything the enrolment says is a `Prompt` handed to its listeners: the terminal, the seat
displays, and in the simulation the person at the table (`SimPerson`), who puts each tile
asked for on the simulated table, so enrolment can be shown and tested end to end.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.board.registry import Registry
from engine import ALL_TILES, SQUARES, Tile
from hardware.hub.snapshot import ReaderReading, Snapshot

#: what the enrolment can say (`Prompt.kind`)
PROMPTS: tuple[str, ...] = (
    "clear",  # something lies on the square before a tile is asked for
    "put",  # put `tile` alone on the square
    "accepted",  # `tile` has the tag `uid` now: lift it off
    "duplicate",  # the tag read is already `other`'s
    "collision",  # two tags (or an unresolvable answer) on the square
    "nothing",  # nothing read for a long while: check the tile's tag
    "fault",  # the square's reader is in fault
    "hub",  # no snapshot from the hub for a while
    "done",  # every tile asked for has its tag
)


@dataclass(frozen=True)
class Prompt:
    """One thing the enrolment tells the person enrolling."""

    kind: str
    square: str
    tile: Tile | None = None
    uid: str | None = None
    other: Tile | None = None  # "duplicate": the tile the tag belongs to; "clear": what lies there
    previous: str | None = None  # "accepted": the tile's tag before (re-enrolment)
    enrolled: int = 0  # tiles with a tag, out of `total`
    total: int = len(ALL_TILES)

    def __post_init__(self) -> None:
        if self.kind not in PROMPTS:
            raise ValueError(f"unknown enrolment prompt {self.kind!r}")

    def __str__(self) -> str:
        sq, tile, progress = self.square, self.tile, f"{self.enrolled}/{self.total}"
        if self.kind == "put":
            return f"Put {tile} alone on square {sq} ({progress} enrolled so far)."
        if self.kind == "accepted":
            was = f" (it had {self.previous} before)" if self.previous else ""
            return f"{tile} is tag {self.uid}{was}: {progress} enrolled. Lift it off {sq}."
        if self.kind == "clear":
            what = f"{self.other} lies on it" if self.other else "a tag is read on it"
            return f"Square {sq} is not empty ({what}): lift everything off it."
        if self.kind == "duplicate":
            return (
                f"This tag ({self.uid}) is already {self.other}: is it the right tile? "
                f"Lift it and put {tile} on {sq} (if {self.other} was enrolled wrongly, "
                f"run `setup-companion enroll --redo {self.other}` afterwards)."
            )
        if self.kind == "collision":
            return f"Two tags answer on {sq}: put {tile} there alone."
        if self.kind == "nothing":
            return (
                f"Nothing read on {sq} for a while: is {tile} on the square, centred? "
                "Check its tag (under the middle of the tile, not damaged)."
            )
        if self.kind == "fault":
            return (
                f"The reader under {sq} is in fault: check its wiring, or enrol on another "
                "square with --square."
            )
        if self.kind == "hub":
            return "The reader hub does not answer: check its USB cable and power."
        return f"Done: every tile asked for has its tag ({progress} enrolled)."


Listener = Callable[[Prompt], None]


class SnapshotSource(Protocol):
    """Where the sweeps come from: a `HubLink`, or the simulated table."""

    def read(self, timeout: float) -> Snapshot | None: ...


@dataclass(frozen=True)
class EnrolResult:
    """What one run enrolled, and what is still missing."""

    enrolled: tuple[tuple[Tile, str], ...]
    missing: tuple[Tile, ...]  # of the tiles asked for
    gave_up: Tile | None = None  # the tile that took longer than `give_up_after`

    @property
    def complete(self) -> bool:
        return not self.missing


class _GiveUp(Exception):
    pass


class SkipTile(Exception):
    """Raised by a sweep source: the person skipped the tile asked for (a short press on
    the table); the enrolment asks for the next one and leaves this one as it was."""


class Enrolment:
    """Enrols tiles one by one on `square`, reading sweeps from `table`.

    `readers` maps reader numbers to squares (the config's `hub.readers`). `clock` times the
    hints (`hint_after` seconds of nothing read, `hub_timeout` seconds without a sweep);
    `give_up_after` (None: never) stops waiting for one tile after that many seconds."""

    def __init__(
        self,
        registry: Registry,
        table: SnapshotSource,
        *,
        square: str = "NW",
        readers: Sequence[str] = SQUARES,
        sweeps: int = 3,
        empty_sweeps: int = 5,
        hint_after: float = 10.0,
        hub_timeout: float = 3.0,
        give_up_after: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        listeners: Iterable[Listener] = (),
    ) -> None:
        if square not in readers:
            raise ValueError(f"{square!r} is not a square under a reader")
        if sweeps < 1 or empty_sweeps < 1:
            raise ValueError("sweeps and empty_sweeps must be at least 1")
        self.registry = registry
        self.table = table
        self.square = square
        self.reader = list(readers).index(square)
        self.sweeps, self.empty_sweeps = sweeps, empty_sweeps
        self.hint_after, self.hub_timeout = hint_after, hub_timeout
        self.give_up_after = give_up_after
        self.clock = clock
        self.listeners = list(listeners)
        self._current: Prompt | None = None  # what the person should be doing now
        self._last_sweep = clock()
        self._hub_told = False
        self._deadline: float | None = None
        self._clear = False  # the square was last seen empty (no need to wait for it again)

    def tell(self, kind: str, **fields: Any) -> Prompt:
        prompt = Prompt(kind, self.square, enrolled=len(self.registry), **fields)
        for listener in self.listeners:
            listener(prompt)
        return prompt

    # -- the run --------------------------------------------------------------------------
    def run(self, tiles: Sequence[Tile] | None = None) -> EnrolResult:
        """Enrols `tiles` (default: every tile without a tag, in the canonical order)."""
        todo = list(self.registry.missing() if tiles is None else tiles)
        enrolled: list[tuple[Tile, str]] = []
        self._last_sweep = self.clock()
        for n, tile in enumerate(todo):
            try:
                uid = self._enrol(tile)
            except _GiveUp:
                return EnrolResult(tuple(enrolled), tuple(todo[n:]), gave_up=tile)
            except SkipTile:  # left as it was: with its tag, or still missing one
                continue
            enrolled.append((tile, uid))
        self.tell("done")
        return EnrolResult(tuple(enrolled), tuple(t for t in todo if self.registry.uid(t) is None))

    def _enrol(self, tile: Tile) -> str:
        self._deadline = None if self.give_up_after is None else self.clock() + self.give_up_after
        if not self._clear:  # the first tile, or the last one was never seen lifted
            self._wait_until_clear(tile, None)
        while True:
            uid = self._read_tag(tile)
            owner = self.registry.tile(uid)
            if owner is not None and owner != tile:
                said = self.tell("duplicate", tile=tile, uid=uid, other=owner)
                self._wait_until_clear(tile, said)
                continue
            previous = self.registry.enrol(uid, tile)
            self.registry.save()  # atomic: a power cut keeps every tile enrolled so far
            said = self.tell("accepted", tile=tile, uid=uid, previous=previous)
            # enrolled all the same if it is never lifted: the next tile asks for a clear square
            with contextlib.suppress(_GiveUp):
                self._wait_until_clear(tile, said)
            return uid

    def _wait_until_clear(self, tile: Tile, said: Prompt | None) -> None:
        """Until the square reads empty `empty_sweeps` times in a row. `said` is the prompt
        that asked for the lift already; without one, the square is asked to be cleared (once)
        if something is read there steadily."""
        empty = busy = faulty = 0
        self._current = said
        told = said is not None
        self._clear = False
        while empty < self.empty_sweeps:
            reading = self._next_reading()
            if reading.status == "empty":
                empty, busy, faulty = empty + 1, 0, 0
                continue
            if reading.status == "fault":  # cannot tell whether the square is clear
                empty, busy, faulty = 0, 0, faulty + 1
                if faulty == self.sweeps:
                    self._current = self.tell("fault", tile=tile)
                continue
            empty, busy, faulty = 0, busy + 1, 0
            if not told and busy >= self.sweeps:
                other = next(filter(None, map(self.registry.tile, reading.uids)), None)
                self._current = self.tell("clear", tile=tile, other=other)
                told = True
        self._clear = True

    def _read_tag(self, tile: Tile) -> str:
        """Asks for `tile` and returns the UID read cleanly `sweeps` times in a row."""
        self._clear = False
        self._current = self.tell("put", tile=tile)
        candidate, count = None, 0
        trouble, trouble_count, told = None, 0, set()
        last_seen = self.clock()
        while True:
            reading = self._next_reading()
            now = self.clock()
            if reading.status == "ok" and len(reading.uids) == 1:
                trouble, trouble_count = None, 0
                last_seen = now
                uid = reading.uids[0]
                candidate, count = uid, (count + 1 if uid == candidate else 1)
                if count >= self.sweeps:
                    return uid
                continue
            candidate, count = None, 0
            if reading.status == "empty":
                trouble = None
                if now - last_seen >= self.hint_after and "nothing" not in told:
                    told.add("nothing")
                    self.tell("nothing", tile=tile)
                continue
            last_seen = now
            kind = "fault" if reading.status == "fault" else "collision"
            trouble_count = trouble_count + 1 if trouble == kind else 1
            trouble = kind
            if trouble_count >= self.sweeps and kind not in told:
                told.add(kind)
                self.tell(kind, tile=tile)

    def _next_reading(self) -> ReaderReading:
        """The square's reading in the next sweep; tells about a silent hub meanwhile."""
        while True:
            if self._deadline is not None and self.clock() >= self._deadline:
                raise _GiveUp
            snapshot = self.table.read(0.5)
            now = self.clock()
            if snapshot is None:
                if now - self._last_sweep >= self.hub_timeout and not self._hub_told:
                    self._hub_told = True
                    self.tell("hub")
                continue
            self._last_sweep = now
            if self._hub_told:  # the hub is back: say again what to do
                self._hub_told = False
                if self._current is not None:
                    for listener in self.listeners:
                        listener(self._current)
            if self.reader >= len(snapshot.readers):
                raise ValueError(f"the hub has no reader {self.reader} for square {self.square}")
            return snapshot.readers[self.reader]


def registry_listing(registry: Registry) -> list[str]:
    """Every tile with its tag (or "-"), in the canonical order, and the count."""
    lines = [f"{str(tile):<10} {registry.uid(tile) or '-'}" for tile in ALL_TILES]
    lines.append(f"{len(registry)}/{len(ALL_TILES)} tiles enrolled")
    return lines
