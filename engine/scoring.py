"""Sets and the scoring of one placement.

Tiles are unique, which makes sets simple to find exactly:
- the same-rank sets through a tile are the simple paths through it among visible tiles of
  its rank, so their union is the tile's connected component among those tiles;
- a run through a tile of rank r continues only through the one tile of rank r+1 of its suit
  (and r-1 below), so the runs through it are sub-runs of one chain, and their union is that
  chain.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import Board
from engine.geometry import GEOMETRIES, SQUARE_INDEX, Geometry, owner
from engine.options import Options
from engine.placement import Placement
from engine.results import Illegal, ScoredSet, Scoring
from engine.seating import Seating
from engine.tiles import SUITS, Tile

MAX_TILES_PER_TURN = 8
DEFAULT_OPTIONS = Options()

_SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}

#: What the scoring reads: a `Placement`, or any sequence of `(square, tile)` pairs.
Pairs = Sequence[tuple[str, Tile]]
Tops = Sequence[Tile | None]


def _rank_component(start: int, tops: Tops, adjacent: Sequence[tuple[int, ...]]) -> list[int]:
    rank = tops[start].rank  # type: ignore[union-attr]
    found = [start]
    for i in found:  # grows while we walk it: a breadth-first search
        for j in adjacent[i]:
            tile = tops[j]
            if tile is not None and tile.rank == rank and j not in found:
                found.append(j)
    return found


def _run_chain(
    start: int, tops: Tops, where: dict[tuple[str, int], int], neighbours: Sequence[int]
) -> list[int]:
    """Squares of the longest run through `start`, ordered by rank."""
    tile = tops[start]
    assert tile is not None
    suit = tile.suit
    up: list[int] = []
    down: list[int] = []
    for step, chain in ((1, up), (-1, down)):
        at, rank = start, tile.rank + step
        while 1 <= rank <= 10:
            j = where.get((suit, rank))
            if j is None or not neighbours[at] >> j & 1:
                break
            chain.append(j)
            at, rank = j, rank + step
    down.reverse()
    return [*down, start, *up]


def _visible_index(tops: Tops) -> dict[tuple[str, int], int]:
    """(suit, rank) -> square index of the visible tiles (plain tuples hash fastest)."""
    return {(tile.suit, tile.rank): i for i, tile in enumerate(tops) if tile is not None}


def _groups_through(
    tops: Tops, new: Sequence[int], geometry: Geometry, where: dict[tuple[str, int], int]
) -> tuple[set[int], dict[tuple[str, frozenset[int]], list[int]]]:
    union: set[int] = set()
    found: dict[tuple[str, frozenset[int]], list[int]] = {}
    for i in new:
        group = _rank_component(i, tops, geometry.adjacent)
        if len(group) > 1:
            union.update(group)
            found.setdefault(("rank", frozenset(group)), group)
        chain = _run_chain(i, tops, where, geometry.neighbours)
        if len(chain) > 1:
            union.update(chain)
            found.setdefault(("run", frozenset(chain)), chain)
    return union, found


def _as_sets(
    tops: Tops, found: dict[tuple[str, frozenset[int]], list[int]]
) -> tuple[ScoredSet, ...]:
    sets = []
    for (kind, _), squares in found.items():
        tiles = [tops[j] for j in squares]
        if kind == "rank":
            tiles.sort(key=lambda t: _SUIT_ORDER[t.suit])  # type: ignore[union-attr]
        sets.append(ScoredSet(kind, tuple(tiles)))  # type: ignore[arg-type]
    return tuple(sets)


def _path_covering(targets: set[int], candidates: list[int], neighbours: Sequence[int]) -> bool:
    """Is there a simple path among `candidates` that visits every square in `targets`?"""
    goal = 0
    for t in targets:
        goal |= 1 << t

    def extend(end: int, visited: int) -> bool:
        if visited & goal == goal:
            return True
        for j in candidates:
            if not visited >> j & 1 and neighbours[end] >> j & 1 and extend(j, visited | 1 << j):
                return True
        return False

    return any(extend(s, 1 << s) for s in candidates)


def _one_set(
    tops: Tops, placed: Sequence[int], geometry: Geometry, where: dict[tuple[str, int], int]
) -> bool:
    """Do the tiles on the `placed` squares (two or more) all lie in one set (a path)?"""
    tiles = [tops[i] for i in placed]
    first = tiles[0]
    assert first is not None
    if all(t.rank == first.rank for t in tiles):  # type: ignore[union-attr]
        candidates = [i for i, t in enumerate(tops) if t is not None and t.rank == first.rank]
        return _path_covering(set(placed), candidates, geometry.neighbours)
    if all(t.suit == first.suit for t in tiles):  # type: ignore[union-attr]
        ranks = [t.rank for t in tiles]  # type: ignore[union-attr]
        previous = None
        for rank in range(min(ranks), max(ranks) + 1):
            j = where.get((first.suit, rank))
            if j is None or (previous is not None and not geometry.neighbours[previous] >> j & 1):
                return False
            previous = j
        return True
    return False


def check_placement(
    board: Board, placement: Pairs, seating: Seating, active: str, options: Options
) -> Illegal | None:
    """Why this placement on this board is illegal, or None if it is legal so far
    (the set rules are checked by `score_placement`)."""
    if not placement:
        return Illegal("no-tiles", "No tile was placed. Placing nothing is a swap, not a set.")
    if len(placement) > MAX_TILES_PER_TURN:
        return Illegal(
            "too-many-tiles",
            f"You placed {len(placement)} tiles, but at most {MAX_TILES_PER_TURN} may be placed in one turn.",
        )
    seen: set[Tile] = set()
    for square, tile in placement:
        if square not in SQUARE_INDEX:
            return Illegal(
                "unknown-square",
                f"{square!r} is not a square of the board.",
                squares=(str(square),),
            )
        if tile in seen:
            return Illegal(
                "duplicate-tile",
                f"The {tile} was placed twice; every tile exists only once.",
                tiles=(tile,),
            )
        seen.add(tile)
        if tile in board:
            return Illegal(
                "tile-on-board",
                f"The {tile} is already on the board, on {board.square_of(tile)}.",
                tiles=(tile,),
                squares=(board.square_of(tile),),  # type: ignore[arg-type]
            )
    allowed = seating.allowed(active, options.partner_squares)
    for square, tile in placement:
        if square not in allowed:
            whose = "another player's"
            if owner(square) == seating.partner(active):
                whose = "your partner's"
            return Illegal(
                "forbidden-square",
                f"{square} is {whose} bonus square: you may not place the {tile} there.",
                tiles=(tile,),
                squares=(square,),
            )
    return None


def score_placement(
    board: Board,
    placement: Pairs,
    seating: Seating,
    active: str,
    options: Options = DEFAULT_OPTIONS,
) -> Scoring | Illegal:
    """Scores `placement` (tiles in placing order) by `active` on `board` (before placing)."""
    illegal = check_placement(board, placement, seating, active, options)
    if illegal:
        return illegal
    after = board.placed(placement)
    tops = after.tops()
    placed = [SQUARE_INDEX[sq] for sq, _ in placement]
    for square, tile in placement:
        if tops[SQUARE_INDEX[square]] != tile:
            return Illegal(
                "not-one-set",
                f"The {tile} was covered by another tile in the same turn, so it is not in a set.",
                tiles=(tile,),
                squares=(square,),
            )
    geometry = GEOMETRIES[options.adjacency]
    where = _visible_index(tops)
    union, found = _groups_through(tops, placed, geometry, where)
    legal = len(union) > 1 if len(placed) == 1 else _one_set(tops, placed, geometry, where)
    if not legal:
        return _not_one_set(placement)
    bonus: dict[str, int] = {}
    extra = 0
    owners = seating.owners
    for i in union:
        side = owners[i]
        if side is None:
            continue
        if side != active:
            bonus[side] = bonus.get(side, 0) + 1
        elif options.own_bonus:
            extra += 1
    return Scoring(
        active=active,
        points=len(union) + extra,
        bonus=bonus,
        scored=tuple(sorted(tops[i] for i in union)),  # type: ignore[type-var]
        sets=_as_sets(tops, found),
        placed=Placement.trusted(placement),
    )


def _not_one_set(placement: Pairs) -> Illegal:
    tiles = tuple(tile for _, tile in placement)
    squares = tuple(sq for sq, _ in placement)
    if len(tiles) == 1:
        message = f"The {tiles[0]} is not part of a set: it needs a neighbour of the same number or the next number of its suit."
    elif len({t.rank for t in tiles}) > 1 and len({t.suit for t in tiles}) > 1:
        message = f"The {' and the '.join(map(str, tiles))} are neither all the same number nor all one suit."
    else:
        message = f"The {' and the '.join(map(str, tiles))} are not joined in one set along the lines of the board."
    return Illegal("not-one-set", message, tiles=tiles, squares=squares)
