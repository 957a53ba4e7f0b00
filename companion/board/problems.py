"""What keeps the believed board from being scored: each problem a code and, where it has one,
the square; the displays explain each code in the players' language."""

from __future__ import annotations

from dataclasses import dataclass

#: Problem codes the displays can explain (`square` names the square where it has one).
PROBLEMS: dict[str, str] = {
    "hub-disconnected": "the reader hub does not answer (cable or power)",
    "reader-fault": "the reader under a square reports a fault",
    "unknown-tag": "a tag that is not one of the 50 tiles lies on a square",
    "tile-twice": "the same tile seems to lie on two squares",
    "take-off": "a tile must be taken off a square (e.g. after an undo)",
    "unreadable": "a square keeps reading as a collision: a tile there cannot be read",
    "journal-unwritable": "the game cannot be saved (the SD card): nothing is scored until it can",
    "journal-damaged": "the saved game was damaged; it was kept aside and a new game begins",
    "config-invalid": "the edited configuration file is broken: the last good one is used",
}


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the players must fix before play goes on; `code` is one of PROBLEMS."""

    code: str
    square: str | None = None

    def __post_init__(self) -> None:
        if self.code not in PROBLEMS:
            raise ValueError(f"unknown problem code {self.code!r}")
