"""Memory over a day of play: one daemon (the demo's, in simulated time) playing game after
game, each closed by a new lobby as a family would, the journal archived and pruned.

Resident memory (VmRSS of this process, which is the daemon's loop, presenter and the
virtual hub together) and the Python heap (tracemalloc) after the first game and after many:
what grows with the number of games is a leak, since a daemon on the Pi plays for years.
`python -m benchmarks.bench_memory 40` prints the heap's biggest growth by line.
"""

from __future__ import annotations

import gc
import logging
import sys
import tempfile
import tracemalloc  # only for `python -m benchmarks.bench_memory`: it slows the games tenfold
from collections import deque
from pathlib import Path

from benchmarks.figure import Figure
from companion.sim.demo import Demo, World

GAMES = 20  # about four seconds each: mostly gpiozero's real-time button presses


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _next_game(demo: Demo, seed: int) -> None:
    """The game is over: the tiles back in the box, a short press opens a new lobby."""
    table = demo.daemon.table
    demo.sweep(30)  # the ranking's pause after the final turn
    demo.press(demo.players[0])
    if table.phase != "lobby":  # a game it believes unfinished: closed as a press would
        table._new_game(demo.clock())
    demo.rig.table.clear()
    demo.sweep(40)  # the tracker sees every square empty for long enough
    assert demo.daemon.table.phase == "lobby", demo.daemon.table.phase
    # the same deal each game: the tracker, which keeps its belief across games, is not
    # asked to tell a day of different start boards from crosstalk (belief's business)
    demo.world = World(1, demo.players, demo.teams, demo.config.game.options)
    demo.turn = 0


def _start(demo: Demo) -> None:
    """The start tiles down and everyone joined; a start refused for a board problem (a tag
    read through the neighbouring reader) is tried again once the readers have settled."""
    try:
        demo._start()
    except RuntimeError:
        for _ in range(10):
            demo.sweep(30)
            demo.press(demo.players[0], long=True)
            if demo.daemon.table.phase == "playing":
                return
        raise


def play(games: int, folder: Path, on_game=None) -> Demo:
    logging.getLogger("setup").setLevel(logging.ERROR)  # the readers' faults, thousands
    journal = folder / "journal.jsonl"
    demo = Demo(seed=1, journal=journal, out=lambda _: None, unplug_turn=None)
    # the virtual hub keeps its last 10 000 sweeps for tests to look at: that is the
    # simulation's memory, not the daemon's, so it keeps only a few here
    demo.rig.hub.records = deque(maxlen=16)
    try:
        for n in range(games):
            if n:
                _next_game(demo, seed=n + 1)
            _start(demo)
            while demo._play_one():
                pass
            demo._finish()
            if on_game is not None:
                on_game(n + 1)
    finally:
        demo.devices.close()
    return demo


def run(games: int = GAMES) -> list[Figure]:
    samples: dict[int, tuple[float, int]] = {}

    def sample(n: int) -> None:
        if n in (1, games):
            gc.collect()
            samples[n] = (_rss_mb(), sys.getallocatedblocks())

    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        play(games, Path(folder), sample)
    (rss1, blocks1), (rss_n, blocks_n) = samples[1], samples[games]
    return [
        Figure(f"resident memory after {games} games in one daemon", rss_n, "MB", target=40.0),
        # the display's text caches (4096 widths, 1024 wrapped texts) fill over the first
        # games and then stay: 1.4 MB after 8 games, 2.3 MB after 40 (2026-12-01)
        Figure(f"resident memory growth, game 1 to {games}", rss_n - rss1, "MB"),
        Figure(f"Python objects' blocks growth, game 1 to {games}", blocks_n - blocks1, "blocks"),
    ]


def _top(games: int) -> None:
    tracemalloc.start(3)
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        first = None

        def snap(n: int) -> None:
            nonlocal first
            if n == 1:
                gc.collect()
                first = tracemalloc.take_snapshot()

        play(games, Path(folder), snap)
        gc.collect()
        last = tracemalloc.take_snapshot()
    for stat in sorted(last.compare_to(first, "traceback"), key=lambda s: -s.size_diff)[:8]:
        print(f"{stat.size_diff / 1024:8.1f} KiB {stat.count_diff:+6d} blocks")
        for line in stat.traceback.format()[-6:]:
            print("   ", line)


if __name__ == "__main__":
    _top(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
