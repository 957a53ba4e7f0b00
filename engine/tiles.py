"""The 50 tiles: five suits of ranks 1 to 10, every tile unique."""

from __future__ import annotations

import json
from dataclasses import dataclass

SUITS: tuple[str, ...] = ("star", "heart", "diamond", "club", "spade")
RANKS: range = range(1, 11)


def shown(value: object) -> str:
    """A value from the input as the player or the JSON wrote it (JSON, not a Python repr)."""
    if isinstance(value, str):
        return repr(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return f"a {type(value).__name__}"
    # a lone surrogate (JSON's "\udcff") is written as that escape, as repr does for a
    # string: no UTF-8 output could carry it
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class TileError(ValueError):
    """A text that is not the name of a tile."""


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile, written `<suit>-<rank>` (for example `star-10`)."""

    suit: str
    rank: int

    def __post_init__(self) -> None:
        if self.suit not in SUITS:
            raise TileError(f"{self.suit!r} is not a suit; the suits are {', '.join(SUITS)}")
        if type(self.rank) is not int or self.rank not in RANKS:
            raise TileError(f"{self.rank!r} is not a rank; ranks run from 1 to 10")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parses the canonical form strictly: lower-case suit, a hyphen, a rank 1..10."""
        if not isinstance(text, str):
            raise TileError(f"a tile is written like 'star-10', not {shown(text)}")
        tile = _BY_NAME.get(text)
        if tile is None:
            raise TileError(f"{text!r} is not a tile; tiles are written like 'star-10' or 'club-3'")
        return tile

    def __str__(self) -> str:
        return f"{self.suit}-{self.rank}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


ALL_TILES: tuple[Tile, ...] = tuple(Tile(suit, rank) for suit in SUITS for rank in RANKS)
_BY_NAME: dict[str, Tile] = {str(tile): tile for tile in ALL_TILES}
TILE_COUNT = len(ALL_TILES)
