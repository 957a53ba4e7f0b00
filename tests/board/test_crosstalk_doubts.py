"""A tile of this turn that the readers put where it does not lie is asked about, not scored
(issue 25, item 3, found again by the soak of TUNE tables after stop 29):

- moved by sightings next door alone while its own reader misses the top of its stack (a
  neighbour's crosstalk in runs), it is a doubt until its new square reads it as well as
  that square reads a tile there;
- on top of a stack whose reader reads every tile nearly every sweep, seen there only in
  runs a third of the time, it is a doubt: crosstalk, not a tile lying there;
- said by the family not to lie where the readers had it, it is asked about square by
  square, however many tiles lay on that square;
- shown over an empty square, then covered there by the next tile laid (it lies on a tall
  stack), it is asked about, not dropped as "taken from under the top".
"""

from __future__ import annotations

from engine import Board
from tests.board.test_word import READS, START, Feed
from tests.helpers import tile


def vanished(feed: Feed) -> dict[str, bool]:
    """The tiles of this turn taken off and not seen since, and whether each is asked about."""
    return {str(t): doubtful for t, _, _, doubtful in feed.tracker.vanished}


def on_board(feed: Feed, **stacks: list[str]) -> None:
    """The game's board is START with `stacks` on their squares (scored before this turn)."""
    board = {**START, **stacks}
    feed.tracker.rebase(Board.from_mapping(board), feed.now)


def test_a_tile_moved_by_crosstalk_runs_alone_is_a_doubt_on_its_new_square():
    feed = Feed()
    on_board(feed, NE=["heart-5", "star-4", "club-2", "diamond-8"], E1=["spade-3"])
    tops = {"NE": ["heart-5", "diamond-8"], "E1": "spade-3"}  # NE's third tile hardly read
    feed(40, **tops)
    # star-1 laid on NE: seen there as it was laid; then NE reads its old tiles only, while
    # E1 (its neighbour, holding one tile) sees star-1 in long runs
    feed(2, **{**tops, "NE": ["heart-5", "diamond-8", "star-1"]})
    feed(20, **tops)
    for _ in range(4):  # runs of 6 sweeps in 20: under a third of the sweeps
        feed(14, **tops)
        feed(6, **{**tops, "E1": ["spade-3", "star-1"]})  # (a run on now: seen, fresh)
    assert feed.placement() == ["E1 star-1"]  # the readings moved it
    assert "lay-flat E1 star-1" in feed.doubts()  # but nothing is scored on them alone


def test_a_tile_moved_by_hand_and_read_well_on_its_new_square_is_no_doubt():
    feed = Feed()
    feed(20)
    feed(5, W1="star-4")
    feed(2, W1="star-4", W2="star-4")  # slid across: seen on both
    feed(30, W2="star-4")  # and read on W2 every sweep, W1 clearly without it
    assert feed.placement() == ["W2 star-4"]
    assert feed.doubts() == []


def test_a_top_seen_a_third_of_the_time_in_runs_is_crosstalk_not_a_tile_there():
    feed = Feed()
    stacks = {"W1": ["spade-3", "heart-2"], "N1": ["club-8", "star-9"], "W2": ["spade-7"]}
    on_board(feed, **stacks)
    reads = {**stacks, "W2": "spade-7"}
    feed(60, **reads)  # every tile read every sweep: this table's readers see second tiles
    for _ in range(4):  # star-1, on a neighbour's tall stack, read over W2 in runs
        feed(10, **reads)
        feed(5, **{**reads, "W2": ["spade-7", "star-1"]})  # (a run on now: seen, fresh)
    assert feed.placement() == ["W2 star-1"]
    assert "lay-flat W2 star-1" in feed.doubts()


def test_a_tile_said_not_on_a_stack_of_two_is_asked_about_elsewhere():
    feed = Feed()
    feed(10)
    feed(5, W1="star-4")
    feed(5, W1=["star-4", "club-6"])
    feed(10, W1="club-6")  # club-6 on top; star-4 under it, its reader misses
    feed.settle("absent", "W1", "star-4")
    assert vanished(feed) == {"star-4": True}  # asked about: where does it lie?


def test_a_tile_shown_over_a_square_then_covered_there_is_asked_about():
    feed = Feed()
    feed(10)
    feed(8, W1="star-4")  # star-4 shown over the empty W1 (then laid on a dark stack)
    feed(3, W1="-")
    feed(25, W1="club-6")  # club-6 laid on W1: the reader sees it alone, star-4 never
    assert tile("star-4") not in feed.tracker.board
    assert vanished(feed).get("star-4") is True


