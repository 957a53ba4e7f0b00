"""The printable quick-reference card: one A4 page, the four languages, from the catalogues.

    python -m companion.show.card docs/quick-reference.pdf      (or `make card`)

How to join, start, end a turn, show a tile first where the readers cannot see, answer a
question, confirm a correction, swap, undo, stop a game, the bag clean-up, the settings
gesture and the tiles' registration, and what each sound means, in the players' own
words: the texts are the display catalogues' (`card.*`), so the card says what the table
does. Drawn with fpdf2 and DejaVu Sans (the displays' font, which has the Cyrillic
letters).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from companion.show.i18n import LANGUAGES, Catalogue
from companion.show.tunes import TUNES
from hardware import fonts

MADE = datetime(2026, 1, 1, tzinfo=UTC)
PLAY = (
    "join", "start", "turn", "showfirst", "question", "correction", "swap", "undo", "stop", "bag",
    "settings",
    "enrol",
)  # fmt: skip
#: the sounds the card explains, in the order a game meets them ("leave" goes with "join")
SOUNDS = tuple(event for event in TUNES if event != "leave")
NAMES = {"en": "English", "it": "Italiano", "ru": "Русский", "fr": "Français"}

PAGE_W, PAGE_H, MARGIN = 210.0, 297.0, 8.0
GAP = 4.0  # between the two columns of a language
LINE = 3.4  # mm per line of 7.8 pt text


def build(path: Path) -> Path:
    """Writes the card to `path` (a PDF) and returns it."""
    from fpdf import FPDF  # late: fpdf2 is an optional extra ("docs"), for `make card` alone

    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    regular, bold = fonts.find(False), fonts.find(True)
    if regular is None or bold is None:
        raise SystemExit("DejaVu Sans is needed for the card: install fonts-dejavu-core")
    pdf.add_font("DejaVu", "", str(regular))
    pdf.add_font("DejaVu", "B", str(bold))
    pdf.set_title("SETUP Companion: quick reference")
    pdf.set_creator("setup-companion (companion.show.card)")
    pdf.set_creation_date(MADE)  # the same texts make the same file
    pdf.add_page()
    height = (PAGE_H - 2 * MARGIN) / len(LANGUAGES)
    for n, lang in enumerate(LANGUAGES):
        _language(pdf, Catalogue.load(lang), lang, MARGIN + n * height, height)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def _language(pdf, texts: Catalogue, lang: str, top: float, height: float) -> None:
    width = PAGE_W - 2 * MARGIN
    pdf.set_fill_color(0, 0, 0)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("DejaVu", "B", 11)
    pdf.set_xy(MARGIN, top)
    pdf.cell(width, 6.5, f"  {texts.text('card.title')}", fill=True)
    pdf.set_xy(MARGIN, top)
    pdf.cell(width - 2, 6.5, NAMES[lang], align="R")
    pdf.set_text_color(0, 0, 0)
    column = (width - GAP) * 0.68  # the sounds' lines are short
    left = [texts.text(f"card.{key}") for key in PLAY]
    right = [texts.text(f"card.sound.{event}") for event in SOUNDS]
    bottom = max(
        _column(pdf, MARGIN, top + 8.5, column, texts.text("card.play"), left),
        _column(pdf, MARGIN + column + GAP, top + 8.5, width - column - GAP,
                texts.text("card.sounds"), right),
    )  # fmt: skip
    if bottom > top + height - 2:
        raise ValueError(f"the {lang} part of the card is too long for its quarter of the page")
    pdf.set_draw_color(150, 150, 150)
    pdf.line(MARGIN, top + height - 1.5, MARGIN + width, top + height - 1.5)


def _column(pdf, x: float, y: float, width: float, title: str, lines: list[str]) -> float:
    """A heading and its bulleted lines; returns where the column ends."""
    pdf.set_xy(x, y)
    pdf.set_font("DejaVu", "B", 9.5)
    pdf.cell(width, 4.6, title)
    pdf.set_font("DejaVu", "", 7.8)
    y += 5.4
    for line in lines:
        head, sep, rest = line.partition(":")
        pdf.set_xy(x, y)
        pdf.multi_cell(width, LINE, f"• **{head}{sep}**{rest}", markdown=True, align="L")
        y = pdf.get_y() + 0.2
    return y


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.show.card", description=__doc__)
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs/quick-reference.pdf"))
    args = parser.parse_args(argv)
    print(f"quick-reference card written to {build(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
