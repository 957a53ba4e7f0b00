"""The quick-reference card: one page, the four languages, every text from the catalogues."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess

import pytest

from companion.show.card import NAMES, PLAY, SOUNDS, build
from companion.show.i18n import LANGUAGES, Catalogue

# find_spec, not importorskip: importing fpdf costs every worker half a second of collection
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("fpdf") is None,
    reason="the card is drawn with fpdf2 (the test extra)",
)


def test_the_card_is_one_page_with_every_language_and_every_sound(tmp_path):
    path = build(tmp_path / "card.pdf")
    assert path.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) reads the card's words back")
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert text.count("\f") == 1, "one page"
    flat = " ".join(text.split())
    for lang in LANGUAGES:
        texts = Catalogue.load(lang)
        assert NAMES[lang] in flat
        for key in [f"card.{k}" for k in PLAY] + [f"card.sound.{e}" for e in SOUNDS]:
            head = texts.text(key).split(":")[0].replace("\u00a0", " ").strip()
            assert head in flat.replace("\u00a0", " "), (lang, key)


def test_every_sound_of_the_table_is_on_the_card():
    from companion.show.tunes import TUNES

    assert set(SOUNDS) | {"leave"} == set(TUNES)
    for lang in LANGUAGES:
        assert all(f"card.sound.{e}" in Catalogue.load(lang).texts for e in SOUNDS)


def test_the_card_says_the_gestures_for_what_the_readers_cannot_see_in_full(tmp_path):
    """Show a tile first, and the question's gestures (press once, twice, hold), each line
    whole in every language, as the displays and docs/family.md say them."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) reads the card's words back")
    path = build(tmp_path / "card.pdf")
    text = subprocess.run(  # in reading order: a column's lines follow each other
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.replace("\u00a0", " ").split())
    assert PLAY.index("showfirst") < PLAY.index("question")
    for lang in LANGUAGES:
        texts = Catalogue.load(lang)
        for key in ("card.showfirst", "card.question"):
            line = " ".join(texts.text(key).replace("\u00a0", " ").split())
            assert f"• {line}" in flat, (lang, key)
    english = Catalogue.load("en")
    assert "press once, it is there; twice, not there" in english.text("card.question")
    assert "hold, it is in a hand" in english.text("card.question")
    assert "over an empty square" in english.text("card.showfirst")
