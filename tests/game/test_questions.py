"""The daemon asks what the readers cannot confirm, and the family answers with the seat
buttons (issue 25, docs/family.md "When the readers cannot see a tile"): each answer is
the family's word, journalled, and the turn ends on it; a press that cannot stand says
why until the next press."""

from __future__ import annotations

from companion.board.word import Said
from companion.game.journal import Journal
from companion.game.table import QUESTION_AFTER
from companion.game.view import DOUBLE_SECONDS, NotScored, Question, Reply, Unsure
from companion.show.screens import Screens
from tests.game.test_what_readers_miss import Scripted, dark
from tests.helpers import tile

TALL = ["club-7", "heart-1", "spade-8", "diamond-6", "heart-10"]
BOARD = {"NW": ["diamond-9"], "NE": TALL, "SW": ["club-10"], "SE": ["spade-9"], "E2": ["star-4"]}
READS = {"NW": "diamond-9", "SW": "club-10", "SE": "spade-9", "E2": "star-4", "NE": "C"}


def star_2_on_the_dark_stack(tmp_path) -> Scripted:
    """S lays star-3 on SE and star-2 on NE (star 2-3-4 along NE, SE, E2: +3); NE's stack
    of six shows star-2 twice as it is laid, then never again (a collision or nothing, its
    bottom tile one sweep in five). The readers cannot tell whether it is still there."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(5, NE=dark(1))
    play.sweep(2, NE="star-2")
    for n in range(30):
        play.sweep(NE=dark(n))
    return play


def asked_of(play: Scripted, side: str) -> list[Question]:
    return [n for n in play.view().notices if isinstance(n, Question) and n.side == side]


def words(play: Scripted) -> list[dict]:
    return [r for r in Journal(play.config.paths.journal).records() if r["type"] == "word"]


def wait(play: Scripted, seconds: float) -> None:
    for n in range(round(seconds / 0.1)):
        play.sweep(NE=dark(n))


def test_a_press_the_readers_cannot_confirm_asks_the_presser_after_a_while(tmp_path):
    play = star_2_on_the_dark_stack(tmp_path)
    assert play.view().seat("S").preview.points == 3
    play.press("S")
    wait(play, 1.0)
    shown = play.view().notices
    assert any(isinstance(n, Unsure) and n.side == "S" for n in shown), shown  # lay it flat
    assert asked_of(play, "S") == []
    wait(play, QUESTION_AFTER)
    assert asked_of(play, "S") == [
        Question("S", "NE", tile("star-2"), (Reply.THERE, Reply.WITHOUT))
    ]
    assert play.turns() == []


def test_one_press_says_it_is_there_and_the_turn_is_scored_with_it(tmp_path):
    play = star_2_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, QUESTION_AFTER + 1.0)
    play.press("S")
    wait(play, DOUBLE_SECONDS / 2)
    assert words(play) == [] and play.turns() == []  # a second press may still come
    wait(play, 1.5)
    (word,) = words(play)
    assert (word["said"], word["square"], word["tile"], word["by"]) == ("laid", "NE", "star-2", "S")
    (turn,) = play.turns()
    assert {tuple(p) for p in turn["placed"]} == {("SE", "star-3"), ("NE", "star-2")}
    assert turn["points"] == 3
    assert asked_of(play, "S") == []


def test_two_presses_say_without_it_and_the_rest_is_scored(tmp_path):
    play = star_2_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, QUESTION_AFTER + 1.0)
    play.press("S")
    play.sweep(NE="C")
    play.press("S")  # 0.1 s later: the second of two
    wait(play, 2.0)
    (word,) = words(play)
    assert word["said"] == Said.ABSENT and word["tile"] == "star-2"
    (turn,) = play.turns()
    assert turn["placed"] == [["SE", "star-3"]] and turn["points"] == 2


def test_the_question_is_drawn_on_the_presser_s_display_only(tmp_path):
    play = star_2_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, QUESTION_AFTER + 1.0)
    view = play.view()
    for lang, title, there in (
        ("en", "Question", "Press: it is there"),
        ("it", "Domanda", "Premi: c'è"),
        ("ru", "Вопрос", "Нажать: она там"),
        ("fr", "Question", "Appui\u00a0: elle y est"),
    ):
        canvas = Screens(lang).canvas(view, "S", play.now)
        texts = [text for text, _, _ in canvas.texts]
        assert texts[0] == title and there in texts and "★2" in " ".join(texts), texts
        assert canvas.overflow == []
        other = [text for text, _, _ in Screens(lang).canvas(view, "N", play.now).texts]
        assert title not in other


# -- a square that does not answer: show the tile -----------------------------------------
def test_a_square_that_does_not_answer_is_settled_by_showing_the_tile(tmp_path):
    """S lays star-3 on SE and presses; NE (a tall stack) has gone silent since the press,
    so a tile laid there would be missed: the question asks which tile lies there, if any.
    S lifts star-2 from NE, shows it over W1 (empty) a moment, lays it back on NE: it
    lies on NE by S's word, and the turn is scored with it."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.reads["SE"] = ["spade-9", "star-3"]
    play.reads["NE"] = "-"  # silent from here on
    play.sweep(20)
    play.press("S")
    play.seconds(QUESTION_AFTER + 1.0)
    (asked,) = asked_of(play, "S")
    assert asked.square == "NE" and asked.tile is None and Reply.SHOW in asked.answers
    play.seconds(1.0, W1="star-2")  # shown over W1 ...
    play.seconds(3.0)  # ... and laid back on NE, silent
    (word,) = words(play)
    assert (word["said"], word["square"], word["tile"]) == ("laid", "NE", "star-2")
    play.seconds(1.0)
    (turn,) = play.turns()
    assert {tuple(p) for p in turn["placed"]} == {("SE", "star-3"), ("NE", "star-2")}
    assert turn["points"] == 3


