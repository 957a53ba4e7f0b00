"""A long recorded game, for the benchmarks that read journals back."""

from __future__ import annotations

import random
from pathlib import Path

from companion.game.journal import Journal, start_record, turn_record
from engine import ALL_TILES, Board, Game


def long_journal(path: Path, seed: int = 2) -> tuple[Journal, Game]:
    """A three-player game to its end (every turn a one-tile placement or a swap, the bag
    clean-ups included), written to `path`: about 300 records; the journal and the game."""
    journal = Journal(path)
    game = Game(
        ["S", "W", "N"], board=Board.from_mapping({"NW": ["star-1"]}), options={"end": "equal"}
    )
    journal.append(start_record(game))
    rng = random.Random(seed)
    for _ in range(300):
        free = [t for t in ALL_TILES if t not in game.board]
        move = next(
            (
                [(square, tile)]
                for tile in rng.sample(free, len(free))
                for square in sorted(game.seating.allowed(game.active))
                if game.preview([(square, tile)]).legal
            ),
            None,
        )
        side = game.active
        result = game.place(move) if move else game.swap()
        journal.append(turn_record(side, move or (), result if move else None))
        if game.finished:
            break
        if game.needs_return:
            journal.append({"type": "return", "tiles": sorted(map(str, game.board.covered()))})
            game.return_covered()
    return journal, game
