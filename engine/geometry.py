"""The board as data: its squares, who owns them, and the white lines that join them.

The squares form a 4x4 grid without its corners (row 0 at the north):

              N1   N2
         W2   NW   NE   E1
         W1   SW   SE   E2
              S2   S1

Side squares are numbered clockwise seen from above; each side's pair belongs to the player
seated on that side, and NW, NE, SW, SE are common. The exact lines printed on the board are
not confirmed by any source, so they are tables here, not code: DEFAULT_LINES joins every
pair of orthogonal or diagonal neighbours (30 lines), ORTHOGONAL_LINES only the orthogonal
ones. A new table is all a different board needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SIDES: tuple[str, ...] = ("N", "E", "S", "W")

#: square -> (row, column) on the 4x4 grid.
GRID: dict[str, tuple[int, int]] = {
    "N1": (0, 1), "N2": (0, 2),
    "W2": (1, 0), "NW": (1, 1), "NE": (1, 2), "E1": (1, 3),
    "W1": (2, 0), "SW": (2, 1), "SE": (2, 2), "E2": (2, 3),
    "S2": (3, 1), "S1": (3, 2),
}  # fmt: skip

#: The square names in their canonical order (the issue's order: sides, then the middle).
SQUARES: tuple[str, ...] = ("N1", "N2", "E1", "E2", "S1", "S2", "W1", "W2", "NW", "NE", "SW", "SE")

COMMON_SQUARES: tuple[str, ...] = ("NW", "NE", "SW", "SE")


DEFAULT_LINES: tuple[tuple[str, str], ...] = (
    ("N1", "N2"), ("N1", "W2"), ("N1", "NW"), ("N1", "NE"),
    ("N2", "NW"), ("N2", "NE"), ("N2", "E1"),
    ("W2", "NW"), ("W2", "W1"), ("W2", "SW"),
    ("NW", "NE"), ("NW", "W1"), ("NW", "SW"), ("NW", "SE"),
    ("NE", "E1"), ("NE", "SW"), ("NE", "SE"), ("NE", "E2"),
    ("E1", "SE"), ("E1", "E2"),
    ("W1", "SW"), ("W1", "S2"),
    ("SW", "SE"), ("SW", "S2"), ("SW", "S1"),
    ("SE", "E2"), ("SE", "S2"), ("SE", "S1"),
    ("E2", "S1"),
    ("S2", "S1"),
)  # fmt: skip

ORTHOGONAL_LINES: tuple[tuple[str, str], ...] = (
    ("N1", "N2"), ("N1", "NW"), ("N2", "NE"),
    ("W2", "NW"), ("W2", "W1"),
    ("NW", "NE"), ("NW", "SW"), ("NE", "E1"), ("NE", "SE"),
    ("E1", "E2"), ("W1", "SW"), ("SW", "SE"), ("SW", "S2"),
    ("SE", "E2"), ("SE", "S1"), ("S2", "S1"),
)  # fmt: skip

LINE_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "default": DEFAULT_LINES,
    "orthogonal": ORTHOGONAL_LINES,
}

#: A quarter turn clockwise seen from above: side and square renamings.
QUARTER_TURN_SIDE: dict[str, str] = {"N": "E", "E": "S", "S": "W", "W": "N"}
QUARTER_TURN_SQUARE: dict[str, str] = {
    **{f"{s}{i}": f"{QUARTER_TURN_SIDE[s]}{i}" for s in SIDES for i in (1, 2)},
    "NW": "NE", "NE": "SE", "SE": "SW", "SW": "NW",
}  # fmt: skip

SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARES)}


def owner(square: str) -> str | None:
    """The side whose bonus square this is, or None for a common square.

    The one rule of who owns a square: seating, scoring and the screens all ask it."""
    return None if square in COMMON_SQUARES else square[0]


#: side -> its two bonus squares.
SIDE_SQUARES: dict[str, tuple[str, ...]] = {
    side: tuple(sq for sq in SQUARES if owner(sq) == side) for side in SIDES
}


@dataclass(frozen=True)
class Geometry:
    """Adjacency of the squares for one line table, as bitmasks over square indexes."""

    name: str
    lines: tuple[tuple[str, str], ...]
    neighbours: tuple[int, ...]  # square index -> bitmask of joined squares
    adjacent: tuple[tuple[int, ...], ...]  # square index -> indexes of joined squares

    @classmethod
    def from_lines(cls, name: str, lines: Iterable[tuple[str, str]]) -> Geometry:
        masks = [0] * len(SQUARES)
        lines = tuple(lines)
        for a, b in lines:
            if a not in SQUARE_INDEX or b not in SQUARE_INDEX or a == b:
                raise ValueError(f"bad line {a}-{b} in board definition {name!r}")
            ia, ib = SQUARE_INDEX[a], SQUARE_INDEX[b]
            masks[ia] |= 1 << ib
            masks[ib] |= 1 << ia
        adjacent = tuple(tuple(j for j in range(len(SQUARES)) if m >> j & 1) for m in masks)
        return cls(name, lines, tuple(masks), adjacent)

    def joined(self, a: str, b: str) -> bool:
        return bool(self.neighbours[SQUARE_INDEX[a]] >> SQUARE_INDEX[b] & 1)


GEOMETRIES: dict[str, Geometry] = {
    name: Geometry.from_lines(name, lines) for name, lines in LINE_TABLES.items()
}
