"""The question every display asks after the stop gesture (`companion.game.stopping`): stop
this game (it is kept, unfinished, with its scores), what a long press and a short one do.

    +----------------------------+
    | Stop this game?    (title) |
    | It is kept, unfinished,    |
    | with its scores.           |
    | Hold: stop it              |
    | Press: play on             |
    +----------------------------+
"""

from __future__ import annotations

from companion.game.stopping import StopQuestion
from companion.show.canvas import Canvas
from companion.show.i18n import Catalogue


def draw_stop_question(canvas: Canvas, question: StopQuestion, texts: Catalogue) -> None:
    canvas.title(texts.text("stop.title"))
    canvas.block((2, 16, canvas.width - 2, 39), texts.text("stop.kept"), sizes=(10, 9))
    canvas.text((2, 50), texts.text("stop.hold"), 10, bold=True, max_width=canvas.width - 3)
    canvas.text((2, 62), texts.text("stop.press"), 10, max_width=canvas.width - 3)
