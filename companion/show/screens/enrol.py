"""The enrolment on the seat displays: which tile to put on which square, what went wrong,
and at the end of a run on the table the summary.

Every seat display shows the same frame, so the person enrolling can read it from any side
of the table: each `Prompt` while `setup-companion enroll` runs (`DisplayPrompts`, a
listener), and the `EnrolView` of the run inside the daemon (`draw_enrolment`, drawn by
`companion.show.screens` for the presenter and the web companion's frames).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.enrolment import EnrolView, Prompt
from companion.show.canvas import Canvas
from companion.show.i18n import Catalogue
from engine import ALL_TILES, Tile

#: prompt kind -> catalogue key of its sentence (the enrolment's own kinds, see
#: companion.enrolment.guide.PROMPTS; "fault" and "hub" reuse the game's problem sentences)
SENTENCES: dict[str, str] = {
    "put": "enrol.put",
    "accepted": "enrol.accepted",
    "clear": "enrol.clear",
    "duplicate": "enrol.duplicate",
    "collision": "enrol.collision",
    "nothing": "enrol.nothing",
    "fault": "problem.reader-fault",
    "hub": "problem.hub-disconnected",
    "done": "enrol.done",
}
BIG = (22, 20, 18, 16)


def draw_enrol(
    canvas: Canvas,
    kind: str,
    texts: Catalogue,
    *,
    square: str,
    tile: Tile | None = None,
    other: Tile | None = None,
    enrolled: int = 0,
    total: int = 50,
) -> None:
    """The title with the progress ("11/50"), then the sentence for `kind`; asking for a
    tile (or taking it back) also shows the tile and the square in large letters."""
    canvas.title(texts.text("enrol.title"), right=f"{enrolled}/{total}")
    named = other if kind == "duplicate" else tile
    sentence = texts.text(SENTENCES[kind], tiles=texts.tile(named) if named else "?", square=square)
    if kind in ("put", "accepted") and tile is not None:
        canvas.fitted(
            (canvas.width // 2, 36),
            f"{texts.tile(tile)} → {square}",
            BIG,
            bold=True,
            max_width=canvas.width - 4,
            anchor="ms",
        )
        canvas.block((2, 40, canvas.width - 1, canvas.height), sentence, sizes=(10,))
    else:
        canvas.block((2, 16, canvas.width - 1, canvas.height), sentence, sizes=(12, 11, 10))


def draw_enrolment(canvas: Canvas, view: EnrolView, texts: Catalogue) -> None:
    """The run inside the daemon: each prompt, then the summary."""
    if not view.finished:
        prompt = view.prompt
        if prompt is None:  # the first sweep has not come yet
            canvas.title(texts.text("enrol.title"), right=f"{view.enrolled}/{view.total}")
            canvas.block((2, 16, canvas.width - 1, 52), texts.text("enrol.starting"), (11, 10))
            canvas.text((2, 62), texts.text("enrol.hint"), 10, max_width=canvas.width - 3)
        elif view.again and prompt.kind == "put" and prompt.tile is not None:
            # every tile has its tag: each is asked for again, a press going to the next
            canvas.title(texts.text("enrol.again"), right=f"{_position(prompt.tile)}/{view.total}")
            canvas.fitted((canvas.width // 2, 36), f"{texts.tile(prompt.tile)} → {prompt.square}",
                          BIG, bold=True, max_width=canvas.width - 4, anchor="ms")  # fmt: skip
            canvas.text((2, 50), texts.text("enrol.next"), 10, max_width=canvas.width - 3)
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


def _position(tile: Tile) -> int:
    """Which of the 50 tiles it is, in the order they are asked for (1, 2, ...)."""
    return ALL_TILES.index(tile) + 1


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
