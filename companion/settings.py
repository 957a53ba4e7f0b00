"""The table settings: what a family changes on the table itself (the seat buttons' menu, the
web companion), kept in the state dir and winning over `config.toml` for those keys.

`config.toml` stays the installer's file (the hardware, and the first values of these
settings); `settings.json` in the state dir holds only what was changed on the table. The
daemon is the only writer.

    store = SettingsStore(config.paths.state_dir)      # reads settings.json (never raises)
    settings = store.effective(config)                 # Settings: config + the table's choices
    settings = store.apply("language", "it", config)   # validated, saved atomically
    config = settings.apply_to(config)                 # the Config the table and screens use
    key, args = words("auto_end_seconds", 10.0)        # i18n key + args for the displays

Each setting is declared once, in `companion.config` (its type, default, bounds, and
`family`: whether the family may change it, to which values); `SETTINGS` lists those the
family may change, in the order they are declared, each with where it lives in a `Config`.
A value that is not allowed raises `SettingsError`
with a sentence for a person. A broken or foreign `settings.json` is moved aside as
`settings-broken-<n>.json` and `store.problem` says so in one sentence: the table starts with
the config's values, never crashes. A power cut while saving leaves the old file or the new
one (`companion.atomic`), never half of one.

A new game takes the settings of the moment it starts; a game in progress keeps its own rule
options and teams (they are in its start record in the journal).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.atomic import write_atomic
from companion.config import Config
from companion.config import declared as config_declared
from engine import Options
from engine.options import CHOICES as OPTION_CHOICES

log = logging.getLogger("setup.settings")

FILE_NAME = "settings.json"
SETTINGS_VERSION = 1
#: what marks the file as ours (a foreign JSON file is set aside, not read)
KIND = "setup-companion table settings"

Value = str | bool | float
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "ru": "Русский",
    "fr": "Français",
}


@dataclass(frozen=True)
class TableSetting:
    """One setting the family may change on the table, as `companion.config` declares it:
    its key, its type, its allowed values (in the order the menu steps through them), whether
    it is a rule of a game, and how to read it from / write it into a `Config`."""

    key: str
    kind: type
    choices: tuple[Value, ...]
    rule: bool
    read: Callable[[Config], Value]
    write: Callable[[Config, Value], Config]

    def check(self, value: Any) -> Value:
        """`value` as this setting's type, or SettingsError if it is not allowed."""
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            raise SettingsError(f"{self.key} cannot be {value!r}")
        if value not in self.choices:
            allowed = ", ".join(_plain(c) for c in self.choices)
            raise SettingsError(f"{self.key} cannot be {_plain(value)}; it is one of {allowed}")
        return value

    def after(self, value: Value) -> Value:
        """The next allowed value after `value` (wrapping round); a value from the config
        that is not one of the choices (auto-end 7 s) goes to the next bigger choice."""
        if value in self.choices:
            return self.choices[(self.choices.index(value) + 1) % len(self.choices)]
        if self.kind is float:
            return next((c for c in self.choices if c > value), self.choices[0])  # type: ignore[operator]
        return self.choices[0]


class SettingsError(ValueError):
    """A setting that does not exist or a value it cannot take."""


def _in_section(section: str, name: str) -> tuple[Callable, Callable]:
    def read(config: Config) -> Value:
        return getattr(getattr(config, section), name)

    def write(config: Config, value: Value) -> Config:
        part = dataclasses.replace(getattr(config, section), **{name: value})
        return dataclasses.replace(config, **{section: part})

    return read, write


def _option(section: str, name: str) -> tuple[Callable, Callable]:
    def read(config: Config) -> Value:
        return getattr(getattr(config, section).options, name)

    def write(config: Config, value: Value) -> Config:
        part = getattr(config, section)
        options = dataclasses.replace(part.options, **{name: value})
        return dataclasses.replace(config, **{section: dataclasses.replace(part, options=options)})

    return read, write


def _family_settings() -> tuple[TableSetting, ...]:
    """Every setting `companion.config` declares the family may change, in its order."""
    found: list[TableSetting] = []
    for section in dataclasses.fields(Config):
        part = getattr(Config(), section.name)
        if not dataclasses.is_dataclass(part):
            continue
        for name, declared in config_declared(type(part)).items():
            if not declared.family:
                continue
            if isinstance(getattr(part, name), Options):  # the rule options: the engine's own
                for option, choices in OPTION_CHOICES.items():
                    kind = type(choices[0])
                    read, write = _option(section.name, option)
                    found.append(TableSetting(option, kind, choices, declared.rule, read, write))  # type: ignore[arg-type]
                continue
            kind = declared.kind if isinstance(declared.kind, type) else declared.kind[0]
            if isinstance(declared.family, tuple):
                choices = declared.family
            else:
                choices = declared.choices or (False, True)
            read, write = _in_section(section.name, name)
            found.append(TableSetting(name, kind, tuple(choices), declared.rule, read, write))
    return tuple(found)


#: Every table setting, in the order `companion.config` declares them (the menu's order).
SETTINGS: tuple[TableSetting, ...] = _family_settings()
KEYS: tuple[str, ...] = tuple(s.key for s in SETTINGS)
#: the settings that are rules of a game (the lobby shows them; a game keeps them)
RULES: tuple[str, ...] = tuple(s.key for s in SETTINGS if s.rule)
_BY_KEY = {s.key: s for s in SETTINGS}


