"""The family's word at the table (issue 25): `Table.take_word` journals the word before it
takes effect, the tracker takes it over the readers, resume and `replay` honour it, and a
word that may not be said is refused with a reason the displays can say."""

from companion.board.word import Said, Word
from companion.game.journal import Journal
from companion.game.replay import replay_journal, text_lines
from companion.game.table import Table
from engine import Board
from tests.game.test_what_readers_miss import Scripted
from tests.helpers import registry, tile

BOARD = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}
READS = {sq: stack[-1] for sq, stack in BOARD.items()}


def silent_star_5(tmp_path) -> Scripted:
    """S lays star-4 on W2 and star-5 on W1 (star 3-4-5 along NW, W2, W1: +3); W1's
    reader answers twice and falls silent; S presses and waits."""
    play = Scripted(tmp_path, READS, BOARD)
    play.seconds(1.0)
    play.reads["W2"] = "star-4"
    play.seconds(1.0)
    play.sweep(2, W1="star-5")
    play.sweep(5, W1="-")
    return play


def test_the_word_is_journalled_first_and_settles_a_silent_tile(tmp_path):
    play = silent_star_5(tmp_path)
    word = Word(Said.LAID, "W1", tile("star-5"), "S")
    assert play.table.take_word(word, play.now) is None
    records = Journal(play.config.paths.journal).records()
    assert records[-1] == {"type": "word", **word.to_json(), "at": round(play.now, 3)}
    play.seconds(25.0, W1="-")  # silent all the while: star-5 stays by the word
    assert play.view().seat("S").preview.points == 3
    play.press("S")
    play.seconds(2.0, W1="-")
    (turn,) = play.turns()
    assert turn["placed"] == [["W2", "star-4"], ["W1", "star-5"]] and turn["points"] == 3


def test_a_word_the_card_cannot_keep_changes_nothing(tmp_path):
    play = silent_star_5(tmp_path)
    before = play.table.tracker.placement
    path = play.config.paths.journal
    saved = path.read_bytes()
    path.unlink()
    path.mkdir()  # the card refuses every write
    word = Word(Said.ABSENT, "W2", tile("star-4"), "S")
    assert play.table.take_word(word, play.now) == "word.unsaved"
    assert play.table.tracker.placement == before
    path.rmdir()
    path.write_bytes(saved)


def test_a_restart_honours_the_words_of_the_turn_being_played(tmp_path):
    play = silent_star_5(tmp_path)
    play.table.take_word(Word(Said.LAID, "W1", tile("star-5"), "S"), play.now)
    play.table.take_word(Word(Said.ABSENT, "W2", tile("star-4"), "page"), play.now)
    # the power goes out; the table comes back on the journal
    table = Table(play.config, registry(), Journal(play.config.paths.journal), now=play.now)
    assert table.tracker.placement == (("W1", tile("star-5")),)
    assert table.tracker.settled_words == (("W1", tile("star-5")),)


def test_a_word_of_an_earlier_turn_does_not_come_back_after_a_restart(tmp_path):
    play = silent_star_5(tmp_path)
    play.table.take_word(Word(Said.LAID, "W1", tile("star-5"), "S"), play.now)
    play.press("S")
    play.seconds(2.0, W1="-")
    assert len(play.turns()) == 1
    play.press("N", long=True)  # N takes S's turn back: star-4 and star-5 are to come off
    table = Table(play.config, registry(), Journal(play.config.paths.journal), now=play.now)
    assert table.tracker.placement == ()
    assert table.game is not None and table.game.board == Board.from_mapping(BOARD)


def test_replay_shows_the_family_s_word(tmp_path):
    play = silent_star_5(tmp_path)
    play.table.take_word(Word(Said.LAID, "W1", tile("star-5"), "S"), play.now)
    play.press("S")
    play.seconds(2.0, W1="-")
    (played,) = replay_journal(play.config.paths.journal).games
    lines = list(text_lines(played))
    assert "the family's word: S says star-5 lies on W1 | S 0 N 0" in lines
    assert lines.index("the family's word: S says star-5 lies on W1 | S 0 N 0") < next(
        n for n, line in enumerate(lines) if line.startswith("turn 1:")
    )
    assert [e.kind for e in played.events] == ["start", "word", "turn"]


def test_a_start_tile_vouched_for_in_the_lobby_is_honoured_after_a_restart(tmp_path):
    play = Scripted(tmp_path, READS)
    play.seconds(2.0)
    play.table.take_word(Word(Said.LAID, "SW", tile("club-7"), "S"), play.now)
    table = Table(play.config, registry(), Journal(play.config.paths.journal), now=play.now)
    assert table.tracker.settled_words == (("SW", tile("club-7")),)


def test_words_that_may_not_be_said_are_refused_with_a_reason(tmp_path):
    play = silent_star_5(tmp_path)
    table = play.table
    scored = Word(Said.ABSENT, "NW", tile("star-3"), "S")
    assert table.take_word(scored, play.now) == "word.scored"
    moved = Word(Said.LAID, "W2", tile("star-3"), "S")
    assert table.take_word(moved, play.now) == "word.scored"
    assert table.take_word(Word(Said.LAID, "W1", tile("star-5"), "E"), play.now) == (
        "word.not-seated"
    )
    records = Journal(play.config.paths.journal).records()
    assert [r["type"] for r in records] == ["start"]
