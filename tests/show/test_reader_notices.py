"""What the displays say about tiles the readers cannot confirm (issue 25), drawn from the
one typed value each: a `Question` with the gesture of each of its answers on a line of its
own (and, after a first press, that it was heard), `ShowFirst` and `Unconfirmed` on the
seat screen of the player to move, under the preview, in every language."""

from __future__ import annotations

import dataclasses

import pytest

from companion.game.view import Question, Reply, ShowFirst, Unconfirmed, Undo
from companion.show.i18n import LANGUAGES, Catalogue, keys
from companion.show.screens import NOTE_SECONDS, Screens, samples
from companion.show.words import notice_words
from tests.helpers import tile

NOW = 100.0
VIEWS = samples.all_views()
#: every set of answers the table asks with, and one with each reply alone
ANSWERS = [
    (Reply.THERE, Reply.WITHOUT),
    (Reply.THERE, Reply.WITHOUT, Reply.HAND),
    (Reply.START, Reply.WITHOUT),
    (Reply.START,),
    *((reply,) for reply in Reply),
]


def drawn(canvas) -> list[str]:
    return [text for text, _, _ in canvas.texts]


def asking(answers: tuple[Reply, ...], pressed: bool = False, tile_name: str | None = "star-2"):
    """The question-tile sample with this question, and the side it asks."""
    view = VIEWS["question-tile"]
    side = view.active.side
    asked = Question(side, "E2", None if tile_name is None else tile(tile_name), answers, pressed)
    return dataclasses.replace(view, notices=(asked,)), side


def test_the_old_show_it_and_nothing_new_answers_are_gone():
    assert {reply.name for reply in Reply} == {"THERE", "WITHOUT", "START", "HAND"}
    catalogue = {key for key in keys() if key.startswith("question.reply.")}
    assert catalogue == {f"question.reply.{reply}" for reply in Reply}
    for lang in LANGUAGES:  # and nothing else of that question is left in any language
        texts = Catalogue.load(lang).texts
        assert not {
            k for k in texts if k.startswith("question.") and k.endswith((".show", ".nothing"))
        }, lang


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("answers", ANSWERS, ids=lambda a: "-".join(map(str, a)))
def test_a_question_asks_in_the_title_and_names_each_gesture_on_a_line(lang, answers):
    view, side = asking(answers)
    texts = Catalogue.load(lang)
    canvas = Screens(lang).canvas(view, side, NOW)
    assert canvas.overflow == []
    lines = drawn(canvas)
    assert lines[0] == texts.text("question.tile", tile="★2", square="E2")
    assert lines[1:] == [texts.text(f"question.reply.{reply}") for reply in answers]
    assert all(size >= 10 for _, _, size in canvas.texts)
    # on the presser's display only: the others keep their seat screens
    others = [seat.side for seat in view.seats if seat.side != side]
    assert all(drawn(Screens(lang).canvas(view, o, NOW))[0] != lines[0] for o in others)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_after_a_first_press_the_display_says_it_was_heard_and_what_a_second_says(lang):
    view, side = asking((Reply.THERE, Reply.WITHOUT), pressed=True)
    texts = Catalogue.load(lang)
    canvas = Screens(lang).canvas(view, side, NOW)
    assert canvas.overflow == []
    assert drawn(canvas)[1:] == [texts.text("question.pressed"), texts.text("question.again")]
    assert texts.text("question.reply.there") not in drawn(canvas)
    before = Screens(lang).key(asking((Reply.THERE, Reply.WITHOUT))[0], side, NOW)
    assert Screens(lang).key(view, side, NOW) != before, "the first press redraws the display"


def test_the_english_question_words():
    view, side = asking((Reply.THERE, Reply.WITHOUT, Reply.HAND))
    assert drawn(Screens("en").canvas(view, side, NOW)) == [
        "★2 on E2?",
        "Press once: it is there",
        "Press twice: not there",
        "Hold: it is in a hand",
    ]
    pressed, _ = asking((Reply.THERE, Reply.WITHOUT), pressed=True)
    assert drawn(Screens("en").canvas(pressed, side, NOW))[1:] == [
        "Pressed once: it is there",
        "Press again: not there",
    ]
    unnamed, _ = asking((Reply.THERE, Reply.WITHOUT), tile_name=None)
    assert drawn(Screens("en").canvas(unnamed, side, NOW))[0] == "A tile on E2?"
    lobby = VIEWS["lobby-question"]
    assert drawn(Screens("en").canvas(lobby, "S", NOW)) == [
        "♣3 on SW?",
        "Press once: there, start",
        "Press twice: not there",
    ]


