"""The companion's configuration: one TOML file, every value with a default.

`load_config(path)` reads `/etc/setup-companion/config.toml` (or the given file) and checks
every value; an invalid file raises `ConfigError` whose message names the line and the reason,
so a hobbyist can fix it from the log alone. See docs/config.example.toml for every setting.
A missing file (with no path given) is the default configuration: the companion must boot.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import COLOURS, SIDES, SQUARES, Options, OptionsError
from engine import DEFAULT_COLOURS as _RULEBOOK_COLOURS

DEFAULT_PATH = Path("/etc/setup-companion/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/setup-companion")
LANGUAGES = ("en", "it", "ru", "fr")
#: N red, E purple, S yellow, W green (the colours are the rulebook's, see engine.seating).
DEFAULT_COLOURS: dict[str, str] = dict(_RULEBOOK_COLOURS)
#: BCM pin numbers of the wiring in docs (buttons to ground, internal pull-ups).
DEFAULT_BUTTON_PINS = {"N": 5, "E": 6, "S": 13, "W": 19}
DEFAULT_BUZZER_PIN = 18  # a hardware PWM pin
#: Each seat's OLED on its own channel of the PCA9548 I2C multiplexer (systemd/config.txt).
DEFAULT_I2C_PORTS = {"N": 22, "E": 23, "S": 24, "W": 25}

# gpiozero's pin spellings: 17, "GPIO17", "BCM17", "BOARD11", "J8:11", "WPI0".
_PIN_TEXT = re.compile(r"(?:GPIO|BCM|BOARD|WPI)\d{1,2}|J8:\d{1,2}", re.IGNORECASE)


class ConfigError(ValueError):
    """An invalid configuration; `line` is the line of the file it is about (or None)."""

    def __init__(self, message: str, line: int | None = None, path: Path | None = None):
        where = f"{path}, line {line}: " if path and line else f"{path}: " if path else ""
        where = where or (f"line {line}: " if line else "")
        super().__init__(where + message)
        self.line = line
        self.path = path
        self.reason = message


Pin = int | str


@dataclass(frozen=True)
class SeatConfig:
    """One side of the table: its colour, its button and its display."""

    side: str
    colour: str
    button_pin: Pin | None  # None: this seat has no button
    display: Mapping[str, Any]  # passed as is to hardware.display.open_display
    enabled: bool = True  # False: no hardware on this side (nobody can sit there)


@dataclass(frozen=True)
class HubConfig:
    port: str = "/dev/setup-hub"
    #: reader number -> square; reader i sits under readers[i].
    readers: tuple[str, ...] = SQUARES


@dataclass(frozen=True)
class SoundConfig:
    buzzer_pin: Pin | None = DEFAULT_BUZZER_PIN
    volume: float = 0.5  # 0..1
    mute: bool = False
    speech: bool = False


@dataclass(frozen=True)
class GameConfig:
    options: Options = field(default_factory=Options)
    #: four players play as two teams (the join order alternates the teams).
    teams: bool = False
    language: str = "en"
    #: end a turn by itself after this many seconds of a stable legal placement (0: off).
    auto_end_seconds: float = 0.0
    #: a press held at least this long is a long press (start, undo).
    long_press: float = 1.0


@dataclass(frozen=True)
class TrackerConfig:
    """How much evidence the board tracker wants before it believes a change (docs/daemon.md).

    The defaults suit MFRC522 readers sweeping ten times a second, where the top tile of a
    stack is read in about a third of the sweeps."""

    #: a tile of the current placement is lifted after this long unseen, with at least
    #: `lift_sweeps` readings of its square that are clearly without it.
    lift_seconds: float = 2.0
    lift_sweeps: int = 5
    #: a tile expected to leave (after an undo) is gone after this long unseen.
    leave_seconds: float = 2.0
    #: sightings in the last `window_sweeps` sweeps that prove a tile lies on another square.
    window_sweeps: int = 10
    move_sightings: int = 6
    #: a new tile seen on two squares lies where it was seen this many more times.
    decide_lead: int = 2
    #: a new tile seen on two squares and then not at all is forgotten after this long
    #: (a tile lying across two squares is seen on both: it stays a problem while seen).
    pending_seconds: float = 2.0
    #: an unknown tag is shown until it has not been seen for this long.
    unknown_seconds: float = 3.0


@dataclass(frozen=True)
class PathsConfig:
    state_dir: Path = DEFAULT_STATE_DIR
    #: the journal somewhere else than in the state dir (the demo's --journal)
    journal_file: Path | None = None

    @property
    def journal(self) -> Path:
        return self.journal_file or self.state_dir / "journal.jsonl"

    @property
    def registry(self) -> Path:
        return self.state_dir / "registry.json"


def _default_seats() -> dict[str, SeatConfig]:
    return {side: _default_seat(side) for side in SIDES}


def _default_seat(side: str) -> SeatConfig:
    display = {
        "display": "ssd1306",
        "interface": "i2c",
        "i2c_port": DEFAULT_I2C_PORTS[side],
        "i2c_address": "0x3C",
        "width": 128,
        "height": 64,
    }
    return SeatConfig(side, DEFAULT_COLOURS[side], DEFAULT_BUTTON_PINS[side], display)


@dataclass(frozen=True)
class Config:
    seats: Mapping[str, SeatConfig] = field(default_factory=_default_seats)
    hub: HubConfig = field(default_factory=HubConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    game: GameConfig = field(default_factory=GameConfig)
    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)
    source: Path | None = None  # the file it was read from

    @classmethod
    def default(cls) -> Config:
        return cls()

    @property
    def colours(self) -> dict[str, str]:
        """side -> colour for all four sides."""
        return {side: seat.colour for side, seat in self.seats.items()}

    @property
    def playing_sides(self) -> tuple[str, ...]:
        """The sides that have a seat (a button and a display)."""
        return tuple(side for side, seat in self.seats.items() if seat.enabled)

    def square_of_reader(self, reader: int) -> str:
        return self.hub.readers[reader]


def load_config(path: str | Path | None = None) -> Config:
    """Reads and checks a config file; None reads DEFAULT_PATH if it exists."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config.default()
        path = DEFAULT_PATH
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError("the file does not exist", path=path) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read it: {exc}", path=path) from exc
    return parse_config(text, path)


