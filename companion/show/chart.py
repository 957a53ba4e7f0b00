"""The score progression of a game: one line per player over the turns, the finish marked.

`save_chart` writes a colour PNG; `save_game_chart` the chart of a game next to its journal
(the daemon, when a game ends), and `redraw` that chart again from a kept journal.
`draw_progress` draws the same lines into any box.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from companion.game.archive import chart_path
from companion.game.journal import Journal
from companion.game.replay import games
from companion.game.table_view import progress
from companion.show.i18n import Catalogue
from companion.show.palette import RGB
from engine import Game
from hardware import fonts

log = logging.getLogger("setup.display")

Progress = Sequence[tuple[str, Sequence[int]]]


def progress_of(game: Game) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every player's score after each turn of `game` (starting at 0 before the first)."""
    return progress(game)


def draw_progress(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    progress: Progress,
    finish: int,
    *,
    inks: Mapping[str, object] | None = None,
    width: int = 1,
    bold: str | None = None,
) -> None:
    """Lines of score over turns inside `box` (x0, y0, x1, y1), the finish line dotted.

    `inks` maps a side to its line colour (one-bit: omit, every line is lit);
    `bold` is a side whose line is drawn thicker (the winner)."""
    x0, y0, x1, y1 = box
    turns = max((len(scores) for _, scores in progress), default=1) - 1
    top = max([finish, *(max(s, default=0) for _, s in progress)])

    def at(turn: int, score: int) -> tuple[float, float]:
        x = x0 + (x1 - x0) * (turn / turns if turns else 0)
        y = y1 - (y1 - y0) * (min(score, top) / top if top else 0)
        return x, y

    fy = round(at(0, finish)[1])
    finish_ink = inks.get("finish", 255) if inks else 255
    for x in range(x0, x1 + 1, 3):
        draw.point((x, fy), fill=finish_ink)
    for side, scores in progress:
        points = [at(i, s) for i, s in enumerate(scores)] or [at(0, 0)]
        if len(points) == 1:
            points = points * 2
        ink = inks.get(side, 255) if inks else 255
        draw.line(points, fill=ink, width=width + (1 if side == bold else 0))


#: the chart's fonts: (size, bold)
TITLE_FONT = (22, True)
TEXT_FONT = (14, False)


def warm() -> None:
    """Loads the chart's fonts now (the daemon does it before READY: see `Presenter.warm`)."""
    fonts.load(*TITLE_FONT)
    fonts.load(*TEXT_FONT)


def save_chart(
    path: str | Path,
    progress: Progress,
    finish: int,
    colours: Mapping[str, str],
    lang: str = "en",
    *,
    winner: str | None = None,
    size: tuple[int, int] = (640, 400),
) -> Path | None:
    """Writes the chart as a PNG at `path`; returns the path, or None (logged) on failure."""
    texts = Catalogue.load(lang)
    w, h = size
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    title_font, font = fonts.load(*TITLE_FONT), fonts.load(*TEXT_FONT)
    draw.text(
        (20, 14),
        f"{texts.text('over.title')}: {texts.text('chart.title')}",
        font=title_font,
        fill="black",
    )
    box = (60, 60, w - 170, h - 50)
    draw.rectangle(box, outline=(160, 160, 160))
    turns = max((len(s) for _, s in progress), default=1) - 1
    top = max([finish, *(max(s, default=0) for _, s in progress)])
    for score in range(0, top + 1, 5):  # a grid line every 5 points
        y = box[3] - (box[3] - box[1]) * score / top
        draw.line((box[0], y, box[2], y), fill=(225, 225, 225))
        draw.text((box[0] - 8, y), str(score), font=font, fill="black", anchor="rm")
    draw.text(
        ((box[0] + box[2]) // 2, box[3] + 24),
        texts.text("chart.turn"),
        font=font,
        fill="black",
        anchor="mm",
    )
    for turn in range(0, turns + 1, max(1, turns // 10)):
        x = box[0] + (box[2] - box[0]) * (turn / turns if turns else 0)
        draw.text((x, box[3] + 8), str(turn), font=font, fill="black", anchor="mm")
    inks: dict[str, object] = {
        side: RGB.get(colours.get(side, ""), (0, 0, 0)) for side, _ in progress
    }
    inks["finish"] = (0, 0, 0)
    draw_progress(draw, box, progress, finish, inks=inks, width=3, bold=winner)
    fy = box[3] - (box[3] - box[1]) * finish / top
    draw.text(
        (box[2] + 6, fy), texts.text("chart.finish", n=finish), font=font, fill="black", anchor="lm"
    )
    for i, (side, scores) in enumerate(progress):  # the legend, with final scores
        y = box[1] + 30 + 24 * i
        draw.line((box[2] + 6, y, box[2] + 30, y), fill=inks[side], width=4)
        name = texts.colour(colours.get(side, "red"))
        draw.text(
            (box[2] + 36, y),
            f"{name} {scores[-1] if scores else 0}",
            font=font,
            fill="black",
            anchor="lm",
        )
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, "PNG")
    except OSError as exc:
        log.error("cannot save the score chart %s: %s", path, exc)
        return None
    return path


def save_game_chart(
    game: Game, colours: Mapping[str, str], journal: Path, lang: str = "en"
) -> Path | None:
    """The score chart of `game`, as a PNG next to its `journal`: named after the game's
    first record (`companion.game.archive.chart_path`), so a restart that shows the same
    finished game writes the same file, and the archive deletes it with its game."""
    return save_chart(
        chart_path(journal),
        progress_of(game),
        game.finish_line,
        colours,
        lang,
        winner=game.ranking().winner,
    )


def redraw(journal: Path, lang: str = "en") -> Path | None:
    """The score chart of the (last) game in a kept `journal`, drawn again beside it (a
    chart is only a picture of its journal)."""
    found = games(Journal(journal).records())
    if not found:
        return None
    return save_game_chart(found[-1].game, found[-1].start.get("colours") or {}, journal, lang)
