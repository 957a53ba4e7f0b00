"""A slow, obviously-correct reading of the set rules, to check the fast engine against.

It enumerates every simple path of visible tiles along the board's lines and keeps those
that are sets, exactly as RULES.md words it.
"""

from __future__ import annotations

from engine import GEOMETRIES, SQUARES, Board


def is_set(tiles) -> bool:
    if len(tiles) < 2:
        return False
    if len({t.rank for t in tiles}) == 1:
        return True
    if len({t.suit for t in tiles}) != 1:
        return False
    steps = {b.rank - a.rank for a, b in zip(tiles, tiles[1:])}
    return steps in ({1}, {-1})


def all_sets(board: Board, adjacency: str = "default") -> list[tuple[str, ...]]:
    """Every set on the board as a sequence of squares (each direction once)."""
    g = GEOMETRIES[adjacency]
    visible = [sq for sq in SQUARES if board.top(sq) is not None]
    found = []

    def extend(path):
        tiles = [board.top(sq) for sq in path]
        if len(path) >= 2:
            if not is_set(tiles):
                return  # no longer path through a non-set prefix can be a set
            if path[0] < path[-1]:
                found.append(tuple(path))
        for sq in visible:
            if sq not in path and g.joined(path[-1], sq):
                extend(path + [sq])

    for sq in visible:
        extend([sq])
    return found


def reference_score(after: Board, placed_squares: list[str], adjacency: str = "default"):
    """(one common set?, union of squares of all sets through a placed square)."""
    sets = all_sets(after, adjacency)
    placed = set(placed_squares)
    through = [s for s in sets if placed & set(s)]
    union = set().union(*through) if through else set()
    one = any(placed <= set(s) for s in sets)
    return one, union
