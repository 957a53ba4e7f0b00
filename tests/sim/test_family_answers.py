"""The simulated family answers the daemon's questions as docs/family.md says, from what a
person at the table knows and sees (`companion.sim.family.answer_questions`)."""

import dataclasses

from companion.game.view import (
    Correction,
    NotScored,
    Question,
    Reply,
    SeatView,
    ShowFirst,
    SwapQuestion,
    TableView,
)
from companion.sim.family import (
    NOTICE_KINDS,
    DoublePress,
    Hold,
    Press,
    Show,
    Situation,
    announces,
    answer_questions,
    kind,
    show_first,
)
from tests.helpers import tile

ASKED_TILE = Question("S", "NE", tile("star-2"), (Reply.THERE, Reply.WITHOUT))


def seeing(notice, where: dict[str, str], laid=(), active="S") -> Situation:
    view = TableView("playing", notices=(notice,))
    return Situation(
        view,
        active,
        tuple((sq, tile(t)) for sq, t in laid),
        where={tile(t): sq for t, sq in where.items()},
    )


def test_a_tile_asked_about_is_there_one_press_it_is_not_two():
    assert answer_questions(seeing(ASKED_TILE, {"star-2": "NE"})) == (Press("S"),)
    assert answer_questions(seeing(ASKED_TILE, {"star-2": "SE"})) == (DoublePress("S"),)
    assert answer_questions(seeing(ASKED_TILE, {})) == (DoublePress("S"),)  # in the hand


def test_only_the_player_asked_answers():
    assert answer_questions(seeing(ASKED_TILE, {"star-2": "NE"}, active="N")) == ()


def test_a_tile_for_a_square_the_readers_cannot_see_is_shown_first():
    """docs/family.md: before laying a tile on a square the display names as one the
    readers cannot see, hold it a moment over an empty square."""
    where = {"heart-5": "NW", "club-7": "SW", "spade-9": "SE"}
    named = ShowFirst("S", ("NE", "SE"))
    situation = seeing(named, where)
    (show,) = show_first(situation, "NE", tile("star-2"))
    assert (show,) == show_first(situation, "NE", tile("star-2"))  # the same gesture again
    assert isinstance(show, Show) and show.tile == tile("star-2")
    assert show.over not in where.values() and 0.6 <= show.seconds <= 2.0  # an empty square
    assert show_first(situation, "W1", tile("star-2")) == ()  # the readers see W1
    assert show_first(seeing(ShowFirst("N", ("NE",)), where), "NE", tile("star-2")) == ()


def test_the_starter_presses_for_a_start_tile_that_lies_there_else_says_it_does_not():
    asked = Question("S", "SW", tile("club-3"), (Reply.START, Reply.WITHOUT))
    assert answer_questions(seeing(asked, {"club-3": "SW"}, active=None)) == (Press("S"),)
    again = answer_questions(seeing(asked, {"club-3": "W1"}, active=None))
    assert again == (DoublePress("S"),)


def test_a_press_not_scored_is_pressed_again():
    said = NotScored("S", "lifted", "E2", tile("spade-1"))
    assert answer_questions(seeing(said, {})) == (Press("S"),)


def test_a_question_is_a_question_and_a_press_not_scored_is_news():
    assert kind(ASKED_TILE) == "question" and kind(ShowFirst("S", ("NE",))) == "info"
    assert NOTICE_KINDS[NotScored] == "info"


def test_a_correction_is_confirmed_only_where_the_tile_does_lie_else_refused():
    """... by a player not to move (the press of the player to move ends their turn):
    the player of that turn, or, theirs to move, another."""
    shown = Correction(1, "S", tile("club-4"), ("SW", "SE"), 3, 4)
    assert answer_questions(seeing(shown, {"club-4": "SE"}, active="N")) == (Press("S"),)
    refused = answer_questions(seeing(shown, {"club-4": "SW"}, active="N"))
    assert refused == (DoublePress("S"),)  # two presses: it lies where it was scored
    theirs = seeing(shown, {"club-4": "SE"}, active="S")
    seats = (SeatView("S", "yellow", 0, 31, True), SeatView("N", "red", 0, 31, False))
    theirs = dataclasses.replace(theirs, view=dataclasses.replace(theirs.view, seats=seats))
    assert answer_questions(theirs) == (Press("N"),)
    assert kind(shown) == "correction"
    assert announces(shown, "S", frozenset({("SE", tile("club-4"))}))
    assert not announces(shown, "N", frozenset({("SE", tile("club-4"))}))


def test_nothing_seen_is_a_swap_pressed_or_tiles_laid_held_then_shown_again():
    """docs/family.md "Nothing seen: swap?": a press if the player swapped, a hold if they
    laid tiles; then, told nothing they laid was seen, each one is held over an empty
    square and laid back, and the player presses again."""
    asked = SwapQuestion("S", ("NE",))
    assert answer_questions(seeing(asked, {})) == (Press("S"),)
    laid = [("NE", "spade-10")]
    where = {"spade-10": "NE", "club-10": "SW"}
    assert answer_questions(seeing(asked, where, laid)) == (Hold("S"),)
    assert answer_questions(seeing(asked, where, laid, active="N")) == ()
    show, press = answer_questions(seeing(NotScored("S", "unseen"), where, laid))
    assert isinstance(show, Show) and show.tile == tile("spade-10")
    assert show.over not in where.values() and press == Press("S")
    assert kind(asked) == "question"


def test_not_legal_is_acted_on_before_the_note_under_it():
    """With "not legal" on the display, the family takes back the tile laid by mistake; the
    note "not confirmed: your press will ask" under it is not what they read first."""
    from companion.game.view import IllegalMove, Unconfirmed
    from companion.sim.family import TakeOff
    from engine import Illegal

    illegal = IllegalMove("S", Illegal("not-one-set", "not one set", (tile("diamond-1"),)))
    view = TableView("playing", notices=(illegal, Unconfirmed("S", (tile("diamond-1"),))))
    laid = (("NE", tile("star-6")), ("NW", tile("diamond-1")))
    situation = Situation(view, "S", laid, (tile("diamond-1"),))
    assert answer_questions(situation) == (TakeOff(tile("diamond-1")),)
