"""The TOML configuration: defaults, the documented example, and errors with their line."""

from pathlib import Path

import pytest

import companion.config as config_module
from companion.board.tracker import Tracker
from companion.config import Config, ConfigError, load_config, parse_config
from engine import SQUARES, Board, Options
from tests.helpers import registry, snap

EXAMPLE = Path(__file__).parents[1] / "docs" / "config.example.toml"


def test_defaults():
    config = Config.default()
    assert config.colours == {"N": "red", "E": "purple", "S": "yellow", "W": "green"}
    assert config.hub.readers == SQUARES and config.hub.port == "/dev/setup-hub"
    assert config.game.options == Options() and config.game.auto_end_seconds == 0
    assert config.paths.journal == Path("/var/lib/setup-companion/journal.jsonl")
    assert config.playing_sides == ("N", "E", "S", "W")


def test_the_documented_example_is_the_default():
    config = load_config(EXAMPLE)
    assert config.source == EXAMPLE
    assert config == Config(source=EXAMPLE)


def test_no_file_at_the_default_path_is_the_default(tmp_path, monkeypatch):
    monkeypatch.setattr(config_module, "DEFAULT_PATH", tmp_path / "missing.toml")
    assert load_config(None) == Config.default()
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml")


def test_a_partial_file_keeps_the_other_defaults():
    config = parse_config(
        """
[seats.W]
colour = "red"
[seats.N]
colour = "green"
enabled = false
[game]
teams = true
language = "it"
options = { end = "equal", own_bonus = true }
[hub]
readers = { "0" = "N2", "1" = "N1" }
"""
    )
    assert config.colours == {"N": "green", "E": "purple", "S": "yellow", "W": "red"}
    assert config.playing_sides == ("E", "S", "W")
    assert config.game.teams and config.game.language == "it"
    assert config.game.options == Options(end="equal", own_bonus=True)
    assert config.hub.readers[:3] == ("N2", "N1", "E1")
    assert config.seats["W"].button_pin == 19 and config.sound.volume == 0.5


def test_the_reader_map_decides_the_square():
    config = parse_config('[hub]\nreaders = { "0" = "NW", "8" = "N1" }\n')
    tracker = Tracker(registry(), config.hub.readers, config.tracker)
    tracker.rebase(Board(), 0.0)
    tracker.update(snap(N1="star-3"), 0.1)  # reader 0, wired under NW
    assert tracker.board.to_mapping() == {"NW": ["star-3"]}


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ("[game]\nlanguage = 'de'\n", 2, "language 'de' is not one of en, it, ru, fr"),
        ("[seats.N]\ncolour = 'red'\n[seats.E]\ncolour = 'red'\n", 4, "seats N and E are both red"),
        ("[seats.S]\ncolour = 'blue'\n", 2, "colour 'blue' is not one of"),
        ("[seats.X]\ncolour = 'red'\n", 1, "'X' is not a side"),
        ("[seats.N]\nbutton = 3\n", 2, "unknown setting 'button' in [seats.N]"),
        ("[seats.N]\nbutton_pin = 40\n", 2, "GPIO number 0..27"),
        ("[seats.N]\nbutton_pin = 'PIN5'\n", 2, "not a pin"),
        ("\n[seats.E]\nbutton_pin = 18\n", 3, "pin 18 is used twice"),
        ("[seats.N]\ndisplay = 'oled'\n", 2, "must be a table"),
        ("[hub]\nport = '/dev/x'\nreaders = ['N1', 'N2']\n", 3, "each of the 12 readers"),
        ("[hub]\nreaders = { '12' = 'N1' }\n", 2, "not a reader number"),
        (
            "[hub]\nreaders = ['N1','N1','E1','E2','S1','S2','W1','W2','NW','NE','SW','SE']\n",
            2,
            "two readers",
        ),
        ("[sound]\nvolume = 2\n", 2, "between 0 and 1"),
        ("[sound]\nmute = 'no'\n", 2, "true or false"),
        ("[game.options]\nown_bonus = 3\n", 2, "own_bonus must be true or false"),
        ("[game]\noptions = { end = 'later' }\n", 2, "end must be one of first, equal"),
        ("[game.options]\n\nspeed = 'fast'\n", 3, "unknown rule option 'speed'"),
        ("[game]\nlong_press = 0\n", 2, "between 0.2 and 10"),
        ("[tracker]\nlift_sweeps = 2.5\n", 2, "whole number"),
        ("colour = 'red'\n", 1, "unknown setting 'colour'"),
        ("[game\nteams = true\n", 1, "not valid TOML"),
        ("[game]\nteams = true\nteams = false\n", 3, "not valid TOML"),
    ],
)
def test_an_invalid_file_names_the_line_and_the_reason(tmp_path, text, line, reason):
    error = refused(tmp_path, text)
    assert error.line == line
    assert reason in str(error)
    assert str(error).startswith(f"{tmp_path / 'config.toml'}, line {line}: ")


