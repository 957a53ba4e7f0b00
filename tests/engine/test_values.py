"""The engine's small values: placements and moves read and write themselves back."""

import pytest

from engine import (
    Game,
    Placed,
    Placement,
    PlacementError,
    Returned,
    Seating,
    Swapped,
    Tile,
)
from engine.geometry import SQUARES, owner
from tests.engine.helpers import T, board


def test_a_placement_parses_prints_and_evaluates_back():
    p = Placement.parse("N1 star-3, SE star-5")
    assert p == (("N1", T("star-3")), ("SE", T("star-5")))
    assert str(p) == "N1 star-3, SE star-5"
    assert repr(p) == "Placement.parse('N1 star-3, SE star-5')"
    assert eval(repr(p)) == p
    assert p.to_json() == [["N1", "star-3"], ["SE", "star-5"]]
    assert Placement.from_json(p.to_json()) == p
    assert p.squares == ("N1", "SE") and p.tiles == (T("star-3"), T("star-5"))
    assert Placement.parse("") == Placement() == () and str(Placement()) == ""


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("N9 star-3", "unknown-square"),
        ("N1 star-11", "bad-tile"),
        ("N1", "bad-input"),
        ("N1 star-3 SE star-5", "bad-input"),
        ("N1 star-3,", "bad-input"),
    ],
)
def test_a_text_that_is_not_a_placement_says_why(text, code):
    with pytest.raises(PlacementError) as caught:
        Placement.parse(text)
    assert caught.value.illegal.code == code


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"N1": "star-3"}, "bad-input"),
        ([["N1", "star-3", "x"]], "bad-input"),
        ([[["N1"], "star-3"]], "unknown-square"),
        ([["N1", 3]], "bad-tile"),
    ],
)
def test_json_that_is_not_a_placement_says_why(data, code):
    with pytest.raises(PlacementError) as caught:
        Placement.from_json(data)
    assert caught.value.illegal.code == code
    assert isinstance(caught.value, ValueError)  # the journal's readers catch ValueError


def test_the_scoring_keeps_the_placement_as_a_placement():
    game = Game(["S", "N"], board=board(NE="star-4"))
    result = game.place(Placement.parse("SE star-5"))
    assert isinstance(result.placed, Placement) and str(result.placed) == "SE star-5"


def test_moves_are_small_types_of_their_own():
    game = Game(["S", "N"], board=board(NE="star-4", NW="club-9"))
    placed = game.place(Placement.parse("SE star-5"))
    assert game.moves[-1] == Placed(placed) and game.moves[-1].side == "S"
    assert game.swap() == Swapped("N") and game.moves[-1].side == "N"
    assert (Placed.kind, Swapped.kind, Returned.kind) == ("place", "swap", "return")
    assert str(Swapped("N")) == "N swaps"
    assert str(Returned((Tile.parse("star-4"),))) == "1 covered tiles back to the bag"


def test_a_bag_return_goes_through_the_same_undo_as_every_move():
    game = Game(["S", "N"], board=board(NE="heart-2 star-4", NW="club-9"))
    before = (game.board, game.scores, game.active, game.turns_taken, game.moves)
    move = game.return_covered()
    assert move == Returned((T("heart-2"),))
    assert game.board == board(NE="star-4", NW="club-9")
    assert game.active == "S" and game.turns_taken == {"S": 0, "N": 0}  # not a turn
    assert game.pop() == move
    assert (game.board, game.scores, game.active, game.turns_taken, game.moves) == before


def test_one_rule_says_who_owns_a_square():
    seating = Seating(("N", "E", "S"))
    for i, square in enumerate(SQUARES):
        side = owner(square)
        assert seating.owners[i] == (side if side in seating.players else None)
        mine_or_common = side in (None, "N", "W")  # W is not played: free for all
        assert (square in seating.allowed("N")) == mine_or_common


@pytest.mark.parametrize(
    "pairs, said",
    [
        ([["star-4"]], 'pair, not ["star-4"]'),
        ([[["N1"], "star-3"]], '["N1"] is not a square'),
        ([["N1", {"suit": "star"}]], 'not {"suit": "star"}'),
    ],
)
def test_bad_input_is_quoted_as_json_not_as_a_python_repr(pairs, said):
    with pytest.raises(PlacementError) as caught:
        Placement(pairs)
    assert said in str(caught.value)
    assert "['" not in str(caught.value) and "{'" not in str(caught.value)
