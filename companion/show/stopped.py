"""The table cannot start: one sentence on every display that can be reached, saying why.

A daemon that stops before a game can be played (a broken configuration file, a state
folder it cannot use, a failure while starting) draws the problem's sentence under the title
"Cannot start" on each seat's panel before it exits. The panels keep the picture once the
daemon has gone (luma's `persist`, `hardware.display`), so the table says why it is dark
until systemd's restart policy tries again (and draws it again) or the cause is fixed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from PIL import Image

from companion.board.problems import Problem
from companion.show.canvas import Canvas
from companion.show.i18n import Catalogue
from companion.show.words import problem_text
from hardware.display import Display, DisplaySettings

log = logging.getLogger("setup.display")


def stopped_frame(problem: Problem, lang: str, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """The frame that says the table cannot start, and why."""
    texts = Catalogue.load(lang)
    canvas = Canvas(size)
    canvas.title(texts.text("stopped.title"))
    canvas.block(
        (2, 16, canvas.width - 1, canvas.height), problem_text(problem, texts), (12, 11, 10)
    )
    return canvas.image


def show_stopped(
    problem: Problem, displays: Mapping[str, DisplaySettings], lang: str
) -> dict[str, Image.Image]:
    """Draws the sentence on each display; the frames of those it reached (side -> image).
    Never raises, and logs nothing above DEBUG: the daemon's own sentence on stderr is the
    news, and a display it cannot reach (not wired, another machine) is no more."""
    reached: dict[str, Image.Image] = {}
    quiet = log.level
    log.setLevel(max(quiet, logging.CRITICAL))  # Display reports a missing panel as an ERROR
    try:
        for side, settings in displays.items():
            display = Display(side, settings)
            try:
                image = stopped_frame(problem, lang, display.size)
                display.show(image)
                if display.ok:
                    reached[side] = image
            except Exception as exc:  # a courtesy: nothing here may stop the exit
                log.debug("cannot tell display %s why the table stopped: %s", side, exc)
            finally:
                display.close()
    finally:
        log.setLevel(quiet)
    return reached