def test_a_square_that_does_not_answer_is_settled_as_shown_by_one_press(tmp_path):
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.reads["SE"] = ["spade-9", "star-3"]
    play.reads["NE"] = "-"
    play.sweep(20)
    play.press("S")
    play.seconds(QUESTION_AFTER + 1.0)
    play.press("S")  # nothing new on NE
    play.seconds(1.0)
    (word,) = words(play)
    assert (word["said"], word["square"], word["tile"]) == ("laid", "NE", "heart-10")
    (turn,) = play.turns()
    assert turn["placed"] == [["SE", "star-3"]] and turn["points"] == 2


# -- the start ------------------------------------------------------------------------------
START = {"NW": "star-8", "NE": "diamond-9", "SW": "heart-9", "SE": "diamond-1"}


def test_a_start_tile_the_readers_see_once_asks_the_starter_who_holds_to_start(tmp_path):
    """SE's start tile was seen once, as it was laid, and its reader falls silent: the
    start is refused with what to do, then the starter is asked; holding again says it
    lies there and starts the game on it."""
    play = Scripted(tmp_path, {**START, "SE": "-"})
    play.seconds(2.0)
    play.sweep(1, SE="diamond-1")
    for side in ("S", "N"):
        play.press(side)
    play.press("S", long=True)
    assert play.table.game is None
    play.seconds(QUESTION_AFTER + 0.5)
    if play.table.tracker.board.top("SE") is not None:  # (today's belief keeps it)
        (asked,) = asked_of(play, "S")
        assert asked == Question("S", "SE", tile("diamond-1"), (Reply.START,))
        play.press("S", long=True)
        play.seconds(0.5)
        assert play.table.game is not None
        assert play.table.game.board.top("SE") == tile("diamond-1")
        assert words(play)[0]["tile"] == "diamond-1"


# -- item 5 ---------------------------------------------------------------------------------
def test_a_press_dropped_by_a_lift_says_why_until_the_player_presses_again(tmp_path):
    board = {"NW": ["diamond-9"], "NE": ["heart-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    reads = {sq: stack[-1] for sq, stack in board.items()}
    play = Scripted(tmp_path, reads, board, turns=[("S", [("SW", "club-9")])])
    play.reads["SW"] = "club-9"
    play.seconds(1.0)
    play.reads["E1"] = "heart-8"
    play.seconds(1.0)
    play.seconds(1.5, E2="spade-1")
    play.sweep(3)  # spade-1 lifted, then N presses
    play.press("N")
    play.seconds(10.0)
    said = [n for n in play.view().notices if isinstance(n, NotScored)]
    assert said == [NotScored("N", "lifted", "E2", tile("spade-1"))]
    texts = [t for t, _, _ in Screens("en").canvas(play.view(), "N", play.now).texts]
    assert texts[0] == "Not scored" and "press again" in " ".join(texts)
    play.press("N")
    assert not any(isinstance(n, NotScored) for n in play.view().notices)
    play.seconds(2.0)
    (_, turn) = play.turns()
    assert turn["placed"] == [["E1", "heart-8"]] and turn["points"] == 2
