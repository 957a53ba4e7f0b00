"""The companion's configuration: one TOML file, every value with a default.

`load_config(path)` reads `/etc/setup-companion/config.toml` (or the given file) and checks
every value; an invalid file raises `ConfigError` whose message names the line and the reason,
so a hobbyist can fix it from the log alone. See docs/config.example.toml for every setting.
A missing file (with no path given) is the default configuration: the companion must boot.

Each setting is declared once, Mopidy-style: a section is a frozen dataclass whose fields
are `setting(default, kind=..., low=..., high=..., choices=..., parse=..., family=...,
rule=...)`, and one loop (`_read_section`) reads every section from the file with what its
fields declare. `family` marks what the family may change on the table itself (the seat
buttons' menu, the web companion: `companion.settings` lists them from here, in the order
they are declared) and `rule` what is a rule of a game (the lobby shows it). What is about
more than one value (a pin used twice, two seats of one colour, the auto-end floor) is
checked after, in `_config`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion.atomic import read_file  # the boundary every file read goes through
from engine import COLOURS, SIDES, SQUARES, Options, OptionsError
from engine import DEFAULT_COLOURS as _RULEBOOK_COLOURS
from hardware.display import DisplayError, DisplaySettings

DEFAULT_PATH = Path("/etc/setup-companion/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/setup-companion")
#: the languages of the displays and the spoken words (a catalogue each in show/i18n)
LANGUAGES: tuple[str, ...] = ("en", "it", "ru", "fr")
#: N red, E purple, S yellow, W green (the colours are the rulebook's, see engine.seating).
DEFAULT_COLOURS: dict[str, str] = dict(_RULEBOOK_COLOURS)
#: BCM pin numbers of the wiring in docs (buttons to ground, internal pull-ups).
DEFAULT_BUTTON_PINS = {"N": 5, "E": 6, "S": 13, "W": 19}
DEFAULT_BUZZER_PIN = 18  # any free GPIO: lgpio times the PWM in software on every pin
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


# -- how a setting is declared ----------------------------------------------------------------
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


@dataclass(frozen=True)
class Setting:
    """What a value in the file may be: its kind, its bounds, or its choices; `parse` turns
    the checked value into the section's (and may refuse it with `_Invalid`).

    `family`: the family may change it on the table, to one of these values (True: to one
    of `choices`, or on and off; for the rule options, the engine's own `Options` choices);
    `rule`: it is a rule of a game (a game keeps the value it started with)."""

    kind: type | tuple[type, ...]
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    parse: Callable[[Any, tuple[str, ...]], Any] | None = None
    family: bool | tuple[Any, ...] = False
    rule: bool = False

    def read(self, value: Any, keys: tuple[str, ...]) -> Any:
        name = ".".join(keys)
        kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
        # TOML integers are fine where a number is wanted; booleans are not numbers here.
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
            raise _Invalid(keys, f"{name} must be {names}, not {value!r}")
        if self.low is not None and not self.low <= value <= self.high:  # type: ignore[operator]
            raise _Invalid(
                keys, f"{name} must be between {self.low:g} and {self.high:g}, not {value:g}"
            )
        if self.choices is not None and value not in self.choices:
            raise _Invalid(keys, f"{keys[-1]} {value!r} is not one of {', '.join(self.choices)}")
        return value if self.parse is None else self.parse(value, keys)


def setting(default: Any = MISSING, *, factory: Any = MISSING, **how: Any) -> Any:
    """A dataclass field that is also a setting of the file (read by `_read_section`)."""
    extra = {"default_factory": factory} if factory is not MISSING else {"default": default}
    return field(metadata={"setting": Setting(**how)}, **extra)


def declared(cls: type) -> dict[str, Setting]:
    """The settings a section declares, by field name, in the order of its fields."""
    return _settings(cls)


def _settings(cls: type) -> dict[str, Setting]:
    return {f.name: f.metadata["setting"] for f in fields(cls) if "setting" in f.metadata}


def _read_section(base: Any, data: Any, keys: tuple[str, ...]) -> Any:
    """`base` with the values of the TOML table `data` at `keys`: the one loop that reads
    every section (unknown keys named, each value checked as its field declares)."""
    if not isinstance(data, dict):
        raise _Invalid(keys, f"{'.'.join(keys)} must be a table")
    declared = _settings(type(base))
    for key in data:
        if key not in declared:
            raise _Invalid(
                keys + (key,),
                f"unknown setting {key!r} in [{'.'.join(keys)}]; known: {', '.join(declared)}",
            )
    values = {key: declared[key].read(value, keys + (key,)) for key, value in data.items()}
    return replace(base, **values)


# -- the parsers of the values that are more than a kind and bounds ---------------------------
def _pin(value: Any, keys: tuple[str, ...]) -> Pin | None:
    if isinstance(value, int) and not 0 <= value <= 27:
        raise _Invalid(keys, f"{'.'.join(keys)} must be a GPIO number 0..27, not {value}")
    if isinstance(value, str):
        if value.lower() == "none":
            return None
        if not _PIN_TEXT.fullmatch(value):
            raise _Invalid(keys, f'{".".join(keys)}: {value!r} is not a pin such as 17 or "GPIO17"')
    return value


def _display(value: Any, keys: tuple[str, ...]) -> DisplaySettings:
    try:
        return DisplaySettings.from_mapping(value)
    except DisplayError as exc:
        raise _Invalid(keys + ((exc.key,) if exc.key else ()), f"{'.'.join(keys)}: {exc}") from None


def _options(value: Any, keys: tuple[str, ...]) -> Options:
    try:
        return Options.from_mapping(value)
    except (OptionsError, TypeError) as exc:
        name = re.search(r"option '?(\w+)", str(exc))
        key = name.group(1) if name and name.group(1) in value else None
        raise _Invalid(keys + ((key,) if key else ()), str(exc)) from None


def _port(value: str, keys: tuple[str, ...]) -> str:
    """A device path. pyserial would also open URLs (socket://, rfc2217://, loop://) and the
    simulator's pseudo-terminals; those come from --hub-port or --sim, never the file."""
    if "://" in value or not value.startswith("/"):
        raise _Invalid(
            keys, f"hub.port must be the hub's device path such as /dev/setup-hub, not {value!r}"
        )
    if value.startswith("/dev/pts/"):
        raise _Invalid(
            keys, f"hub.port {value!r} is a pseudo-terminal: the simulator's, given by --hub-port"
        )
    return value


def _state_dir(value: str, keys: tuple[str, ...]) -> Path:
    """An absolute path: a relative one would land wherever the daemon was started from."""
    if not value.startswith("/"):
        raise _Invalid(
            keys,
            f"paths.state_dir must be an absolute path such as /var/lib/setup-companion, not {value!r}",
        )
    return Path(value)


def _readers(value: Any, keys: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(value, dict):  # {"0" = "N1", ...}: only the readers that differ
        mapping = list(SQUARES)
        for reader, square in value.items():
            if not (reader.isdigit() and 0 <= int(reader) < len(SQUARES)):
                raise _Invalid(keys + (reader,), f"reader {reader!r} is not a reader number 0..11")
            mapping[int(reader)] = square
        value = mapping
    if len(value) != len(SQUARES):
        raise _Invalid(
            keys, f"hub.readers must name the square of each of the 12 readers, not {len(value)}"
        )
    for square in value:
        if square not in SQUARES:
            raise _Invalid(keys, f"{square!r} is not a square; squares are {' '.join(SQUARES)}")
    if len(set(value)) != len(value):
        twice = next(sq for sq in value if value.count(sq) > 1)
        raise _Invalid(keys, f"square {twice} has two readers in hub.readers")
    return tuple(value)


def _host_names(value: list, keys: tuple[str, ...]) -> tuple[str, ...]:
    name = ".".join(keys)
    for item in value:
        if not isinstance(item, str) or not re.fullmatch(r"[A-Za-z0-9.-]{1,253}", item):
            raise _Invalid(keys, f'{name} must list host names (like "scores.lan"), not {item!r}')
    return tuple(value)


def _whole(value: float, keys: tuple[str, ...]) -> int:
    if value != int(value):
        raise _Invalid(keys, f"{'.'.join(keys)} must be a whole number, not {value:g}")
    return int(value)


# -- the sections -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatConfig:
    """One side of the table: its colour, its button and its display."""

    side: str
    colour: str = setting(kind=str, choices=COLOURS)
    button_pin: Pin | None = setting(kind=(int, str), parse=_pin)  # None: no button
    display: DisplaySettings = setting(kind=dict, parse=_display)
    enabled: bool = setting(True, kind=bool)  # False: no hardware on this side


@dataclass(frozen=True)
class HubConfig:
    port: str = setting("/dev/setup-hub", kind=str, parse=_port)
    #: reader number -> square; reader i sits under readers[i].
    readers: tuple[str, ...] = setting(SQUARES, kind=(list, dict), parse=_readers)


@dataclass(frozen=True)
class SoundConfig:
    buzzer_pin: Pin | None = setting(DEFAULT_BUZZER_PIN, kind=(int, str), parse=_pin)
    volume: float = setting(0.5, kind=float, low=0.0, high=1.0, family=(0.25, 0.5, 0.75, 1.0))
    mute: bool = setting(False, kind=bool, family=True)
    speech: bool = setting(False, kind=bool)


#: A turn cannot end by itself sooner than this: the tracker believes a tile lifted only once
#: it was unseen for `tracker.lift_seconds` (2 s), so a sooner auto-end could score a tile
#: that the player is just taking back.
AUTO_END_FLOOR = 2.0


@dataclass(frozen=True)
class GameConfig:
    language: str = setting("en", kind=str, choices=LANGUAGES, family=True)
    #: four players play as two teams (the join order alternates the teams).
    teams: bool = setting(False, kind=bool, family=True, rule=True)
    options: Options = setting(factory=Options, kind=dict, parse=_options, family=True, rule=True)
    #: end a turn by itself after this many seconds of a stable legal placement (0: off).
    auto_end_seconds: float = setting(
        0.0, kind=float, low=0.0, high=3600.0, family=(0.0, 5.0, 10.0, 20.0, 30.0), rule=True
    )
    #: a press held at least this long is a long press (start, undo).
    long_press: float = setting(1.0, kind=float, low=0.2, high=10.0)


def _seconds(default: float) -> Any:
    return setting(default, kind=float, low=0.05, high=3600.0)


def _count(default: int) -> Any:
    return setting(default, kind=float, low=1, high=3600.0, parse=_whole)


@dataclass(frozen=True)
class TrackerConfig:
    """How much evidence the board tracker wants before it believes a change (docs/daemon.md).

    The defaults suit MFRC522 readers sweeping ten times a second, where the top tile of a
    stack is read in about a third of the sweeps."""

    #: a tile of the current placement is lifted after this long unseen, with at least
    #: `lift_sweeps` readings of its square that are clearly without it.
    lift_seconds: float = _seconds(2.0)
    lift_sweeps: int = _count(5)
    #: a tile expected to leave (after an undo) is gone after this long unseen.
    leave_seconds: float = _seconds(2.0)
    #: sightings in the last `window_sweeps` sweeps that prove a tile lies on another square.
    window_sweeps: int = _count(10)
    move_sightings: int = _count(6)
    #: a new tile seen on two squares lies where it was seen this many more times.
    decide_lead: int = _count(2)
    #: a new tile seen on two squares and then not at all is forgotten after this long
    #: (a tile lying across two squares is seen on both: it stays a problem while seen).
    pending_seconds: float = _seconds(2.0)
    #: an unknown tag is shown until it has not been seen for this long.
    unknown_seconds: float = _seconds(3.0)


@dataclass(frozen=True)
class WebConfig:
    """The web companion (`setup-companion web`, its own service; docs/web.md)."""

    #: `make install` enables the web companion's service only when this is true.
    enabled: bool = setting(False, kind=bool)
    #: the TCP port it listens on when systemd does not hand it a socket.
    port: int = setting(8080, kind=float, low=1, high=65535, parse=_whole)
    #: watching the table and the games needs the PIN too (off: the home network may watch).
    watch_needs_pin: bool = setting(False, kind=bool)
    #: names the table answers to besides its host name, `<host>.local` and its addresses
    #: (one the home router gives it, say): a page under any other name gets nothing.
    names: tuple[str, ...] = setting((), kind=list, parse=_host_names)


@dataclass(frozen=True)
class PathsConfig:
    state_dir: Path = setting(DEFAULT_STATE_DIR, kind=str, parse=_state_dir)
    #: the journal somewhere else than in the state dir (the demo's --journal)
    journal_file: Path | None = None
    #: finished games kept (journal and score chart each); the oldest are deleted
    keep_games: int = setting(200, kind=int, low=1, high=100_000)

    @property
    def journal(self) -> Path:
        return self.journal_file or self.state_dir / "journal.jsonl"

    @property
    def registry(self) -> Path:
        return self.state_dir / "registry.json"


def _default_seats() -> dict[str, SeatConfig]:
    return {side: _default_seat(side) for side in SIDES}


def _default_seat(side: str) -> SeatConfig:
    display = DisplaySettings("ssd1306", "i2c", i2c_port=DEFAULT_I2C_PORTS[side])
    return SeatConfig(side, DEFAULT_COLOURS[side], DEFAULT_BUTTON_PINS[side], display)


@dataclass(frozen=True)
class Config:
    seats: Mapping[str, SeatConfig] = field(default_factory=_default_seats)
    hub: HubConfig = field(default_factory=HubConfig)
    game: GameConfig = field(default_factory=GameConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)
    source: Path | None = None  # the file it was read from
    web: WebConfig = field(default_factory=WebConfig)

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


#: the sections of the file, as the fields of `Config` name them
_SECTIONS = ("seats", "hub", "sound", "game", "tracker", "paths", "web")


def load_config(path: str | Path | None = None) -> Config:
    """Reads and checks a config file; None reads DEFAULT_PATH if it exists."""
    given = Path(path or DEFAULT_PATH)
    return read_file(
        given,
        lambda data: parse_config(data.decode("utf-8"), given),
        lambda reason: ConfigError(reason, path=given),
        ConfigError,
        missing=Config.default if path is None else None,
    )


def displays_anyway(path: str | Path | None = None) -> tuple[dict[str, DisplaySettings], str]:
    """The seat displays (side -> settings) and the language that a config file names, as
    far as they can be read when the file as a whole cannot: to tell the players why the
    table cannot start. A broken section is the defaults' (the displays are only drawn on;
    the pins of buttons and buzzer, which could be wired otherwise, are not used)."""

    def sections(data: bytes) -> tuple[dict[str, DisplaySettings], str]:
        found = tomllib.loads(data.decode("utf-8"))
        game = found.get("game")
        language = game.get("language") if isinstance(game, dict) else None
        try:
            seats = _seats(found.get("seats", {}))
        except _Invalid:
            seats = _default_seats()
        displays = {side: seat.display for side, seat in seats.items() if seat.enabled}
        return displays, language if language in LANGUAGES else "en"

    try:
        return read_file(Path(path or DEFAULT_PATH), sections, ValueError, ValueError)
    except ValueError:  # not TOML (TOMLDecodeError is one), damaged or missing: the defaults
        return {side: seat.display for side, seat in _default_seats().items()}, "en"


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
        return _config(data, path)
    except _Invalid as exc:
        raise ConfigError(exc.reason, exc.line(text), path) from None


# -- reading the file: the sections by the loop, then what is about more than one value -------
def _config(data: dict[str, Any], path: Path | None) -> Config:
    for key in data:
        if key not in _SECTIONS:
            raise _Invalid(
                (key,), f"unknown setting {key!r}; the sections are " + ", ".join(_SECTIONS)
            )
    default = Config()
    sections = {
        name: _read_section(getattr(default, name), data.get(name, {}), (name,))
        for name in _SECTIONS
        if name != "seats"
    }
    config = Config(_seats(data.get("seats", {})), **sections, source=path)
    _check_pins(config)
    _check_auto_end(config)
    return config


def _seats(data: Any) -> dict[str, SeatConfig]:
    if not isinstance(data, dict):
        raise _Invalid(("seats",), "seats must be a table")
    seats = _default_seats()
    for side, table in data.items():
        if side not in SIDES:
            raise _Invalid(
                ("seats", side), f"{side!r} is not a side of the table; sides are N, E, S, W"
            )
        seats[side] = _read_section(seats[side], table, ("seats", side))
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


def _check_pins(config: Config) -> None:
    owners: dict[str, tuple[str, ...]] = {}
    uses = [
        (("seats", s.side, "button_pin"), s.button_pin) for s in config.seats.values() if s.enabled
    ]
    uses.append((("sound", "buzzer_pin"), config.sound.buzzer_pin))
    for keys, pin in uses:
        if pin is None:
            continue
        name = _pin_name(pin)
        if name in owners:
            first = ".".join(owners[name])
            reason = f"pin {pin} is used twice ({first} and {'.'.join(keys)})"
            raise _Invalid(keys, reason, owners[name])
        owners[name] = keys


def _check_auto_end(config: Config) -> None:
    wait = config.game.auto_end_seconds
    floor = max(AUTO_END_FLOOR, config.tracker.lift_seconds)
    if 0 < wait < floor:
        raise _Invalid(
            ("game", "auto_end_seconds"),
            f"game.auto_end_seconds must be 0 (off) or at least {floor:g}, not {wait:g}: "
            f"the readers need tracker.lift_seconds ({config.tracker.lift_seconds:g} s) "
            "to see a tile taken back",
            ("tracker", "lift_seconds"),
        )


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