def test_a_question_with_two_answers_shows_where_its_square_is():
    view, side = asking((Reply.THERE, Reply.WITHOUT))
    image = Screens("en").frame(view, side, NOW)
    # the small board in the bottom right corner, under the answers (E2: row 2, column 3)
    assert sum(image.crop((100, 40, 128, 64)).histogram()[1:]) > 20
    three, _ = asking((Reply.THERE, Reply.WITHOUT, Reply.HAND))
    assert sum(Screens("en").frame(three, side, NOW).crop((100, 50, 128, 64)).histogram()[1:]) < 60


# -- the notes of the seat screen ----------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "name", ["show-first", "show-first-preview", "show-first-seen", "unconfirmed"]
)
def test_the_player_to_move_reads_the_note_under_the_preview(lang, name):
    view = VIEWS[name]
    seat = view.active
    texts = Catalogue.load(lang)
    canvas = Screens(lang).canvas(view, seat.side, NOW)
    assert canvas.overflow == []
    lines = drawn(canvas)
    (note,) = view.notices
    body = notice_words(note, texts, view).body
    assert " ".join(lines).endswith(body), lines  # every word, in order, wrapped at spaces
    if seat.preview is None:
        assert texts.text("seat.your_turn") in lines
    else:
        assert texts.text("preview.scores", n=seat.preview.points) in lines
    assert f"{seat.score}/{seat.finish}" in lines
    for other in view.seats:  # nobody else's screen: the note is the player to move's
        if other.side != seat.side:
            assert not " ".join(drawn(Screens(lang).canvas(view, other.side, NOW))).endswith(body)


def test_the_english_notes():
    show = drawn(Screens("en").canvas(VIEWS["show-first"], VIEWS["show-first"].active.side, NOW))
    assert show[:3] == ["3/23", "Green", "Your turn"]
    assert " ".join(show[3:]) == "For NE, SE: show the tile over an empty square first"
    seen = VIEWS["show-first-seen"]
    lines = drawn(Screens("en").canvas(seen, seen.active.side, NOW))
    assert " ".join(lines[3:]) == "Seen ♥6: lay it now. For NE, SE, W1, W2: show a tile first"
    view = VIEWS["unconfirmed"]
    lines = drawn(Screens("en").canvas(view, view.active.side, NOW))
    assert lines[2] == "This scores 2 points"
    assert " ".join(lines[3:]) == "Not confirmed: ★2. Your press will ask where"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_many_squares_still_fit(lang):
    view = VIEWS["show-first-preview"]
    seat = view.active
    six = ShowFirst(seat.side, ("NW", "NE", "SW", "SE", "W1", "W2"))
    canvas = Screens(lang).canvas(dataclasses.replace(view, notices=(six,)), seat.side, NOW)
    assert canvas.overflow == []
    assert all(square in " ".join(drawn(canvas)) for square in six.squares)
    texts = Catalogue.load(lang)
    assert texts.text("preview.scores", n=seat.preview.points) in drawn(canvas)


def test_both_notes_take_turns_and_the_display_is_redrawn_when_they_do():
    view = VIEWS["unconfirmed-show-first"]
    side = view.active.side
    screens = Screens("en")
    first = " ".join(drawn(screens.canvas(view, side, 0.0)))
    second = " ".join(drawn(screens.canvas(view, side, NOTE_SECONDS + 0.1)))
    assert "Not confirmed: ★2 and ♥3." in first and "For NE, SE:" in second
    assert " ".join(drawn(screens.canvas(view, side, 2 * NOTE_SECONDS))) == first
    assert screens.key(view, side, 0.0) != screens.key(view, side, NOTE_SECONDS)
    assert screens.next_change(view, 1.0) == pytest.approx(NOTE_SECONDS)
    assert screens.next_change(VIEWS["unconfirmed"], 1.0) is None  # one note: no turns


def test_a_turn_taken_back_is_said_over_the_note():
    view = VIEWS["show-first"]
    side = view.active.side
    undone = dataclasses.replace(view, notices=(*view.notices, Undo("S")))
    assert drawn(Screens("en").canvas(undone, side, NOW))[-1] == "Turn taken back: Yellow"


def test_a_note_about_another_side_is_not_drawn():
    view = VIEWS["seat"]
    other = next(seat.side for seat in view.seats if not seat.active)
    noted = dataclasses.replace(view, notices=(Unconfirmed(other, (tile("star-2"),)),))
    side = view.active.side
    assert drawn(Screens("en").canvas(noted, side, NOW)) == drawn(
        Screens("en").canvas(view, side, NOW)
    )
