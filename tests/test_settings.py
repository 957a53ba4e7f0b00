"""The table settings store: declared once, validated, saved atomically, over config.toml."""

from __future__ import annotations

import json
import os

import pytest

import companion.atomic
from companion.config import parse_config
from companion.settings import (
    FILE_NAME,
    KEYS,
    SETTINGS,
    Settings,
    SettingsError,
    SettingsStore,
    label,
    setting,
    words,
)
from companion.show.i18n import LANGUAGES, Catalogue


@pytest.fixture
def config(tmp_path):
    return parse_config(
        f'[game]\nlanguage = "fr"\nauto_end_seconds = 7\n[paths]\nstate_dir = "{tmp_path}"\n'
    )


def test_effective_settings_are_the_config_without_a_file(config, tmp_path):
    store = SettingsStore(tmp_path)
    settings = store.effective(config)
    assert settings["language"] == "fr" and settings["auto_end_seconds"] == 7.0
    assert settings["end"] == "first" and settings["teams"] is False
    assert tuple(settings) == KEYS and store.problem is None
    assert settings.apply_to(config) == config
    assert not (tmp_path / FILE_NAME).exists()


def test_a_change_is_saved_and_wins_over_the_config(config, tmp_path):
    store = SettingsStore(tmp_path)
    settings = store.apply("end", "equal", config)
    settings = store.apply("teams", True, config)
    assert settings["end"] == "equal" and settings["teams"] is True
    data = json.loads((tmp_path / FILE_NAME).read_text())
    assert data["settings"] == {"end": "equal", "teams": True}
    again = SettingsStore(tmp_path).effective(config)
    assert again == settings
    effective = again.apply_to(config)
    assert effective.game.options.end == "equal" and effective.game.teams is True
    assert effective.game.language == "fr" and effective.hub == config.hub


def test_choosing_the_config_value_again_leaves_it_to_the_config(config, tmp_path):
    store = SettingsStore(tmp_path)
    store.apply("language", "ru", config)
    store.apply("language", "fr", config)
    assert json.loads((tmp_path / FILE_NAME).read_text())["settings"] == {}


@pytest.mark.parametrize(
    "key, value",
    [("language", "de"), ("teams", "yes"), ("volume", 0.3), ("volume", True), ("colour", "red")],
)
def test_a_value_that_is_not_allowed_changes_nothing(config, tmp_path, key, value):
    store = SettingsStore(tmp_path)
    with pytest.raises(SettingsError) as caught:
        store.apply(key, value, config)
    assert key in str(caught.value) and "Traceback" not in str(caught.value)
    assert store.effective(config) == Settings.of(config)
    assert not (tmp_path / FILE_NAME).exists()


@pytest.mark.parametrize(
    "text, reason",
    [
        ("{not json", "is not JSON"),
        ('{"players": ["N"]}', "is not a table settings file"),
        ('{"kind": "setup-companion table settings", "v": 9, "settings": {}}', "version 9"),
        (
            '{"kind": "setup-companion table settings", "v": 1, "settings": {"volume": 7}}',
            "bad setting: volume",
        ),
    ],
)
def test_a_broken_or_foreign_file_is_set_aside_with_a_sentence(config, tmp_path, text, reason):
    (tmp_path / FILE_NAME).write_text(text)
    store = SettingsStore(tmp_path)
    assert store.effective(config) == Settings.of(config)
    assert reason in store.problem and "settings-broken-1.json" in store.problem
    assert (tmp_path / "settings-broken-1.json").read_text() == text
    assert not (tmp_path / FILE_NAME).exists()
    store.apply("mute", True, config)  # the table can be set up again at once
    assert SettingsStore(tmp_path).effective(config)["mute"] is True


def test_a_power_cut_while_saving_keeps_the_old_settings(config, tmp_path, monkeypatch):
    store = SettingsStore(tmp_path)
    store.apply("language", "it", config)

    def cut(*args):  # the temporary file is on the card; the power goes before the rename
        raise OSError("power cut")

    monkeypatch.setattr(companion.atomic.os, "replace", cut)
    with pytest.raises(OSError):
        store.apply("language", "ru", config)
    monkeypatch.undo()
    assert store.effective(config)["language"] == "it"  # nothing changed in memory either
    after = SettingsStore(tmp_path)
    assert after.problem is None and after.effective(config)["language"] == "it"
    assert [p.name for p in tmp_path.iterdir()] == [FILE_NAME] or all(
        p.name == FILE_NAME or p.name.endswith(".tmp") for p in tmp_path.iterdir()
    )


def test_stepping_through_the_values_wraps_and_finds_the_next_bigger():
    auto = setting("auto_end_seconds")
    assert auto.after(7.0) == 10.0 and auto.after(30.0) == 0.0 and auto.after(99.0) == 0.0
    assert setting("language").after("fr") == "en"
    assert setting("teams").after(False) is True


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_value_has_words_in_every_language(lang):
    texts = Catalogue.load(lang)
    for declared in SETTINGS:
        assert label(declared.key) in texts.texts, (lang, declared.key)
        for value in declared.choices:
            key, args = words(declared.key, value)
            assert key in texts.texts, (lang, key)
            said = texts.text(key, **args)
            assert said and "{" not in said and "_" not in said


def test_settings_values_print_and_repr():
    settings = Settings.of(parse_config(""))
    assert eval(repr(settings), {"Settings": Settings}) == settings
    assert "language=en" in str(settings) and "mute=off" in str(settings)
    assert os.sep not in str(settings)
