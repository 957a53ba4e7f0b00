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
from engine.geometry import GEOMETRIES, SQUARE_INDEX, SQUARES, Geometry
from engine.options import Options
from engine.results import Illegal, ScoredSet, Scoring
from engine.seating import Seating
from engine.tiles import Tile

MAX_TILES_PER_TURN = 8
DEFAULT_OPTIONS = Options()

Placement = Sequence[tuple[str, Tile]]
Tops = Sequence[Tile | None]


def _rank_component(start: int, tops: Tops, neighbours: Sequence[int]) -> list[int]:
    rank = tops[start].rank  # type: ignore[union-attr]
    seen = 1 << start
    todo = [start]
    found = [start]
    while todo:
        i = todo.pop()
        mask = neighbours[i] & ~seen
        while mask:
            low = mask & -mask
            j = low.bit_length() - 1
            mask ^= low
            tile = tops[j]
            if tile is not None and tile.rank == rank:
                seen |= low
                todo.append(j)
                found.append(j)
    return found


def _run_chain(
    start: int, tops: Tops, where: dict[Tile, int], neighbours: Sequence[int]
) -> list[int]:
    """Squares of the longest run through `start`, ordered by rank."""
    tile = tops[start]
    assert tile is not None
    chain = [start]
    for step in (1, -1):
        at, rank = start, tile.rank + step
        while 1 <= rank <= 10:
            j = where.get(Tile(tile.suit, rank))
            if j is None or not neighbours[at] >> j & 1:
                break
            if step == 1:
                chain.append(j)
            else:
                chain.insert(0, j)
            at, rank = j, rank + step
    return chain


def _visible_index(tops: Tops) -> dict[Tile, int]:
    return {tile: i for i, tile in enumerate(tops) if tile is not None}


def sets_through(
    tops: Tops, new: Sequence[int], geometry: Geometry
) -> tuple[set[int], list[ScoredSet]]:
    """The union of all sets containing a tile on one of the `new` squares, and those sets
    (each maximal same-rank group and run once)."""
    where = _visible_index(tops)
    union: set[int] = set()
    found: dict[tuple[str, frozenset[int]], list[int]] = {}
    for i in new:
        group = _rank_component(i, tops, geometry.neighbours)
        if len(group) > 1:
            union.update(group)
            found.setdefault(("rank", frozenset(group)), group)
        chain = _run_chain(i, tops, where, geometry.neighbours)
        if len(chain) > 1:
            union.update(chain)
            found.setdefault(("run", frozenset(chain)), chain)
    sets = [
        ScoredSet(
            kind,
            tuple(
                tops[j]
                for j in (sorted(squares, key=lambda j: tops[j]) if kind == "rank" else squares)
            ),
        )  # type: ignore[misc]
        for (kind, _), squares in found.items()
    ]
    sets.sort(key=lambda s: (s.kind, s.tiles))
    return union, sets


def _path_covering(targets: set[int], candidates: set[int], neighbours: Sequence[int]) -> bool:
    """Is there a simple path among `candidates` that visits every square in `targets`?"""
    if len(targets) == 1:
        return len(candidates) > 1 and any(
            neighbours[next(iter(targets))] >> j & 1 for j in candidates
        )

    def extend(path_end: int, visited: int, remaining: int) -> bool:
        if remaining == 0:
            return True
        for j in candidates:
            if not visited >> j & 1 and neighbours[path_end] >> j & 1:
                left = remaining & ~(1 << j)
                if extend(j, visited | 1 << j, left):
                    return True
        return False

    goal = 0
    for t in targets:
        goal |= 1 << t
    return any(extend(s, 1 << s, goal & ~(1 << s)) for s in candidates)


def one_set(tops: Tops, placed: Sequence[int], geometry: Geometry) -> bool:
    """Do the tiles on the `placed` squares all lie in one common set (a path)?"""
    tiles = [tops[i] for i in placed]
    if len(placed) == 1:
        union, _ = sets_through(tops, placed, geometry)
        return len(union) > 1
    if len({t.rank for t in tiles}) == 1:  # type: ignore[union-attr]
        rank = tiles[0].rank  # type: ignore[union-attr]
        candidates = {i for i, t in enumerate(tops) if t is not None and t.rank == rank}
        return _path_covering(set(placed), candidates, geometry.neighbours)
    if len({t.suit for t in tiles}) == 1:  # type: ignore[union-attr]
        suit = tiles[0].suit  # type: ignore[union-attr]
        ranks = [t.rank for t in tiles]  # type: ignore[union-attr]
        where = _visible_index(tops)
        previous = None
        for rank in range(min(ranks), max(ranks) + 1):
            j = where.get(Tile(suit, rank))
            if j is None or (previous is not None and not geometry.neighbours[previous] >> j & 1):
                return False
            previous = j
        return True
    return False


def check_placement(
    board: Board, placement: Placement, seating: Seating, active: str, options: Options
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
    allowed = seating.allowed(active, options)
    for square, tile in placement:
        if square not in allowed:
            owner = square[0]
            whose = "your partner's" if owner == seating.partner(active) else "another player's"
            return Illegal(
                "forbidden-square",
                f"{square} is {whose} bonus square: you may not place the {tile} there.",
                tiles=(tile,),
                squares=(square,),
            )
    return None


def score_placement(
    board: Board,
    placement: Placement,
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
    if not one_set(tops, placed, geometry):
        return _not_one_set(placement)
    union, sets = sets_through(tops, placed, geometry)
    bonus: dict[str, int] = {}
    extra = 0
    for i in union:
        owner = seating.bonus_owner(SQUARES[i])
        if owner is None:
            continue
        if owner != active:
            bonus[owner] = bonus.get(owner, 0) + 1
        elif options.own_bonus:
            extra += 1
    return Scoring(
        active=active,
        points=len(union) + extra,
        bonus=bonus,
        scored=tuple(sorted(tops[i] for i in union)),  # type: ignore[type-var]
        sets=tuple(sets),
        placed=tuple(placement),
    )


def _not_one_set(placement: Placement) -> Illegal:
    tiles = tuple(tile for _, tile in placement)
    squares = tuple(sq for sq, _ in placement)
    if len(tiles) == 1:
        message = f"The {tiles[0]} is not part of a set: it needs a neighbour of the same number or the next number of its suit."
    elif len({t.rank for t in tiles}) > 1 and len({t.suit for t in tiles}) > 1:
        message = f"The {' and the '.join(map(str, tiles))} are neither all the same number nor all one suit."
    else:
        message = f"The {' and the '.join(map(str, tiles))} are not joined in one set along the lines of the board."
    return Illegal("not-one-set", message, tiles=tiles, squares=squares)
