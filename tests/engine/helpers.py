"""Short ways to write tiles, boards and placements in the engine tests."""

from __future__ import annotations

from engine import Board, Placement, Tile


def T(text: str) -> Tile:
    return Tile.parse(text)


def board(**stacks: str) -> Board:
    """board(NE="star-4", NW="club-5 star-9"): stacks bottom to top."""
    return Board({sq: [T(t) for t in tiles.split()] for sq, tiles in stacks.items()})


def place(*pairs: str) -> Placement:
    """place("N1 star-3", "SE star-5"): in placing order."""
    return Placement.parse(", ".join(pairs))
