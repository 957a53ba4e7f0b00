"""A notice of the table's view in the players' words: the one place where each kind of
notice is put into words, for the seat displays (`companion.show.screens.notice`) and the
web companion's pages (`companion.web.present`) alike. Texts only: no drawing, no Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.board.problems import Problem
from companion.game.late import LateTile
from companion.game.view import (
    BagEmpty,
    Correction,
    IllegalMove,
    Notice,
    NotScored,
    PinShown,
    Question,
    ShowFirst,
    SwapQuestion,
    TableView,
    Unconfirmed,
    Undo,
    UndoHint,
    Unsure,
)
from companion.show.i18n import Catalogue


@dataclass(frozen=True, slots=True)
class NoticeWords:
    """What a notice says: a `title` (empty for a banner line), its `body`, the square it
    is about, if any (the displays frame it on their small board, the page marks it), and
    for a question the gestures that answer it, a line each (`answers`), with the
    question itself as the `body`."""

    title: str
    body: str
    square: str | None = None
    answers: tuple[str, ...] = ()
    #: every square it is about (`square` first; by default `square` alone): the page
    #: marks them all
    squares: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.squares and self.square is not None:
            object.__setattr__(self, "squares", (self.square,))


def problem_text(problem: Problem, texts: Catalogue) -> str:
    tile = texts.tile(problem.tile) if problem.tile is not None else "?"
    return texts.text(
        f"problem.{problem.code}",
        square=problem.square or "?",
        tile=tile,
        n=problem.count,
        who=problem.who or "?",
    )


def question_asked(question: Question, texts: Catalogue) -> str:
    """The question itself: "♥10 on NE?" (or, the tile unnamed, "A tile on NE?")."""
    if question.tile is not None:
        return texts.text("question.tile", tile=texts.tile(question.tile), square=question.square)
    return texts.text("question.square", square=question.square)


def question_answers(question: Question, texts: Catalogue) -> tuple[str, ...]:
    """The gestures that answer `question`, a line each, in its order ("Press once: it is
    there", "Press twice: not there", "Hold: it is in a hand"...). After a first press
    (`pressed`): that it was heard, and that a second now says "not there"."""
    if question.pressed:
        return (texts.text("question.pressed"), texts.text("question.again"))
    return tuple(texts.text(f"question.reply.{reply}") for reply in dict.fromkeys(question.answers))


def squares_text(squares: tuple[str, ...], texts: Catalogue) -> str:
    """ "NE", "NE and SE", "NE, SE and E1" in the catalogue's language."""
    if len(squares) <= 1:
        return "".join(squares)
    return ", ".join(squares[:-1]) + texts.text("and") + squares[-1]


def notice_words(notice: Notice, texts: Catalogue, view: TableView) -> NoticeWords:
    """`notice` in the words of `texts`; `view` names the colours of the sides."""
    if isinstance(notice, PinShown):
        return NoticeWords(texts.text("pin.title"), notice.pin)
    if isinstance(notice, Unsure):
        doubt = notice.doubt
        return NoticeWords(texts.text("unsure.title"), problem_text(doubt, texts), doubt.square)
    if isinstance(notice, Problem):
        return NoticeWords(texts.text("problem.title"), problem_text(notice, texts), notice.square)
    if isinstance(notice, Question):
        return NoticeWords(
            texts.text("question.title"),
            question_asked(notice, texts),
            notice.square,
            question_answers(notice, texts),
        )
    if isinstance(notice, SwapQuestion):
        # "Nothing seen: swap?", a gesture a line
        answers = ("swap.yes", "swap.laid")
        return NoticeWords(
            texts.text("question.title"),
            texts.text("swap.asked"),
            notice.square,
            tuple(texts.text(key) for key in answers),
            notice.squares,
        )
    if isinstance(notice, Correction):
        colour = texts.colour(view.colour(notice.side))
        was, lies = notice.squares
        key = "correction.done" if notice.applied else "correction.body"
        body = texts.text(
            key,
            turn=notice.turn,
            tile=texts.tile(notice.tile),
            to=lies,
            was=was,
            colour=colour,
            after=notice.after,
            before=notice.before,
        )
        if notice.applied:  # a banner line, as an undo's
            return NoticeWords("", body)
        return NoticeWords(texts.text("correction.title"), body, lies)
    if isinstance(notice, NotScored):
        tile = texts.tile(notice.tile) if notice.tile is not None else "?"
        body = texts.text(f"notscored.{notice.why}", tile=tile, square=notice.square or "?")
        return NoticeWords(texts.text("notscored.title"), body, notice.square)
    if isinstance(notice, LateTile):
        body = texts.text(
            "late.body",
            tile=texts.tile(notice.tile),
            square=notice.square,
            colour=texts.colour(notice.colour),
        )
        return NoticeWords(texts.text("late.title"), body, notice.square)
    if isinstance(notice, BagEmpty):
        body = texts.text("bag.returned" if notice.returned else "bag.empty")
        return NoticeWords(texts.text("bag.title"), body)
    if isinstance(notice, IllegalMove):
        # about the whole placement: the page marks each of its squares, the display none
        return NoticeWords(texts.text("illegal.title"), texts.illegal(notice.illegal))
    if isinstance(notice, Undo):
        return NoticeWords("", texts.text("undo", colour=texts.colour(view.colour(notice.side))))
    if isinstance(notice, UndoHint):
        return NoticeWords("", texts.text("seat.hold_undo"))
    if isinstance(notice, ShowFirst):
        squares = ", ".join(notice.squares)
        body = (
            texts.text("showfirst.seen", tile=texts.tile(notice.seen), squares=squares)
            if notice.seen is not None
            else texts.text("showfirst.body", squares=squares)
        )
        first = notice.squares[0] if notice.squares else None
        return NoticeWords(texts.text("showfirst.title"), body, first, (), notice.squares)
    if isinstance(notice, Unconfirmed):
        body = texts.text("unconfirmed.body", tiles=texts.tiles(notice.tiles))
        return NoticeWords(texts.text("unconfirmed.title"), body)
    raise TypeError(f"not a notice: {notice!r}")
