"""Scoring of single placements: the worked examples of the rule texts, each option, each
illegal code."""

import pytest

from engine import ILLEGAL_CODES, Options, Seating, score_placement
from tests.engine.helpers import T, board, place

NE_ONLY = Seating(("N", "E"))  # S and W unplayed: their squares are common


def score(b, p, seating=NE_ONLY, active="N", **options):
    return score_placement(b, p, seating, active, Options(**options))


def names(tiles):
    return sorted(str(t) for t in tiles)


def test_official_example_star_3_and_5_make_three_sets_for_6_points():
    # star 3-4-5, 5-5-5 (star, spade, club) and 3-3 (star, heart)
    b = board(NE="star-4", S1="spade-5", E2="club-5", N2="heart-3")
    r = score(b, place("N1 star-3", "SE star-5"))
    assert r.legal and r.points == 6
    assert names(r.scored) == ["club-5", "heart-3", "spade-5", "star-3", "star-4", "star-5"]
    assert sorted(map(str, r.sets)) == ["2x3", "3x5", "star 3-5"]
    # E owns E2, on which club-5 lies: one bonus point for E.
    assert r.bonus == {"E": 1}


def test_italian_example_heart_4_and_6_around_the_5_plus_the_4s_for_5_points():
    b = board(NW="heart-5", S2="diamond-4", S1="club-4")
    r = score(b, place("W1 heart-4", "NE heart-6"))
    assert r.legal and r.points == 5
    assert names(r.scored) == ["club-4", "diamond-4", "heart-4", "heart-5", "heart-6"]


def test_french_example_diamond_3_and_4_score_2_for_the_4s_and_3_for_the_run():
    b = board(NE="diamond-5", E1="diamond-6", W2="club-4")
    r = score(b, place("N1 diamond-3", "NW diamond-4"))
    assert r.legal and r.points == 5
    assert names(r.scored) == ["club-4", "diamond-3", "diamond-4", "diamond-5", "diamond-6"]


def test_a_tile_in_several_sets_scores_once():
    b = board(NW="star-4", NE="heart-5")
    r = score(b, place("N1 star-5"))  # N1 touches both: run 4-5 and the pair of 5s
    assert r.points == 3 and len(r.sets) == 2


def test_run_must_be_consecutive_along_the_path():
    # 4-6-5 laid out in that order: N1-N2-E1, and N1 is not joined to E1.
    r = score(board(), place("N1 star-4", "N2 star-6", "E1 star-5"), seating=Seating(("N", "W")))
    assert not r.legal and r.code == "not-one-set"
    # the same three as 4-5-6 along the path are one set
    r = score(board(), place("N1 star-4", "N2 star-5", "E1 star-6"), seating=Seating(("N", "W")))
    assert r.legal and r.points == 3


def test_ten_does_not_wrap_to_one():
    r = score(board(NW="club-10"), place("N1 club-1"))
    assert not r.legal and r.code == "not-one-set"


def test_same_rank_tiles_must_lie_on_one_path_not_just_a_connected_group():
    # SE touches NW, E1 and S2, which do not touch each other: a star, not a path.
    b = board(SE="heart-7")
    seating = Seating(("N", "W"))
    r = score(b, place("NW star-7", "E1 club-7", "S2 spade-7"), seating=seating)
    assert not r.legal and r.code == "not-one-set"
    r = score(b, place("NW star-7", "E1 club-7"), seating=seating)  # NW-SE-E1 is a path
    assert r.legal and r.points == 3


def test_placed_tiles_need_not_touch_each_other():
    b = board(NE="spade-2")
    r = score(b, place("N1 spade-1", "SE spade-3"))  # 1-2-3 through the board's 2
    assert r.legal and r.points == 3


def test_a_lone_tile_without_a_set_is_illegal():
    r = score(board(SW="heart-9"), place("N1 star-3"))
    assert not r.legal and r.code == "not-one-set"
    assert "star-3 is not part of a set" in r.message


def test_mixed_ranks_and_suits_are_not_one_set():
    r = score(board(), place("NW star-3", "NE heart-4"))
    assert not r.legal and r.code == "not-one-set"
    assert "neither all the same number nor all one suit" in r.message


def test_only_visible_tiles_count():
    b = board(NE="star-4 club-9")  # star-4 is covered
    r = score(b, place("NW star-5"))
    assert not r.legal


