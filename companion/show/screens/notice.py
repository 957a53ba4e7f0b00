"""Full-screen notices: a problem to fix, the empty bag, an illegal move explained."""

from __future__ import annotations

from companion.board.problems import Problem
from companion.game.view import BagEmpty, IllegalMove
from companion.show.i18n import Catalogue
from companion.show.screens.layout import Canvas


def draw_notice(canvas: Canvas, notice: Problem | BagEmpty | IllegalMove, texts: Catalogue) -> None:
    """A title row (inverted) and the sentence word-wrapped below it."""
    if isinstance(notice, Problem):
        title = texts.text("problem.title")
        body = texts.text(f"problem.{notice.code}", square=notice.square or "?")
    elif isinstance(notice, BagEmpty):
        title = texts.text("bag.title")
        body = texts.text("bag.returned" if notice.returned else "bag.empty")
    else:
        title = texts.text("illegal.title")
        body = texts.illegal(notice.illegal)
    canvas.title(title)
    canvas.block((2, 16, canvas.width - 1, canvas.height), body, sizes=(12, 11, 10))