def parse_config(text: str, path: Path | None = None) -> Config:
    """Checks the TOML text of a config file; errors name the line of the bad key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"at line (\d+)", str(exc))
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise ConfigError(f"not valid TOML: {reason}", line, path) from exc
    try:
        return _Reader(data).config(path)
    except _Invalid as exc:
        raise ConfigError(exc.reason, exc.line(text), path) from None


# -- checking the values ----------------------------------------------------------------------
class _Invalid(Exception):
    def __init__(self, keys: tuple[str, ...], reason: str, *others: tuple[str, ...]) -> None:
        super().__init__(reason)
        self.keys = keys
        self.reason = reason
        self.others = others  # other keys the error is about, if `keys` is not in the file

    def line(self, text: str) -> int | None:
        for keys in (self.keys, *self.others):
            line = find_line(text, keys)
            if line is not None:
                return line
        return None


_SECTIONS = ("seats", "hub", "sound", "game", "tracker", "paths")
_SEAT_KEYS = ("colour", "button_pin", "display", "enabled")
_MISSING = object()


class _Reader:
    """Takes the parsed TOML apart key by key, naming each bad key with its dotted path."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def config(self, path: Path | None) -> Config:
        for key in self.data:
            if key not in _SECTIONS:
                raise _Invalid(
                    (key,), f"unknown setting {key!r}; the sections are " + ", ".join(_SECTIONS)
                )
        seats = self.seats()
        hub = self.hub()
        sound = self.sound()
        game = self.game()
        tracker = self.tracker()
        paths = PathsConfig(Path(self.get(("paths", "state_dir"), str, str(DEFAULT_STATE_DIR))))
        self.known(("paths",), ("state_dir",))
        self.check_pins(seats, sound)
        return Config(seats, hub, sound, game, tracker, paths, path)

    # -- helpers ------------------------------------------------------------------------------
    def table(self, keys: tuple[str, ...]) -> dict[str, Any]:
        node: Any = self.data
        for i, key in enumerate(keys):
            node = node.get(key, {})
            if not isinstance(node, dict):
                raise _Invalid(keys[: i + 1], f"{'.'.join(keys[: i + 1])} must be a table")
        return node

    def known(self, keys: tuple[str, ...], allowed: tuple[str, ...]) -> None:
        for key in self.table(keys):
            if key not in allowed:
                name = ".".join(keys)
                raise _Invalid(
                    keys + (key,),
                    f"unknown setting {key!r} in [{name}]; known: {', '.join(allowed)}",
                )

    def get(self, keys: tuple[str, ...], kind: type | tuple[type, ...], default: Any) -> Any:
        value = self.table(keys[:-1]).get(keys[-1], _MISSING)
        if value is _MISSING:
            return default
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # TOML integers are fine where a number is wanted; booleans are not numbers here.
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
            raise _Invalid(keys, f"{'.'.join(keys)} must be {names}, not {value!r}")
        return value

    def number(self, keys: tuple[str, ...], default: float, low: float, high: float) -> float:
        value = self.get(keys, float, default)
        if not low <= value <= high:
            raise _Invalid(
                keys, f"{'.'.join(keys)} must be between {low:g} and {high:g}, not {value:g}"
            )
        return value

    # -- sections -----------------------------------------------------------------------------
    def seats(self) -> dict[str, SeatConfig]:
        seats = _default_seats()
        for side in self.table(("seats",)):
            if side not in SIDES:
                raise _Invalid(
                    ("seats", side), f"{side!r} is not a side of the table; sides are N, E, S, W"
                )
            keys = ("seats", side)
            self.table(keys)
            self.known(keys, _SEAT_KEYS)
            colour = self.get(keys + ("colour",), str, seats[side].colour)
            if colour not in COLOURS:
                raise _Invalid(
                    keys + ("colour",), f"colour {colour!r} is not one of {', '.join(COLOURS)}"
                )
            pin = self.pin(keys + ("button_pin",), seats[side].button_pin)
            display = self.get(keys + ("display",), dict, None)
            display = dict(seats[side].display) if display is None else display
            enabled = self.get(keys + ("enabled",), bool, True)
            seats[side] = SeatConfig(side, colour, pin, display, enabled)
        used: dict[str, str] = {}
        for side, seat in seats.items():
            if seat.colour in used:
                raise _Invalid(
                    ("seats", side, "colour"),
                    f"seats {used[seat.colour]} and {side} are both {seat.colour}",
                )
            used[seat.colour] = side
        if sum(seat.enabled for seat in seats.values()) < 2:
            raise _Invalid(("seats",), "at least two seats must be enabled to play")
        return seats

    def pin(self, keys: tuple[str, ...], default: Pin | None) -> Pin | None:
        value = self.get(keys, (int, str), default)
        if isinstance(value, int) and not 0 <= value <= 27:
            raise _Invalid(keys, f"{'.'.join(keys)} must be a GPIO number 0..27, not {value}")
        if isinstance(value, str):
            if value.lower() == "none":
                return None
            if not _PIN_TEXT.fullmatch(value):
                raise _Invalid(
                    keys, f'{".".join(keys)}: {value!r} is not a pin such as 17 or "GPIO17"'
                )
        return value

    def check_pins(self, seats: Mapping[str, SeatConfig], sound: SoundConfig) -> None:
        owners: dict[str, tuple[str, ...]] = {}
        uses = [
            (("seats", s.side, "button_pin"), s.button_pin) for s in seats.values() if s.enabled
        ]
        uses.append((("sound", "buzzer_pin"), sound.buzzer_pin))
        for keys, pin in uses:
            if pin is None:
                continue
            name = _pin_name(pin)
            if name in owners:
                first = ".".join(owners[name])
                reason = f"pin {pin} is used twice ({first} and {'.'.join(keys)})"
                raise _Invalid(keys, reason, owners[name])
            owners[name] = keys

    def hub(self) -> HubConfig:
        self.known(("hub",), ("port", "readers"))
        port = self.get(("hub", "port"), str, HubConfig.port)
        readers = self.get(("hub", "readers"), (list, dict), None)
        if readers is None:
            return HubConfig(port)
        keys = ("hub", "readers")
        if isinstance(readers, dict):  # {"0" = "N1", ...}: only the readers that differ
            mapping = list(SQUARES)
            for reader, square in readers.items():
                if not (reader.isdigit() and 0 <= int(reader) < len(SQUARES)):
                    raise _Invalid(
                        keys + (reader,), f"reader {reader!r} is not a reader number 0..11"
                    )
                mapping[int(reader)] = square
            readers = mapping
        if len(readers) != len(SQUARES):
            raise _Invalid(
                keys,
                f"hub.readers must name the square of each of the 12 readers, not {len(readers)}",
            )
        for square in readers:
            if square not in SQUARES:
                raise _Invalid(keys, f"{square!r} is not a square; squares are {' '.join(SQUARES)}")
        if len(set(readers)) != len(readers):
            twice = next(sq for sq in readers if readers.count(sq) > 1)
            raise _Invalid(keys, f"square {twice} has two readers in hub.readers")
        return HubConfig(port, tuple(readers))

    def sound(self) -> SoundConfig:
        self.known(("sound",), ("buzzer_pin", "volume", "mute", "speech"))
        return SoundConfig(
            self.pin(("sound", "buzzer_pin"), DEFAULT_BUZZER_PIN),
            self.number(("sound", "volume"), SoundConfig.volume, 0.0, 1.0),
            self.get(("sound", "mute"), bool, False),
            self.get(("sound", "speech"), bool, False),
        )

    def game(self) -> GameConfig:
        known = ("options", "teams", "language", "auto_end_seconds", "long_press")
        self.known(("game",), known)
        options = self.table(("game", "options"))
        try:
            parsed = Options.from_mapping(options)
        except (OptionsError, TypeError) as exc:
            name = re.search(r"option '?(\w+)", str(exc))
            key = name.group(1) if name and name.group(1) in options else None
            raise _Invalid(("game", "options") + ((key,) if key else ()), str(exc)) from None
        language = self.get(("game", "language"), str, "en")
        if language not in LANGUAGES:
            raise _Invalid(
                ("game", "language"), f"language {language!r} is not one of {', '.join(LANGUAGES)}"
            )
        return GameConfig(
            parsed,
            self.get(("game", "teams"), bool, False),
            language,
            self.number(("game", "auto_end_seconds"), 0.0, 0.0, 3600.0),
            self.number(("game", "long_press"), GameConfig.long_press, 0.2, 10.0),
        )

    def tracker(self) -> TrackerConfig:
        defaults = TrackerConfig()
        names = tuple(defaults.__dataclass_fields__)
        self.known(("tracker",), names)
        values: dict[str, Any] = {}
        for name in names:
            default = getattr(defaults, name)
            value = self.number(
                ("tracker", name), default, 0.05 if isinstance(default, float) else 1, 3600.0
            )
            values[name] = type(default)(value)
            if isinstance(default, int) and value != int(value):
                raise _Invalid(
                    ("tracker", name), f"tracker.{name} must be a whole number, not {value:g}"
                )
        return TrackerConfig(**values)


