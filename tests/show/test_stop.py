"""Stopping a game part-way with the seat buttons (gpiozero mock pins, simulated time): two
buttons held together ask on every display, a long press stops it, and the game is kept in
the archive unfinished with its scores; a lobby opens, and a restart does not resume it."""

from __future__ import annotations

from companion.daemon.modes import TableMode
from companion.game.history import archives, last_game
from companion.game.journal import Journal
from companion.game.replay import replay_journal
from companion.game.stopping import QUESTION_SECONDS
from companion.game.view import Phase
from tests.show.table import LONG_PRESS, SWEEP, FamilyTable

SIDES = ("N", "E", "S", "W")


def started(table: FamilyTable) -> None:
    """N and S play; N has laid star-2 on SW and scored 2, S is to play."""
    for square, tile in (("NW", "star-1"), ("NE", "heart-5"), ("SW", "club-9"), ("SE", "spade-7")):
        table.put(square, tile)
    table.press("N")
    table.press("S")
    table.press("N", long=True)
    assert table.table.phase == Phase.PLAYING
    table.put("SW", "star-2")
    table.press("N")
    assert table.table.game.scores == {"N": 2, "S": 0}


def hold_together(table: FamilyTable, *sides: str) -> None:
    """Two (or more) fingers hold their seats' buttons down together, then let go."""
    pins = [table.pins.pin(table.config.seats[side].button_pin) for side in sides]
    for pin in pins:
        pin.drive_low()
    table.clock.advance(LONG_PRESS + 0.1)
    for pin in pins:
        pin.drive_high()
    table.sweep(1)


def records(table: FamilyTable, name: str = "journal.jsonl") -> list[str]:
    return [r["type"] for r in Journal(table.config.paths.state_dir / name).records()]


def test_two_buttons_held_together_ask_and_a_long_press_stops_the_game(make):
    table = make()
    started(table)
    hold_together(table, "E", "W")  # any two seats: here two that do not even play
    assert table.table.phase == Phase.PLAYING  # nothing happened yet: a question
    for side in SIDES:
        texts = table.texts(side)
        assert texts[0] == "Stop this game?" and "Hold: stop it" in texts
    table.press("S", long=True)
    assert table.table.phase == Phase.LOBBY and isinstance(table.daemon.mode, TableMode)
    journal = table.config.paths.journal
    assert records(table) == []  # the live journal starts again; the game is archived
    (archived,) = archives(journal)
    assert [r["type"] for r in Journal(archived).records()][-2:] == ["stop", "new"]
    (played,) = replay_journal(archived).games
    assert played.stopped and not played.game.finished and played.game.scores == {"N": 2, "S": 0}
    assert played.differences == []
    last = last_game(journal)
    assert last is not None and last.stopped and last.winner is None
    assert dict(last.ranking) == {"N": 2, "S": 0}

    table.close()  # a restart: the lobby, never the stopped game again
    again = make()
    assert again.table.phase == Phase.LOBBY and again.table.game is None


def test_a_short_press_or_a_while_without_one_plays_on(make):
    table = make()
    started(table)
    hold_together(table, "N", "S")
    assert table.texts("N")[0] == "Stop this game?"
    table.press("E")  # play on
    assert table.table.phase == Phase.PLAYING and "Stop this game?" not in table.texts("N")
    hold_together(table, "N", "S")
    assert table.texts("E")[0] == "Stop this game?"
    table.sweep(int(QUESTION_SECONDS / SWEEP) + 2)  # nobody answers: it goes away
    assert table.table.phase == Phase.PLAYING and "Stop this game?" not in table.texts("E")
    assert table.table.game.scores == {"N": 2, "S": 0}
    assert "stop" not in records(table)


def test_one_long_press_alone_is_still_the_undo(make):
    table = make()
    started(table)
    table.press("S", long=True)
    assert table.table.phase == Phase.PLAYING
    assert table.table.game.scores == {"N": 0, "S": 0}  # N's turn taken back
    assert records(table)[-1] == "undo"


def test_a_power_cut_between_the_stop_and_the_new_lobby_still_opens_the_lobby(make):
    table = make()
    started(table)
    table.close()
    journal = Journal(table.config.paths.journal)
    journal.append({"type": "stop", "by": "table", "scores": {"N": 2, "S": 0}})
    again = make()  # the power went before the `new` record
    assert again.table.phase == Phase.LOBBY
    (archived,) = archives(again.config.paths.journal)
    (played,) = replay_journal(archived).games
    assert played.stopped and played.closed
