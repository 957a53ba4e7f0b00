"""The daemon asks what the readers cannot confirm, and the family answers with the seat
buttons (issue 25, docs/family.md "When the readers cannot see a tile"): each answer is
the family's word, journalled, and the turn ends on it; a press that cannot stand says
why until the next press."""

from __future__ import annotations

from companion.board.tracker import QUIET_WAIT_SECONDS
from companion.board.word import Said
from companion.game.journal import Journal
from companion.game.table import QUESTION_AFTER
from companion.game.view import (
    DOUBLE_SECONDS,
    NotScored,
    Question,
    Reply,
    ShowFirst,
    SwapQuestion,
    Unconfirmed,
    Unsure,
)
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


def hold_to_start(play: Scripted) -> None:
    """S and N join (a press each) once the readers have read the board, and S holds to
    start."""
    play.seconds(2.0)
    for side in ("S", "N"):
        play.press(side)
    play.press("S", long=True)
    play.seconds(0.5)


def words(play: Scripted) -> list[dict]:
    return [r for r in Journal(play.config.paths.journal).records() if r["type"] == "word"]


def wait(play: Scripted, seconds: float) -> None:
    for n in range(round(seconds / 0.1)):
        play.sweep(NE=dark(n))


def test_a_press_the_readers_cannot_confirm_asks_the_presser_at_once(tmp_path):
    """Before the press S's display says which tile the readers cannot confirm (star-2,
    seen only while it was laid); the press asks about it at once (waiting cannot help on
    a stack the readers cannot see), with no alarm before it."""
    play = star_2_on_the_dark_stack(tmp_path)
    assert play.view().seat("S").preview.points == 3
    assert Unconfirmed("S", (tile("star-2"),)) in play.view().notices
    play.press("S")
    wait(play, 1.0)
    shown = play.view().notices
    assert not any(isinstance(n, Unsure) for n in shown), shown  # no "lay it flat" alarm
    assert asked_of(play, "S") == [
        Question("S", "NE", tile("star-2"), (Reply.THERE, Reply.WITHOUT, Reply.HAND))
    ]
    wait(play, QUESTION_AFTER)
    assert play.turns() == []  # never scored on a guess


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
        ("en", "★2 on NE?", "Press once: it is there"),
        ("it", "★2 su NE?", "Premi una volta: c'è"),
        ("ru", "★2 на NE?", "Нажать раз: она там"),
        ("fr", "★2 sur NE\u00a0?", "Un appui\u00a0: elle y est"),
    ):
        canvas = Screens(lang).canvas(view, "S", play.now)
        texts = [text for text, _, _ in canvas.texts]
        assert texts[0] == title and there in texts and "★2" in " ".join(texts), texts
        assert canvas.overflow == []
        other = [text for text, _, _ in Screens(lang).canvas(view, "N", play.now).texts]
        assert title not in other


