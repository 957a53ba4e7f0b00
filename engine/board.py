"""The board's contents: a stack of tiles on each square, the top tile visible.

A `Board` is an immutable value, so a game's undo is just keeping the previous one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from engine.geometry import GRID, SQUARE_INDEX, SQUARES
from engine.tiles import Tile

Stack = tuple[Tile, ...]


class BoardError(ValueError):
    """A board description that cannot be a real board (unknown square, a tile twice)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Board:
    """Twelve stacks, bottom to top, in the order of `SQUARES`."""

    __slots__ = ("_stacks", "_where")

    def __init__(self, stacks: Mapping[str, Iterable[Tile]] | None = None) -> None:
        lists: list[Stack] = [()] * len(SQUARES)
        where: dict[Tile, int] | None = {}
        for square, tiles in (stacks or {}).items():
            if square not in SQUARE_INDEX:
                raise BoardError("unknown-square", f"{square!r} is not a square of the board")
            i = SQUARE_INDEX[square]
            stack = tuple(tiles)
            for tile in stack:
                if tile in where:
                    raise BoardError("duplicate-tile", f"{tile} lies on the board twice")
                where[tile] = i
            lists[i] = stack
        self._stacks: tuple[Stack, ...] = tuple(lists)
        self._where = where

    @classmethod
    def _from_stacks(cls, stacks: tuple[Stack, ...]) -> Board:
        board = cls.__new__(cls)
        board._stacks = stacks
        board._where = None  # built on first use: scoring a preview rarely needs it
        return board

    @property
    def _index(self) -> dict[Tile, int]:
        if self._where is None:
            self._where = {tile: i for i, stack in enumerate(self._stacks) for tile in stack}
        return self._where

    @classmethod
    def from_mapping(cls, data: Mapping[str, Sequence[str]]) -> Board:
        """From plain data such as `{"NW": ["club-5", "star-9"]}` (stacks bottom to top)."""
        return cls({sq: [Tile.parse(t) for t in tiles] for sq, tiles in data.items()})

    def to_mapping(self) -> dict[str, list[str]]:
        return {sq: [str(t) for t in st] for sq, st in zip(SQUARES, self._stacks) if st}

    # -- looking at it -------------------------------------------------------------------
    def stack(self, square: str) -> Stack:
        return self._stacks[SQUARE_INDEX[square]]

    def top(self, square: str) -> Tile | None:
        stack = self._stacks[SQUARE_INDEX[square]]
        return stack[-1] if stack else None

    def tops(self) -> tuple[Tile | None, ...]:
        """The visible tile of every square, by square index."""
        return tuple(stack[-1] if stack else None for stack in self._stacks)

    def square_of(self, tile: Tile) -> str | None:
        i = self._index.get(tile)
        return None if i is None else SQUARES[i]

    def __contains__(self, tile: object) -> bool:
        return tile in self._index

    def __iter__(self) -> Iterator[Tile]:
        """Every tile on the board, covered ones included."""
        for stack in self._stacks:
            yield from stack

    def __len__(self) -> int:
        return len(self._index)

    def covered(self) -> tuple[Tile, ...]:
        return tuple(tile for stack in self._stacks for tile in stack[:-1])

    # -- new boards ----------------------------------------------------------------------
    def placed(self, placement: Iterable[tuple[str, Tile]]) -> Board:
        """The board after putting these tiles down in this order (no rule checks)."""
        stacks = list(self._stacks)
        for square, tile in placement:
            i = SQUARE_INDEX[square]
            stacks[i] = stacks[i] + (tile,)
        return Board._from_stacks(tuple(stacks))

    def without_covered(self) -> Board:
        """The board once every covered tile went back to the bag."""
        return Board._from_stacks(tuple(stack[-1:] for stack in self._stacks))

    def renamed(self, squares: Mapping[str, str]) -> Board:
        """The same stacks on renamed squares (a rotated board, for instance)."""
        return Board({squares[sq]: st for sq, st in zip(SQUARES, self._stacks) if st})

    # -- values --------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._stacks == other._stacks

    def __hash__(self) -> int:
        return hash(self._stacks)

    def __repr__(self) -> str:
        return f"Board({ {sq: list(st) for sq, st in zip(SQUARES, self._stacks) if st}!r})"

    def __str__(self) -> str:
        """A picture of the visible tiles, laid out as on the table (`.` for empty)."""
        cells = [["" for _ in range(4)] for _ in range(4)]
        for square, (row, col) in GRID.items():
            top = self.top(square)
            cells[row][col] = str(top) if top else "."
        width = max(len(c) for row in cells for c in row)
        return "\n".join(" ".join(c.ljust(width) for c in row).rstrip() for row in cells)
