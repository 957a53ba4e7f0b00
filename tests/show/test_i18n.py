"""The catalogues: every key in every language, placeholders that fill, plural rules, and
every character drawable by the display font (no missing-glyph boxes)."""

from __future__ import annotations

import logging
import re
import string

import pytest

from companion.show.i18n import LANGUAGES, SUIT_SYMBOLS, Catalogue, _read, keys, plural_form
from engine import ILLEGAL_CODES, Illegal, ScoredSet, Tile
from hardware import fonts

ENGLISH = _read("en")
ARGS = {"colour": "X", "n": 2, "points": 6, "square": "NE", "tiles": "♥4 and ♥6", "team": "T"}


def placeholders(text: object) -> set[str]:
    values = text.values() if isinstance(text, dict) else [text]
    return {name for v in values for _, name, _, _ in string.Formatter().parse(v) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_is_translated_with_the_same_placeholders(lang):
    texts = _read(lang)
    assert set(texts) == set(ENGLISH), (
        f"{lang}: missing {set(ENGLISH) - set(texts)}, extra {set(texts) - set(ENGLISH)}"
    )
    for key, english in ENGLISH.items():
        assert texts[key], f"{lang} {key} is empty"
        assert placeholders(texts[key]) == placeholders(english), f"{lang} {key}"
        if isinstance(texts[key], dict):
            needed = {"one", "few", "many"} if lang == "ru" else {"one", "other"}
            assert needed <= set(texts[key]), f"{lang} {key} lacks plural forms"


def test_translations_differ_from_english():
    # a copy of the English file is not a translation
    for lang in ("it", "ru", "fr"):
        same = [k for k, v in _read(lang).items() if v == ENGLISH[k] and "{" not in str(v)[:1]]
        assert len(same) <= 2, f"{lang} has untranslated texts: {same}"


def test_the_catalogue_covers_every_illegal_code_colour_and_problem():
    from companion.board.problems import PROBLEMS
    from engine import COLOURS

    wanted = {f"colour.{c}" for c in COLOURS} | {f"problem.{p}" for p in PROBLEMS}
    wanted |= {f"illegal.{c}" for c in ILLEGAL_CODES if c != "not-one-set"}
    wanted |= {f"illegal.not-one-set.{v}" for v in ("one", "mixed", "apart")}
    assert wanted <= set(keys())


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("en", {0: "other", 1: "one", 2: "other", 21: "other"}),
        ("it", {0: "other", 1: "one", 5: "other"}),
        ("fr", {0: "one", 1: "one", 2: "other"}),
        (
            "ru",
            {
                1: "one",
                2: "few",
                4: "few",
                5: "many",
                11: "many",
                12: "many",
                21: "one",
                22: "few",
                25: "many",
            },
        ),
    ],
)
def test_plural_rules(lang, counts):
    assert {n: plural_form(lang, n) for n in counts} == counts


def test_plural_texts_agree_with_the_count():
    ru = Catalogue.load("ru")
    assert ru.text("preview.scores", n=1) == "Это 1 очко"
    assert ru.text("preview.scores", n=3) == "Это 3 очка"
    assert ru.text("preview.scores", n=6) == "Это 6 очков"
    assert Catalogue.load("en").text("preview.scores", n=1) == "This scores 1 point"
    assert Catalogue.load("fr").text("preview.scores", n=0) == "Ça fait 0 point"


def test_tiles_and_sets_are_written_with_suit_symbols():
    en, it = Catalogue.load("en"), Catalogue.load("it")
    tiles = [Tile.parse("heart-4"), Tile.parse("spade-6"), Tile.parse("star-10")]
    assert en.tiles(tiles[:2]) == "♥4 and ♠6"
    assert it.tiles(tiles) == "♥4, ♠6 e ★10"
    run = ScoredSet("run", (Tile.parse("star-3"), Tile.parse("star-4"), Tile.parse("star-5")))
    rank = ScoredSet("rank", (Tile.parse("star-5"), Tile.parse("spade-5"), Tile.parse("club-5")))
    assert (en.scored_set(run), en.scored_set(rank)) == ("★3-5", "3×5")


