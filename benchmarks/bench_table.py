"""The table's logic alone: from a reader snapshot to the live preview, the view, the journal.

Snapshots come from the simulated readers with realistic faults (seeded) over a mid-game
board with stacks, while a player lays two tiles; each sample is `Table.on_snapshot` plus
`Table.preview()` (the points shown while placing), then `Table.view()`. A sweep comes every
100 ms; the Pi Zero 2 is roughly 10 to 20 times slower than a desktop core, hence targets
far below 100 ms here.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from benchmarks.figure import Figure, percentile
from benchmarks.journals import long_journal
from companion.board.registry import Registry
from companion.config import Config, PathsConfig
from companion.game.journal import Journal, start_record, turn_record
from companion.game.table import Table
from engine import ALL_TILES, GEOMETRIES, SQUARES, Board, Game, Tile
from hardware.hub.sim import FaultModel, FaultyReaders, SimTable, tag_uid
from hardware.hub.snapshot import Snapshot

SWEEPS = 3000
BOARD = {
    "NW": ["star-3", "club-3", "heart-3"],
    "NE": ["heart-5", "heart-6"],
    "SW": ["club-7"],
    "SE": ["spade-9", "spade-8"],
    "N1": ["diamond-2"],
    "E2": ["diamond-10", "club-10"],
    "W1": ["diamond-7", "diamond-6"],
}
PLACED = [("W2", "star-4"), ("S2", "club-8")]


def _neighbours() -> dict[int, tuple[int, ...]]:
    mask = GEOMETRIES["default"].neighbours
    return {i: tuple(j for j in range(12) if mask[i] >> j & 1) for i in range(12)}


def _table(folder: Path) -> tuple[Table, Registry]:
    uids = {tag_uid(n + 1): tile for n, tile in enumerate(ALL_TILES)}
    registry = Registry(None, uids)
    journal = Journal(folder / "journal.jsonl")
    journal.append(start_record(Game(["S", "N"], board=Board.from_mapping(BOARD))))
    config = Config(paths=PathsConfig(folder))
    return Table(config, registry, journal, now=0.0), registry


def _snapshot_to_preview(folder: Path) -> tuple[list[float], list[float]]:
    table, registry = _table(folder)
    sim = SimTable()
    for square, names in BOARD.items():
        for name in names:
            sim.put(SQUARES.index(square), registry.uid(Tile.parse(name)))
    readers = FaultyReaders(12, FaultModel.realistic(), random.Random(1), _neighbours())
    previews, views = [], []
    now = 0.0
    for seq in range(SWEEPS):
        if seq in (200, 400):  # a player lays the two tiles of a set
            square, name = PLACED[seq // 200 - 1]
            sim.put(SQUARES.index(square), registry.uid(Tile.parse(name)))
        if seq > 600 and seq % 600 == 300:  # ...takes the second back, and lays it again
            sim.remove(registry.uid(Tile.parse(PLACED[1][1])))
        if seq > 600 and seq % 600 == 0:
            sim.put(SQUARES.index(PLACED[1][0]), registry.uid(Tile.parse(PLACED[1][1])))
        now += 0.1
        snapshot = Snapshot(seq, readers.sweep(sim.stacks), now)
        started = time.perf_counter()
        table.on_snapshot(snapshot, now)
        table.preview()
        shown = time.perf_counter()
        table.view(now)
        previews.append(shown - started)
        views.append(time.perf_counter() - shown)
    assert table.preview() is not None, "the placement was never seen"
    return previews, views


def _journal_append(folder: Path) -> list[float]:
    journal = Journal(folder / "append.jsonl")
    record = turn_record("S", [("W2", Tile.parse("star-4")), ("S2", Tile.parse("club-8"))])
    samples = []
    for _ in range(200):
        started = time.perf_counter()
        journal.append(record)
        samples.append(time.perf_counter() - started)
    return samples


def _resume(folder: Path) -> tuple[float, int]:
    """Start-up replay of a long game's journal (every turn a swap or a placement)."""
    journal, game = long_journal(folder / "long.jsonl")
    started = time.perf_counter()
    table = Table(Config(paths=PathsConfig(folder)), Registry(), Journal(journal.path), now=0.0)
    elapsed = time.perf_counter() - started
    assert table.game is not None and table.game.scores == game.scores
    return elapsed, len(journal.records())


def run() -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="bench-table-") as name:
        folder = Path(name)
        previews, views = _snapshot_to_preview(folder)
        appends = _journal_append(folder)
        resume, records = _resume(folder)
    return [
        Figure("table: snapshot -> preview p50", percentile(previews, 50) * 1e6, "us"),
        Figure("table: snapshot -> preview p99", percentile(previews, 99) * 1e6, "us", target=2000),
        Figure("table: view built p99", percentile(views, 99) * 1e6, "us", target=2000),
        Figure("table: journal append+fsync p50", percentile(appends, 50) * 1e3, "ms"),
        Figure("table: journal append+fsync p99", percentile(appends, 99) * 1e3, "ms", target=50),
        Figure("table: resume a game from its journal", resume * 1e3, "ms", target=500),
        Figure("table: records in that journal", records, "records"),
    ]