def refused(tmp_path, text: str) -> ConfigError:
    """The error `load_config` gives for a config.toml holding `text`."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    return caught.value


# -- the declared bounds (issue 11 and 17) ----------------------------------------------------
DISPLAY = "[seats.N]\ndisplay = { display = 'ssd1306', i2c_port = 22, %s }\n"


@pytest.mark.parametrize(
    "text, line, reason",
    [
        (DISPLAY % "width = 'wide'", 2, "seats.N.display: display width must be a whole number"),
        (DISPLAY % "width = 20000", 2, "the ssd1306 driver has no 20000 x 64 mode"),
        (DISPLAY % "height = 20", 2, "the ssd1306 driver has no 128 x 20 mode"),
        ("[seats.S]\ndisplay = { display = 'st7735' }\n", 2, "display driver must be one of"),
        ("[seats.S]\n\ndisplay = { display = 'dummy', rotate = 4 }\n", 3, "rotate must be 0, 1"),
        ("[seats.S]\ndisplay = { display = 'dummy', colour = 'red' }\n", 2, "unknown display"),
        ("[game]\nauto_end_seconds = 0.5\n", 2, "must be 0 (off) or at least 2"),
        (
            "[tracker]\nlift_seconds = 3.0\n[game]\nauto_end_seconds = 2.5\n",
            4,
            "at least 3, not 2.5: the readers need tracker.lift_seconds (3 s)",
        ),
        ("[hub]\nport = 'socket://localhost:7000'\n", 2, "must be the hub's device path"),
        ("[hub]\nport = 'loop://'\n", 2, "must be the hub's device path"),
        ("[hub]\nport = 'ttyACM0'\n", 2, "must be the hub's device path"),
        ("[hub]\nport = '/dev/pts/3'\n", 2, "is a pseudo-terminal"),
        ("[paths]\nstate_dir = 'state'\n", 2, "must be an absolute path"),
    ],
)
def test_values_the_hardware_cannot_use_are_refused_at_load(tmp_path, text, line, reason):
    error = refused(tmp_path, text)
    assert error.line == line
    assert reason in str(error)


def test_values_the_hardware_can_use_load():
    config = parse_config(
        "[seats.N]\ndisplay = { display = 'sh1106', width = 128, height = 128, contrast = 80 }\n"
        "[game]\nauto_end_seconds = 2\n[hub]\nport = '/dev/ttyACM0'\n"
    )
    display = config.seats["N"].display
    assert (display.driver, display.width, display.height, display.contrast) == (
        "sh1106",
        128,
        128,
        80,
    )
    assert config.game.auto_end_seconds == 2.0 and config.hub.port == "/dev/ttyACM0"
    assert parse_config("[game]\nauto_end_seconds = 0\n").game.auto_end_seconds == 0


def test_every_setting_is_declared_once_and_documented():
    """The reader knows only what the sections declare, and the example shows all of it."""
    example = EXAMPLE.read_text()
    sections = {
        "hub": config_module.HubConfig,
        "sound": config_module.SoundConfig,
        "game": config_module.GameConfig,
        "tracker": config_module.TrackerConfig,
        "paths": config_module.PathsConfig,
        "seats.N": config_module.SeatConfig,
    }
    for section, cls in sections.items():
        declared = config_module._settings(cls)
        assert declared, section
        for key in declared:
            assert config_module.find_line(example, (*section.split("."), key)) is not None, key
    assert not hasattr(Config, "square_of_reader")


def test_one_list_of_languages():
    from companion.show import i18n

    assert i18n.LANGUAGES is config_module.LANGUAGES
    catalogues = {p.stem for p in Path(i18n.__file__).parent.glob("*.json")}
    assert catalogues == set(config_module.LANGUAGES)
