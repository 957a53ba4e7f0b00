"""Simple players for the demo and the end-to-end tests: they look for the placement that
scores most with the tiles they may use, and swap when they find none.

A bot only decides; putting tiles on the (simulated) table and pressing the button is the
demo's job, so the daemon sees a bot exactly as it sees a family.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from engine import Game, Placement, Scoring, Tile


def candidate_placements(game: Game, tiles: Sequence[Tile]) -> list[Placement]:
    """Placements of one tile, and of two or three tiles of one rank or one run, on the
    squares the active player may use. Enough for a lively game, cheap to search."""
    squares = sorted(game.seating.allowed(game.active, game.options.partner_squares))
    out: list[Placement] = [Placement.trusted([(sq, t)]) for t in tiles for sq in squares]
    groups: list[tuple[Tile, ...]] = []
    for size in (2, 3):
        for combo in itertools.combinations(tiles, size):
            same_rank = len({t.rank for t in combo}) == 1
            ranks = sorted(t.rank for t in combo)
            run = len({t.suit for t in combo}) == 1 and ranks == list(
                range(ranks[0], ranks[0] + size)
            )
            if same_rank or run:
                groups.append(combo)
    for combo in groups:
        for where in itertools.permutations(squares, len(combo)):
            out.append(Placement.trusted(zip(where, combo)))
    return out


def best_placement(game: Game, tiles: Sequence[Tile], rng: random.Random) -> Placement | None:
    """The highest scoring legal placement (ties broken by the seeded `rng`), or None."""
    best: list[tuple[int, Placement]] = []
    top = 0
    for placement in candidate_placements(game, tiles):
        result = game.preview(placement)
        if not isinstance(result, Scoring):
            continue
        gain = result.points - sum(result.bonus.values())  # a little spite: bonus helps others
        if gain > top:
            top, best = gain, [(gain, placement)]
        elif gain == top and best:
            best.append((gain, placement))
    if not best:
        return None
    return rng.choice(best)[1]
