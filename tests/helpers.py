"""A table under test: the real Table fed real Snapshot values.

Readings come either from `snap()` (exactly what a test writes) or from the project's
simulated table (`hardware.hub.sim`: the ground truth `SimTable` and the seeded
`FaultyReaders` that turn it into what real readers report), without a pty: these tests are
about the logic, the link has its own.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from pathlib import Path

from companion.board.registry import Registry
from companion.config import Config, GameConfig, PathsConfig
from companion.game.journal import Journal
from companion.game.table import Table
from companion.sim.rig import reader_neighbours
from engine import ALL_TILES, SQUARES, Tile
from engine.geometry import SQUARE_INDEX
from hardware.hub.sim import FaultModel, FaultyReaders, SimTable, tag_uid
from hardware.hub.snapshot import EMPTY, ReaderReading, Snapshot

#: every tile with a tag, as a builder would have enrolled them.
UIDS: dict[Tile, str] = {tile: tag_uid(n + 1) for n, tile in enumerate(ALL_TILES)}
UNKNOWN_UID = tag_uid(999)
COLLISION = ReaderReading("collision")
FAULT = ReaderReading("fault")


def tile(name: str) -> Tile:
    return Tile.parse(name)


def registry(path: Path | None = None) -> Registry:
    return Registry(path, {uid: t for t, uid in UIDS.items()})


def reading(what: str | Iterable[str] | ReaderReading) -> ReaderReading:
    """ "-" empty, "C" collision, "F" fault, a tile name or a list of tile names (ok), or
    a raw UID."""
    if isinstance(what, ReaderReading):
        return what
    if isinstance(what, str):
        if what in ("-", "C", "F"):
            return {"-": EMPTY, "C": COLLISION, "F": FAULT}[what]
        what = [what]
    uids = tuple(UIDS[Tile.parse(w)] if "-" in w else w for w in what)
    return ReaderReading("ok", uids)


def snap(seq: int = 0, **squares: str | Iterable[str] | ReaderReading) -> Snapshot:
    """A snapshot of the default wiring (reader i under SQUARES[i]); unnamed squares empty."""
    return Snapshot(seq, tuple(reading(squares.get(sq, "-")) for sq in SQUARES))


def config(tmp_path: Path, **game: object) -> Config:
    return Config(game=GameConfig(**game), paths=PathsConfig(tmp_path))  # type: ignore[arg-type]


class Rig:
    """A table, its journal, and a simulated physical board in front of its readers."""

    def __init__(
        self,
        tmp_path: Path,
        faults: FaultModel | None = None,
        seed: int = 0,
        cfg: Config | None = None,
        now: float = 100.0,
    ) -> None:
        self.tmp_path = tmp_path
        self.config = cfg or config(tmp_path)
        self.registry = registry()
        self.journal = Journal(self.config.paths.journal)
        self.sim = SimTable()
        self.readers = FaultyReaders(
            len(SQUARES), faults or FaultModel(), random.Random(seed), reader_neighbours()
        )
        self.now = now
        self.seq = 0
        self.table = Table(self.config, self.registry, self.journal, now=now)

    # the physical board
    def put(self, square: str, name: str) -> None:
        self.sim.put(SQUARE_INDEX[square], UIDS[tile(name)])

    def lift(self, square: str) -> Tile:
        uid = self.sim.lift(SQUARE_INDEX[square])
        return next(t for t, u in UIDS.items() if u == uid)

    def remove(self, name: str) -> None:
        self.sim.remove(UIDS[tile(name)])

    def setup(self, stacks: Mapping[str, Iterable[str]]) -> None:
        for square, names in stacks.items():
            for name in names:
                self.put(square, name)

    # time, readers and buttons
    def sweep(self, n: int = 1, dt: float = 0.1) -> None:
        for _ in range(n):
            self.now += dt
            readings = self.readers.sweep(self.sim.stacks)
            self.feed(Snapshot(self.seq, readings, self.now))

    def seconds(self, seconds: float) -> None:
        self.sweep(round(seconds / 0.1))

    def feed(self, snapshot: Snapshot) -> None:
        self.seq += 1
        self.table.on_snapshot(snapshot, self.now)
        self.table.tick(self.now)

    def press(self, side: str, long: bool = False) -> None:
        self.table.on_press(side, long, self.now)

    def start(self, *sides: str) -> None:
        for side in sides:
            self.press(side)
        self.press(sides[0], long=True)
        assert self.table.phase == "playing", self.table.tracker.problems(self.now)

    def restart(self) -> Table:
        """The daemon killed and started again on the same journal."""
        self.journal = Journal(self.config.paths.journal)
        self.table = Table(self.config, self.registry, self.journal, now=self.now)
        return self.table

    def sounds(self) -> list[str]:
        return [str(s) for s in self.table.take_sounds()]

    def problems(self) -> list[str]:
        return [
            f"{p.code} {p.square}" if p.square else p.code
            for p in self.table.tracker.problems(self.now)
        ]

    def view(self):
        return self.table.view(self.now)


def two_playing(tmp_path: Path) -> Rig:
    """S and N in a game started on star-3 (NW), heart-5 (NE), club-1 (SW), diamond-9 (SE)."""
    rig = Rig(tmp_path)
    rig.setup({"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-1"], "SE": ["diamond-9"]})
    rig.sweep(5)
    rig.start("S", "N")
    return rig


class FullCard:
    """The card refuses every write to `rig`'s journal (it becomes a folder) until `back()`."""

    def __init__(self, rig: Rig) -> None:
        self.path = rig.journal.path
        self.saved = self.path.read_bytes()
        self.path.unlink()
        self.path.mkdir()

    def back(self) -> None:
        self.path.rmdir()
        self.path.write_bytes(self.saved)
