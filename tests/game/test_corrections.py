"""A turn proven wrong later is corrected out loud (issue 25, item 4): the readers show a
scored tile on another square; every display says so with the score difference; one
press applies it (journal record "amend"), honoured by resume and `replay`; nothing is
rewritten silently."""

from __future__ import annotations

from companion.game.amend import amended
from companion.game.journal import Journal
from companion.game.replay import replay_journal, text_lines
from companion.game.table import Table
from companion.game.view import DOUBLE_SECONDS, Correction
from companion.show.screens import Screens
from engine import Board, Game
from tests.game.test_what_readers_miss import BOARD_3, READS_3, Scripted
from tests.helpers import registry, tile

#: SE's reader sees club-4 in 4 sweeps of 5, SW's reads heart-2: club-4 lies on SE
ON_SE = [{"SE": ["spade-6", "club-4"]}] * 3 + [{"SE": "spade-6"}, {"SE": "club-4"}]


def club_4_scored_on_sw(tmp_path) -> Scripted:
    """S's club-4 was journalled on SW (+3) but lies on SE (+4), as after a crosstalk run."""
    play = Scripted(tmp_path, READS_3, BOARD_3, turns=[("S", [("SW", "club-4")])])
    play.reads["SW"] = "heart-2"
    for n in range(50):
        play.sweep(**ON_SE[n % 5])
    return play


def confirm(play: Scripted, side: str) -> None:
    """One press of `side` on the correction shown, and no second: confirmed."""
    play.press(side)
    for n in range(round(DOUBLE_SECONDS / 0.1) + 1):
        play.sweep(**ON_SE[n % 5])


def corrections(play: Scripted) -> list[Correction]:
    return [n for n in play.view().notices if isinstance(n, Correction)]


def records(play: Scripted, kind: str) -> list[dict]:
    return [r for r in Journal(play.config.paths.journal).records() if r["type"] == kind]


def test_the_engine_scores_the_turn_again_with_the_tile_where_it_lies():
    game = Game(("S", "N"), board=Board.from_mapping(BOARD_3))
    game.place([("SW", tile("club-4"))])
    game.swap()  # N
    amendment = amended(game, tile("club-4"), "SE")
    assert amendment is not None
    assert (amendment.turn, amendment.side, amendment.squares) == (1, "S", ("SW", "SE"))
    assert (amendment.before.points, amendment.after.points) == (3, 4)
    assert amendment.game.scores == {"S": 4, "N": 0} and game.scores == {"S": 3, "N": 0}
    assert amendment.game.board.top("SE") == tile("club-4") and len(amendment.game.moves) == 2
    assert amended(game, tile("club-4"), "SW") is None  # where it was scored: nothing to do
    assert amended(game, tile("star-1"), "SE") is None  # no turn placed it