def test_a_new_tile_seen_next_door_while_its_own_reader_is_silent_is_asked_about():
    """Stop 31's soak (everything tables): diamond-1 laid on E2 was seen on E2 and S1 at
    once, then E2's reader fell silent after the change while S1's saw it through in runs
    (three sweeps in nine): the readers put it on S1 (+2 with star-1 on SW) and the press
    scored it there. A tile first seen on two squares at once is now weighed on the one
    chosen for SPLIT_WATCH_SECONDS, its runs of nothing counting as misses: the press
    asks "♦1 on S1?", and the family's answers score it where it lies (E2, +2 with
    club-1 on E1)."""
    import tempfile
    from pathlib import Path

    from companion.game.view import DOUBLE_SECONDS, Question
    from tests.game.test_what_readers_miss import Scripted

    board = {"NW": ["heart-8"], "NE": ["spade-2"], "SW": ["star-1"], "SE": ["heart-3"]}
    board["E1"] = ["club-1"]
    with tempfile.TemporaryDirectory() as folder:
        play = Scripted(Path(folder), {sq: stack[-1] for sq, stack in board.items()}, board)
        play.seconds(3.0)
        play.sweep(2, E2="diamond-1", S1="diamond-1")

        def through(n: int) -> dict:  # E2 silent; S1 sees it through, in runs
            return {"E2": "-", "S1": "diamond-1" if n % 9 < 3 else "-"}

        for n in range(40):
            play.sweep(**through(n))
        play.press("S")
        asked_about = []
        for n in range(400):
            play.sweep(**through(n))
            shown = [q for q in play.view().notices if isinstance(q, Question) and not q.pressed]
            if play.turns():
                break
            if shown and shown[0].side == "S" and len(asked_about) < 6:
                asked = shown[0]
                asked_about.append(asked.square)
                play.press("S")
                if asked.square != "E2":
                    play.sweep(**through(n))
                    play.press("S")  # two presses: not there
                play.seconds(DOUBLE_SECONDS + 0.3, **through(n))
        (turn,) = play.turns()
        assert asked_about and asked_about[0] == "S1", asked_about
        assert turn["placed"] == [["E2", "diamond-1"]] and turn["points"] == 2, asked_about


def _long_runs_learned(feed: Feed, reads: dict) -> None:
    """This table's crosstalk comes in long runs: SW's bottom tile, heart-4, read over W1
    ten sweeps at a time, four times (learned from a tile the game keeps on SW)."""
    for _ in range(4):
        feed(20, **reads)
        feed(10, **{**reads, "W1": ["spade-3", "heart-4"]})
    feed(20, **reads)


DARK_SW = {
    "SW": ["heart-4", "star-2", "club-3", "club-1"],
    "W1": ["spade-3"],
    "E1": ["club-8", "star-9"],  # a stack of two, read every sweep: this table sees second tiles
}


def _dark_sw_reads(n: int) -> dict:
    """SW's stack of four reads as its bottom tile, a collision or nothing; the rest as laid."""
    return {"SW": "heart-4" if n % 3 == 0 else "C" if n % 3 == 1 else "-", "W1": "spade-3",
            "E1": ["club-8", "star-9"]}  # fmt: skip


def test_a_new_tile_seen_only_next_to_a_dark_stack_is_a_doubt_while_a_run_lasts():
    """Stop 34's soak (TUNE crosstalk table 13): club-2 laid on SW, a stack of four whose
    reader sees no tile above the bottom, was seen only over W1 (a neighbour holding one
    tile), in a run of crosstalk; the press scored it on W1 (+2, not as laid). Such a tile
    should be scored only once its square reads it better than this table's crosstalk runs
    explain: during the run, a doubt (`Tracker._rivals`: SW is a neighbour where a tile
    laid on top goes unconfirmed). Said not on W1, it may lie on SW: asked about there."""
    feed = Feed()
    on_board(feed, **DARK_SW)
    feed(10, **_dark_sw_reads(0))
    _long_runs_learned(feed, _dark_sw_reads(0))
    assert "SW" in feed.tracker.dark()
    for n in range(8):  # club-2 on SW: seen over W1 for eight sweeps, a crosstalk run
        feed(**{**_dark_sw_reads(n), "W1": ["spade-3", "club-2"]})
        if n >= 2:
            assert feed.placement() == ["W1 club-2"]
            assert "lay-flat W1 club-2" in feed.doubts(), n
    feed.settle("absent", "W1", "club-2")  # the family: not on W1
    feed(**_dark_sw_reads(0))
    assert "SW" in feed.tracker.places(tile("club-2"))  # then asked about the dark stack


