"""The simulated table is built once: one neighbour map, one clock, presses in its time."""

from __future__ import annotations

import time

import pytest

import tests.helpers
from companion.sim import rig
from companion.sim.clock import SimClock
from companion.sim.demo import Demo
from engine import SQUARES
from tests.faults.harness import Table


def test_the_demo_and_the_tests_simulate_the_same_crosstalk():
    assert tests.helpers.reader_neighbours is rig.reader_neighbours
    near = rig.reader_neighbours()
    named = {SQUARES[i]: {SQUARES[j] for j in near[i]} for i in near}
    # readers side by side under the board: across a grid edge, never diagonally
    assert named["NW"] == {"N1", "W2", "NE", "SW"}
    assert named["N1"] == {"N2", "NW"}
    with rig.SimRig() as table:
        assert table.hub._readers.neighbours == near


def forbid_sleep(seconds: float) -> None:
    raise AssertionError(f"a real sleep of {seconds} s on the simulated table")


def test_the_fault_suite_presses_buttons_in_simulated_time(tmp_path, monkeypatch):
    table = Table(tmp_path)
    try:
        assert isinstance(table.clock, SimClock)
        events = table.sim.devices.buttons.events()
        monkeypatch.setattr(time, "sleep", forbid_sleep)
        before = table.clock()
        table.press("S", long=True, sweep=False)
        table.press("N", sweep=False)
        assert events.get_nowait() == ("S", True, pytest.approx(before + 0.3))
        assert events.get_nowait() == ("N", False, pytest.approx(before + 0.45))
    finally:
        table.close()


def test_the_demo_presses_buttons_in_simulated_time(tmp_path, monkeypatch):
    demo = Demo(journal=tmp_path / "journal.jsonl", out=lambda line: None)
    try:
        assert isinstance(demo.clock, SimClock)
        events = demo.devices.buttons.events()
        monkeypatch.setattr(time, "sleep", forbid_sleep)
        demo.press("S", long=True)
        assert events.get_nowait()[:2] == ("S", True)
    finally:
        demo.devices.close()
