"""A scored turn proven wrong later, corrected out loud (issue 25).

When the readers show, consistently, that a tile the game scored on one square lies on
another (a crosstalk run that moved it before the press, a tile slid after it), the turn
that placed it is scored again with the tile where it lies: `amended(game, tile, there)`
rebuilds the game with that turn's placement changed and every later move played again
(the engine's exact undo and its own rules: nothing is guessed). The table shows the
difference on every display (`companion.game.view.Correction`) and applies it only once a
player confirms; the journal's "amend" record (`companion.game.journal.amend_record`)
is honoured by resume and `replay` the same way (`replay_amend`). Nothing is rewritten
silently, and a correction the rules cannot make (the turn would not be legal so, or a
later one would not) is not offered.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from engine import Game, Placed, Returned, Scoring, Swapped, Tile


@dataclass(frozen=True)
class Amendment:
    """Turn `turn` (counted as `replay` does: bag returns are not turns), `index` in
    `game.moves`, by `side`: `tile` was scored on `squares[0]` and lies on `squares[1]`;
    `before`/`after` are that turn's scorings, `game` the game as it is once amended."""

    turn: int
    index: int
    side: str
    tile: Tile
    squares: tuple[str, str]
    placed: tuple[tuple[str, Tile], ...]
    before: Scoring
    after: Scoring
    game: Game


def turn_number(game: Game, index: int) -> int:
    """The number `replay` gives the move at `index` (1, 2, ...; returns are not turns)."""
    return 1 + sum(1 for move in game.moves[:index] if not isinstance(move, Returned))


def amended(game: Game, tile: Tile, there: str) -> Amendment | None:
    """The game with the turn that placed `tile` scored with it on `there` instead, or None
    when no turn placed it or the rules cannot play that turn (or a later one) so."""
    moves = game.moves
    index = next(
        (
            i
            for i in range(len(moves) - 1, -1, -1)
            if isinstance(moves[i], Placed) and tile in (t for _, t in moves[i].scoring.placed)
        ),
        None,
    )
    if index is None:
        return None
    before = moves[index]
    assert isinstance(before, Placed)
    where = next(sq for sq, t in before.scoring.placed if t == tile)
    if where == there:
        return None
    placed = tuple((there if t == tile else sq, t) for sq, t in before.scoring.placed)
    copied = replay_amend(game, index, placed)
    if copied is None:
        return None
    after = copied.moves[index]
    assert isinstance(after, Placed)
    return Amendment(
        turn_number(game, index),
        index,
        before.side,
        tile,
        (where, there),
        placed,
        before.scoring,
        after.scoring,
        copied,
    )


def replay_amend(
    game: Game, index: int, placed: tuple[tuple[str, Tile], ...], *, inplace: bool = False
) -> Game | None:
    """`game` with the move at `index` played as `placed` and every later move played again
    (a copy, unless `inplace`); None (and `game` unchanged) if the rules refuse any."""
    target = game if inplace else copy.deepcopy(game)
    later = []
    while len(target.moves) > index:
        later.append(target.pop())
    later.reverse()
    done = 0
    ok = target.place(list(placed)).legal
    if ok:
        done = 1
        for move in later[1:]:
            if target.finished:  # amended, the game would have ended before this move
                ok = False
                break
            if isinstance(move, Placed):
                ok = target.place(list(move.scoring.placed)).legal
            elif isinstance(move, Swapped):
                target.swap()
            else:
                target.return_covered()
            if not ok:
                break
            done += 1
    if ok:
        return target
    if inplace:  # (`done` counts the moves played again, the amended one first)  # put the game back as it was
        for _ in range(done):
            target.pop()
        for move in later:
            if isinstance(move, Placed):
                target.place(list(move.scoring.placed))
            elif isinstance(move, Swapped):
                target.swap()
            else:
                target.return_covered()
    return None
