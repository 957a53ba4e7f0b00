"""What keeps the believed board from being scored: each problem a code and, where it has one,
the square (and the tile); the displays explain each code in the players' language.

Problems (`Tracker.problems`) are shown on every display and block every turn. Doubts
(`Tracker.doubts`, the codes marked so below) are the same values about the evidence of the
last moments: a press is held while there are any, and the player who pressed sees what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from engine import Tile


class ProblemCode(StrEnum):
    """What is wrong, one spelling each: the displays' catalogue key is `problem.<code>`."""

    HUB_DISCONNECTED = "hub-disconnected"
    READER_FAULT = "reader-fault"
    UNKNOWN_TAG = "unknown-tag"
    TILE_TWICE = "tile-twice"
    TAKE_OFF = "take-off"
    UNREADABLE = "unreadable"
    BLIND = "blind"
    SEEN_ELSEWHERE = "seen-elsewhere"
    LAY_FLAT = "lay-flat"
    START_EMPTY = "start-empty"
    JOURNAL_UNWRITABLE = "journal-unwritable"
    JOURNAL_DAMAGED = "journal-damaged"
    CONFIG_INVALID = "config-invalid"
    SETTINGS_SET_ASIDE = "settings-set-aside"
    JOURNAL_LOST = "journal-lost"
    CARD_READ_ONLY = "card-read-only"
    CARD_FULL = "card-full"
    CONFIG_BROKEN = "config-broken"
    STATE_UNUSABLE = "state-unusable"
    START_FAILED = "start-failed"
    PORT_SHARED = "port-shared"

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


#: What each problem code means (`square` names the square where it has one).
PROBLEMS: dict[ProblemCode, str] = {
    ProblemCode.HUB_DISCONNECTED: "the reader hub does not answer (cable or power)",
    ProblemCode.READER_FAULT: "the reader under a square reports a fault",
    ProblemCode.UNKNOWN_TAG: "a tag that is not one of the 50 tiles lies on a square",
    ProblemCode.TILE_TWICE: "the same tile seems to lie on two squares",
    ProblemCode.TAKE_OFF: "a tile must be taken off a square (e.g. after an undo)",
    ProblemCode.UNREADABLE: "a square keeps reading as a collision: a tile there cannot be read",
    ProblemCode.BLIND: "the readers cannot see a square that holds tiles (silent, or `C` every "
    "sweep); as a doubt: it has not answered in the last second",
    ProblemCode.SEEN_ELSEWHERE: "doubt: a tile of the placement was just seen on another square "
    "alone (a hand over the board, a tile sliding)",
    ProblemCode.LAY_FLAT: "doubt: a tile of the placement was seen only once there, or not "
    "lately while its square read without it",
    ProblemCode.START_EMPTY: "doubt, in the lobby: a common square reads empty; the rules start "
    "on one tile on each",
    ProblemCode.JOURNAL_UNWRITABLE: "the game cannot be saved (the SD card): nothing is scored "
    "until it can",
    ProblemCode.JOURNAL_DAMAGED: "the saved game was damaged; it was kept aside and a new game "
    "begins",
    ProblemCode.CONFIG_INVALID: "the edited configuration file is broken: the last good one is "
    "used",
    ProblemCode.SETTINGS_SET_ASIDE: "the table settings file was broken: set aside, the "
    "config's are used",
    ProblemCode.JOURNAL_LOST: "the last `count` records of the saved game could not be read "
    "(kept aside)",
    ProblemCode.CARD_READ_ONLY: "games are not being saved: the SD card is read-only (the game "
    "goes on)",
    ProblemCode.CARD_FULL: "games are not being saved: the SD card was full at start (the game "
    "goes on)",
    ProblemCode.CONFIG_BROKEN: "the table cannot start: the configuration file has an error and "
    "no good copy of it was ever kept",
    ProblemCode.STATE_UNUSABLE: "the table cannot start: its folder on the SD card cannot be used",
    ProblemCode.START_FAILED: "the table cannot start: the program failed while starting (see "
    "the log)",
    ProblemCode.PORT_SHARED: "another program (`who`) has the reader hub's port open and takes "
    "its lines; the daemon has the hub reconnect, which cuts it off",
}

#: Problems that do not stop the game: each display shows them for STANDING_SHOWN seconds in
#: every STANDING_EVERY, between the game's own screens (companion.show.screens).
STANDING = frozenset({ProblemCode.CARD_READ_ONLY, ProblemCode.CARD_FULL})


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the players must fix before play goes on. A notice of the table's view
    (`companion.game.view.Notice`); `code` may be given as its text and is kept as the enum."""

    kind: ClassVar[str] = "problem"

    code: ProblemCode
    square: str | None = None
    tile: Tile | None = None
    count: int = 0  # how many, for the codes that say it (journal-lost)
    who: str = ""  # which program, for the codes that name one (port-shared)

    def __post_init__(self) -> None:
        try:
            code = ProblemCode(self.code)
        except ValueError:
            raise ValueError(f"unknown problem code {self.code!r}") from None
        object.__setattr__(self, "code", code)

    def to_json(self) -> dict[str, Any]:
        tile = None if self.tile is None else str(self.tile)
        return {
            "kind": self.kind,
            "code": str(self.code),
            "square": self.square,
            "tile": tile,
            "count": self.count,
            "who": self.who,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problem:
        tile = data["tile"]
        tile = None if tile is None else Tile.parse(tile)
        return cls(data["code"], data["square"], tile, data["count"], data.get("who", ""))

    def __str__(self) -> str:
        where = f" {self.square}" if self.square else ""
        return f"{self.code}{where}" + (f" {self.tile}" if self.tile else "")
