"""The settings menu driven with the seat buttons (gpiozero mock pins) on the simulated table:
what every display shows, in each language, what is saved, and what a game keeps."""

from __future__ import annotations

import json

import pytest

import companion.atomic
from companion.menu import IDLE_SECONDS, ITEMS
from companion.settings import FILE_NAME, SettingsStore
from tests.show.table import FamilyTable

SIDES = ("N", "E", "S", "W")


def go_to(table: FamilyTable, item: str, side: str = "S") -> None:
    while table.daemon.menu.item != item:
        table.press(side)


def item(table: FamilyTable, side: str) -> list[str]:
    """The menu item on a display: its name and its value (which may take two lines)."""
    texts = table.texts(side)  # the count, the title, the name, the value, the hint
    return [texts[2], " ".join(texts[3:-1])]


def saved(table: FamilyTable) -> dict:
    return json.loads((table.config.paths.state_dir / FILE_NAME).read_text())["settings"]


def test_a_long_press_in_the_empty_lobby_opens_the_menu_on_every_display(make):
    table = make()
    assert "Hold: settings" in table.texts("S")  # the lobby says how to get there
    table.press("E", long=True)
    assert table.daemon.menu is not None and table.table.joined == []
    for side in SIDES:
        texts = table.texts(side)
        assert texts[1] == "Settings" and "Back to the game" in texts and f"1/{len(ITEMS)}" in texts
    table.press("W")  # any seat's button steps through the items
    for side in SIDES:
        assert table.texts(side)[:4] == [f"2/{len(ITEMS)}", "Settings", "Language", "English"]


def test_once_someone_joined_a_long_press_starts_and_never_opens_the_menu(make):
    table = make()
    table.lay_start()
    table.press("S")
    table.press("N", long=True)
    assert table.daemon.menu is None and table.table.phase == "playing"
    table.press("N", long=True)  # in a game: undo (nothing to undo), not the menu
    assert table.daemon.menu is None and table.table.phase == "playing"


def test_a_child_leaves_with_the_same_long_press_and_nothing_changed(make):
    table = make()
    table.press("N", long=True)
    table.press("N", long=True)  # the first item is "Back to the game"
    assert table.daemon.menu is None
    assert "Hold: settings" in table.texts("N")
    assert not (table.config.paths.state_dir / FILE_NAME).exists()


def test_the_menu_closes_by_itself_when_nobody_presses(make):
    table = make()
    table.press("N", long=True)
    table.clock.advance(IDLE_SECONDS)
    table.sweep()
    assert table.daemon.menu is None and "Hold: settings" in table.texts("S")


@pytest.mark.parametrize(
    "lang, title, language, value",
    [
        ("it", "Impostazioni", "Lingua", "Italiano"),
        ("ru", "Настройки", "Язык", "Русский"),
        ("fr", "Réglages", "Langue", "Français"),
        ("en", "Settings", "Language", "English"),
    ],
)
def test_the_language_changes_at_once_on_every_display(make, lang, title, language, value):
    table = make()
    table.press("S", long=True)
    go_to(table, "language")
    table.press("S", long=True)  # English, Italian, Russian, French, and round to English
    while table.daemon.settings["language"] != lang:
        table.press("S", long=True)
    for side in SIDES:
        texts = table.texts(side)
        assert texts[1] == title and texts[2] == language and texts[3] == value, texts
    assert table.devices.sounds.language == lang
    assert saved(table) == ({} if lang == "en" else {"language": lang})


def test_each_item_shows_its_value_in_words_and_a_change_is_saved(make):
    table = make()
    table.press("S", long=True)
    go_to(table, "end")
    assert item(table, "N") == ["End of the game", "First to the finish wins"]
    table.press("N", long=True)
    assert item(table, "E") == ["End of the game", "Equal turns for all"]
    assert saved(table) == {"end": "equal"}
    go_to(table, "auto_end_seconds")
    table.press("W", long=True)
    assert item(table, "S") == ["End of a turn", "By itself after 5 s"]
    go_to(table, "mute")
    table.press("W", long=True)
    assert item(table, "S") == ["Sound", "Silent"] and table.devices.sounds.mute
    assert saved(table) == {"end": "equal", "auto_end_seconds": 5.0, "mute": True}
    # a restart keeps what the family chose
    table.close()
    again = make()
    assert (
        again.daemon.settings["end"] == "equal" and again.daemon.config.game.auto_end_seconds == 5
    )


def test_a_power_cut_in_the_middle_of_a_change_keeps_the_old_value(make, monkeypatch):
    table = make()
    table.press("S", long=True)
    go_to(table, "teams")
    table.press("S", long=True)
    assert saved(table) == {"teams": True}
    go_to(table, "own_bonus")

    def cut(*args):  # the new file is written, the power goes before it replaces the old
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(companion.atomic.os, "replace", cut)
    table.press("S", long=True)
    monkeypatch.undo()
    assert item(table, "S") == ["Own bonus squares", "No points (rulebook)"]
    table.close()
    again = make()  # the power comes back
    store = SettingsStore(again.config.paths.state_dir)
    assert store.problem is None and store.overrides == {"teams": True}
    assert again.daemon.settings["own_bonus"] is False and again.daemon.settings["teams"] is True


