"""Short ways to write tiles, boards and placements in the engine tests."""

from __future__ import annotations

from engine import Board, Tile


def T(text: str) -> Tile:
    return Tile.parse(text)


def board(**stacks: str) -> Board:
    """board(NE="star-4", NW="club-5 star-9"): stacks bottom to top."""
    return Board({sq: [T(t) for t in tiles.split()] for sq, tiles in stacks.items()})


def place(*pairs: str) -> list[tuple[str, Tile]]:
    """place("N1 star-3", "SE star-5"): in placing order."""
    return [(sq, T(tile)) for sq, tile in (pair.split() for pair in pairs)]