def setting(key: str) -> TableSetting:
    """The declaration of `key`; SettingsError for a key that is not a table setting."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise SettingsError(
            f"{key!r} is not a table setting; the settings are {', '.join(KEYS)}"
        ) from None


@dataclass(frozen=True)
class Settings(Mapping[str, Value]):
    """Every table setting's value (an immutable mapping key -> value, in SETTINGS order)."""

    values: tuple[tuple[str, Value], ...]

    @classmethod
    def of(cls, config: Config) -> Settings:
        """The values `config` gives (config.toml alone)."""
        return cls(tuple((s.key, s.read(config)) for s in SETTINGS))

    def __getitem__(self, key: str) -> Value:
        for name, value in self.values:
            if name == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"Settings({self.values!r})"

    def __str__(self) -> str:
        return ", ".join(f"{key}={_plain(value)}" for key, value in self.values)

    def replace(self, key: str, value: Any) -> Settings:
        """These settings with `key` set to `value` (checked)."""
        checked = setting(key).check(value)
        return Settings(tuple((k, checked if k == key else v) for k, v in self.values))

    def apply_to(self, config: Config) -> Config:
        """`config` with these values in place of its own."""
        for key, value in self.values:
            config = _BY_KEY[key].write(config, value)
        return config

    def changed_from(self, other: Settings) -> tuple[str, ...]:
        """The keys whose values differ from `other`'s."""
        return tuple(k for k, v in self.values if other[k] != v)

    def to_json(self) -> dict[str, Any]:
        return {"values": dict(self.values)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """The settings whose `to_json()` gave `data`, in SETTINGS order (a value the config
        file gave may lie between the menu's choices: only its type is made sure of)."""
        values = data["values"]
        return cls(tuple((s.key, s.kind(values[s.key])) for s in SETTINGS))


def words(key: str, value: Value) -> tuple[str, dict[str, Any]]:
    """How the displays say `value` of `key`: an i18n key and its arguments, e.g.
    ("settings.auto_end_seconds.on", {"n": 10}) or ("settings.end.first", {})."""
    setting(key)
    if key == "language":  # each language in its own words, so anyone can find theirs
        return "settings.language.value", {"name": LANGUAGE_NAMES[str(value)]}
    if key == "auto_end_seconds":
        if not value:
            return "settings.auto_end_seconds.off", {}
        return "settings.auto_end_seconds.on", {"n": int(value)}  # type: ignore[arg-type]
    if key == "volume":
        return "settings.volume.level", {"n": round(float(value) * 100)}
    if isinstance(value, bool):
        return f"settings.{key}.{'on' if value else 'off'}", {}
    return f"settings.{key}.{value}", {}


def label(key: str) -> str:
    """The i18n key of the setting's name in the menu ("settings.language")."""
    return f"settings.{setting(key).key}"


class SettingsStore:
    """The table's choices in `<state_dir>/settings.json`: only the keys changed on the table.

    Reading never raises: a file that cannot be used is set aside and `problem` says why."""

    def __init__(self, state_dir: str | Path) -> None:
        self.path = Path(state_dir) / FILE_NAME
        #: one sentence for the log and the displays when the file was set aside (else None)
        self.problem: str | None = None
        self.overrides: dict[str, Value] = self._read()

    def __repr__(self) -> str:
        return f"<SettingsStore {self.path} {self.overrides}>"

    def effective(self, config: Config) -> Settings:
        """The settings in force: the config's values, with the table's choices over them."""
        settings = Settings.of(config)
        for key, value in self.overrides.items():
            settings = settings.replace(key, value)
        return settings

    def apply(self, key: str, value: Any, config: Config) -> Settings:
        """Sets `key` to `value` (SettingsError if not allowed; nothing changes then), saves
        the file atomically (OSError if the card cannot be written; nothing changes then) and
        returns the new effective settings."""
        checked = setting(key).check(value)
        overrides = {**self.overrides, key: checked}
        if checked == setting(key).read(config):
            del overrides[key]  # back to the installer's value: config.toml decides again
        self._save(overrides)
        self.overrides = overrides
        log.info("setting %s is now %s", key, _plain(checked))
        return self.effective(config)

    def _save(self, overrides: Mapping[str, Value]) -> None:
        data = {"kind": KIND, "v": SETTINGS_VERSION, "settings": dict(overrides)}
        write_atomic(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def _read(self) -> dict[str, Value]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            return self._set_aside(f"cannot be read ({exc})")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return self._set_aside(f"is not JSON ({exc.msg} at line {exc.lineno})")
        if not isinstance(data, dict) or data.get("kind") != KIND:
            return self._set_aside("is not a table settings file")
        if data.get("v") != SETTINGS_VERSION:
            return self._set_aside(f"has version {data.get('v')!r}, not {SETTINGS_VERSION}")
        values = data.get("settings")
        if not isinstance(values, dict):
            return self._set_aside("has no settings in it")
        overrides: dict[str, Value] = {}
        try:
            for key, value in values.items():
                overrides[key] = setting(key).check(value)
        except SettingsError as exc:
            return self._set_aside(f"has a bad setting: {exc}")
        return overrides

    def _set_aside(self, reason: str) -> dict[str, Value]:
        n = 1
        while (aside := self.path.with_name(f"settings-broken-{n}.json")).exists():
            n += 1
        try:
            os.replace(self.path, aside)
            where = f"it was moved to {aside.name}"
        except OSError as exc:
            where = f"it could not be moved aside ({exc.strerror})"
        self.problem = (
            f"The table settings file {self.path} {reason}: {where}, and the settings of "
            "the config file are used."
        )
        log.error("%s", self.problem)
        return {}


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
