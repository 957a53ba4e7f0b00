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
