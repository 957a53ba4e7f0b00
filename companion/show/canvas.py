"""Drawing helpers for 128x64 one-bit screens: fitted text, wrapped text, inverted bars.

A `Canvas` records every text it drew with its box, and every text that did not fit (it is
then shortened with "…"), so tests can check that each string is where it should be and
that nothing was cut, in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from hardware import fonts

WIDTH, HEIGHT = 128, 64
INK, PAPER = 255, 0  # one-bit pixels: lit, dark
ELLIPSIS = "…"
TITLE_BOTTOM = 13  # the last row of the title band


@dataclass
class Canvas:
    """A one-bit image being drawn, with a record of its texts."""

    size: tuple[int, int] = (WIDTH, HEIGHT)
    image: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)
    #: every text drawn: (text, its box (x0, y0, x1, y1), font size in pixels)
    texts: list[tuple[str, tuple[int, int, int, int], int]] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)  # texts that had to be shortened

    def __post_init__(self) -> None:
        self.image = Image.new("1", self.size, PAPER)
        self.draw = ImageDraw.Draw(self.image)

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def bar(self, y0: int, y1: int, x0: int = 0, x1: int | None = None, fill: int = INK) -> None:
        """A filled band, e.g. the inverted title row."""
        self.draw.rectangle((x0, y0, (self.width - 1) if x1 is None else x1, y1), fill=fill)

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        size: int = 10,
        bold: bool = False,
        fill: int = INK,
        max_width: int | None = None,
        anchor: str = "ls",
    ) -> int:
        """Draws `text` with its baseline at `xy` (anchor "ls"); returns its width.

        A text wider than `max_width` (default: to the right edge) is shortened with "…"
        and recorded in `overflow`."""
        font = fonts.load(size, bold)
        x, y = xy
        limit = max_width
        if limit is None:
            limit = {"l": self.width - x, "m": self.width, "r": x}[anchor[0]]
        if text and measure(font, text) > limit:
            self.overflow.append(text)
            text = shorten(text, font, limit)
        if not text:
            return 0
        stamp, left, top = _stamp(font, text, anchor)
        box = (x + left, y + top, x + left + stamp.width, y + top + stamp.height)
        # one-bit text only sets the glyphs' pixels to `fill`: the same as drawing it here
        self.image.paste(fill, box, stamp)
        self.texts.append((text, box, size))
        return measure(font, text)

    def fitted(
        self,
        xy: tuple[int, int],
        text: str,
        sizes: Sequence[int],
        bold: bool = True,
        fill: int = INK,
        max_width: int | None = None,
        anchor: str = "ls",
    ) -> int:
        """Draws `text` at the largest of `sizes` that fits; returns the size used."""
        limit = max_width if max_width is not None else self.width - xy[0]
        for size in sizes:
            if measure(fonts.load(size, bold), text) <= limit:
                break
        self.text(xy, text, size, bold, fill, max_width=limit, anchor=anchor)
        return size

    def block(
        self,
        box: tuple[int, int, int, int],
        text: str,
        sizes: Sequence[int] = (11, 10),
        bold: bool = False,
        fill: int = INK,
    ) -> int:
        """Word-wraps `text` into `box` (x0, y0, x1, y1) at the largest of `sizes` whose
        lines all fit; returns the number of lines drawn."""
        x0, y0, x1, y1 = box
        width, height = x1 - x0, y1 - y0
        for size in sizes:
            pitch = line_pitch(size)
            lines = wrap(text, fonts.load(size, bold), width)
            if len(lines) * pitch <= height + 2:
                break
        capacity = max(1, (height + 2) // pitch)
        if len(lines) > capacity:
            self.overflow.append(text)
            lines = lines[:capacity]
            lines[-1] = shorten(lines[-1] + ELLIPSIS, fonts.load(size, bold), width)
        ascent = fonts.load(size, bold).getmetrics()[0]
        baseline = y0 + ascent - 1
        for line in lines:
            self.text((x0, baseline), line, size, bold, fill, max_width=width)
            baseline += pitch
        return len(lines)

    def paragraph(
        self,
        y: int,
        text: str,
        *,
        x0: int = 2,
        x1: int | None = None,
        size: int = 10,
        bold: bool = False,
        max_lines: int = 2,
        fill: int = INK,
    ) -> int:
        """Word-wraps `text` from baseline `y` on, at most `max_lines` lines between x0 and
        x1; returns the baseline of the next line."""
        width = (self.width - 1 if x1 is None else x1) - x0
        lines = wrap(text, fonts.load(size, bold), width)
        if len(lines) > max_lines:
            self.overflow.append(text)
            lines = lines[:max_lines]
            lines[-1] = shorten(lines[-1] + ELLIPSIS, fonts.load(size, bold), width)
        for line in lines:
            self.text((x0, y), line, size, bold, fill, max_width=width)
            y += line_pitch(size)
        return y

    def title(self, text: str, right: str = "", inverted: bool = True) -> None:
        """The title row (0..13): bold text, inverted (white band) unless `inverted` is False
        (then underlined). Tall enough for accented capitals such as "É"."""
        fill = PAPER if inverted else INK
        if inverted:
            self.bar(0, TITLE_BOTTOM)
        else:
            self.draw.line((0, TITLE_BOTTOM + 1, self.width - 1, TITLE_BOTTOM + 1), fill=INK)
        right_width = 0
        if right:
            right_width = measure(fonts.load(11, True), right)
            self.text((self.width - 2 - right_width, 11), right, 11, True, fill)
        self.fitted((2, 11), text, (11, 10), True, fill, max_width=self.width - 8 - right_width)


@lru_cache(maxsize=4096)
def measure(font: fonts.Font, text: str) -> int:
    """The width `text` takes when drawn on a one-bit image (its hinting differs from the
    anti-aliased advance that `getlength` gives, by several pixels on a line). Cached: the
    same few dozen texts are measured again at every frame."""
    if not text:
        return 0
    return int(font.getbbox(text, mode="1", anchor="ls")[2])


@lru_cache(maxsize=1024)
def _stamp(font: fonts.Font, text: str, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` drawn once as a one-bit mask, and where its box lies from the anchor point.
    Rendering glyphs is most of a frame's time; the texts repeat from frame to frame."""
    probe = ImageDraw.Draw(Image.new("1", (1, 1)))
    left, top, right, bottom = (
        int(v) for v in probe.textbbox((0, 0), text, font=font, anchor=anchor)
    )
    size = (max(1, right - left), max(1, bottom - top))
    if _thin_bold(font):
        # FreeType's one-bit hinting of small bold glyphs fills the counters of some letters
        # (Cyrillic "м" and "и" become solid blocks); the anti-aliased glyphs cut at two
        # thirds of full ink keep them open (cut at half, "и" still fills its 5x5 box).
        grey = Image.new("L", size, PAPER)
        ImageDraw.Draw(grey).text((-left, -top), text, font=font, fill=255, anchor=anchor)
        return grey.point(lambda v: INK if v >= 170 else PAPER).convert("1"), left, top
    stamp = Image.new("1", size, PAPER)
    ImageDraw.Draw(stamp).text((-left, -top), text, font=font, fill=INK, anchor=anchor)
    return stamp, left, top


#: bold at this size and under is drawn from the anti-aliased glyphs (see `_stamp`)
THIN_BOLD = 10


def _thin_bold(font: fonts.Font) -> bool:
    path = str(getattr(font, "path", ""))
    return path.endswith("Bold.ttf") and getattr(font, "size", 99) <= THIN_BOLD


def line_pitch(size: int) -> int:
    """Baseline to baseline for wrapped lines of this size: tight but without overlaps."""
    return size + 1


def wrap(text: str, font: fonts.Font, width: int) -> list[str]:
    """Greedy word wrap at plain spaces (a no-break space, as French puts before ":" and
    "!", keeps its neighbours together); a word longer than a line is broken."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            if not word:
                continue
            candidate = f"{line} {word}" if line else word
            if measure(font, candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while measure(font, word) > width:
                cut = len(word)
                while cut > 1 and measure(font, word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def shorten(text: str, font: fonts.Font, width: int) -> str:
    """`text` cut to fit `width`, ending with "…"."""
    if measure(font, text) <= width:
        return text
    base = text.removesuffix(ELLIPSIS)
    while base and measure(font, base + ELLIPSIS) > width:
        base = base[:-1]
    return (base.rstrip() + ELLIPSIS) if base else ""
