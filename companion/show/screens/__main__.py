"""`python -m companion.show.screens --out DIR [--lang en it] [--scale 4]`: every sample screen as
PNG, e.g. to look at them or to regenerate the test references (`--references`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.show.i18n import LANGUAGES
from companion.show.screens import Screens, samples

REFERENCES = Path(__file__).resolve().parents[3] / "tests" / "show" / "reference"
#: the few screens kept as exact reference images (in every language)
REFERENCE_SCREENS = ("seat", "alert", "preview-illegal", "over")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.show.screens", description=__doc__)
    parser.add_argument("--out", type=Path, help="folder for the PNGs")
    parser.add_argument("--lang", nargs="*", default=list(LANGUAGES), choices=LANGUAGES)
    parser.add_argument("--scale", type=int, default=1, help="enlarge the pixels to look at them")
    parser.add_argument("--references", action="store_true", help=f"rewrite {REFERENCES}")
    args = parser.parse_args(argv)
    if args.references:
        out, names, scale = REFERENCES, REFERENCE_SCREENS, 1
    elif args.out:
        out, names, scale = args.out, None, args.scale
    else:
        parser.error("give --out DIR or --references")
    out.mkdir(parents=True, exist_ok=True)
    views = samples.all_views()
    count = 0
    for lang in args.lang:
        screens = Screens(lang)
        for name, view in views.items():
            if names is not None and name not in names:
                continue
            image = screens.frame(view, samples.viewer(name, view), now=samples.when(name))
            if scale > 1:
                image = image.resize((image.width * scale, image.height * scale))
            image.save(out / f"{name}-{lang}.png")
            count += 1
    print(f"{count} screens written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
