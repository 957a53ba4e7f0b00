"""The enrolment's prompts on the seat displays: each `Prompt` drawn on every panel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.board.enrolment import Prompt
from companion.show.i18n import Catalogue
from companion.show.screens.enrol import draw_enrol
from companion.show.screens.layout import Canvas


class DisplayPrompts:
    """Shows each prompt on every seat display (a listener)."""

    def __init__(self, displays: Mapping[str, Any], lang: str = "en") -> None:
        self.displays = dict(displays)  # side -> hardware.display.Display
        self.lang = lang

    def frame(self, prompt: Prompt) -> Any:
        canvas = Canvas()
        draw_enrol(
            canvas,
            prompt.kind,
            Catalogue.load(self.lang),
            square=prompt.square,
            tile=prompt.tile,
            other=prompt.other,
            enrolled=prompt.enrolled,
            total=prompt.total,
        )
        return canvas.image

    def __call__(self, prompt: Prompt) -> None:
        image = self.frame(prompt)
        for display in self.displays.values():
            display.show(image)  # a missing panel is logged once and skipped

    def close(self) -> None:
        for display in self.displays.values():
            display.close()