_KIND_NAMES = {int: "a whole number", str: "text", bool: "true or false", float: "a number",
               list: "a list", dict: "a table"}  # fmt: skip


def _pin_name(pin: Pin) -> str:
    text = str(pin).upper()
    for prefix in ("GPIO", "BCM"):
        if text.startswith(prefix):
            return str(int(text[len(prefix) :]))
    return text


# -- finding a key's line ---------------------------------------------------------------------
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")


def _split_key(text: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in text.split("."))


def find_line(text: str, keys: tuple[str, ...]) -> int | None:
    """The line (1-based) where the dotted key `keys` is written, or the nearest enclosing
    table's line; None if the text does not mention it at all (a default was wrong)."""
    best: tuple[int, int] | None = None  # (how many keys matched, line)
    table: tuple[str, ...] = ()
    inline: tuple[str, ...] | None = None  # an open inline table spanning lines
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table, inline = _split_key(header.group(1)), None
            best = _better(best, table, keys, number)
            continue
        match = _KEY.match(line)
        if match:
            full = table + _split_key(match.group(1))
            best = _better(best, full, keys, number)
            if "{" in line:
                inline = full
        if inline is not None:
            for name in re.findall(r"([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=", line):
                best = _better(best, inline + (name.strip('"'),), keys, number)
            if "}" in line:
                inline = None
    return None if best is None else best[1]


def _better(best: tuple[int, int] | None, found: tuple[str, ...], keys: tuple[str, ...], line: int):
    if found != keys[: len(found)]:
        return best
    if best is None or len(found) > best[0]:
        return (len(found), line)
    return best
