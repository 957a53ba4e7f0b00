"""The family's word: what a person at the table says about a square the readers cannot vouch
for, taken over the readers' evidence for that tile.

A `Word` is a value in the engine's style (frozen, `repr` evaluates back, `str` reads as a
sentence, `to_json`/`from_json` round-trip for the journal and the daemon's socket):

    Word(Said.LAID, "NE", Tile.parse("star-2"), "S")     # S: star-2 lies on top of NE
    Word(Said.ABSENT, "W1", Tile.parse("star-5"), "page")  # a paired page: not on W1

`by` is who said it: a seat's side ("N", "E", "S", "W", its buttons) or "page" (a paired
browser). The tracker takes it (`Tracker.settle`), the table journals it before it takes
effect (`Table.take_word`, record "word"), and `replay` shows it as the family's word.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine import SIDES, SQUARES, Tile

#: who may say a word: a seat (its buttons) or a paired browser
PAGE = "page"
SPEAKERS = (*SIDES, PAGE)


class Said(StrEnum):
    """What the family says about a tile and a square."""

    LAID = "laid"  # the tile lies on top of the square (laid this turn, or on the start board)
    ABSENT = "absent"  # the tile is not on the square: score without it

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


@dataclass(frozen=True, slots=True)
class Word:
    """The family says `tile` lies on `square` (`Said.LAID`) or does not (`Said.ABSENT`)."""

    said: Said
    square: str
    tile: Tile
    by: str

    def __post_init__(self) -> None:
        try:
            said = Said(self.said)
        except ValueError:
            raise ValueError(f"{self.said!r} is not a word; words are {', '.join(Said)}") from None
        object.__setattr__(self, "said", said)
        if self.square not in SQUARES:
            raise ValueError(f"{self.square!r} is not a square; squares are {', '.join(SQUARES)}")
        if not isinstance(self.tile, Tile):
            raise ValueError(f"{self.tile!r} is not a tile")
        if self.by not in SPEAKERS:
            raise ValueError(f"{self.by!r} cannot say a word; {', '.join(SPEAKERS)} can")

    def __repr__(self) -> str:
        return f"Word({self.said!r}, {self.square!r}, {self.tile!r}, {self.by!r})"

    def __str__(self) -> str:
        who = "a paired page" if self.by == PAGE else self.by
        if self.said == Said.LAID:
            return f"{who} says {self.tile} lies on {self.square}"
        return f"{who} says {self.tile} is not on {self.square}"

    def to_json(self) -> dict[str, Any]:
        return {
            "said": str(self.said),
            "square": self.square,
            "tile": str(self.tile),
            "by": self.by,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Word:
        return cls(data["said"], data["square"], Tile.parse(data["tile"]), data["by"])
