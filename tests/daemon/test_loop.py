"""The daemon's loop: one queue of typed events, each kind to its one handler; a press
acted on at its own time; the table's view built once a refresh; the modes."""

from __future__ import annotations

import typing

import pytest

from companion.daemon.events import Event, Inbox, Press, Tick
from companion.daemon.modes import EnrolMode, MenuMode, TableMode
from companion.game.table import Table
from tests.show.table import FamilyTable


@pytest.fixture
def table(tmp_path):
    made = FamilyTable(tmp_path / "state")
    yield made
    made.close()


def test_every_kind_of_event_has_one_handler(table):
    assert set(table.daemon.handlers) == set(typing.get_args(Event))


def test_the_inbox_gives_the_events_in_the_order_they_came_and_wakes_the_loop():
    woken = []
    inbox = Inbox(wake=lambda: woken.append(1))
    events = [Press("N", False, 1.0), Tick(2.0), Press("S", True, 3.0)]
    for event in events:
        inbox.put(event)
    assert len(woken) == 3
    assert inbox.take() == events and inbox.take() == []


def test_a_press_is_acted_on_at_the_time_the_buttons_gave_it(table, monkeypatch):
    seen = []
    on_press = table.table.on_press
    monkeypatch.setattr(
        table.table,
        "on_press",
        lambda seat, long, now: (seen.append(now), on_press(seat, long, now)),
    )
    released = table.clock() + 0.05  # a short press is told on its release
    table.press("S")  # the next sweep comes 0.1 s after the release
    assert seen == [pytest.approx(released)]
    assert table.table.last_press == pytest.approx(released)
    assert table.table.joined == ["S"]


def test_the_tables_view_is_built_once_a_step_also_when_a_press_opens_the_menu(table, monkeypatch):
    built = []
    view = Table.view
    monkeypatch.setattr(Table, "view", lambda self, now: (built.append(now), view(self, now))[1])
    steps = table.daemon.steps
    table.sim.press("E", 0.6)  # a long press in the empty lobby: the menu
    assert not built
    table.sweep()
    assert isinstance(table.daemon.mode, MenuMode)
    assert len(built) == table.daemon.steps - steps  # once a step, the press's step too
    table.sweep()
    assert len(built) == table.daemon.steps - steps


def test_the_modes_lead_from_the_table_to_the_menu_and_back(table):
    assert isinstance(table.daemon.mode, TableMode) and table.daemon.menu is None
    table.press("N", long=True)
    assert isinstance(table.daemon.mode, MenuMode) and table.daemon.menu is not None
    assert table.daemon.shown == table.daemon.menu.view()  # what every display shows
    table.press("N", long=True)  # "Back to the game"
    assert isinstance(table.daemon.mode, TableMode) and table.daemon.menu is None
    assert table.daemon.shown == table.daemon.view


def test_while_the_enrolment_runs_the_sweeps_are_its_own(tmp_path):
    from companion.board.registry import Registry

    table = FamilyTable(tmp_path / "state", registry=Registry(tmp_path / "registry.json"))
    try:
        table.press("W", long=True)
        while table.daemon.menu.item != "enrol":
            table.press("W")
        table.press("W", long=True)
        assert isinstance(table.daemon.mode, EnrolMode)
        version = table.table.tracker.version
        table.put("NW", "star-3")  # for the enrolment: the table's board stays as it was
        assert table.table.tracker.version == version
    finally:
        table.close()
