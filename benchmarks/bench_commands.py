"""The enroll and replay commands: how long a person waits, how long a long journal takes.

Enrolment runs all 50 tiles on the simulated table with realistic reader faults, in lock
step (a sweep is 0.1 simulated seconds, read through the real pty and `HubLink`); the
figures are the simulated seconds from the tile being put down to "lift it off" and from
the lift to the next tile being asked for: what a person feels at a real table. Replay
re-scores a long journal (300 turns with covered tiles returned) and formats every line.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.figure import Figure, percentile
from benchmarks.journals import long_journal
from companion.board.registry import Registry
from companion.enrolment import Enrolment, Prompt, SimEnrolTable, SimPerson
from companion.game.replay import replay_journal, text_lines
from companion.sim.clock import SimClock
from companion.sim.rig import SimRig
from hardware.hub.link import HubLink
from hardware.hub.sim import FaultModel


class _TimedPerson(SimPerson):
    """Notes when the tile really went down and when it was really lifted."""

    def __init__(self, rig: SimRig, square: str, clock: SimClock) -> None:
        super().__init__(rig, square)
        self.clock = clock
        self.down: float | None = None
        self.up: float | None = None

    def put(self, tile) -> None:
        super().put(tile)
        self.down = self.clock.now

    def clear(self) -> None:
        super().clear()
        self.up = self.clock.now


def _enrol(folder: Path) -> tuple[list[float], list[float], float]:
    to_accept: list[float] = []
    to_next: list[float] = []
    with SimRig(FaultModel.realistic(), seed=5) as rig:
        clock = SimClock()
        person = _TimedPerson(rig, "NW", clock)
        with HubLink(rig.port, clock=clock) as link:

            def watch(prompt: Prompt) -> None:
                if prompt.kind == "accepted" and person.down is not None:
                    to_accept.append(clock.now - person.down)
                if prompt.kind == "put" and person.up is not None:
                    to_next.append(clock.now - person.up)

            enrolment = Enrolment(
                Registry(folder / "registry.json"),
                SimEnrolTable(rig, link, person, clock),
                clock=clock,
                give_up_after=60.0,
                listeners=[watch, person],
            )
            started = time.perf_counter()
            result = enrolment.run()
            elapsed = time.perf_counter() - started
    assert result.complete, result
    return to_accept, to_next, elapsed


def _long_journal(path: Path) -> int:
    return len(long_journal(path)[0].records())


def _replay(folder: Path) -> tuple[float, int]:
    path = folder / "long.jsonl"
    records = _long_journal(path)
    started = time.perf_counter()
    played = replay_journal(path)
    lines = [line for game in played.games for line in text_lines(game)]
    elapsed = time.perf_counter() - started
    assert not played.differences and len(lines) >= records
    return elapsed, records


def run() -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="bench-commands-") as name:
        folder = Path(name)
        to_accept, to_next, enrol_wall = _enrol(folder)
        replay, records = _replay(folder)
    return [
        Figure("enroll: tile down -> accepted p50", percentile(to_accept, 50), "s (sim)"),
        Figure(
            "enroll: tile down -> accepted p99", percentile(to_accept, 99), "s (sim)", target=1.0
        ),
        Figure(
            "enroll: lifted -> next tile asked p99", percentile(to_next, 99), "s (sim)", target=1.0
        ),
        Figure("enroll: 50 tiles on the sim, wall time", enrol_wall, "s"),
        Figure("replay: long journal re-scored and printed", replay * 1e3, "ms", target=2000),
        Figure("replay: records in that journal", records, "records"),
    ]
