"""Whole games through realistic (seeded) reader faults: players who change their mind, press
too early, stack tiles and clean up the bag, and answer what the display asks as
docs/family.md says. The table's scores must equal the engine's for the placements that
really happened, every turn."""

import random

import pytest

from companion.game.view import DOUBLE_SECONDS, Question, Unconfirmed
from engine import ALL_TILES, Board, Game
from hardware.hub.sim import FaultModel
from tests.helpers import Rig

START = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}


def _random_placement(game: Game, rng: random.Random):
    """A legal placement of one tile, or of two tiles of one rank (None: swap)."""
    free = [t for t in ALL_TILES if t not in game.board]
    squares = sorted(game.seating.allowed(game.active, game.options.partner_squares))
    rng.shuffle(free)
    for t in free[:20]:
        for square in rng.sample(squares, len(squares)):
            if game.preview([(square, t)]).legal:
                placement = [(square, t)]
                mates = [m for m in free if m.rank == t.rank and m != t]
                for mate in mates:
                    for other in squares:
                        two = placement + [(other, mate)]
                        if other != square and game.preview(two).legal and rng.random() < 0.5:
                            return two
                return placement
    return None


def _wait_until_shown(rig: Rig, truth: Board, placement) -> float:
    """Like a player, waits (at most 8 s) until the display shows the tiles really placed,
    with no problem on the board, or says which tiles the readers lost (`Unconfirmed`: the
    press asks about them); returns how long that took."""
    started = rig.now
    while rig.now - started < 8.0:
        tracker = rig.table.tracker
        lost = {t for n in rig.view().notices if isinstance(n, Unconfirmed) for t in n.tiles}
        believed = {(sq, t) for sq, t in tracker.placement if t not in lost}
        shown = believed == {(sq, t) for sq, t in placement if t not in lost}
        if shown and not tracker.problems(rig.now) and (lost or tracker.board == truth):
            return rig.now - started
        rig.sweep(1)
    raise AssertionError(f"after 8 s the table shows {tracker.placement}, not {placement}")


def _press_until_taken(rig: Rig, side: str, truth: Board) -> None:
    """Presses, and watches the display until the turn is taken (at most 5 s, and as long
    as it asks): a press the readers do not support at once is confirmed by the next
    sweeps; a question is answered from what lies on the table (`truth`): one press if
    the tile lies there, two if not."""
    moves = len(rig.table.game.moves)
    rig.press(side)
    waited = 0
    while waited < 50:
        if len(rig.table.game.moves) > moves:
            return
        asked = [n for n in rig.view().notices if isinstance(n, Question) and n.side == side]
        if asked and not asked[0].pressed:
            rig.press(side)
            if asked[0].tile not in truth.stack(asked[0].square):
                rig.sweep(1)  # (well within DOUBLE_SECONDS)
                assert rig.now - rig.table._first_answer[1] < DOUBLE_SECONDS
                rig.press(side)
            waited = 0
        rig.sweep(1)
        waited += 1
    raise AssertionError(f"the press was not taken: {rig.view().notices}")


@pytest.mark.parametrize("seed", range(6))
def test_realistic_games_score_exactly(tmp_path, seed):
    rng = random.Random(seed)
    rig = Rig(tmp_path, FaultModel.realistic(), seed)
    rig.setup(START)
    rig.sweep(5)
    rig.start("S", "W", "N")
    reference = Game(["S", "W", "N"], board=Board.from_mapping(START))
    worst = 0.0  # the longest a player had to wait for the display to show the true placement
    for _ in range(40):
        if reference.finished:
            break
        side = reference.active
        placement = _random_placement(reference, rng)
        if placement and rng.random() < 0.3:  # a tile put down and taken back again
            decoy = next(
                t
                for t in ALL_TILES
                if t not in reference.board and t not in dict(placement).values()
            )
            rig.put(placement[0][0], str(decoy))
            rig.sweep(3)
            assert rig.lift(placement[0][0]) == decoy
            rig.seconds(3)
            _wait_until_shown(rig, reference.board, ())  # the player sees it is gone
        for square, t in placement or ():
            rig.put(square, str(t))
            rig.sweep(3)
        truth = reference.board.placed(placement or ())
        waited = _wait_until_shown(rig, truth, placement or ())
        worst = max(worst, waited)
        _press_until_taken(rig, side, truth)
        if placement:
            assert reference.place(placement).legal
        else:
            reference.swap()
        assert rig.table.game.scores == reference.scores
        if placement and rng.random() < 0.15:  # taken back: the tiles leave, then again
            rig.press(rng.choice(reference.players), long=True)
            reference.pop()
            assert rig.table.game.scores == reference.scores
            for square, _ in reversed(placement):
                rig.lift(square)
            _wait_until_shown(rig, reference.board, ())
            for square, t in placement:
                rig.put(square, str(t))
                rig.sweep(3)
            worst = max(worst, _wait_until_shown(rig, truth, placement))
            _press_until_taken(rig, side, truth)
            reference.place(placement)
            assert rig.table.game.scores == reference.scores
        if reference.needs_return:
            for t in reference.board.covered():
                rig.remove(str(t))
            rig.seconds(4)
            assert not rig.table.game.needs_return
            reference.return_covered()
        assert rig.table.tracker.board == reference.board
    assert len(reference.moves) >= 10
    assert worst <= 3.0
    assert rig.restart().game.scores == reference.scores
