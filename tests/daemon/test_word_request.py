"""A paired page's word on the daemon's side (`Daemon._word_request`, the socket's `word`):
the daemon makes the `Word` itself, said by "page" whatever the request says, hands it to
`Table.take_word` through the typed `FamilyWord`, and refuses in one sentence of the table's
language, never a key or a repr."""

from __future__ import annotations

import pytest

from companion.daemon.events import FamilyWord
from companion.daemon.publish import RequestError
from companion.game.journal import Journal
from companion.show.i18n import Catalogue
from tests.show.table import FamilyTable


@pytest.fixture
def table(tmp_path):
    made = FamilyTable(tmp_path / "state")
    yield made
    made.close()


def words(table: FamilyTable) -> list[dict]:
    return [r for r in Journal(table.config.paths.journal).records() if r["type"] == "word"]


@pytest.mark.parametrize(
    "request_",
    [
        {"said": "sing", "square": "NW", "tile": "star-1"},
        {"said": "laid", "square": "Z9", "tile": "star-1"},
        {"said": "laid", "square": "NW", "tile": "star-11"},
        {"said": "laid", "square": "NW", "tile": 5},
        {"said": ["laid"], "square": "NW", "tile": "star-1"},
        {},
    ],
)
def test_a_request_that_is_not_a_word_is_refused_in_a_sentence(table, request_):
    with pytest.raises(RequestError) as refused:
        table.daemon._word_request(request_, table.clock())
    assert str(refused.value) == "That is not a word about a square: reload the page."
    assert words(table) == []


def test_the_word_is_the_pages_whatever_the_request_says(table, monkeypatch):
    seen = []
    on_word = table.daemon.on_word
    table.daemon.handlers[FamilyWord] = lambda event: (seen.append(event), on_word(event))[1]
    request = {"said": "laid", "square": "NW", "tile": "star-1", "by": "N"}
    assert table.daemon._word_request(request, table.clock()) is None
    assert [event.word.by for event in seen] == ["page"]
    assert [(w["said"], w["square"], w["tile"], w["by"]) for w in words(table)] == [
        ("laid", "NW", "star-1", "page")
    ]


@pytest.mark.parametrize(("key", "said"), [("stop.kept", "stop.kept"), ("word.nonsense", None)])
def test_a_refusal_is_the_catalogues_sentence_in_the_tables_language(table, monkeypatch, key, said):
    table.daemon.change_setting("language", "it")
    monkeypatch.setattr(table.table, "take_word", lambda word, now: key)
    with pytest.raises(RequestError) as refused:
        table.daemon._word_request({"said": "absent", "square": "NW", "tile": "star-1"}, 0.0)
    it = Catalogue.load("it")
    assert str(refused.value) == it.text(said or "web.correct.refused")
    assert "." not in str(refused.value).split()[0]  # a sentence, not a key


def test_in_a_hand_is_the_pages_answer_to_the_question_shown_or_refused(table):
    """ "hand" is the page's answer "it is in a hand" to the question a display asks about
    that tile (`TileInHand`, `Table.take_in_hand`); with no such question it is refused in
    one sentence, and nothing is journalled."""
    from companion.daemon.events import TileInHand

    seen = []
    on_in_hand = table.daemon.on_in_hand
    table.daemon.handlers[TileInHand] = lambda event: (seen.append(event), on_in_hand(event))[1]
    with pytest.raises(RequestError) as refused:
        table.daemon._word_request({"said": "hand", "square": "E2", "tile": "spade-1"}, 0.0)
    assert str(refused.value) == "No display asks about that tile now: look again"
    assert [str(event.tile) for event in seen] == ["spade-1"] and words(table) == []
