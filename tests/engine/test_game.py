"""The game: turns, undo, the bag, the finish lines, winners and tie-breaks."""

import pytest

from engine import Game, GameOver
from tests.engine.helpers import board, place

START = dict(NW="star-1", NE="heart-1", SW="club-1", SE="spade-1")


def test_turn_order_and_undo_restores_scores():
    game = Game(["S", "N"], board=board(**START))
    assert game.active == "S" and game.finish_line == 31
    r = game.place(place("SE diamond-1"))  # four 1s... SE is covered: spade-1 -> diamond-1
    assert r.legal and game.scores == {"S": r.points, "N": 0}
    assert game.active == "N"
    game.swap()
    assert game.active == "S" and game.turns_taken == {"S": 1, "N": 1}
    game.pop()
    game.pop()
    assert game.scores == {"S": 0, "N": 0} and game.active == "S" and game.board == board(**START)
    with pytest.raises(IndexError):
        game.pop()


def test_an_illegal_turn_changes_nothing_and_the_same_player_moves_again():
    game = Game(["S", "N"], board=board(**START))
    r = game.place(place("N1 star-2"))
    assert not r.legal and r.code == "forbidden-square"
    assert game.active == "S" and game.moves == () and game.scores == {"S": 0, "N": 0}


def test_the_finish_lines():
    assert [Game(p).finish_line for p in (["N", "S"], ["N", "E", "S"], ["N", "E", "S", "W"])] == [
        31,
        27,
        23,
    ]


RING = ["NW", "NE", "SE", "SW"]  # a path through the four common squares


def lay_run(game: Game):
    """The active player covers the four common squares with a run of 4: exactly 4 points."""
    for suit in ("star", "heart", "diamond", "club", "spade"):
        for low in (1, 5):
            tiles = [f"{suit}-{r}" for r in range(low, low + 4)]
            if not any(str(t) in tiles for t in game.board):
                r = game.place(place(*(f"{sq} {t}" for sq, t in zip(RING, tiles))))
                assert r.legal and r.points == 4, r
                if game.needs_return:
                    game.return_covered()
                return
    raise AssertionError("no free run")


def test_first_to_finish_ends_at_once_and_the_furthest_wins():
    game = Game(["N", "S"])
    while not game.finished:
        lay_run(game)
    # both score 4 per turn; N started, so N reaches 32 first, after 8 turns to S's 7
    assert game.scores == {"N": 32, "S": 28}
    assert game.ranking().winner == "N"
    with pytest.raises(GameOver):
        game.swap()
    assert game.preview(place("N1 star-9")).code == "game-over"


def test_equal_turns_plays_the_round_out():
    game = Game(["N", "S"], options={"end": "equal"})
    while not game.finished:
        lay_run(game)
    assert game.scores == {"N": 32, "S": 32}  # S got the last turn of the round
    assert game.turns_taken == {"N": 8, "S": 8}
    # a tie goes to the tied player who placed tiles most recently
    assert game.ranking().winner == "S"


def test_a_tie_at_the_finish_goes_to_the_active_player_who_placed_last():
    game = with_scores(
        Game(["N", "S"], board=board(N1="club-5")), {"N": 30, "S": 29}, finished=False
    )
    game.swap()  # N swaps
    r = game.place(place("NW spade-5"))  # S scores 2 and gives N a bonus point (club-5 on N1)
    assert r.legal and (r.points, r.bonus) == (2, {"N": 1})
    assert game.finished and game.scores == {"N": 31, "S": 31}
    assert game.ranking().winner == "S"


def test_two_bonus_receivers_tied_at_the_finish_go_by_their_latest_placement():
    game = Game(["N", "E", "S"], board=board(E1="heart-6", S1="club-6"))
    game = with_scores(
        game, {"N": 20, "E": 26, "S": 26}, last_placed={"E": 0, "S": 1}, finished=False
    )
    r = game.place(place("SE star-6"))  # N joins the 6s on E1 and S1
    assert (r.points, r.bonus) == (3, {"E": 1, "S": 1})
    assert game.finished and game.scores == {"N": 23, "E": 27, "S": 27}
    assert game.ranking().winner == "S" and game.ranking().order == ("S", "E", "N")
    game.pop()
    game = with_scores(
        game, {"N": 20, "E": 26, "S": 26}, last_placed={"E": 1, "S": 0}, finished=False
    )
    game.place(place("SE star-6"))
    assert game.ranking().winner == "E"


def test_a_tie_nobody_can_break_has_no_winner():
    game = with_scores(Game(["N", "S"]), {"N": 31, "S": 31})
    assert game.ranking().winner is None


def _fields(state):
    return {name: getattr(state, name) for name in state.__slots__}


def four(teams=(("N", "S"), ("E", "W"))):
    return Game(["N", "E", "S", "W"], teams=teams)


def with_scores(game, scores, last_placed=None, finished=True):
    """Puts a game at given scores (white box: reaching them by play would take pages)."""
    s = game._state
    fields = _fields(s)
    fields["scores"] = tuple((p, scores[p]) for p in game.players)
    fields["finish_reached"] = fields["finished"] = finished
    if last_placed:
        fields["last_placed"] = tuple(last_placed.get(p, -1) for p in game.players)
    game._state = s.__class__(**fields)
    return game


def test_team_without_the_last_piece_wins():
    g = with_scores(four(), {"N": 23, "E": 10, "S": 5, "W": 12})
    assert g.ranking().winner_team == 1  # S (team 0) is last
    assert g.ranking().order[0] == "N"


def test_teams_sharing_last_place_go_to_the_first_piece():
    g = with_scores(four(), {"N": 5, "E": 5, "S": 12, "W": 24})
    assert g.ranking().winner_team == 1


def test_teams_sharing_first_and_last_go_to_the_latest_placement():
    g = with_scores(
        four(), {"N": 23, "E": 23, "S": 5, "W": 5}, last_placed={"N": 3, "E": 7, "S": 1, "W": 2}
    )
    assert g.ranking().winner_team == 1
    g = with_scores(four(), {"N": 23, "E": 23, "S": 5, "W": 5}, last_placed={"N": 9, "E": 7})
    assert g.ranking().winner_team == 0


def test_bag_runs_empty_and_covered_tiles_go_back():
    game = Game(["N", "S"], board=board(**START))
    assert (game.hand_tiles, game.bag) == (12, 34)
    # cover the common squares again and again with same-rank quads: 1s, 2s, ...
    suits = ["star", "heart", "club", "spade"]
    rank = 2
    while not game.needs_return:
        r = game.place(
            place(*(f"{sq} {s}-{rank}" for sq, s in zip(["NW", "NE", "SW", "SE"], suits)))
        )
        assert r.legal and r.points == 4
        assert len(game.board) + game.hand_tiles + game.bag == 50
        rank += 1
    assert game.bag == 0 and len(game.board.covered()) > 0
    covered = len(game.board.covered())
    move = game.return_covered()
    assert len(move.returned) == covered and game.board.covered() == ()
    assert game.bag == 50 - 4 - game.hand_tiles
    game.pop()
    assert game.needs_return and len(game.board.covered()) == covered


def test_team_seating_is_checked():
    with pytest.raises(ValueError, match="two teams of two"):
        Game(["N", "E", "S", "W"], teams=[["N", "E", "S"], ["W"]])
    with pytest.raises(ValueError, match="exactly 4 players"):
        Game(["N", "S"], teams=[["N"], ["S"]])
    with pytest.raises(ValueError, match="same side"):
        Game(["N", "N"])
