"""Memory over an evening of play: one daemon (the demo's, in simulated time) playing game after
game, each closed by a new lobby as a family would, the journal archived and pruned.

Resident memory (VmRSS of the process, which is the daemon's loop, presenter and the virtual
hub together) at READY (after `Daemon.start`, as `serve` says READY) and after 50 games, and
the Python heap's blocks: what grows with the number of games is a leak, since a daemon on
the Pi plays for years. The games run in a process of their own (`python -m
benchmarks.bench_memory --measure`): `make bench` runs every module in one process, and the
others' memory (the display, end-to-end and hub benchmarks: 47 MB before these games began,
issue 24) was counted as the daemon's. `python -m benchmarks.bench_memory 40` prints the
heap's biggest growth by line.
"""

from __future__ import annotations

import gc
import json
import logging
import subprocess
import sys
import tempfile
import tracemalloc  # only for `python -m benchmarks.bench_memory`: it slows the games tenfold
from collections import deque
from pathlib import Path

from benchmarks.figure import Figure
from companion.sim.demo import Demo, World

GAMES = 50  # about four seconds each: mostly gpiozero's real-time button presses
GROWTH_TARGET = 5.0  # MB over READY after GAMES games (issue 24)


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


def play(games: int, folder: Path, on_game=None, on_ready=None) -> Demo:
    logging.getLogger("setup").setLevel(logging.ERROR)  # the readers' faults, thousands
    journal = folder / "journal.jsonl"
    demo = Demo(seed=1, journal=journal, out=lambda _: None, unplug_turn=None)
    # the virtual hub keeps its last 10 000 sweeps for tests to look at: that is the
    # simulation's memory, not the daemon's, so it keeps only a few here
    demo.rig.hub.records = deque(maxlen=16)
    try:
        demo.daemon.start()  # what `serve` does before it says READY
        if on_ready is not None:
            on_ready()
        for n in range(games):
            if n:
                _next_game(demo, seed=n + 1)
            _start(demo)
            while demo._play_one():
                pass
            demo._finish()
            # gpiozero's mock pins record every change of state (for tests): the simulated
            # buttons' and buzzer's memory, not the daemon's (a Pi's pins keep none)
            for pin in demo.sim.pins.pins.values():
                pin.clear_states()
            if on_game is not None:
                on_game(n + 1)
    finally:
        demo.devices.close()
    return demo


def measure(games: int = GAMES) -> dict[str, float]:
    """Plays `games` games in this process; resident memory (MB) and Python blocks at READY,
    after the first game and after the last."""
    samples: dict[str, float] = {}

    def sample(name: str) -> None:
        gc.collect()
        samples[f"{name}_rss"] = _rss_mb()
        samples[f"{name}_blocks"] = sys.getallocatedblocks()

    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        play(
            games,
            Path(folder),
            lambda n: sample("first" if n == 1 else "last") if n in (1, games) else None,
            lambda: sample("ready"),
        )
    return samples


def run(games: int = GAMES) -> list[Figure]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_memory", "--measure", str(games)],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    m = json.loads(done.stdout.strip().splitlines()[-1])
    return [
        Figure("resident memory at READY (the daemon's process)", m["ready_rss"], "MB"),
        Figure(f"resident memory after {games} games in one daemon", m["last_rss"], "MB"),
        Figure(
            f"resident memory growth, READY to {games} games",
            m["last_rss"] - m["ready_rss"],
            "MB",
            target=GROWTH_TARGET,
        ),
        Figure(f"resident memory growth, game 1 to {games}", m["last_rss"] - m["first_rss"], "MB"),
        Figure(
            f"Python objects' blocks growth, READY to {games} games",
            m["last_blocks"] - m["ready_blocks"],
            "blocks",
        ),
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
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure(int(sys.argv[2]))))
    else:
        _top(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
