"""A paired page's "Apply the correction" on the daemon's side (`Daemon._correct_request`, the
socket's `correct`): the correction the page showed comes back as its published JSON, is read
by `Correction.from_json`, confirmed by "page" whatever the request says through the typed
`ConfirmCorrection`, and refused in one sentence of the table's language."""

from __future__ import annotations

import pytest

from companion.daemon.events import ConfirmCorrection
from companion.daemon.publish import RequestError
from companion.game.journal import Journal
from companion.game.view import Correction
from companion.show.i18n import Catalogue
from tests.helpers import tile
from tests.show.table import FamilyTable

SHOWN = Correction(1, "S", tile("club-4"), ("SW", "SE"), 3, 4)


@pytest.fixture
def table(tmp_path):
    made = FamilyTable(tmp_path / "state")
    yield made
    made.close()


def amends(table: FamilyTable) -> list[dict]:
    return [r for r in Journal(table.config.paths.journal).records() if r["type"] == "amend"]


@pytest.mark.parametrize(
    "shown",
    [
        None,
        "correction",
        {**SHOWN.to_json(), "kind": "question"},
        {**SHOWN.to_json(), "tile": "club-11"},
        {**SHOWN.to_json(), "squares": ["SW"]},
        {k: v for k, v in SHOWN.to_json().items() if k != "after"},
    ],
)
def test_a_request_that_is_not_a_shown_correction_is_refused_in_a_sentence(table, shown):
    with pytest.raises(RequestError) as refused:
        table.daemon._correct_request({"correction": shown}, table.clock())
    assert str(refused.value) == "That is not a correction the table showed: reload the page."
    assert amends(table) == []


def test_the_confirmation_is_the_pages_with_the_correction_it_showed(table, monkeypatch):
    seen, events = [], []
    monkeypatch.setattr(
        table.table, "confirm_correction", lambda by, now, shown: seen.append((by, shown))
    )
    handler = table.daemon.handlers[ConfirmCorrection]
    table.daemon.handlers[ConfirmCorrection] = lambda e: (events.append(e), handler(e))[1]
    request = {"correction": SHOWN.to_json(), "by": "N"}
    assert table.daemon._correct_request(request, table.clock()) is None
    assert seen == [("page", SHOWN)]
    assert [(e.by, e.shown) for e in events] == [("page", SHOWN)]  # the typed event


def test_no_correction_pending_says_so_in_the_tables_language(table):
    table.daemon.change_setting("language", "it")
    with pytest.raises(RequestError) as refused:
        table.daemon._correct_request({"correction": SHOWN.to_json()}, table.clock())
    assert str(refused.value) == Catalogue.load("it").text("correction.none")
    assert amends(table) == []


def test_a_key_the_catalogue_lacks_is_still_a_sentence(table, monkeypatch):
    monkeypatch.setattr(table.table, "confirm_correction", lambda by, now, shown: "correction.x")
    with pytest.raises(RequestError) as refused:
        table.daemon._correct_request({"correction": SHOWN.to_json()}, table.clock())
    assert str(refused.value) == Catalogue.load("en").text("web.correct.refused")
