"""Engine scoring speed on random positions: placements/s and the p99 of one placement."""

from __future__ import annotations

import random
import time

from benchmarks.figure import Figure, percentile
from engine import ALL_TILES, GEOMETRIES, SQUARES, Board, Options, Seating, score_placement


def random_positions(count: int, seed: int = 1) -> list[tuple]:
    """Boards dense in sets, with placements laid along a walk of the board's lines."""
    rng = random.Random(seed)
    g = GEOMETRIES["default"]
    positions = []
    while len(positions) < count:
        walk = [rng.choice(SQUARES)]
        for _ in range(rng.randint(1, 4)):
            nxt = [sq for sq in SQUARES if g.joined(walk[-1], sq) and sq not in walk]
            if nxt:
                walk.append(rng.choice(nxt))
        if rng.random() < 0.5:
            rank = rng.randint(1, 10)
            tiles = [t for t in ALL_TILES if t.rank == rank]
            rng.shuffle(tiles)
        else:
            suit = rng.choice(["star", "heart", "diamond", "club", "spade"])
            low = rng.randint(1, 11 - len(walk))
            tiles = [t for t in ALL_TILES if t.suit == suit and low <= t.rank]
        line = list(zip(walk, tiles))
        placed = [p for p in line if rng.random() < 0.5] or line[:1]
        others = [t for t in ALL_TILES if t not in tiles]
        rng.shuffle(others)
        stacks = {sq: [t] for sq, t in line if (sq, t) not in placed}
        for sq in SQUARES:
            if sq not in stacks and sq not in walk and rng.random() < 0.6:
                stacks[sq] = [others.pop(), others.pop()]
        positions.append((Board(stacks), placed))
    return positions


def run() -> list[Figure]:
    positions = random_positions(5000)
    seating, options = Seating(("N", "S")), Options()
    samples = []
    legal = 0
    for board, placement in positions:
        active = "N" if placement[0][0][0] != "S" else "S"
        started = time.perf_counter()
        result = score_placement(board, placement, seating, active, options)
        samples.append(time.perf_counter() - started)
        legal += result.legal
    total = sum(samples)
    return [
        Figure("engine: placements scored per second", len(samples) / total, "1/s", higher=True),
        Figure("engine: scoring p50", percentile(samples, 50) * 1e6, "us"),
        Figure("engine: scoring p99", percentile(samples, 99) * 1e6, "us", target=100),
        Figure("engine: legal share of the random placements", 100 * legal / len(samples), "%"),
    ]
