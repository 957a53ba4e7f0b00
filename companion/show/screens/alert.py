"""The bonus alert: "+2 BONUS" as large as it fits, the whole screen inverted, flashing.

It shows on the owner's display whoever's turn it is: no bonus goes unnoticed.
"""

from __future__ import annotations

from companion.game.view import BonusAlert, TableView
from companion.show.canvas import INK, PAPER, Canvas
from companion.show.i18n import Catalogue

SIZES = (30, 28, 26, 24, 22, 20, 18, 16)


def draw_alert(
    canvas: Canvas, view: TableView, alert: BonusAlert, texts: Catalogue, inverted: bool
) -> None:
    """`inverted` is the flashing phase: white screen with black letters, or the reverse."""
    ink = PAPER if inverted else INK
    if inverted:
        canvas.bar(0, canvas.height - 1)
    else:
        canvas.draw.rectangle((0, 0, canvas.width - 1, canvas.height - 1), outline=INK, width=2)
    middle = canvas.width // 2
    canvas.fitted(
        (middle, 36),
        texts.text("alert.bonus", n=alert.points),
        SIZES,
        bold=True,
        fill=ink,
        max_width=canvas.width - 6,
        anchor="ms",
    )
    colour = texts.colour(view.colour(alert.side))
    canvas.fitted(
        (middle, 57),
        texts.text("alert.for", colour=colour),
        (14, 12, 11, 10),
        bold=True,
        fill=ink,
        max_width=canvas.width - 6,
        anchor="ms",
    )
