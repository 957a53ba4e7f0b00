"""A placement: the tiles one player puts down in one turn, in placing order.

Written like python-chess's moves: `Placement.parse("N1 star-3, SE star-5")`, `str()` gives
that text back, `repr()` evaluates back, and `to_json()` / `from_json()` carry the
`[[square, tile], ...]` pairs of the journal and of `setup-companion score`.
A placement is a tuple of `(square, Tile)` pairs, so the engine reads it like any sequence.
Whether it is legal is the rules' question (`score_placement`), not this type's: placing a
tile twice is representable, an unknown square or a text that is not a tile is not.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.geometry import SQUARE_INDEX
from engine.results import Illegal
from engine.tiles import Tile, TileError, shown


class PlacementError(ValueError):
    """A text or JSON value that is not a placement; `illegal` says why, with a stable code."""

    def __init__(self, illegal: Illegal) -> None:
        super().__init__(illegal.message)
        self.illegal = illegal


def _bad(message: str) -> PlacementError:
    return PlacementError(Illegal("bad-input", message))


def parse_square(square: Any) -> str:
    """The square named `square`, or a PlacementError (`unknown-square`)."""
    if not isinstance(square, str) or square not in SQUARE_INDEX:
        message = f"{shown(square)} is not a square of the board."
        raise PlacementError(Illegal("unknown-square", message, squares=(str(square),)))
    return square


def parse_tile(tile: Any) -> Tile:
    """The tile named `tile` (or the tile itself), or a PlacementError (`bad-tile`)."""
    if isinstance(tile, Tile):
        return tile
    try:
        return Tile.parse(tile)
    except TileError as exc:
        raise PlacementError(Illegal("bad-tile", f"{exc}.")) from None


class Placement(tuple[tuple[str, Tile], ...]):
    """`(square, tile)` pairs in placing order; empty for a turn without placing (a swap)."""

    __slots__ = ()

    def __new__(cls, pairs: Iterable[tuple[str, Tile | str]] = ()) -> Placement:
        checked = []
        for pair in pairs:
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise _bad(f"each placed tile is a [square, tile] pair, not {shown(pair)}")
            checked.append((parse_square(pair[0]), parse_tile(pair[1])))
        return super().__new__(cls, checked)

    @classmethod
    def trusted(cls, pairs: Iterable[tuple[str, Tile]]) -> Placement:
        """Without the checks: for pairs the rules have just checked (scoring is hot)."""
        return tuple.__new__(cls, pairs)

    @classmethod
    def parse(cls, text: str) -> Placement:
        """From `"N1 star-3, SE star-5"` (comma-separated `square tile`; "" is no tile)."""
        if not isinstance(text, str):
            raise _bad(f"a placement is written like 'N1 star-3, SE star-5', not {text!r}")
        pairs = []
        for part in text.split(","):
            words = part.split()
            if not words and not text.strip():
                continue
            if len(words) != 2:
                raise _bad(f"{part.strip()!r} is not 'square tile' (like 'N1 star-3')")
            pairs.append((words[0], words[1]))
        return cls(pairs)

    @classmethod
    def from_json(cls, data: Any) -> Placement:
        """From `[["N1", "star-3"], ["SE", "star-5"]]`."""
        if not isinstance(data, list):
            raise _bad("a placement is a list of [square, tile] pairs in placing order")
        return cls(data)

    def to_json(self) -> list[list[str]]:
        return [[square, str(tile)] for square, tile in self]

    @property
    def squares(self) -> tuple[str, ...]:
        return tuple(square for square, _ in self)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(tile for _, tile in self)

    def __str__(self) -> str:
        return ", ".join(f"{square} {tile}" for square, tile in self)

    def __repr__(self) -> str:
        return f"Placement.parse({str(self)!r})"
