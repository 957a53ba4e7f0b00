"""The screen colour of each of the rulebook's colours: the one palette of the score chart's
lines (`companion.show.chart`) and the web companion's pages (seats, their squares, alerts
and charts). Yellow is darkened to stay visible on white."""

from __future__ import annotations

RGB: dict[str, tuple[int, int, int]] = {
    "red": (214, 39, 40),
    "purple": (123, 65, 173),
    "yellow": (214, 170, 0),
    "green": (44, 160, 44),
}


def css(colour: str, default: str = "#333") -> str:
    """The colour as CSS (`#d62728`); `default` for a name that is not a colour."""
    rgb = RGB.get(colour)
    return default if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21 (AA asks 4.5 for text)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: the two inks words are written in on a colour: whichever reads better on it
INKS: dict[str, tuple[int, int, int]] = {"#ffffff": (255, 255, 255), "#111111": (17, 17, 17)}


def ink(colour: str) -> str:
    """The ink (CSS) that words on `colour` are written in: white on red and purple, near
    black on yellow and green (white on yellow was 2.2:1, below WCAG AA's 4.5)."""
    rgb = RGB.get(colour, (51, 51, 51))
    return max(INKS, key=lambda name: contrast(INKS[name], rgb))
