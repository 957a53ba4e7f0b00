"""Full-screen notices: a problem to fix, the empty bag, an illegal move explained, a press
waiting for the readers (what to do, with a small picture of the board and the square).

    +----------------------------+
    | Not scored yet     (title) |
    | Lay ♥6 flat on      .  .   |  the picture: the 12 squares, those with tiles
    | square NE         . ## ■ . |  filled, the square to look at framed twice
    |                   .  .  .  |
    +----------------------------+
"""

from __future__ import annotations

from collections.abc import Collection

from companion.game.view import Notice, PinShown, TableView
from companion.show.canvas import INK, PAPER, Canvas, line_pitch, measure, wrap
from companion.show.i18n import Catalogue
from companion.show.words import notice_words
from engine.geometry import GRID
from hardware import fonts

CELL = 7  # one square of the picture, in pixels
PICTURE = 4 * CELL  # the 4x4 grid without its corners
SMALL_CELL = 6  # the picture's square under a question's answers


def draw_notice(
    canvas: Canvas,
    notice: Notice,
    texts: Catalogue,
    occupied: Collection[str] = (),
    view: TableView | None = None,
) -> None:
    """A title row (inverted) and the sentence word-wrapped below it; a problem about one
    square also shows where that square is on the board (`occupied`: squares with tiles).
    The words are `companion.show.words.notice_words`, the web page's too (`view` names
    the sides' colours: the rulebook's without one)."""
    words = notice_words(notice, texts, view or TableView())
    if isinstance(notice, PinShown):  # the web companion's pairing PIN, big enough to read
        canvas.title(words.title)
        canvas.text((canvas.width // 2, 44), words.body, 22, bold=True, anchor="mm")
        return
    if words.answers:  # a question: itself in the title row, a line per gesture below
        canvas.title(words.body)
        _draw_answers(canvas, words.answers, words.square, occupied)
        return
    body = words.body
    canvas.title(words.title)
    right = canvas.width - 1
    beside = canvas.width - PICTURE - 4
    # the picture of the board where the words fit beside it (a question with its answers
    # may need the whole width: its sentence names the square anyway)
    if words.square in GRID and _fits(body, beside - 2, canvas.height - 16):
        right = beside
        draw_board(canvas, (canvas.width - PICTURE - 1, 18), occupied, words.square)
    canvas.block((2, 16, right, canvas.height), body, sizes=(12, 11, 10))


def _draw_answers(
    canvas: Canvas, answers: tuple[str, ...], square: str | None, occupied: Collection[str]
) -> None:
    """A question's gestures, each on a line of its own, at the largest size at which they
    all fit: beside the picture of the board where they can, else the whole width; word
    wrapped only if even that is too narrow."""
    top, height = 16, canvas.height - 16
    beside = canvas.width - PICTURE - 4
    widths = ((beside - 2, True), (canvas.width - 3, False)) if square in GRID else ()
    for width, picture in (*widths, (canvas.width - 3, False)):
        for size in (12, 11, 10):
            font = fonts.load(size, False)
            if len(answers) * line_pitch(size) > height + 2:
                continue
            if any(measure(font, answer) > width for answer in answers):
                continue
            if picture:
                draw_board(canvas, (canvas.width - PICTURE - 1, 18), occupied, square)
            baseline = top + font.getmetrics()[0] - 1
            for answer in answers:
                canvas.text((2, baseline), answer, size, max_width=width)
                baseline += line_pitch(size)
            below = baseline - line_pitch(size) + font.getmetrics()[1] + 1
            if not picture and square in GRID and canvas.height - below >= 4 * SMALL_CELL:
                # under short answers: the picture, a little smaller, in the corner
                at = (canvas.width - 4 * SMALL_CELL - 1, canvas.height - 4 * SMALL_CELL)
                draw_board(canvas, at, occupied, square, SMALL_CELL)
            return
    canvas.block((2, top, canvas.width - 1, canvas.height), "\n".join(answers), (11, 10))


def _fits(text: str, width: int, height: int, size: int = 10) -> bool:
    """Does `text` word-wrap into width x height at `size` (the smallest a notice uses)?"""
    return len(wrap(text, fonts.load(size, False), width)) * line_pitch(size) <= height + 2


def draw_pin_badge(canvas: Canvas, pin: str, texts: Catalogue) -> None:
    """The pairing PIN in the top right corner, over whatever the display shows: during a
    game it never takes the seat's screen (the scores, a question, an illegal move)."""
    text = f"{texts.text('pin.badge')} {pin}"
    left = canvas.width - 4 - measure(fonts.load(10, True), text)
    canvas.draw.rectangle((left - 3, 0, canvas.width - 1, 13), fill=INK)
    canvas.draw.rectangle((left - 2, 1, canvas.width - 2, 12), fill=PAPER)
    canvas.text((canvas.width - 3, 11), text, 10, bold=True, anchor="rs")


def draw_board(
    canvas: Canvas,
    at: tuple[int, int],
    occupied: Collection[str],
    marked: str | None,
    cell: int = CELL,
) -> None:
    """The board seen from above (north at the top): a dot for an empty square, a filled box
    for a square with tiles, and a double frame around `marked`."""
    x0, y0 = at
    for square, (row, col) in GRID.items():
        x, y = x0 + col * cell, y0 + row * cell
        box = (x + 1, y + 1, x + cell - 2, y + cell - 2)
        if square in occupied:
            canvas.draw.rectangle(box, fill=INK)
        else:
            canvas.draw.point((x + cell // 2, y + cell // 2), fill=INK)
        if square == marked:
            canvas.draw.rectangle((x - 1, y - 1, x + cell, y + cell), outline=INK)
            canvas.draw.rectangle((x, y, x + cell - 1, y + cell - 1), outline=PAPER)
