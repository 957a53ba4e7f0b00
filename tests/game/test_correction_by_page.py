"""A correction confirmed from a paired page (`Table.confirm_correction`), as a player's press
confirms it: journalled by "page"; never another correction than the one the page showed,
never one that is not pending, never by a seat that does not play."""

from __future__ import annotations

import dataclasses

from companion.game.replay import replay_journal, text_lines
from companion.game.sounds import SoundEvent
from companion.game.view import Correction
from tests.game.test_corrections import club_4_scored_on_sw, corrections, records
from tests.helpers import tile

SHOWN = Correction(1, "S", tile("club-4"), ("SW", "SE"), 3, 4)


def test_a_page_confirms_the_correction_it_showed(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    assert corrections(play) == [SHOWN]
    shown = Correction.from_json(SHOWN.to_json())  # as the page sends it back
    assert play.table.confirm_correction("page", play.now, shown) is None
    (amend,) = records(play, "amend")
    assert (amend["by"], amend["points"], amend["was"]) == ("page", 4, 3)
    assert play.table.game.scores == {"S": 4, "N": 0}
    assert corrections(play) == [dataclasses.replace(SHOWN, applied=True)]
    heard = [s.kind for s in play.table.take_sounds()]
    assert SoundEvent.SCORE in heard  # heard at the table, as after a press
    # once applied there is nothing more to confirm: a second tap changes nothing
    assert play.table.confirm_correction("page", play.now, shown) == "correction.none"
    assert len(records(play, "amend")) == 1
    (played,) = replay_journal(play.config.paths.journal).games
    assert (
        "turn 1 corrected (club-4 lies on SE, not SW; confirmed by a paired page): "
        "S lays club-4 on SE: +4 (was +3) | S 4 N 0"
    ) in list(text_lines(played))


def test_a_page_a_moment_late_never_applies_another_correction(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    for other in (
        dataclasses.replace(SHOWN, after=5),
        dataclasses.replace(SHOWN, squares=("SW", "NE")),
        dataclasses.replace(SHOWN, applied=True),
    ):
        assert play.table.confirm_correction("page", play.now, other) == "correction.changed"
    assert records(play, "amend") == [] and play.table.game.scores == {"S": 3, "N": 0}
    assert corrections(play) == [SHOWN]  # still there, for a press or the page's next look


def test_nothing_is_confirmed_when_no_correction_is_pending(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    play.reads["SW"] = ["heart-2", "club-4"]  # the tile put back where it was scored
    play.seconds(2.0, SE="spade-6")
    assert corrections(play) == []
    assert play.table.confirm_correction("page", play.now, SHOWN) == "correction.none"
    assert play.table.confirm_correction("page", play.now) == "correction.none"
    assert records(play, "amend") == []


def test_only_a_player_or_a_page_confirms_it(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    assert play.table.confirm_correction("E", play.now) == "correction.not-seated"
    assert records(play, "amend") == []
    assert play.table.confirm_correction("N", play.now) is None
    assert [r["by"] for r in records(play, "amend")] == ["N"]