def test_every_display_says_which_turn_and_the_difference(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    assert corrections(play) == [Correction(1, "S", tile("club-4"), ("SW", "SE"), 3, 4)]
    assert not any(getattr(n, "code", None) == "tile-twice" for n in play.view().notices)
    for side in ("N", "S"):
        texts = [t for t, _, _ in Screens("en").canvas(play.view(), side, play.now).texts]
        assert texts[0] == "Correction"
        assert " ".join(texts[1:]) == (
            "Turn 1: ♣4 lies on SE, not SW. Yellow +4, not +3. Press: correct. Twice: it is on SW"
        )
    assert play.table.game.scores == {"S": 3, "N": 0}  # nothing rewritten before a press
    assert records(play, "amend") == []


def test_one_press_applies_it_and_the_game_goes_on(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    confirm(play, "N")  # any player confirms
    (amend,) = records(play, "amend")
    assert amend["turn"] == 1 and amend["placed"] == [["SE", "club-4"]]
    assert (amend["points"], amend["was"], amend["by"]) == (4, 3, "N")
    assert play.table.game.scores == {"S": 4, "N": 0}
    assert play.table.game.board.top("SE") == tile("club-4")
    assert corrections(play) == [
        Correction(1, "S", tile("club-4"), ("SW", "SE"), 3, 4, applied=True)
    ]
    texts = [t for t, _, _ in Screens("en").canvas(play.view(), "S", play.now).texts]
    assert "Corrected: Yellow +4" in texts
    play.reads["N1"] = "diamond-10"  # N lays diamond-10 next to diamond-9: +2
    for n in range(20):
        play.sweep(**ON_SE[n % 5])
    play.press("N")
    for n in range(30):
        play.sweep(**ON_SE[n % 5])
    turns = play.turns()
    assert len(turns) == 2 and turns[1]["placed"] == [["N1", "diamond-10"]]
    assert play.table.game.scores == {"S": 4, "N": 2}


def test_resume_and_replay_honour_the_amendment(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    confirm(play, "S")
    table = Table(play.config, registry(), Journal(play.config.paths.journal), now=play.now)
    assert table.game.scores == {"S": 4, "N": 0}
    assert table.game.board.top("SE") == tile("club-4") and "SW" in table.game.board.to_mapping()
    (played,) = replay_journal(play.config.paths.journal).games
    assert played.differences == []
    lines = list(text_lines(played))
    assert (
        "turn 1 corrected (club-4 lies on SE, not SW; confirmed by S): "
        "S lays club-4 on SE: +4 (was +3) | S 4 N 0"
    ) in lines


def test_an_undo_after_a_correction_takes_back_the_corrected_turn(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    confirm(play, "S")
    play.press("N", long=True)  # the turn taken back, as it stands now
    assert play.table.game.scores == {"S": 0, "N": 0} and play.table.game.moves == ()
    (played,) = replay_journal(play.config.paths.journal).games
    assert [e.kind for e in played.events] == ["start", "turn", "amend", "undo"]
    assert played.events[-1].undone.placed == (("SE", tile("club-4")),)


def test_the_correction_goes_when_the_tile_is_put_where_it_was_scored(tmp_path):
    play = club_4_scored_on_sw(tmp_path)
    assert corrections(play)
    play.reads["SW"] = ["heart-2", "club-4"]  # the family moves club-4 back to SW
    play.seconds(2.0, SE="spade-6")
    assert corrections(play) == [] and play.table.game.scores == {"S": 3, "N": 0}


def test_replay_as_json_names_the_word_and_the_amendment(tmp_path):
    from companion.board.word import Said, Word
    from companion.game.replay import json_objects

    play = club_4_scored_on_sw(tmp_path)
    # a scored tile is settled by its correction, never by a word
    word = Word(Said.LAID, "SE", tile("club-4"), "page")
    assert play.table.take_word(word, play.now) == "word.scored"
    play.table.take_word(Word(Said.LAID, "NE", tile("heart-1"), "page"), play.now)  # vouched
    confirm(play, "N")
    (played,) = replay_journal(play.config.paths.journal).games
    out = [o for o in json_objects(played) if o["event"] in ("word", "amend")]
    assert [o["event"] for o in out] == ["word", "amend"]
    assert out[0]["word"] == {"said": "laid", "square": "NE", "tile": "heart-1", "by": "page"}
    amend = out[1]
    assert amend["turn"] == 1 and amend["placed"] == [["SE", "club-4"]]
    assert amend["points"] == 4 and amend["matches"] and amend["scores"] == {"S": 4, "N": 0}


def test_a_correction_that_would_end_the_game_before_later_turns_is_not_offered():
    """S's club-4 on SW brought S to 30 of 31; scored on SE it makes +4, the finish, so N's
    turn after it could not have been played. The rules cannot make that correction: it
    is not offered (it crashed the daemon's step with GameOver: the soak of issue 25)."""
    import dataclasses

    game = Game(("S", "N"), board=Board.from_mapping(BOARD_3))
    game._state = dataclasses.replace(game._state, scores=(("S", 27), ("N", 0)))
    game.place([("SW", tile("club-4"))])
    assert game.scores["S"] == 30 and not game.finished
    game.swap()  # N
    assert amended(game, tile("club-4"), "SE") is None
    assert len(game.moves) == 2 and game.scores == {"S": 30, "N": 0}  # untouched


def test_a_start_tile_under_a_dark_stack_seen_next_door_never_blocks_the_game(tmp_path):
    """Stop 34's soak (TUNE crosstalk table 4): SE held a tall stack on the start tile
    diamond-8, and SE's reader read the stack as nothing or a collision; E1's reader saw
    diamond-8 through crosstalk, in runs. "Tile seen twice" on E1 and SE stood for good
    (no turn laid diamond-8, so there was no correction to confirm, and nothing the
    family did could clear it): every press was refused, the game stuck. A scored tile no
    turn can have laid where it is seen is now crosstalk: no problem, and S's turn scores
    (heart-3 on W1's club-3: +3)."""
    board = {**BOARD_3, "SE": ["diamond-8", "spade-6", "heart-7", "star-3", "spade-3"]}
    reads = {**READS_3, "SE": "-"}
    play = Scripted(tmp_path, reads, board)

    alarms: list[str] = []

    def sweeps(n: int, **squares) -> None:
        for k in range(n):  # E1 sees diamond-8 in runs of 6 sweeps in 20
            crosstalk = {"E1": ["spade-4", "diamond-8"]} if k % 20 < 6 else {}
            play.sweep(**{"SE": "C" if k % 4 == 0 else "-", **crosstalk, **squares})
            alarms.extend(str(n) for n in play.view().notices if "tile-twice" in str(n))

    sweeps(200)
    assert alarms == [] and corrections(play) == []
    play.reads["W1"] = "heart-3"
    sweeps(20)
    play.press("S")
    sweeps(10)  # scored within a second
    assert alarms == []
    assert [t["placed"] for t in play.turns()] == [[["W1", "heart-3"]]]
    assert play.table.game.scores == {"S": 3, "N": 0}


def test_two_presses_refuse_it_and_the_game_keeps_the_tile_where_it_was_scored(tmp_path):
    """Stop 34's soak: a correction the readers' crosstalk offered for a tile that lies
    where its turn scored it could only be confirmed (any press did) or waited out, and
    crosstalk that nothing on the table stops never went: the game stuck. Two presses now
    refuse it: nothing is rewritten, the correction is not offered again while the tile
    lies there, and the next press is the player's own."""
    play = club_4_scored_on_sw(tmp_path)
    assert corrections(play)
    play.press("N")
    play.sweep(**ON_SE[0])
    play.press("N")  # twice: club-4 lies on SW, as scored
    for n in range(100):
        play.sweep(**ON_SE[n % 5])
        assert corrections(play) == [], n
    assert records(play, "amend") == [] and play.table.game.scores == {"S": 3, "N": 0}
    play.reads["N1"] = "diamond-10"  # N lays diamond-10 next to diamond-9: +2
    for n in range(20):
        play.sweep(**ON_SE[n % 5])
    play.press("N")
    for n in range(30):
        play.sweep(**ON_SE[n % 5])
    assert [t["placed"] for t in play.turns()][-1] == [["N1", "diamond-10"]]
    assert play.table.game.scores == {"S": 3, "N": 2}


def test_the_press_of_the_player_to_move_with_tiles_laid_ends_the_turn_not_confirms(tmp_path):
    """TUNE everything tables: a player who laid tiles presses to end the turn without
    reading what the displays say of a turn before; that press confirmed a correction the
    readers' crosstalk had made (4 of 9 misscores there). It ends the turn; the correction
    stays for another player's press."""
    play = club_4_scored_on_sw(tmp_path)
    assert play.table.game.active == "N"
    play.reads["W1"] = "star-4"  # N lays star-4 on W1
    for n in range(10):
        play.sweep(**ON_SE[n % 5])
    assert play.table.tracker.placement
    confirm(play, "N")
    assert records(play, "amend") == []
    for n in range(20):
        play.sweep(**ON_SE[n % 5])
    assert records(play, "amend") == []
    assert corrections(play) == [Correction(1, "S", tile("club-4"), ("SW", "SE"), 3, 4)]
    confirm(play, "S")  # the player of that turn confirms it
    (amend,) = records(play, "amend")
    assert amend["by"] == "S"