def test_illegal_moves_are_explained_by_code_with_tiles_and_squares():
    h4, h6, c9 = Tile.parse("heart-4"), Tile.parse("heart-6"), Tile.parse("club-9")
    apart = Illegal("not-one-set", "...", (h4, h6), ("NW", "S1"))
    mixed = Illegal("not-one-set", "...", (h4, c9), ("NW", "SE"))
    alone = Illegal("not-one-set", "...", (h4,), ("NW",))
    forbidden = Illegal("forbidden-square", "...", (h4,), ("E1",))
    en = Catalogue.load("en")
    assert en.illegal(apart) == "Not one set: ♥4 and ♥6 are not joined"
    assert en.illegal(mixed) == "Not one set: ♥4 and ♣9 are neither one number nor one suit"
    assert en.illegal(alone) == "Not one set: ♥4 is not in a set"
    assert en.illegal(forbidden) == "E1 is another player's bonus square: take ♥4 off"
    assert Catalogue.load("ru").illegal(apart) == "Нет комбинации: ♥4 и ♥6 не соединены"
    for code in ILLEGAL_CODES:  # every code has its own sentence, in every language
        for lang in LANGUAGES:
            text = Catalogue.load(lang).illegal(Illegal(code, "...", (h4,), ("NE",)))
            assert "{" not in text and text != f"illegal.{code}"


def test_an_unknown_language_falls_back_to_english_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, "setup.display"):
        texts = Catalogue.load("de")
    assert texts.lang == "en"
    assert texts.text("seat.your_turn") == "Your turn"
    assert "unknown language 'de'" in caplog.text


def test_a_missing_key_or_placeholder_never_raises(caplog):
    it = Catalogue.load("it")
    with caplog.at_level(logging.WARNING, "setup.display"):
        assert it.text("no.such.key") == "no.such.key"
        assert it.text("undo") == "Turno annullato: {colour}"  # the placeholder is left, logged
    assert "no text for 'no.such.key'" in caplog.text
    assert "cannot be filled in" in caplog.text


def visible_characters(lang: str) -> set[str]:
    texts = Catalogue.load(lang)
    chars = set("".join(SUIT_SYMBOLS.values()) + "0123456789+-×/→…")
    for key in keys():
        if key.startswith("speech."):
            continue  # spoken, never drawn
        for n in (1, 2, 5):
            chars |= set(texts.text(key, **{**ARGS, "n": n}))
    return {c for c in chars if not c.isspace()}


def missing_glyph(font) -> bytes:
    return bytes(font.getmask("\u0378", mode="1"))  # an unassigned code point: the .notdef box


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("bold", [False, True])
def test_every_visible_character_has_a_glyph(lang, bold):
    assert fonts.find(bold) is not None, "DejaVu Sans must be installed for this test"
    for size in (10, 11, 12):
        font = fonts.load(size, bold)
        tofu = missing_glyph(font)
        missing = sorted(
            c for c in visible_characters(lang) if bytes(font.getmask(c, mode="1")) == tofu
        )
        assert not missing, f"{lang} size {size}: no glyph for {missing}"


def test_the_tofu_check_can_fail():
    font = fonts.load(10)
    assert bytes(font.getmask("\u0379", mode="1")) == missing_glyph(font)  # another unassigned one
    assert bytes(font.getmask("Ж", mode="1")) != missing_glyph(font)


def test_without_dejavu_pillows_default_font_stands_in(monkeypatch, caplog):
    monkeypatch.setattr(fonts, "FONT_DIRS", ())
    monkeypatch.setattr(fonts.shutil, "which", lambda name: None)
    for cached in (fonts.find, fonts.load, fonts._warn_missing):
        cached.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, "setup.display"):
            font = fonts.load(12)
            fonts.load(14)
        assert fonts.find() is None
        assert font.getbbox("Your turn")[2] > 30  # still draws text, at about the size asked
        assert caplog.text.count("DejaVu Sans not found") == 1  # said once
    finally:
        for cached in (fonts.find, fonts.load, fonts._warn_missing):
            cached.cache_clear()


def test_no_hard_coded_text_in_the_screens():
    # every player-visible string goes through the catalogue: the screen modules hold no
    # quoted words (only keys, symbols and numbers)
    from pathlib import Path

    import companion.show.screens as screens

    folder = Path(screens.__file__).parent
    for path in folder.glob("*.py"):
        if path.name in ("samples.py", "__main__.py"):
            continue
        code = re.sub(r'"""[\s\S]*?"""', "", path.read_text())
        code = re.sub(r"#.*", "", code)
        for literal in re.findall(r'"([^"\n]*)"', code):
            words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", literal))
            assert not words or re.fullmatch(r"[\w.\-{}]+", literal), f"{path.name}: {literal!r}"
