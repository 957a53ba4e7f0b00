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
    TableView,
    Unconfirmed,
    Undo,
    UndoHint,
    Unsure,
)
from companion.show.i18n import Catalogue


@dataclass(frozen=True, slots=True)
class NoticeWords:
    """What a notice says: a `title` (empty for a banner line), its `body` and the square
    it is about, if any (the displays frame it on their small board, the page marks it)."""

    title: str
    body: str
    square: str | None = None


def problem_text(problem: Problem, texts: Catalogue) -> str:
    tile = texts.tile(problem.tile) if problem.tile is not None else "?"
    return texts.text(
        f"problem.{problem.code}",
        square=problem.square or "?",
        tile=tile,
        n=problem.count,
        who=problem.who or "?",
    )


def question_text(question: Question, texts: Catalogue) -> str:
    """The question and, a line each, the gestures that answer it."""
    if question.tile is not None:
        asked = texts.text("question.tile", tile=texts.tile(question.tile), square=question.square)
    else:
        asked = texts.text("question.square", square=question.square)
    if question.pressed:  # the first press is taken; a second now would say "without"
        return "\n".join((asked, texts.text("question.pressed")))
    replies = (texts.text(f"question.reply.{reply}") for reply in question.answers)
    return "\n".join((asked, *replies))


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
        body = question_text(notice, texts)
        return NoticeWords(texts.text("question.title"), body, notice.square)
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
        body = texts.text("showfirst.body", squares=", ".join(notice.squares))
        return NoticeWords(texts.text("showfirst.title"), body, notice.squares[0])
    if isinstance(notice, Unconfirmed):
        tiles = ", ".join(texts.tile(t) for t in notice.tiles)
        return NoticeWords(
            texts.text("unconfirmed.title"), texts.text("unconfirmed.body", tiles=tiles)
        )
    raise TypeError(f"not a notice: {notice!r}")