def test_a_new_tile_read_well_next_to_a_dark_stack_is_scored_within_two_seconds():
    """The other side of the test above: club-2 truly laid on W1, read there every sweep,
    is no doubt within 2 s, however long this table's crosstalk runs are."""
    feed = Feed()
    on_board(feed, **DARK_SW)
    feed(10, **_dark_sw_reads(0))
    _long_runs_learned(feed, _dark_sw_reads(0))
    doubted = 0
    for n in range(40):
        feed(**{**_dark_sw_reads(n), "W1": ["spade-3", "club-2"]})
        doubted += bool(feed.doubts())
    assert feed.placement() == ["W1 club-2"] and feed.doubts() == []
    assert doubted <= 20  # 2 s at a sweep a tenth of a second


def laid_on_ne(feed: Feed, reads: dict, n: int, missed: bool = False) -> None:
    """star-5 laid on NE's stack of three: read there at once, then in two sweeps of five;
    the others collisions, which say nothing either way (`missed`: one collision, and two
    readings of the stack below it)."""
    laid = {**reads, "NE": ["heart-5", "club-2", "diamond-8", "star-5"]}
    for k in range(n):
        if k % 5 in (0, 3):
            feed(**laid)
        else:
            feed(**(reads if missed and k % 5 != 1 else {**reads, "NE": "C"}))


def test_a_tile_read_on_its_square_the_moment_it_left_the_hand_is_no_crosstalk():
    """TUNE clean tables: star-5, shown over S1 as the display asked, was laid on NE and
    read there the next sweep and then between collisions. SE, next door, holds a stack
    whose top was never read (a tile could lie on it unseen), so star-5 could be SE's, seen
    on NE by crosstalk; but SE's tiles never showed on NE in minutes of readings, and a
    link that shows a tile in at most one sweep in 25 would have had to show it the very
    sweep it left the hand. It is no doubt (it was asked about at every press)."""
    feed = Feed()
    on_board(feed, NE=["heart-5", "club-2", "diamond-8"], SE=["spade-9", "club-4"])
    reads = {**READS, "NE": ["heart-5", "club-2", "diamond-8"], "SE": "spade-9"}
    feed(900, **reads)  # SE's top never read; no neighbour ever shows another's tiles
    assert "SE" in feed.tracker.dark()
    feed(10, **{**reads, "S1": "star-5"})  # shown over S1
    laid_on_ne(feed, reads, 12)
    assert feed.placement() == ["NE star-5"]
    assert feed.doubts() == []


def test_a_tile_shown_next_door_and_read_where_it_was_laid_is_no_crosstalk():
    """The same early in a game (no link watched long enough to tell), with star-5 shown
    over N2, next to NE, and NE missing it now and then, on a table whose tall stack once
    read nothing for 3 s: N2, empty since, could hold star-5 only if its reader fell
    silent just as star-5 came, which this table's readers hardly do after a change, and
    stayed so as long as N2 has been quiet. Before, one silence heard as long anywhere
    on the table left the odds of that out altogether, and star-5 stayed in doubt."""
    feed = Feed()
    tall = ["star-3", "club-1", "heart-2", "spade-4", "diamond-6"]
    on_board(feed, NE=["heart-5", "club-2", "diamond-8"], NW=tall)
    reads = {**READS, "NE": ["heart-5", "club-2", "diamond-8"], "NW": "star-3"}
    feed(60, **reads)
    feed(30, **{**reads, "NW": "-"})  # the tall stack reads nothing for 3 s: a silence
    feed(60, **reads)
    feed(10, **{**reads, "N2": "star-5"})  # shown over N2
    laid_on_ne(feed, reads, 25, missed=True)
    assert feed.placement() == ["NE star-5"]
    assert feed.doubts() == []


def test_a_tile_read_once_on_a_square_gone_silent_keeps_that_square_as_a_rival():
    """TUNE everything table 0 (the soak test's first game): star-3, read once as it was
    laid on S1, whose reader then fell silent, was held there in doubt (a silence explains
    the run of nothing as well as a lift); then E2, next door, showed it by crosstalk and
    the readings moved it there. S1 was no rival (it had read the tile only in passing),
    so two sightings on E2 were enough to score it there. A tile already held in doubt
    for its square's silence keeps that square as a rival wherever the readings move it,
    on a table whose readers fall silent after a change (W2's, here, three times)."""
    feed = Feed()
    feed(20)
    for _ in range(3):
        feed(3, W2="club-2")
        feed(12, W2="-")
        feed(5, W2="club-2")
    feed(35)  # club-2 taken away again
    feed(1, S1="heart-8")
    feed(25, S1="-")
    assert feed.tracker.hushed == (("S1", tile("heart-8")),)  # its reader may be silent
    feed(2, S1="-", E2="heart-8")
    assert feed.placement() == ["E2 heart-8"]
    assert feed.doubts() == ["lay-flat E2 heart-8"]