# -- a square the readers cannot see: show the tile first -----------------------------------
def test_a_tile_shown_to_a_reader_then_laid_where_none_can_see_is_asked_and_scored(tmp_path):
    """NE (a tall stack) is one the readers cannot see: S's display says so before S lays
    anything. S lays star-3 on SE, shows star-2 over W1 (empty) a moment, then lays it on
    NE, where it is never seen. The display says star-2 is unconfirmed; the press asks
    where it lies, square by square, likeliest first; one press says NE, and the turn is
    scored with it (S's word, journalled)."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    assert any(isinstance(n, ShowFirst) and "NE" in n.squares for n in play.view().notices)
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(10, NE=dark(1))
    play.seconds(1.0, W1="star-2", NE="C")  # shown over W1 ...
    for n in range(40):  # ... and laid on NE, unseen
        play.sweep(NE=dark(n))
    assert Unconfirmed("S", (tile("star-2"),)) in play.view().notices
    play.press("S")
    for _ in range(10):  # at most this many squares to say "not there" about
        wait(play, 0.5)
        (asked,) = asked_of(play, "S")
        assert asked.tile == tile("star-2")
        assert asked.answers == (Reply.THERE, Reply.WITHOUT, Reply.HAND)
        if asked.square == "NE":
            break
        play.press("S")
        play.sweep(NE="C")
        play.press("S")  # two presses: not there
    play.press("S")
    wait(play, 2.0)
    laid = [w for w in words(play) if w["said"] == "laid"]
    assert [(w["square"], w["tile"], w["by"]) for w in laid] == [("NE", "star-2", "S")]
    (turn,) = play.turns()
    assert {tuple(p) for p in turn["placed"]} == {("SE", "star-3"), ("NE", "star-2")}
    assert turn["points"] == 3


def test_a_tile_shown_over_a_single_tile_then_laid_where_none_can_see_is_asked(tmp_path):
    """docs/family.md says a tile may be shown "over an empty square or a low stack": on a
    full board there is no empty square. S shows star-2 over E2 (its star-4 alone), then
    lays it on NE, where it is never seen. Lifted off E2 while star-4 still read, it looked
    taken back into the hand: the press scored star-3 alone, +2 for +3, without a word
    (the soak's weak-tall tables, late in a game). It is asked about, and scored."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(10, NE=dark(1))
    play.seconds(1.0, E2=["star-4", "star-2"], NE="C")  # shown over E2's star-4 ...
    for n in range(40):  # ... and laid on NE, unseen
        play.sweep(NE=dark(n))
    assert Unconfirmed("S", (tile("star-2"),)) in play.view().notices
    play.press("S")
    wait(play, 1.0)
    (asked,) = asked_of(play, "S")
    assert (asked.square, asked.tile) == ("NE", tile("star-2"))
    play.press("S")
    wait(play, 2.0)
    (turn,) = play.turns()
    assert {tuple(p) for p in turn["placed"]} == {("SE", "star-3"), ("NE", "star-2")}
    assert turn["points"] == 3


def test_a_tile_taken_back_off_a_stack_is_not_asked_about_where_none_fits(tmp_path):
    """A tile lifted off a stack whose tile below read, with no square the readers cannot
    see where it could lie, was taken back into the hand: nothing is asked."""
    board = {**BOARD, "NE": ["club-7"]}
    reads = {**READS, "NE": "club-7"}
    play = Scripted(tmp_path, reads, board)
    play.sweep(20)
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(10)
    play.seconds(1.0, E2=["star-4", "star-2"])  # laid on E2, then taken back
    play.sweep(30)
    assert not any(isinstance(n, Unconfirmed) for n in play.view().notices)
    play.press("S")
    wait(play, 1.0)
    assert asked_of(play, "S") == []
    (turn,) = play.turns()
    assert turn["placed"] == [["SE", "star-3"]]


def test_a_hold_just_after_the_readers_ended_a_questioned_turn_is_an_undo(tmp_path):
    """S lays star-3 on SE, seen once; SE then reads its spade-9 alone, so S's press asks
    about star-3. S presses once (it is there); before a second press could follow, SE
    reads star-3 and the turn ends by itself. A hold right away undoes that turn: the
    question went with the turn, the hold is no "it is in a hand" (tests/game/test_soak.py:
    the undo was eaten as that answer, and the scores stayed those of the undone turn)."""
    play = Scripted(tmp_path, {**READS, "NE": TALL[0]}, {**BOARD, "NE": TALL[:1]})
    play.sweep(20)
    play.sweep(1, SE=["spade-9", "star-3"])
    play.sweep(2)
    play.press("S")
    for _ in range(60):
        play.sweep()
        if asked_of(play, "S"):
            break
    (asked,) = asked_of(play, "S")
    assert asked.tile == tile("star-3")
    play.press("S")  # "it is there", the first of what may be two presses
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(3)
    assert len(play.turns()) == 1 and words(play) == []  # the readers ended it
    play.press("N", long=True)
    assert play.table.game is not None and play.table.game.moves == ()
    wait(play, DOUBLE_SECONDS + 0.5)
    assert words(play) == [] and play.table.game.moves == ()  # no late "it is there"


def test_a_press_waits_for_a_square_whose_reader_falls_silent_only_a_moment(tmp_path):
    """S lays star-3 on SE and presses; just then SW's reader falls silent (its club-10
    reads as nothing) for half a minute. The press waited for SW's readings to confirm
    it for good: stuck, nothing shown but "show tiles first" (the soak's everything tables).
    It waits QUIET_WAIT_SECONDS for SW, then scores what the readers confirmed."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(10, NE=dark(1))
    play.reads["SW"] = "-"
    play.press("S")
    for n in range(round((QUIET_WAIT_SECONDS + 1.0) / 0.1)):
        play.sweep(NE=dark(n))
        if play.turns():
            break
    (turn,) = play.turns()
    assert turn["placed"] == [["SE", "star-3"]] and turn["points"] == 2


def test_a_tile_said_not_where_the_readings_moved_it_is_asked_about_where_it_was(tmp_path):
    """S lays spade-10 on E2, empty; E2's reader reads it, then falls silent, while S1
    (E2's diagonal neighbour) sees it through in runs: the readings move it to S1. Said
    not on S1, it was asked about the squares the readers cannot see and the square it
    left, never E2, and the turn was scored without it (the soak's everything tables).
    E2 is asked about too."""
    board = {sq: stack for sq, stack in BOARD.items() if sq != "E2"}
    play = Scripted(tmp_path, {sq: r for sq, r in READS.items() if sq != "E2"}, board)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.sweep(5, NE=dark(1), E2="spade-10")
    for n in range(60):  # E2 silent; S1 sees spade-10 through, in runs
        play.sweep(NE=dark(n), E2="-", S1="spade-10" if n % 10 < 4 else "-")
    play.press("S")
    asked_about = []
    for n in range(400):
        play.sweep(NE=dark(n), E2="-", S1="spade-10" if n % 10 < 4 else "-")
        if play.turns():
            break
        shown = [q for q in asked_of(play, "S") if not q.pressed]
        if shown and len(asked_about) < 12:
            asked = shown[0]
            asked_about.append(asked.square)
            play.press("S")
            if asked.square != "E2":
                play.sweep(NE=dark(n), E2="-")
                play.press("S")  # two presses: not there
            play.seconds(DOUBLE_SECONDS + 0.3, NE=dark(n), E2="-")
    (turn,) = play.turns()
    assert "E2" in asked_about, asked_about
    assert turn["placed"] == [["E2", "spade-10"]], asked_about


# -- the start ------------------------------------------------------------------------------
START = {"NW": "star-8", "NE": "diamond-9", "SW": "heart-9", "SE": "diamond-1"}


def test_a_start_tile_the_readers_see_once_asks_the_starter_who_presses_to_start(tmp_path):
    """SE's start tile was seen once, as it was laid, and its reader falls silent: the
    start is refused with what to do, then the starter is asked; one press says it lies
    there and starts the game on it."""
    play = Scripted(tmp_path, {**START, "SE": "-"})
    play.seconds(2.0)
    play.sweep(1, SE="diamond-1")
    for side in ("S", "N"):
        play.press(side)
    play.press("S", long=True)
    assert play.table.game is None
    play.seconds(QUESTION_AFTER + 0.5)
    (asked,) = asked_of(play, "S")
    assert asked == Question("S", "SE", tile("diamond-1"), (Reply.START, Reply.WITHOUT))
    play.press("S")
    play.seconds(DOUBLE_SECONDS + 0.2)
    assert play.table.game is not None
    assert play.table.game.board.top("SE") == tile("diamond-1")
    assert words(play)[0]["tile"] == "diamond-1"


def test_a_start_tile_the_starter_says_is_not_there_is_left_out(tmp_path):
    """The same, but the tile was taken away: two presses say so; the start board is
    what the readers see (a start question again if the board is still in doubt)."""
    play = Scripted(tmp_path, {**START, "SE": "-"})
    play.seconds(2.0)
    play.sweep(1, SE="diamond-1")
    for side in ("S", "N"):
        play.press(side)
    play.press("S", long=True)
    play.seconds(QUESTION_AFTER + 0.5)
    assert [q.tile for q in asked_of(play, "S")] == [tile("diamond-1")]
    play.press("S")
    play.sweep(1, SE="-")
    play.press("S")  # not there
    play.seconds(0.5)
    assert asked_of(play, "S") == [] and play.table.lobby_teams() is None
    assert "SE" not in play.table.tracker.board.to_mapping()
    assert play.table.joined == ["S", "N"]  # the presses answered; nobody left
    assert [(w["said"], w["tile"]) for w in words(play)] == [("absent", "diamond-1")]


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
    # the readers cannot tell spade-1 taken back from its reader falling silent: the press
    # is not dropped, nor scored on a guess: N is asked, and says so until answered
    (asked,) = asked_of(play, "N")
    assert (asked.square, asked.tile) == ("E2", tile("spade-1"))
    texts = [t for t, _, _ in Screens("en").canvas(play.view(), "N", play.now).texts]
    assert texts[0] == "♠1 on E2?"
    assert Reply.HAND in asked.answers
    play.press("N", long=True)  # a hold: it is in a hand
    play.seconds(2.0)
    (_, turn) = play.turns()
    assert turn["placed"] == [["E1", "heart-8"]] and turn["points"] == 2
    assert asked_of(play, "N") == []  # asked no more about it


def test_a_tile_said_not_there_is_asked_about_where_else_it_may_lie(tmp_path):
    """The same lifted spade-1, answered "not there" (two presses): it may yet lie where
    the readers cannot see (SW, a stack whose new top they cannot confirm, laid there by
    mistake), so that is asked next; "not there" again, and the turn ends without it."""
    board = {"NW": ["diamond-9"], "NE": ["heart-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    reads = {sq: stack[-1] for sq, stack in board.items()}
    play = Scripted(tmp_path, reads, board, turns=[("S", [("SW", "club-9")])])
    play.reads["SW"] = "club-9"
    play.seconds(1.0)
    play.reads["E1"] = "heart-8"
    play.seconds(1.0)
    play.seconds(1.5, E2="spade-1")
    play.sweep(3)
    play.press("N")
    play.seconds(10.0)
    asked = []
    for _ in range(3):
        asked += [(q.square, q.tile) for q in asked_of(play, "N")]
        play.press("N")
        play.sweep(1)
        play.press("N")  # two presses: not there
        play.seconds(2.0)
        if len(play.turns()) == 2:
            break
    assert asked == [("E2", tile("spade-1")), ("SW", tile("spade-1"))]
    (_, turn) = play.turns()
    assert turn["placed"] == [["E1", "heart-8"]] and turn["points"] == 2


def test_a_press_dropped_when_a_pressed_tile_is_seen_taken_says_why(tmp_path):
    """Red (N) lays heart-8 on E1 and spade-1 on the diamond-9 of NW (not one set), presses,
    and lifts spade-1: NW reads diamond-9 again, the tile is clearly gone. The press is
    dropped, and N's display says why until N presses again."""
    board = {"NW": ["diamond-9"], "NE": ["heart-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    reads = {sq: stack[-1] for sq, stack in board.items()}
    play = Scripted(tmp_path, reads, board, turns=[("S", [("SW", "club-9")])])
    play.reads["SW"] = "club-9"
    play.seconds(1.0)
    play.reads["E1"] = "heart-8"
    play.seconds(1.0)
    play.reads["NW"] = ["diamond-9", "spade-1"]
    play.seconds(1.5)
    play.press("N")
    play.reads["NW"] = "diamond-9"  # spade-1 lifted
    play.seconds(5.0)
    said = [n for n in play.view().notices if isinstance(n, NotScored)]
    assert said == [NotScored("N", "lifted", "NW", tile("spade-1"))]
    texts = [t for t, _, _ in Screens("en").canvas(play.view(), "N", play.now).texts]
    assert texts[0] == "Not scored" and "press again" in " ".join(texts)
    play.press("N")
    assert not any(isinstance(n, NotScored) for n in play.view().notices)
    play.seconds(2.0)
    (_, turn) = play.turns()
    assert turn["placed"] == [["E1", "heart-8"]] and turn["points"] == 2


# -- the start board as the rules lay it ----------------------------------------------------
def test_a_start_tile_read_only_through_its_neighbour_is_asked_before_the_start(tmp_path):
    """The start tiles lie one on each common square, but NE's reader misses its heart-5
    while E1's reader sees it through (crosstalk): the readers say heart-5 lies on E1 and
    NE is empty. The game does not start on that board without a word: the starter is
    asked "♥5 on NE?", presses once (it lies there), and the game starts on the board as
    laid, the family's word journalled."""
    start = {"NW": "diamond-9", "NE": "heart-5", "SW": "club-10", "SE": "spade-9"}
    reads = {**start, "NE": "-", "E1": "heart-5"}
    play = Scripted(tmp_path, reads)
    hold_to_start(play)
    assert play.table.game is None
    assert asked_of(play, "S") == [
        Question("S", "NE", tile("heart-5"), (Reply.START, Reply.WITHOUT))
    ]
    play.press("S")  # one press: it lies there, start
    play.seconds(DOUBLE_SECONDS + 0.2)
    game = play.table.game
    assert game is not None
    assert game.board.to_mapping() == {sq: [t] for sq, t in start.items()}
    assert [(w["said"], w["square"], w["tile"]) for w in words(play)] == [("laid", "NE", "heart-5")]


def test_a_middle_square_whose_reader_never_spoke_is_no_start_board(tmp_path):
    """Issue 25, item 2: the fourth start tile lies on SE, whose reader is silent from
    the moment it was laid. A hold must not start the game on three start tiles (the
    fourth would come back inside a player's turn): the starter is told to lay one on SE,
    and the game starts once SE's reader sees it."""
    reads = {"NW": "diamond-9", "NE": "heart-5", "SW": "club-10"}
    play = Scripted(tmp_path, reads)
    hold_to_start(play)
    assert play.table.game is None
    told = [n for n in play.view().notices if isinstance(n, Unsure)]
    assert [(n.side, n.doubt.code, n.doubt.square) for n in told] == [("S", "start-empty", "SE")]
    assert "refused" in play.sounds
    play.reads["SE"] = "spade-9"  # the reader speaks again (the tile laid once more)
    play.seconds(1.0)
    play.press("S", long=True)
    play.seconds(0.5)
    game = play.table.game
    assert game is not None
    assert game.board.to_mapping() == {sq: [t] for sq, t in {**reads, "SE": "spade-9"}.items()}


def test_a_start_board_the_family_says_is_right_still_needs_a_tile_on_each_middle_square(
    tmp_path,
):
    """The same readings, but the family answers "not there" (two presses): heart-5 lies
    on E1 indeed, so NE has no start tile, and the rules lay one on each middle square.
    The next hold does not start the game on three (issue 25, item 2): the starter is told
    to lay one on NE; once its reader sees one, the hold starts it. Nothing is asked
    twice."""
    reads = {"NW": "diamond-9", "E1": "heart-5", "SW": "club-10", "SE": "spade-9"}
    play = Scripted(tmp_path, reads)
    hold_to_start(play)
    assert [q.square for q in asked_of(play, "S")] == ["NE"]
    play.press("S")
    play.sweep(1)
    play.press("S")  # two presses: not there
    play.seconds(1.0)
    play.press("S", long=True)
    play.seconds(0.5)
    assert play.table.game is None
    told = [n for n in play.view().notices if isinstance(n, Unsure)]
    assert [(n.side, n.doubt.code, n.doubt.square) for n in told] == [("S", "start-empty", "NE")]
    assert not asked_of(play, "S")
    play.reads["NE"] = "club-2"  # the family lays a start tile there
    play.seconds(1.0)
    play.press("S", long=True)
    play.seconds(0.5)
    game = play.table.game
    assert game is not None
    assert game.board.to_mapping() == {sq: [t] for sq, t in {**reads, "NE": "club-2"}.items()}


def test_a_hold_while_the_start_question_is_shown_is_not_its_answer(tmp_path):
    """A starter who holds again to start, without reading the display, says nothing about
    the board (stop 31's soak: such a hold said "it lies there" about a tile that lay
    elsewhere, and the game started on a wrong board): the start stays refused and the
    question stands, unanswered, until a press answers it."""
    start = {"NW": "diamond-9", "NE": "heart-5", "SW": "club-10", "SE": "spade-9"}
    play = Scripted(tmp_path, {**start, "NE": "-", "E1": "heart-5"})
    hold_to_start(play)
    asked = Question("S", "NE", tile("heart-5"), (Reply.START, Reply.WITHOUT))
    assert asked_of(play, "S") == [asked]
    for _ in range(3):  # held again and again
        play.press("S", long=True)
        play.seconds(1.0)
    assert play.table.game is None and words(play) == []
    assert asked_of(play, "S") == [asked]
    play.press("S")
    play.seconds(DOUBLE_SECONDS + 0.2)
    assert play.table.game is not None and play.table.game.board.top("NE") == tile("heart-5")


def test_a_start_tile_the_readers_lost_is_laid_again_before_the_game_starts(tmp_path):
    """Issue 25 item 2: SE's start tile was read, then its reader fell silent while E2's
    reader saw it through now and then, until the readers had it nowhere. The game does
    not start on three start tiles: the starter is told to lay a start tile flat on SE;
    once SE reads it, a hold starts the game on all four."""
    start = {"NW": "star-8", "NE": "diamond-9", "SW": "heart-9", "SE": "diamond-1"}
    play = Scripted(tmp_path, start)
    play.seconds(2.0)
    for k in range(11):
        play.seconds(5.0, SE="-", E2="diamond-1" if k % 2 else "-")
    assert "SE" not in play.table.tracker.board.to_mapping()
    for side in ("S", "N"):
        play.press(side)
    for _ in range(2):  # held, and held again
        play.press("S", long=True)
        play.seconds(1.0, SE="-")
        assert play.table.game is None, "started on three start tiles"
        told = [n for n in play.view().notices if isinstance(n, Unsure) and n.side == "S"]
        assert [(u.doubt.code, u.doubt.square) for u in told] == [("start-empty", "SE")]
    play.seconds(2.0)  # SE reads its tile again
    play.press("S", long=True)
    play.seconds(0.5)
    game = play.table.game
    assert game is not None and game.board.to_mapping() == {sq: [t] for sq, t in start.items()}


# -- a press with nothing seen laid while the player may lay where the readers cannot see ----
def spade_10_laid_unseen_on_the_dark_stack(tmp_path) -> Scripted:
    """S lays spade-10 on NE (a stack of five the reader hardly sees: a collision or
    nothing, its bottom tile one sweep in five) without showing it first: no reader ever
    reports it. With club-10 on SW and spade-9 on SE it is +3. The readers saw nothing
    laid."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(30):
        play.sweep(NE=dark(n))
    return play


def swaps_asked(play: Scripted, side: str) -> list[SwapQuestion]:
    return [n for n in play.view().notices if isinstance(n, SwapQuestion) and n.side == side]


def test_a_press_with_nothing_seen_laid_by_a_dark_stack_asks_whether_it_was_a_swap(tmp_path):
    """Stop 30's soak: on tables whose tall stacks read nothing, a tile laid there unseen
    and a press were journalled as a swap, without a word. The press now asks the
    presser "Nothing seen: swap?" (about NE, where S may lay and the readers cannot see);
    nothing is journalled until answered."""
    play = spade_10_laid_unseen_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, 2.0)
    assert swaps_asked(play, "S") == [SwapQuestion("S", ("NE",))]
    assert play.turns() == [] and play.table.game.active == "S"
    texts = [text for text, _, _ in Screens("en").canvas(play.view(), "S", play.now).texts]
    assert texts[:3] == ["Nothing seen: swap?", "Press: a swap", "Hold: I laid tiles"]
    other = [text for text, _, _ in Screens("en").canvas(play.view(), "N", play.now).texts]
    assert swaps_asked(play, "N") == [] and "Nothing seen: swap?" not in other


def test_a_press_says_it_was_a_swap(tmp_path):
    play = spade_10_laid_unseen_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, 1.0)
    play.press("S")
    (turn,) = play.turns()
    assert turn["side"] == "S" and turn["placed"] == []
    assert play.table.game.active == "N" and swaps_asked(play, "S") == []


def test_a_hold_says_tiles_were_laid_and_shown_again_they_are_scored(tmp_path):
    """A hold: "I laid tiles" (not an undo of N's turn). The press does not stand, and
    S's display says to show each tile laid (held over an empty square, laid back). S
    shows spade-10 over W1 and lays it back on NE; the press asks where it lies (W1,
    where it was seen last, then "♠10 on NE?"), S answers, and the turn is +3 with it."""
    play = spade_10_laid_unseen_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, 1.0)
    play.press("S", long=True)
    wait(play, 1.0)
    assert swaps_asked(play, "S") == [] and play.turns() == []
    assert play.table.game.moves == ()  # nothing undone
    said = [n for n in play.view().notices if isinstance(n, NotScored)]
    assert said == [NotScored("S", "unseen")]
    texts = " ".join(t for t, _, _ in Screens("en").canvas(play.view(), "S", play.now).texts)
    assert "over an empty square" in texts, texts
    play.seconds(1.0, W1="spade-10", NE=dark(3))  # shown over W1 ...
    for n in range(10):  # ... and laid back on NE: never seen there
        play.sweep(NE=dark(n))
    play.press("S")
    wait(play, 1.0)
    asked_about = []
    for _ in range(4):  # each question answered as S knows it: on NE, nowhere else
        (asked,) = asked_of(play, "S")
        asked_about.append(asked.square)
        play.press("S")
        if asked.square != "NE":
            play.sweep(NE="C")
            play.press("S")  # two presses: not there
        wait(play, DOUBLE_SECONDS + 1.0)
        if play.turns():
            break
    assert asked_about[-1] == "NE" and asked.tile == tile("spade-10"), asked_about
    (turn,) = play.turns()
    assert turn["placed"] == [["NE", "spade-10"]] and turn["points"] == 3


def test_a_press_just_after_the_start_question_went_is_no_leave(tmp_path):
    """The start question went from the starter's display (its reader saw the tile again)
    just as the starter pressed to answer it: the late answer neither leaves nor joins
    (stop 31's soak: such a press took the starter out of the lobby, and the game then
    started with the players in another order than the family's)."""
    play = Scripted(tmp_path, {**START, "SE": "-"})
    play.seconds(2.0)
    play.sweep(1, SE="diamond-1")
    for side in ("S", "N"):
        play.press(side)
    play.press("S", long=True)
    play.seconds(QUESTION_AFTER + 0.5)
    assert [q.tile for q in asked_of(play, "S")] == [tile("diamond-1")]
    play.seconds(3.0, SE="diamond-1")  # SE reads its tile again: the question goes
    assert asked_of(play, "S") == []
    play.press("S")  # the answer, a moment late
    play.seconds(DOUBLE_SECONDS + 0.2)
    assert play.table.joined == ["S", "N"]
    play.press("S", long=True)
    play.seconds(0.5)
    assert play.table.game is not None and play.table.game.players == ("S", "N")


def test_after_tiles_laid_unseen_a_tile_shown_over_a_single_tile_is_asked_about(tmp_path):
    """With no square empty, a tile said laid unseen ("Hold: I laid tiles") is shown over
    a square of one tile: lifted from there, it is asked about, not taken as taken back
    (stop 31's soak: on a full board the family could show it nowhere, and every press
    asked "a swap?" again until the game was stuck)."""
    play = spade_10_laid_unseen_on_the_dark_stack(tmp_path)
    play.press("S")
    wait(play, 1.0)
    play.press("S", long=True)  # "I laid tiles"
    wait(play, 1.0)
    play.seconds(1.0, SW=["club-10", "spade-10"], NE=dark(3))  # shown over SW's club-10
    for n in range(10):  # ... and laid back on NE: never seen there
        play.sweep(NE=dark(n))
    play.press("S")
    wait(play, 1.0)
    asked_about = []
    for _ in range(4):
        for n in range(50):  # the next question, once the readers had their say
            if asked_of(play, "S") or play.turns():
                break
            if any(isinstance(u, Unconfirmed) for u in play.view().notices):
                play.press("S")  # "not confirmed: your press will ask where"
            play.sweep(NE=dark(n))
        (asked,) = asked_of(play, "S")
        asked_about.append(asked.square)
        play.press("S")
        if asked.square != "NE":
            play.sweep(NE="C")
            play.press("S")  # two presses: not there
        wait(play, DOUBLE_SECONDS + 1.0)
        if play.turns():
            break
    (turn,) = play.turns()
    assert turn["placed"] == [["NE", "spade-10"]] and turn["points"] == 3, asked_about


def test_not_legal_stays_on_the_display_until_the_placement_changes(tmp_path):
    """ "Not legal" is said until the placement it is about changes, not until any belief of
    the board does (stop 31's soak: on tables whose readers churn, a family's word or a
    tile elsewhere took it down before the family could read it, the family pressed
    again, and the game went round "not legal" and a question until it was stuck)."""
    from companion.board.word import PAGE, Word
    from companion.game.view import IllegalMove

    board = {"NW": ["diamond-9"], "NE": ["heart-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    reads = {sq: stack[-1] for sq, stack in board.items()}
    play = Scripted(tmp_path, reads, board, turns=[("S", [("SW", "club-9")])])
    play.reads["SW"] = "club-9"
    play.seconds(1.0)
    play.reads["E1"] = "heart-8"
    play.reads["E2"] = "spade-1"  # not in one set with heart-8
    play.seconds(2.0)
    play.press("N")
    play.seconds(1.0)

    def said() -> list:
        return [n for n in play.view().notices if isinstance(n, IllegalMove)]

    assert [n.side for n in said()] == ["N"]
    version = play.table.tracker.version
    assert play.table.take_word(Word(Said.LAID, "E1", tile("heart-8"), PAGE), play.now) is None
    play.seconds(1.0)
    assert play.table.tracker.version != version  # the belief changed, the placement did not
    assert [n.side for n in said()] == ["N"]
    del play.reads["E2"]  # spade-1 taken back
    play.seconds(3.0)
    assert said() == []


def test_a_paired_page_says_a_tile_asked_about_is_in_a_hand(tmp_path):
    """The question "♠1 on E2?" offers "Hold: it is in a hand"; a paired page's "It is in a
    hand" says the same: journalled as the page's word that it is not on E2, the turn
    scored without it, and it is not asked about again."""
    from companion.board.word import PAGE

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
    (asked,) = asked_of(play, "N")
    assert (asked.square, asked.tile) == ("E2", tile("spade-1")) and Reply.HAND in asked.answers
    assert play.table.take_in_hand(tile("heart-8"), PAGE, play.now) == "word.not-asked"
    assert play.table.take_in_hand(tile("spade-1"), PAGE, play.now) is None
    play.seconds(2.0)
    (_, turn) = play.turns()
    assert turn["placed"] == [["E1", "heart-8"]] and turn["points"] == 2
    assert [(w["said"], w["square"], w["tile"], w["by"]) for w in words(play)] == [
        ("absent", "E2", "spade-1", "page")
    ]
    assert asked_of(play, "N") == []


def test_a_tile_shown_to_a_reader_is_acknowledged_on_the_player_s_display(tmp_path):
    """docs/family.md: a tile for a square the readers cannot see is held over an empty
    square until the display says "Seen": only then do the readers know it. Before the
    readers see it, the display does not say so (a family would lay it, unseen by all)."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))

    def show_first() -> ShowFirst:
        (note,) = [n for n in play.view().notices if isinstance(n, ShowFirst)]
        return note

    assert show_first().seen is None
    play.sweep(3, NE="C")  # held over W1: its reader misses it at first
    assert show_first().seen is None
    play.seconds(1.0, W1="star-2", NE="C")
    assert show_first().seen == tile("star-2")
    lines = " ".join(text for text, _, _ in Screens("en").canvas(play.view(), "S", 0.0).texts)
    assert "Seen ★2: lay it now." in lines


def test_a_tile_the_readings_took_off_a_stack_is_asked_about_where_it_was_too(tmp_path):
    """TUNE everything table 15: star-2 laid on E2 (a stack of two), then its reader read
    the tile below alone for a long while (a neighbour's crosstalk colliding with the top,
    a reader off centre): taken off, by the readings. With a square the readers cannot see
    where it would fit (NE), the press asked there and elsewhere, never on E2, where it
    lay: said not there everywhere asked, the turn was scored without it."""
    play = Scripted(tmp_path, READS, BOARD)
    for n in range(20):
        play.sweep(NE=dark(n))
    play.reads["SE"] = ["spade-9", "star-3"]
    play.sweep(10, NE=dark(1))
    play.seconds(2.0, E2=["star-4", "star-2"], NE="C")  # laid on E2, read there
    for n in range(40):  # ... then E2 reads star-4 alone
        play.sweep(NE=dark(n))
    play.press("S")
    squares = []
    for _ in range(10):
        wait(play, 0.5)
        asked = [q for q in asked_of(play, "S") if q.tile == tile("star-2")]
        if not asked:
            break
        squares.append(asked[0].square)
        if asked[0].square == "E2":
            break
        play.press("S")
        play.sweep(NE="C")
        play.press("S")  # two presses: not there
    assert "NE" in squares and squares[-1] == "E2", squares


def test_start_tiles_whose_readers_fall_silent_in_turn_ask_the_starter(tmp_path):
    """TUNE silent table 66: every time a start tile was laid again its reader fell silent
    a while, so each hold was refused for another tile (NW's, then NE's, then NW's), and
    the starter was never asked: the question waited for one doubt to last QUESTION_AFTER
    from the hold that named it, and the game never started. The starter is asked once
    holds have been refused for QUESTION_AFTER, whichever tile they named; and the display
    stops saying to lay a tile flat once the readers see it again."""
    play = Scripted(tmp_path, START)
    play.seconds(2.0)
    for side in ("S", "N"):
        play.press(side)
    silent = "NW"
    asked: list[Question] = []
    play.seconds(2.5, NW="-")
    for _ in range(4):  # a hold refused; the tile laid again; the other reader falls silent
        play.press("S", long=True)
        play.sweep(1, **{silent: "-"})
        asked = asked_of(play, "S")
        if asked or play.table.game is not None:
            break
        told = [n for n in play.view().notices if isinstance(n, Unsure) and n.side == "S"]
        assert [u.doubt.square for u in told] == [silent]
        other = "NE" if silent == "NW" else "NW"
        play.seconds(0.5, **{other: "-"})
        told = [n for n in play.view().notices if isinstance(n, Unsure) and n.side == "S"]
        assert told == [], f"still told to lay {silent}'s tile flat: the readers see it"
        play.seconds(2.0, **{other: "-"})
        silent = other
    assert play.table.game is None
    assert len(asked) == 1 and asked[0].answers == (Reply.START, Reply.WITHOUT), asked
    assert asked[0].square == silent and asked[0].tile == tile(START[silent])
    play.press("S")
    play.seconds(DOUBLE_SECONDS + 0.2, **{silent: "-"})
    game = play.table.game
    assert game is not None and game.board.to_mapping() == {sq: [t] for sq, t in START.items()}


def test_a_tile_told_not_legal_and_read_where_it_lies_is_not_asked_about(tmp_path):
    """TUNE clean table 0: W laid a tile and one by mistake ("not legal" with both), took
    the mistake back and pressed. The tile kept was read on its square every sweep, yet
    the press asked "♦5 on E1?": a tile told "not legal" and pressed with again was asked
    about wherever a tile laid on top of its square would go unseen, even while the
    readers showed the tile itself there. It is scored at once."""
    board = {"NW": ["diamond-9"], "NE": ["club-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    reads = {"NW": "diamond-9", "NE": "club-7", "SW": "club-10", "SE": "spade-9"}
    play = Scripted(tmp_path, reads, {**board, "E2": ["star-4"]})
    play.reads["E2"] = "star-4"
    play.seconds(3.0)
    play.reads["SE"] = ["spade-9", "star-3"]  # star 3-4 along SE, E2
    play.seconds(1.0)
    play.reads["NW"] = ["diamond-9", "heart-7"]  # by mistake: "not legal"
    play.seconds(3.0)
    assert "SE" in play.table.tracker.dark()  # a tile laid on star-3 would go unseen
    play.reads["NW"] = "diamond-9"  # taken back
    play.seconds(5.0)
    play.press("S")
    play.seconds(1.0)
    assert asked_of(play, "S") == []
    (turn,) = play.turns()
    assert turn["placed"] == [["SE", "star-3"]]


def test_said_not_there_a_tile_is_asked_about_where_a_silent_reader_may_hide_it(tmp_path):
    """TUNE everything table 10, game 0: star-6, laid on E1 (empty, its reader silent),
    was asked about on the three dark squares where it fits and said not there each time;
    the turn was then scored without it, as a tile taken back into the hand. A square
    whose reader was heard falling silent after a change, where the tile fits, is asked
    about next: the readings that ruled it out are what a silence gives."""
    from companion.board.tracker import SQUARE_INDEX

    play = star_2_on_the_dark_stack(tmp_path)
    play.table.tracker.evidence[SQUARE_INDEX["E1"]].after_change.add(True)  # heard silent
    play.press("S")
    wait(play, QUESTION_AFTER + 1.0)
    play.press("S")
    play.sweep(NE="C")
    play.press("S")  # twice: not on NE
    wait(play, 2.0)
    assert play.turns() == []
    (asked,) = asked_of(play, "S")
    assert (asked.square, asked.tile) == ("E1", tile("star-2"))
    play.press("S")  # once: it lies there
    wait(play, 2.0)
    (turn,) = play.turns()
    assert sorted(turn["placed"]) == [["E1", "star-2"], ["SE", "star-3"]]
