"""What keeps the believed board from being scored: each problem a code and, where it has one,
the square (and the tile); the displays explain each code in the players' language.

Problems (`Tracker.problems`) are shown on every display and block every turn. Doubts
(`Tracker.doubts`, the codes marked so below) are the same values about the evidence of the
last moments: a press is held while there are any, and the player who pressed sees what to do.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Tile

#: Problem codes the displays can explain (`square` names the square where it has one).
PROBLEMS: dict[str, str] = {
    "hub-disconnected": "the reader hub does not answer (cable or power)",
    "reader-fault": "the reader under a square reports a fault",
    "unknown-tag": "a tag that is not one of the 50 tiles lies on a square",
    "tile-twice": "the same tile seems to lie on two squares",
    "take-off": "a tile must be taken off a square (e.g. after an undo)",
    "unreadable": "a square keeps reading as a collision: a tile there cannot be read",
    "blind": "the readers cannot see a square that holds tiles (silent, or `C` every sweep); "
    "as a doubt: it has not answered in the last second",
    "seen-elsewhere": "doubt: a tile of the placement was just seen on another square alone "
    "(a hand over the board, a tile sliding)",
    "lay-flat": "doubt: a tile of the placement was seen only once there, or not lately while "
    "its square read without it",
    "journal-unwritable": "the game cannot be saved (the SD card): nothing is scored until it can",
    "journal-damaged": "the saved game was damaged; it was kept aside and a new game begins",
    "config-invalid": "the edited configuration file is broken: the last good one is used",
    "settings-set-aside": "the table settings file was broken: set aside, the config's are used",
    "journal-lost": "the last `count` records of the saved game could not be read (kept aside)",
    "card-read-only": "games are not being saved: the SD card is read-only (the game goes on)",
    "card-full": "games are not being saved: the SD card was full at start (the game goes on)",
    "config-broken": "the table cannot start: the configuration file has an error and no good "
    "copy of it was ever kept",
    "state-unusable": "the table cannot start: its folder on the SD card cannot be used",
    "start-failed": "the table cannot start: the program failed while starting (see the log)",
}

#: Problems that do not stop the game: each display shows them for STANDING_SHOWN seconds in
#: every STANDING_EVERY, between the game's own screens (companion.show.screens).
STANDING = frozenset({"card-read-only", "card-full"})


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the players must fix before play goes on; `code` is one of PROBLEMS."""

    code: str
    square: str | None = None
    tile: Tile | None = None
    count: int = 0  # how many, for the codes that say it (journal-lost)

    def __post_init__(self) -> None:
        if self.code not in PROBLEMS:
            raise ValueError(f"unknown problem code {self.code!r}")

    def __str__(self) -> str:
        where = f" {self.square}" if self.square else ""
        return f"{self.code}{where}" + (f" {self.tile}" if self.tile else "")
