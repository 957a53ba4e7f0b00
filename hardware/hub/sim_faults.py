"""What real readers get wrong, as seeded rates: the simulated table's fault model.

`FaultyReaders.sweep(stacks)` turns the ground truth into what the readers report in one
sweep. Every random draw comes from one `random.Random(seed)` in a fixed order (readers in
number order, each stack bottom up), so a seed and a sequence of tables give the same
readings every run. With every rate at zero the readings are the ground truth exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace

from hardware.hub.protocol import COLLISION, FAULT, MAX_LINE
from hardware.hub.snapshot import EMPTY, ReaderReading

Stacks = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class FaultModel:
    """Fault rates, all probabilities in 0..1 and all zero by default (the ground truth).

    - `miss_rate`: per tag and sweep, the chance a false "no card" starts; it lasts a number
      of sweeps drawn evenly from `miss_sweeps` (1..3).
    - A stack of two or more tags reads, each sweep, as a collision (`stack_collision`), as
      only its bottom tag (`stack_bottom_only`), as nothing (`stack_nothing`), or otherwise
      tag by tag: each covered tag unreadable with `covered_unreadable`, the top tag with
      `top_unreadable` (the top tag is not reliably visible).
    - `settle_sweeps`: a tile put on a stack is seen for this many sweeps while it is being
      put down (with what the stack below reads), before the stack rules above apply.
    - `crosstalk_rate`: per tag read and sweep, the chance it is also seen by one neighbour.
    - `corrupt_rate`: per line, the chance one byte is damaged or the line is cut short.
    - `faulty_readers`: readers that report `F` (and fail the self-test).
    - `hover_seen`: per sweep, the chance a reader sees a tag held over it by a hand (a tile
      slid across the board or held before it is laid: `SimTable.hover`).
    - `silence_rate`: per stack of two or more and sweep, the chance it falls silent (reads
      as nothing) for a number of sweeps drawn evenly from `silence_sweeps` (5 to 20 s),
      until it changes or `FaultyReaders.wake` (a player straightens it).
    - `tall_stack`, `tall_top_unreadable`: a stack of at least `tall_stack` tiles (0: no
      such rule) reads its top tag with this chance of missing it instead of `top_unreadable`.
    """

    miss_rate: float = 0.0
    miss_sweeps: tuple[int, int] = (1, 3)
    covered_unreadable: float = 0.0
    top_unreadable: float = 0.0
    stack_collision: float = 0.0
    stack_bottom_only: float = 0.0
    stack_nothing: float = 0.0
    settle_sweeps: int = 0
    crosstalk_rate: float = 0.0
    corrupt_rate: float = 0.0
    faulty_readers: frozenset[int] = field(default_factory=frozenset)
    hover_seen: float = 0.0
    silence_rate: float = 0.0
    silence_sweeps: tuple[int, int] = (50, 200)
    tall_stack: int = 0
    tall_top_unreadable: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "faulty_readers", frozenset(self.faulty_readers))
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "float" and not 0.0 <= value <= 1.0:
                raise ValueError(f"{f.name} is a probability (0..1), not {value}")
        if self.stack_collision + self.stack_bottom_only + self.stack_nothing > 1.0:
            raise ValueError("stack_collision + stack_bottom_only + stack_nothing exceed 1")
        low, high = self.miss_sweeps
        if not 1 <= low <= high:
            raise ValueError(f"miss_sweeps is a range 1 <= low <= high, not {self.miss_sweeps}")
        if self.settle_sweeps < 0:
            raise ValueError("settle_sweeps cannot be negative")
        low, high = self.silence_sweeps
        if not 1 <= low <= high:
            raise ValueError(f"silence_sweeps is a range 1 <= low <= high, not {low, high}")
        if self.tall_stack < 0:
            raise ValueError("tall_stack cannot be negative")

    @classmethod
    def realistic(cls) -> FaultModel:
        """Rates like those of MFRC522 readers under 3 mm of board with NTAG stickers."""
        return cls(
            miss_rate=0.02,
            covered_unreadable=0.85,
            top_unreadable=0.3,
            stack_collision=0.25,
            stack_bottom_only=0.15,
            stack_nothing=0.1,
            settle_sweeps=2,
            crosstalk_rate=0.01,
            corrupt_rate=0.002,
        )

    @classmethod
    def family(cls) -> FaultModel:
        """`realistic()` readers under a family's hands and tall stacks: a tile held over a
        square is seen there half of the sweeps, a stack falls silent for 5 to 20 s about
        once in 5,000 sweeps, and a stack of five or more shows its top one sweep in five."""
        return replace(
            cls.realistic(),
            hover_seen=0.5,
            silence_rate=0.0002,
            tall_stack=5,
            tall_top_unreadable=0.8,
        )


def line_neighbours(readers: int) -> dict[int, tuple[int, ...]]:
    """Without a board geometry, readers next in number are taken as neighbours."""
    return {r: tuple(n for n in (r - 1, r + 1) if 0 <= n < readers) for r in range(readers)}


class FaultyReaders:
    """The readers of one hub, with the fault state that lasts across sweeps."""

    def __init__(
        self,
        readers: int,
        faults: FaultModel,
        rng: random.Random,
        neighbours: Mapping[int, tuple[int, ...]] | None = None,
    ) -> None:
        self.readers = readers
        self.faults = faults
        self.rng = rng
        self.neighbours = dict(line_neighbours(readers) if neighbours is None else neighbours)
        for reader, near in self.neighbours.items():
            if not 0 <= reader < readers or not all(0 <= n < readers for n in near):
                raise ValueError(f"neighbours name a reader outside 0..{readers - 1}")
        self._missing: dict[str, int] = {}  # uid -> sweeps of false "no card" still to come
        self._settling: dict[str, int] = {}  # uid -> sweeps still seen while put down
        self._seen_on: dict[str, int] = {}  # uid -> reader it lay on at the last sweep
        self._silent: dict[int, tuple[int, tuple[str, ...]]] = {}  # reader -> (left, stack)

    def reset(self) -> None:
        """The hub restarted: forget what was going on."""
        self._missing.clear()
        self._settling.clear()
        self._seen_on.clear()
        self._silent.clear()

    @property
    def silent(self) -> frozenset[int]:
        """Readers whose stack is silent now."""
        return frozenset(self._silent)

    def wake(self, reader: int) -> None:
        """A player straightens the stack on `reader`: it answers again."""
        self._silent.pop(reader, None)

    def sweep(self, stacks: Stacks, hovering: Stacks | None = None) -> tuple[ReaderReading, ...]:
        """What the readers report for the ground truth `stacks` in one sweep, with the
        tags held over each reader by a hand (`hovering`, by reader)."""
        if len(stacks) != self.readers:
            raise ValueError(f"{len(stacks)} stacks for {self.readers} readers")
        self._notice_puts(stacks)
        self._start_misses(stacks)
        self._start_silences(stacks)
        readings = [self._read(reader, stack) for reader, stack in enumerate(stacks)]
        if hovering is not None:
            self._hover(readings, hovering)
        self._crosstalk(readings)
        self._count_down(self._missing)
        self._count_down(self._settling)
        for reader, (left, stack) in list(self._silent.items()):
            if left <= 1:
                del self._silent[reader]
            else:
                self._silent[reader] = (left - 1, stack)
        return tuple(readings)

    def _start_silences(self, stacks: Stacks) -> None:
        for reader, (_, stack) in list(self._silent.items()):
            if stacks[reader][: len(stack)] != stack or len(stacks[reader]) < 2:
                del self._silent[reader]  # lifted or rebuilt: it answers again
        rate = self.faults.silence_rate
        if not rate:
            return
        low, high = self.faults.silence_sweeps
        for reader, stack in enumerate(stacks):
            if len(stack) >= 2 and reader not in self._silent and self.rng.random() < rate:
                self._silent[reader] = (self.rng.randint(low, high), stack)

    def _hover(self, readings: list[ReaderReading], hovering: Stacks) -> None:
        for reader, uids in enumerate(hovering):
            reading = readings[reader]
            if not uids or reading.status not in ("ok", "empty") or reader in self._silent:
                continue
            seen = tuple(u for u in uids if self._chance(self.faults.hover_seen))
            if seen:
                readings[reader] = ReaderReading("ok", reading.uids + seen)

    def _notice_puts(self, stacks: Stacks) -> None:
        on = {uid: reader for reader, stack in enumerate(stacks) for uid in stack}
        for table in (self._missing, self._settling):
            for uid in [u for u in table if u not in on]:
                del table[uid]
        if self.faults.settle_sweeps:
            for reader, stack in enumerate(stacks):
                if len(stack) >= 2 and self._seen_on.get(stack[-1]) != reader:
                    self._settling[stack[-1]] = self.faults.settle_sweeps
        self._seen_on = on

    def _start_misses(self, stacks: Stacks) -> None:
        rate = self.faults.miss_rate
        if not rate:
            return
        low, high = self.faults.miss_sweeps
        for stack in stacks:
            for uid in stack:
                if uid not in self._missing and self.rng.random() < rate:
                    self._missing[uid] = self.rng.randint(low, high)

    def _read(self, reader: int, stack: tuple[str, ...]) -> ReaderReading:
        if reader in self.faults.faulty_readers:
            return FAULT
        if reader in self._silent:
            return EMPTY
        if stack and stack[-1] in self._settling:
            below = self._read_stack(stack[:-1])
            seen = (below.uids if below.status == "ok" else ()) + stack[-1:]
        else:
            reading = self._read_stack(stack)
            if reading.status != "ok":
                return reading
            seen = reading.uids
        seen = tuple(uid for uid in seen if uid not in self._missing)
        return ReaderReading("ok", seen) if seen else EMPTY

    def _read_stack(self, stack: tuple[str, ...]) -> ReaderReading:
        if len(stack) < 2:
            return ReaderReading("ok", stack) if stack else EMPTY
        f = self.faults
        if f.stack_collision or f.stack_bottom_only or f.stack_nothing:
            draw = self.rng.random()
            if draw < f.stack_collision:
                return COLLISION
            draw -= f.stack_collision
            if draw < f.stack_bottom_only:
                return ReaderReading("ok", stack[:1])
            if draw - f.stack_bottom_only < f.stack_nothing:
                return EMPTY
        seen = [uid for uid in stack[:-1] if not self._chance(f.covered_unreadable)]
        tall = f.tall_stack and len(stack) >= f.tall_stack
        if not self._chance(f.tall_top_unreadable if tall else f.top_unreadable):
            seen.append(stack[-1])
        return ReaderReading("ok", tuple(seen)) if seen else EMPTY

    def _crosstalk(self, readings: list[ReaderReading]) -> None:
        rate = self.faults.crosstalk_rate
        if not rate:
            return
        extra: dict[int, list[str]] = {}
        for reader, reading in enumerate(readings):
            near = self.neighbours.get(reader, ())
            for uid in reading.uids:
                if near and self.rng.random() < rate:
                    extra.setdefault(self.rng.choice(near), []).append(uid)
        for reader, uids in extra.items():
            reading = readings[reader]
            if reading.status in ("ok", "empty") and reader not in self._silent:
                added = tuple(u for u in dict.fromkeys(uids) if u not in reading.uids)
                readings[reader] = ReaderReading("ok", reading.uids + added)

    def _chance(self, rate: float) -> bool:
        return bool(rate) and self.rng.random() < rate

    @staticmethod
    def _count_down(table: dict[str, int]) -> None:
        for uid in list(table):
            table[uid] -= 1
            if table[uid] <= 0:
                del table[uid]


def fit_line(
    seq: int, readings: tuple[ReaderReading, ...], limit: int = MAX_LINE
) -> tuple[ReaderReading, ...]:
    """What a hub sends for `readings` when the `S` line may carry at most `limit` bytes
    (BODY*CCCC): the readers with the most UIDs report a collision, longest first, as
    docs/hub-protocol.md says. A board of tall stacks whose tags are all readable goes over a
    v1 hub's 512 bytes (`MAX_LINE_V1`) at about 34 tags of 7 bytes; v2 carries 2048."""
    fitted = list(readings)
    texts = [str(r) for r in fitted]
    size = len(f"S {seq} ") + sum(len(t) + 1 for t in texts) - 1 + 5
    while size > limit:
        longest = max(range(len(fitted)), key=lambda r: len(texts[r]))
        if len(texts[longest]) <= 1:
            break
        size -= len(texts[longest]) - 1
        fitted[longest], texts[longest] = COLLISION, "C"
    return tuple(fitted)
