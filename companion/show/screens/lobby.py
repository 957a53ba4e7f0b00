"""Before a game: press to join, the turn order so far, the teams, long press to start.

The turn order is drawn as a little table seen from the player's own chair (their side at
the bottom), each joined side with its number in the order: no words to translate and it
fits next to the text. In a team game the first team's numbers are inverted.
"""

from __future__ import annotations

from companion.game.view import Lobby, TableView
from companion.show.i18n import Catalogue
from companion.show.screens.layout import INK, PAPER, Canvas, measure
from engine import SIDES
from hardware import fonts

TEXT_RIGHT = 92  # the text column ends here; the table diagram is to its right
CELL = 11  # a side's box in the diagram
#: seen from the chair at the bottom: bottom, left, top, right (clockwise from above)
VIEW_ORDER = ("bottom", "left", "top", "right")


def draw_lobby(canvas: Canvas, table: TableView, side: str, texts: Catalogue) -> None:
    lobby = table.lobby or Lobby()
    title, colour = texts.text("lobby.title"), texts.colour(table.colour(side))
    both = measure(fonts.load(11, True), f"{title}  {colour}") <= canvas.width - 6
    canvas.title(title if both else colour, right=colour if both else "")
    y = 26
    if side in lobby.joined:
        number = lobby.joined.index(side) + 1
        y = canvas.paragraph(y, texts.text("lobby.joined", n=number), x1=TEXT_RIGHT, bold=True)
        if lobby.teams is not None:
            team = 0 if side in lobby.teams[0] else 1
            y = canvas.paragraph(y, texts.team(team), x1=TEXT_RIGHT)
    else:
        y = canvas.paragraph(y, texts.text("lobby.press"), x1=TEXT_RIGHT, bold=True, max_lines=3)
    hint = ""
    if lobby.can_start:
        hint = texts.text("lobby.start")
    elif side in lobby.joined or not lobby.joined:
        hint = texts.text("lobby.wait")
    if hint:  # the last line, under the diagram too
        canvas.text((2, max(62, y)), hint, 10)
    draw_order(canvas, lobby, side, (TEXT_RIGHT + 2, 16))


def draw_order(canvas: Canvas, lobby: Lobby, viewer: str, at: tuple[int, int]) -> None:
    """The table (a square) with a numbered box on each joined side."""
    x, y = at
    cell, size = CELL, 3 * CELL  # a side box, the whole diagram
    canvas.draw.rectangle(
        (x + cell, y + cell, x + size - cell - 1, y + size - cell - 1), outline=INK
    )
    boxes = {
        "bottom": (x + cell, y + size - cell),
        "left": (x, y + cell),
        "top": (x + cell, y),
        "right": (x + size - cell, y + cell),
    }
    turn = SIDES.index(viewer)
    for i, side in enumerate(SIDES):
        where = VIEW_ORDER[(i - turn) % 4]
        bx, by = boxes[where]
        if side not in lobby.joined:
            canvas.draw.point((bx + cell // 2, by + cell // 2), fill=INK)
            continue
        first_team = lobby.teams is not None and side in lobby.teams[0]
        canvas.draw.rectangle(
            (bx, by, bx + cell - 1, by + cell - 1), outline=INK, fill=INK if first_team else PAPER
        )
        number = str(lobby.joined.index(side) + 1)
        ink = PAPER if first_team else INK
        canvas.text((bx + cell // 2, by + cell // 2), number, 9, bold=True, fill=ink, anchor="mm")
