"""The guided enrolment run from the settings menu: each prompt, then the summary."""

from __future__ import annotations

from companion.game.enrolling import EnrolView
from companion.show.i18n import Catalogue
from companion.show.screens.enrol import draw_enrol
from companion.show.screens.layout import Canvas


def draw_enrolment(canvas: Canvas, view: EnrolView, texts: Catalogue) -> None:
    if not view.finished:
        prompt = view.prompt
        if prompt is None:  # the first sweep has not come yet
            canvas.title(texts.text("enrol.title"), right=f"{view.enrolled}/{view.total}")
            canvas.block((2, 16, canvas.width - 1, 52), texts.text("enrol.starting"), (11, 10))
            canvas.text((2, 62), texts.text("enrol.hint"), 10, max_width=canvas.width - 3)
        else:
            draw_enrol(canvas, prompt.kind, texts, square=prompt.square, tile=prompt.tile,
                       other=prompt.other, enrolled=prompt.enrolled, total=prompt.total)  # fmt: skip
        return
    canvas.title(texts.text("enrol.stopped" if view.stopped else "enrol.summary"))
    canvas.fitted((canvas.width // 2, 38), texts.text("enrol.count", n=view.enrolled,
                  total=view.total), (20, 18, 16, 14), max_width=canvas.width - 4,
                  anchor="ms")  # fmt: skip
    twice = texts.text("enrol.duplicates", n=view.duplicates)
    canvas.text((2, 51), twice, 10, max_width=canvas.width - 3)
    canvas.text((2, 62), texts.text("enrol.back"), 10, max_width=canvas.width - 3)
