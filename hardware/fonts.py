"""TrueType fonts for the displays, found at run time.

DejaVu Sans covers Latin, Cyrillic and the card-suit symbols, and is on every Raspberry Pi
OS image. It is looked for in the usual font folders, then through `fc-match`; when it is
nowhere, Pillow's built-in scalable font stands in (with one logged warning), so the
screens still show something legible rather than nothing.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
from pathlib import Path

from PIL import ImageFont

log = logging.getLogger("setup.display")

FONT_DIRS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/share/fonts/truetype",
    "/usr/local/share/fonts",
    "/Library/Fonts",
)

FILES: dict[bool, str] = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.cache
def find(bold: bool = False) -> Path | None:
    """The path of DejaVu Sans (Bold), or None when it is not installed."""
    name = FILES[bold]
    for folder in FONT_DIRS:
        path = Path(folder) / name
        if path.is_file():
            return path
    if shutil.which("fc-match"):
        pattern = "DejaVu Sans:bold" if bold else "DejaVu Sans"
        try:
            out = subprocess.run(
                ["fc-match", "-f", "%{file}", pattern],
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            out = ""
        # fc-match always answers something; only take it if it is really DejaVu
        if out.endswith(name) and Path(out).is_file():
            return Path(out)
    return None


@functools.cache
def load(size: int, bold: bool = False) -> Font:
    """DejaVu Sans at `size` pixels, or Pillow's default font when DejaVu is missing."""
    path = find(bold)
    if path is not None:
        try:
            # BASIC layout: the same pixels with or without libraqm, on the Pi and in tests
            return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
        except OSError as exc:
            log.warning("cannot load the font %s (%s); using Pillow's default font", path, exc)
    else:
        _warn_missing()
    return ImageFont.load_default(size)


@functools.cache
def _warn_missing() -> None:
    log.warning(
        "DejaVu Sans not found (install fonts-dejavu-core); using Pillow's default font, "
        "which may lack Cyrillic letters and the suit symbols"
    )
