"""Every string the players see, in English, Italian, Russian and French.

The catalogues are JSON files next to this module (`en.json`, ...), one flat object of
key -> text, with `{name}` placeholders; a text that depends on a count is an object of
plural forms (`one`, `few`, `many`, `other`) chosen by the language's plural rule. English
is the reference: a key missing in another language falls back to it, so a half-done
translation shows English rather than nothing.

Tiles are written with their suit symbol (★ ♥ ◆ ♣ ♠) and rank, the same in every language,
so that "♥4" fits a 128-pixel line where "the heart 4" would not.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Iterable
from pathlib import Path

from companion.config import LANGUAGES
from engine import Illegal, ScoredSet, Tile

log = logging.getLogger("setup.display")

HERE = Path(__file__).parent

SUIT_SYMBOLS: dict[str, str] = {
    "star": "★",
    "heart": "♥",
    "diamond": "◆",  # wider than ♦, which is hard to tell from ♠ at 10 px
    "club": "♣",
    "spade": "♠",
}


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n` (integers only) in `lang`."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


class Catalogue:
    """The texts of one language. `Catalogue.load("ru").text("undo", colour=...)`."""

    def __init__(self, lang: str, texts: dict[str, object], fallback: Catalogue | None = None):
        self.lang = lang
        self.texts = texts
        self.fallback = fallback

    def __repr__(self) -> str:
        return f"<Catalogue {self.lang} {len(self.texts)} texts>"

    @staticmethod
    @functools.cache
    def load(lang: str) -> Catalogue:
        """The catalogue of `lang`; an unknown language is logged and English is used."""
        if lang not in LANGUAGES:
            log.warning("unknown language %r in the config; using English", lang)
            lang = "en"
        english = None if lang == "en" else Catalogue.load("en")
        return Catalogue(lang, _read(lang), english)

    def raw(self, key: str) -> object:
        if key in self.texts:
            return self.texts[key]
        if self.fallback is not None:
            log.warning("no %s text for %r; using English", self.lang, key)
            return self.fallback.raw(key)
        log.error("no text for %r", key)
        return key

    def text(self, key: str, **args: object) -> str:
        """The text for `key` with its placeholders filled in; plural texts take `n`."""
        raw = self.raw(key)
        if isinstance(raw, dict):
            n = int(args.get("n", 0))  # type: ignore[call-overload]
            form = plural_form(self.lang, n)
            raw = raw.get(form) or raw.get("other") or raw.get("many") or next(iter(raw.values()))
        try:
            return str(raw).format(**args)
        except (KeyError, IndexError, ValueError) as exc:
            log.error("text %r (%s) cannot be filled in: %r", key, self.lang, exc)
            return str(raw)

    # -- the game's own words ---------------------------------------------------------------
    def colour(self, colour: str) -> str:
        return self.text(f"colour.{colour}")

    def team(self, index: int) -> str:
        return self.text("team", n=index + 1)

    @staticmethod
    def tile(tile: Tile) -> str:
        return f"{SUIT_SYMBOLS[tile.suit]}{tile.rank}"

    def tiles(self, tiles: Iterable[Tile]) -> str:
        """ "♥4 and ♠6", "♥4, ♥5 and ♥7" in the catalogue's language."""
        names = [self.tile(t) for t in tiles]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + self.text("and") + names[-1]

    def scored_set(self, scored: ScoredSet) -> str:
        """A run as "★3-5", a same-number set as "3×5"."""
        first, last = scored.tiles[0], scored.tiles[-1]
        if scored.kind == "run":
            return f"{SUIT_SYMBOLS[first.suit]}{first.rank}-{last.rank}"
        return f"{len(scored.tiles)}×{first.rank}"

    def illegal(self, illegal: Illegal) -> str:
        """The explanation of an illegal move, translated by its code and filled in."""
        key = f"illegal.{illegal.code}"
        if illegal.code == "not-one-set":
            key += "." + _not_one_set_variant(illegal.tiles)
        square = illegal.squares[0] if illegal.squares else "?"
        return self.text(key, tiles=self.tiles(illegal.tiles), square=square)


def _not_one_set_variant(tiles: tuple[Tile, ...]) -> str:
    # the same three cases as the engine's English sentences
    if len(tiles) <= 1:
        return "one"
    if len({t.rank for t in tiles}) > 1 and len({t.suit for t in tiles}) > 1:
        return "mixed"
    return "apart"


@functools.cache
def _read(lang: str) -> dict[str, object]:
    path = HERE / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.error("cannot read the %s texts %s: %s", lang, path, exc)
        return {}
    if not isinstance(data, dict):
        log.error("the %s texts %s are not a JSON object", lang, path)
        return {}
    return data


def keys() -> tuple[str, ...]:
    """Every key of the English (reference) catalogue."""
    return tuple(_read("en"))