def test_covering_a_tile_placed_in_the_same_turn_is_illegal():
    b = board(NE="star-4")
    r = score(b, place("NW star-5", "NW star-6"))
    assert not r.legal and r.code == "not-one-set" and "covered" in r.message


def test_covering_a_board_tile_is_fine():
    b = board(NE="star-4", NW="club-9")
    r = score(b, place("NW star-5"))
    assert r.legal and r.points == 2


def test_bonus_goes_to_owners_at_most_two_each():
    seating = Seating(("N", "E", "S", "W"))
    b = board(E1="heart-6", E2="club-6", S1="spade-6", W1="diamond-1")
    r = score(b, place("SE star-6"), seating=seating)
    assert r.legal and r.points == 4
    assert r.bonus == {"E": 2, "S": 1}


def test_no_bonus_for_own_squares_by_default_and_with_the_fan_option():
    b = board(N2="heart-6")
    r = score(b, place("N1 star-6"))
    assert (r.points, r.bonus) == (2, {})
    r = score(b, place("N1 star-6"), own_bonus=True)
    assert (r.points, r.bonus) == (4, {})


def test_unplayed_sides_are_common_squares_and_give_no_bonus():
    b = board(S1="heart-6")
    r = score(b, place("W1 star-6", "S2 club-6"))  # S and W are not played
    assert r.legal and r.points == 3 and r.bonus == {}


def test_opponents_squares_are_forbidden():
    r = score(board(NE="star-4"), place("E1 star-5"))
    assert not r.legal and r.code == "forbidden-square"
    assert r.squares == ("E1",)


def test_partner_squares_forbidden_unless_the_option():
    seating = Seating(("N", "E", "S", "W"), (("N", "S"), ("E", "W")))
    b = board(SE="star-4")
    r = score(b, place("S1 star-5"), seating=seating)
    assert not r.legal and r.code == "forbidden-square" and "partner" in r.message
    r = score(b, place("S1 star-5"), seating=seating, partner_squares=True)
    assert r.legal and r.bonus == {"S": 1}  # the partner gets the bonus like anyone else
    r = score(b, place("E2 star-5"), seating=seating, partner_squares=True)
    assert not r.legal and r.code == "forbidden-square"  # opponents stay forbidden


def test_orthogonal_adjacency_option():
    b = board(NE="star-4")
    assert score(b, place("SW star-5")).legal  # diagonal line
    r = score(b, place("SW star-5"), adjacency="orthogonal")
    assert not r.legal and r.code == "not-one-set"


def test_one_to_eight_tiles():
    eight = place(
        *(
            f"{sq} star-{r}"
            for sq, r in zip(["N1", "N2", "NE", "SE", "S1", "S2", "SW", "W1"], range(1, 9))
        )
    )
    r = score(board(), eight)
    assert r.legal and r.points == 8
    nine = eight + place("W2 star-9")
    r = score(board(), nine)
    assert not r.legal and r.code == "too-many-tiles"
    r = score(board(), [])
    assert not r.legal and r.code == "no-tiles"


def test_tile_already_on_the_board_and_duplicates():
    b = board(NE="star-4 club-2")
    r = score(b, place("NW star-4"))
    assert not r.legal and r.code == "tile-on-board" and r.squares == ("NE",)
    r = score(b, place("NW star-5", "SW star-5"))
    assert not r.legal and r.code == "duplicate-tile"


def test_unknown_square():
    r = score(board(), [("XX", T("star-1"))])
    assert not r.legal and r.code == "unknown-square"


def test_every_illegal_code_is_documented():
    assert {
        "not-one-set",
        "forbidden-square",
        "too-many-tiles",
        "tile-on-board",
        "duplicate-tile",
        "unknown-square",
        "bad-tile",
    } <= set(ILLEGAL_CODES)


@pytest.mark.parametrize("adjacency", ["default", "orthogonal"])
def test_long_run_that_changes_direction(adjacency):
    # 1..6 of hearts snaking around the board
    squares = ["N1", "NW", "SW", "SE", "NE", "N2"]
    b = board(**{sq: f"heart-{i}" for i, sq in enumerate(squares[:-1], 1)})
    r = score(b, place("N2 heart-6"), seating=Seating(("N", "E")), adjacency=adjacency)
    assert r.legal and r.points == 6
