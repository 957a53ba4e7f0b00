"""The enrolment screen: which tile to put on which square, and what went wrong.

Every seat display shows the same frame while `setup-companion enroll` runs, so the person
enrolling can read it from any side of the table.
"""

from __future__ import annotations

from companion.show.i18n import Catalogue
from companion.show.screens.layout import Canvas
from engine import Tile

#: prompt kind -> catalogue key of its sentence (the enrolment's own kinds, see
#: companion.board.enrolment.PROMPTS; "fault" and "hub" reuse the game's problem sentences)
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
