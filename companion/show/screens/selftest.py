"""The self-test pattern: every edge lit, a checker patch, and "SELFTEST <side>" in words.

A display that shows this whole frame, corners included, is wired and addressed right; the
side letter tells which seat's display it is (a swapped I2C channel shows the wrong letter).
"""

from __future__ import annotations

from companion.show.canvas import INK, Canvas
from companion.show.i18n import Catalogue

CHECKER = 4  # pixels per checker square: a panel with a stuck row or column shows it


def draw_selftest(
    canvas: Canvas, side: str, colour: str, texts: Catalogue, *, prompt: str | None = None
) -> None:
    """`colour` is a colour key; `prompt` a catalogue key shown at the bottom (e.g. asking
    for the seat's button), or None for the colour's name."""
    width, height = canvas.width, canvas.height
    canvas.draw.rectangle((0, 0, width - 1, height - 1), outline=INK)
    canvas.title(f"{texts.text('selftest.title')} {side}")
    patch = 3 * CHECKER
    left = width - 2 - patch * 2
    for row in range(patch * 2 // CHECKER):
        for col in range(patch * 2 // CHECKER):
            if (row + col) % 2 == 0:
                x, y = left + col * CHECKER, 15 + row * CHECKER
                canvas.draw.rectangle((x, y, x + CHECKER - 1, y + CHECKER - 1), fill=INK)
    canvas.fitted((4, 36), side, (22, 20, 18), bold=True, max_width=left - 8)
    bottom = texts.text(prompt) if prompt else texts.colour(colour)
    canvas.block((3, 39, width - 3, height - 2), bottom, sizes=(11, 10), bold=prompt is not None)