def test_a_tile_carried_along_a_crosstalk_link_keeps_what_its_new_square_read_before():
    """TUNE everything table 14, game 2: club-6 laid on N1 was read there six sweeps in
    eight while N2, next door, showed it in runs (four sweeps of those eight); then N1's
    reader fell silent after the change and N2's crosstalk ran on. The readings moved it
    to N2, where it was weighed on its readings since the move alone: a run of seven, and
    the press scored it there. N2's readings since it first showed the tile, misses while
    N1 read it included, are what a tile lying on N2 would have had to give: it is asked
    about."""
    feed = Feed()
    feed(20)
    feed(2, N1="club-6")
    for _ in range(2):
        feed(2, N1="club-6", N2="club-6")  # N2 shows it by crosstalk, in runs
        feed(2, N1="club-6")
    feed(4)  # N1 falls silent after the change
    feed(8, N2="club-6")  # N2's crosstalk runs on
    assert feed.placement() == ["N2 club-6"]
    assert "lay-flat N2 club-6" in feed.doubts()


def test_a_tile_the_readings_moved_back_and_forth_is_asked_about_where_it_came_to_rest():
    """TUNE everything table 16, game 0: spade-1 laid on N1 and read there three sweeps,
    whose reader then fell silent, was moved by single sightings of crosstalk to N2, then
    NE, then N2 again, where a run of five scored it. Each square it was believed on this
    turn is weighed as where it may lie (here N1), not only the last one it left."""
    feed = Feed()
    feed(20)
    feed(3, N1="spade-1")
    feed(12)  # N1 silent after the change
    feed(1, N2="spade-1")  # crosstalk: moved to N2
    feed(10)
    feed(1, NE=["heart-5", "spade-1"])  # ... then to NE
    feed(6)
    feed(5, N2="spade-1")  # ... and back to N2, in a run
    assert feed.placement() == ["N2 spade-1"]
    assert "lay-flat N2 spade-1" in feed.doubts()


def test_a_tile_read_next_door_together_with_the_tile_below_it_is_not_moved():
    """TUNE everything table 18, game 0: heart-3, laid on club-9 on NE, was read on NW
    together with club-9 through NE's crosstalk runs while NE's reader was silent after
    the change, and the readings moved it to NW, where it was scored. A neighbour's
    crosstalk shows a square's tiles together: a sighting beside a tile of its own square
    is as likely under either belief, and moves nothing."""
    feed = Feed()
    feed(20)
    feed(6, NE=["heart-5", "club-3"])  # club-3 laid on heart-5
    feed(3, NE=["heart-5", "club-3"], NW=["star-3", "heart-5", "club-3"])
    for _ in range(4):  # NE silent; its crosstalk runs on over NW
        feed(4, NE="-", NW=["star-3", "heart-5", "club-3"])
        feed(3, NE="-")
    assert feed.placement() == ["NE club-3"]


def test_a_tile_asked_about_is_asked_about_again_when_it_goes_again():
    """TUNE crosstalk table 37, game 0: club-6, shown over W1 and laid on a tall stack, was
    asked about once W1 read without it; then a neighbour's crosstalk showed it on N2's
    stack of one, and it went from there as N2's reader read that stack well. Gone off a
    stack the readers read well, a tile is taken back into the hand, not asked about: the
    turn scored without club-6, never asked about again."""
    feed = Feed()
    on_board(feed, N2=["star-9"])
    feed(20, N2="star-9")
    feed(3, W1="club-6", N2="star-9")  # shown over W1, then laid where nobody sees it
    feed(40, N2="star-9")
    assert vanished(feed) == {"club-6": True}
    feed(6, N2=["star-9", "club-6"])  # crosstalk on N2
    assert feed.placement() == ["N2 club-6"]
    feed(40, N2="star-9")
    assert vanished(feed) == {"club-6": True}  # asked about again


def test_a_tile_the_readings_move_while_a_press_waits_is_asked_about():
    """TUNE everything table 1, game 0: diamond-1, laid on W2 and read there sixteen times,
    was pressed with; W2's reader then fell silent and W1's crosstalk showed it in a run:
    the readings moved it to W1 and the held press scored it there. The family pressed
    with the tile where it lay: the readings alone do not score it elsewhere."""
    feed = Feed()
    feed(20)
    feed(10, W2="diamond-1")
    feed(4, W2="diamond-1", W1="diamond-1")  # crosstalk as it lies on W2
    feed(10, W2="diamond-1")
    feed.tracker.confirm()  # W presses; a doubt holds the press
    feed(2)  # W2 falls silent
    feed(30, W1="diamond-1")  # W1's crosstalk runs on
    assert feed.placement() == ["W1 diamond-1"]
    assert "lay-flat W1 diamond-1" in feed.doubts()
    feed.settle("laid", "W2", "diamond-1")  # the family's answers put it back
    assert feed.placement() == ["W2 diamond-1"] and feed.doubts() == []
