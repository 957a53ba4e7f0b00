"""The simulated table is built once: one neighbour map, one clock, presses in its time."""

from __future__ import annotations

import ast
import dataclasses
import time
from pathlib import Path

import pytest

import tests.helpers
from companion.daemon import Devices
from companion.daemon.events import Press
from companion.sim import rig
from companion.sim.clock import SimClock
from companion.sim.demo import Demo
from engine import SQUARES
from tests.faults.harness import Table


def test_the_demo_and_the_tests_simulate_the_same_crosstalk():
    assert tests.helpers.reader_neighbours is rig.reader_neighbours
    near = rig.reader_neighbours()
    named = {SQUARES[i]: {SQUARES[j] for j in near[i]} for i in near}
    # readers next to each other under the board: across an edge or a corner of the grid
    assert named["NW"] == {"N1", "N2", "W2", "NE", "W1", "SW", "SE"}
    assert named["N1"] == {"N2", "NW", "NE", "W2"}
    assert named["S1"] == {"S2", "SE", "SW", "E2"}
    with rig.SimRig() as table:
        assert table.hub._readers.neighbours == near


def test_the_hubs_field_groups_keep_neighbouring_readers_apart():
    """The firmware (MicroPython, on the Pico) states its groups itself; they are checked
    here against the one neighbour map of the default wiring."""
    source = (Path(__file__).parents[2] / "hardware" / "firmware" / "config.py").read_text()
    tree = ast.parse(source)
    groups = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id == "FIELD_GROUPS"  # type: ignore[attr-defined]
    )
    near = rig.reader_neighbours()
    assert sorted(r for group in groups for r in group) == list(range(len(SQUARES)))
    for group in groups:
        assert not {(a, b) for a in group for b in group if b in near[a]}, group


def handled(daemon, monkeypatch) -> list:
    """The events the daemon's loop hands to their handlers from now on, in order."""
    events: list = []
    dispatch = daemon.dispatch
    monkeypatch.setattr(daemon, "dispatch", lambda event: (events.append(event), dispatch(event)))
    return events


def forbid_sleep(seconds: float) -> None:
    raise AssertionError(f"a real sleep of {seconds} s on the simulated table")


def test_the_fault_suite_presses_buttons_in_simulated_time(tmp_path, monkeypatch):
    table = Table(tmp_path)
    try:
        assert isinstance(table.clock, SimClock)
        assert "buttons" in {f.name for f in dataclasses.fields(Devices)}, "Devices declares them"
        events = handled(table.daemon, monkeypatch)
        monkeypatch.setattr(time, "sleep", forbid_sleep)
        before = table.clock()
        table.press("S", long=True, sweep=False)
        table.press("N", sweep=False)
        presses = [e for e in events if isinstance(e, Press)]
        assert presses == [
            Press("S", True, pytest.approx(before + 0.3)),
            Press("N", False, pytest.approx(before + 0.45)),
        ]
    finally:
        table.close()


def test_the_demo_presses_buttons_in_simulated_time(tmp_path, monkeypatch):
    demo = Demo(journal=tmp_path / "journal.jsonl", out=lambda line: None)
    try:
        assert isinstance(demo.clock, SimClock)
        events = handled(demo.daemon, monkeypatch)
        monkeypatch.setattr(time, "sleep", forbid_sleep)
        demo.press("S", long=True)
        assert [(e.seat, e.long) for e in events if isinstance(e, Press)] == [("S", True)]
    finally:
        demo.devices.close()