def test_a_new_game_takes_the_settings_and_a_game_in_progress_keeps_its_own(make):
    table = make()
    table.press("S", long=True)
    go_to(table, "end")
    table.press("S", long=True)  # equal turns
    go_to(table, "own_bonus")
    table.press("S", long=True)  # own bonus on
    go_to(table, "back")
    table.press("S", long=True)
    table.lay_start()
    table.press("S")
    table.press("N")
    table.press("N", long=True)
    game = table.table.game
    assert game is not None and game.options.end == "equal" and game.options.own_bonus
    # the settings change (the web companion can do it during a game): the game keeps its own
    table.daemon.change_setting("end", "first")
    table.daemon.change_setting("own_bonus", False)
    table.sweep()
    assert table.table.game.options.end == "equal" and table.table.game.options.own_bonus
    # and so does the same game after a restart: its rules are in its journal
    table.close()
    again = make()
    assert again.table.phase == "playing"
    assert again.table.game.options.end == "equal" and again.table.game.options.own_bonus
    assert again.daemon.config.game.options.end == "first"  # what the next game will take


def test_a_broken_settings_file_is_set_aside_and_said_on_the_displays(make, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / FILE_NAME).write_text("{ broken")
    table = make()
    assert (state / "settings-broken-1.json").read_text() == "{ broken"
    texts = " ".join(table.texts("N"))
    assert "set aside" in texts and "Problem" in texts


def test_after_every_turn_the_seats_say_hold_to_undo_for_a_few_seconds(make):
    from companion.game.table import UNDO_HINT_SECONDS

    table = make()
    table.lay_start()
    table.press("S")
    table.press("N")
    table.press("N", long=True)
    assert all("Hold: undo" not in table.texts(side) for side in SIDES)
    table.press("S")  # S swaps: a turn
    assert table.table.game.active == "N"
    assert "Hold: undo" in table.texts("S") and "Your turn" in table.texts("N")
    table.clock.advance(UNDO_HINT_SECONDS)
    table.sweep()
    assert "Hold: undo" not in table.texts("S") and "Turn: Red" in table.texts("S")


def archive_a_finished_game(state) -> dict[str, int]:
    """A game of S and N played to its end, archived as the table does when a lobby opens."""
    from companion.game.journal import Journal, start_record, turn_record
    from engine import Game
    from tests.engine.test_game import lay_run

    game = Game(["S", "N"])
    journal = Journal(state / "journal-1.jsonl")
    journal.append(start_record(game, {}))
    while not game.finished:
        before = len(game.moves)
        lay_run(game)
        for move in game.moves[before:]:
            if move.kind == "place":
                journal.append(turn_record(move.side, move.scoring.placed, move.scoring))
            else:
                journal.append({"type": "return", "tiles": sorted(map(str, move.returned))})
    journal.append({"type": "end", "ranking": list(game.ranking().order), "scores": game.scores})
    journal.append({"type": "new"})
    return game.scores


def test_the_lobby_shows_the_rules_in_force_and_the_last_games_ranking(make, tmp_path):
    from companion.show.screens.lobby import PAGE_SECONDS

    state = tmp_path / "state"
    state.mkdir()
    scores = archive_a_finished_game(state)
    table = make()
    table.press("S", long=True)
    go_to(table, "end")
    table.press("S", long=True)  # equal turns
    go_to(table, "own_bonus")
    table.press("S", long=True)
    go_to(table, "back")
    table.press("S", long=True)
    pages = []
    for _ in range(12):
        table.clock.advance(PAGE_SECONDS)
        table.sweep()
        pages.append(" ".join(table.texts("E")))
    assert any(p.startswith("Rules Equal turns, most points win") for p in pages), pages
    assert any(p.startswith("Rules Own bonus on") for p in pages), pages
    assert any("Hold: start, undo a turn" in p for p in pages), pages
    last = f"Last game {scores['S']} 1. Yellow {scores['N']} 2. Red"  # each score drawn first
    assert any(p.startswith(last) for p in pages), "\n".join(pages)
    assert any("Press your button to join" in p and "Hold: settings" in p for p in pages)
    table.press("E")  # someone joined: the lobby stays on the join page
    for _ in range(3):
        table.clock.advance(PAGE_SECONDS)
        table.sweep()
        assert "You play no. 1" in table.texts("E")


def test_the_daemon_logs_the_effective_settings_at_start(make, caplog):
    import logging

    table = make()
    table.daemon.change_setting("language", "it")
    table.close()
    with caplog.at_level(logging.INFO, "setup.daemon"):
        make()
    line = next(r.getMessage() for r in caplog.records if "table settings" in r.getMessage())
    assert "language=it" in line and "end=first" in line and "mute=off" in line
    assert "chosen on the table: language" in line
