"""Issue 15, what was seen: the board the daemon believes must be right when a turn is
scored, or the daemon must say why it cannot be sure. Each test failed before the fix."""

import logging
import random

from companion.board.tracker import Tracker
from engine import SQUARES, Board
from hardware.hub.protocol import MAX_LINE_V1
from hardware.hub.sim import FaultModel, FaultyReaders, SimTable, tag_uid
from hardware.hub.sim_faults import fit_line
from hardware.hub.snapshot import Snapshot
from tests.board.test_tracker import START, Feed, quiet, scorable_within
from tests.helpers import UIDS, registry, snap, tile


def test_a_tile_slid_over_a_square_follows_to_where_it_is_laid():
    """1. Seen once over S2 on the way, then laid on S1 (with a crosstalk sighting back on
    S2): it is on S1 after two sightings, and never scorable on S2 meanwhile; seen twice on
    S2, it is scored on S1 once S1 read it longer than S2's silence and crosstalk would
    explain (on a table not heard yet, a few sweeps)."""
    feed = Feed()
    feed(**quiet(S2="spade-3"))  # slid over S2 for one sweep
    assert feed.placement() == ["S2 spade-3"] and feed.tracker.blocking(feed.now)
    feed(**quiet(S1="spade-3"))
    assert feed.tracker.blocking(feed.now)  # seen elsewhere just now: not scorable
    feed(**quiet(S1="spade-3", S2="spade-3"))  # crosstalk back to S2
    feed(2, **quiet(S1="spade-3"))
    assert feed.placement() == ["S1 spade-3"]
    scorable_within(feed, 8, ["S1 spade-3"], **quiet(S1="spade-3"))


def test_a_tile_pinned_under_a_later_tile_still_follows():
    """2. spade-3 seen once over NE (on heart-5), then heart-6 lands on NE: spade-3 really
    lies on S1 and is seen there; it moves although it is not the top of NE."""
    feed = Feed()
    feed(**quiet(NE=["heart-5", "spade-3"]))
    feed(**quiet(NE=["heart-5", "heart-6"], S1="spade-3"))
    assert feed.board()["NE"] == ["heart-5", "spade-3", "heart-6"]
    feed(3, **quiet(NE="heart-6", S1="spade-3"))
    assert feed.board()["NE"] == ["heart-5", "heart-6"]
    assert sorted(feed.placement()) == ["NE heart-6", "S1 spade-3"]
    feed(3, **quiet(NE="heart-6", S1="spade-3"))
    assert not feed.tracker.blocking(feed.now)


def test_a_tile_moved_within_the_turn_is_never_absent_nor_scorable_on_the_way():
    """3. spade-3 moved from S1 onto the stack on NE, where it is seen one sweep in three."""
    feed = Feed()
    feed(3, **quiet(S1="spade-3"))
    for n in range(12):
        on_top = n % 3 == 2
        feed(**quiet(S1="-", NE=["heart-5", "spade-3"] if on_top else "heart-5"))
        assert [t for _, t in feed.tracker.placement] == [tile("spade-3")], n
        if 1 <= n < 5:  # on S1 (lifted, unseen) until seen twice on NE: not scorable
            assert feed.tracker.blocking(feed.now), n
    assert feed.placement() == ["NE spade-3"] and not feed.tracker.blocking(feed.now)


def test_a_tile_lifted_just_before_the_press_is_not_scored():
    """3. Lifted 0.3 s before the press: not gone yet (2 s), but not scorable either."""
    feed = Feed()
    feed(5, **quiet(S1="spade-3"))
    assert not feed.tracker.blocking(feed.now)
    feed(3, **quiet())
    assert feed.placement() == ["S1 spade-3"]
    assert [str(p) for p in feed.tracker.doubts(feed.now)] == ["lay-flat S1 spade-3"]


def test_a_tall_stack_the_line_cannot_carry_is_named_blind():
    """4. 7-byte UIDs, every tag readable: a 36-tile board overflows the 512-byte line and
    the hub reports the tallest square as `C` every sweep."""
    stacks: dict[str, list[str]] = {}
    names = iter(sorted(UIDS, key=str))
    heights = {"NW": 6, "NE": 5, "SW": 5, "SE": 4}
    for square in SQUARES:
        stacks[square] = [str(next(names)) for _ in range(heights.get(square, 2))]
    sim = SimTable()
    for square, tiles in stacks.items():
        for name in tiles:
            sim.put(SQUARES.index(square), UIDS[tile(name)])
    readers = FaultyReaders(12, FaultModel(), random.Random(1))
    feed = Feed(stacks)
    for seq in range(40):
        feed.now += 0.1
        reported = fit_line(seq, readers.sweep(sim.stacks), MAX_LINE_V1)  # a v1 hub
        feed.tracker.update(Snapshot(seq, reported), feed.now)
    # nobody can act on it (issue 25, item 6): no alarm, and no press waits on it; the
    # readers cannot confirm a tile laid on it: the player to move shows one there first
    assert "blind NW" not in feed.problems()
    assert "NW" in feed.tracker.dark() and not feed.tracker.blocking(feed.now)


def test_a_silent_stack_is_one_the_readers_cannot_see_and_no_alarm():
    """5. A stack that falls silent: a tile put on it would not be seen. Within a few
    sweeps it is a square the readers cannot see (`dark`: the player to move is asked to
    show a tile for it to a reader first), so no press waits on it, and it is no alarm:
    readers fall silent for half a minute, nobody can act on that (issue 25). Once it
    answers again it is an ordinary square."""
    feed = Feed({"NW": ["star-3"], "NE": ["heart-5"]})
    feed(5, NW="star-3", NE="heart-5")
    assert not feed.tracker.blocking(feed.now) and feed.tracker.dark() == frozenset()
    feed(11, NE="heart-5")
    assert feed.tracker.dark() == {"NW"} and not feed.tracker.blocking(feed.now)
    assert feed.tracker.doubts(feed.now) == () and feed.problems() == []
    feed(25, NE="heart-5")
    assert not feed.tracker.blocking(feed.now) and feed.problems() == []
    feed(1, NW="star-3", NE="heart-5")
    assert feed.problems() == [] and feed.tracker.dark() == frozenset()


def test_the_lobby_needs_every_start_tile_confirmed_seen():
    """6. A start tile seen once (a hand passing with it) is not the start board yet."""
    feed = Feed()
    feed.tracker.lobby = True
    feed(3, **quiet())
    assert not feed.tracker.blocking(feed.now)
    feed(1, **quiet(S1="spade-3"))
    assert [str(p) for p in feed.tracker.doubts(feed.now)] == ["lay-flat S1 spade-3"]
    assert feed.tracker.blocking(feed.now)
    feed(1, **quiet(S1="spade-3"))
    assert not feed.tracker.blocking(feed.now)


def test_a_tile_taken_from_under_a_top_in_the_lobby_raises_nothing():
    """8. club-3 on SE, heart-6 on it, club-3 pulled out and laid on NE: no KeyError."""
    feed = Feed({})
    feed.tracker.lobby = True
    feed(1, SE="club-3")
    feed(1, SE=["club-3", "heart-6"])
    feed(3, SE="heart-6")
    for _ in range(30):
        feed(1, SE="heart-6", NE="club-3")
        feed.problems()
    assert feed.board() == {"SE": ["heart-6"], "NE": ["club-3"]}
    assert feed.problems() == []


def test_a_scored_tile_seen_elsewhere_then_taken_raises_nothing():
    """8. The same in a game: a scored tile flagged as seen elsewhere, then gone."""
    feed = Feed({"SE": ["club-3", "heart-6"]})
    for _ in range(30):
        feed(1, SE="heart-6", NE="club-3")
        feed.problems()
    assert feed.problems() == ["tile-twice NE", "tile-twice SE"]


def test_fit_line_reports_the_longest_readers_as_collisions():
    readings = FaultyReaders(12, FaultModel(), random.Random(0)).sweep(
        tuple(tuple(tag_uid(100 + 40 * r + k) for k in range(1 if r else 30)) for r in range(12))
    )
    fitted = fit_line(7, readings, MAX_LINE_V1)
    assert fitted[0].status == "collision"
    assert all(r.status == "ok" for r in fitted[1:])
    assert fit_line(7, snap().readers) == snap().readers


def test_new_board_belief_is_seeded_from_the_game():
    tracker = Tracker(registry())
    tracker.lobby = False
    tracker.rebase(Board.from_mapping({"NW": ["star-3"]}), 1.0)
    assert tracker.doubts(1.0) == ()


def test_a_tile_seen_elsewhere_since_last_seen_on_its_square_is_not_scorable():
    """Seen twice over NE (a hand), laid on SE, a stack of five whose top shows one sweep in
    ten, and seen there once: the latest evidence has it on SE, however long ago (it was
    scored on NE 1.3 s later, while its reading on SE was more than a second old)."""
    board = {
        "NW": ["star-3"],
        "NE": ["heart-5", "club-2", "club-4", "club-6"],
        "SW": ["club-7"],
        "SE": ["spade-9", "spade-2", "spade-4", "spade-6", "spade-8"],
    }
    feed = Feed(board)
    reads = {"NW": "star-3", "NE": "club-6", "SW": "club-7", "SE": "spade-8"}
    feed(2, **{**reads, "NE": ["club-6", "diamond-8"]})
    assert feed.placement() == ["NE diamond-8"]
    feed(**{**reads, "NE": "C", "SE": ["spade-4", "diamond-8"]})
    for _ in range(7):  # NE reads as a collision or as its bottom tile
        feed(**{**reads, "NE": "C", "SE": "spade-4"})
        feed(**{**reads, "NE": "heart-5", "SE": "spade-4"})
    # not scorable on NE: asked about (in doubt there, or seen elsewhere)
    assert [d.tile for d in feed.tracker.doubts(feed.now)] == [tile("diamond-8")]
    # seen there again: a run of sightings on SE is what a crosstalk run from NE would give
    # too (issue 25: runs of several sweeps), so it is still not scorable on either: the
    # player is asked about it
    feed(2, **{**reads, "NE": "C", "SE": ["spade-4", "diamond-8"]})
    assert feed.tracker.doubts(feed.now) and feed.tracker.blocking(feed.now)


def test_a_tile_taken_back_from_a_stack_is_never_pinned_under_the_next():
    """star-8 laid on SW (the fourth tile: a height whose tiles the readers have not shown
    yet) and taken back; SW reads without it for 1 s, then as a collision for 1.4 s (a
    stack falling quiet), then without it again. The readers cannot tell it from a tile
    they hardly see: it stays, in doubt (a press asks about it). The next tile of the turn
    laid on SW takes its place: it is not pinned under it (it used to be, for good)."""
    feed = Feed({**START, "SW": ["club-7", "club-2", "diamond-6"]})
    reads = {**quiet(), "SW": ["club-2", "diamond-6"]}
    feed(3, **{**reads, "SW": ["club-2", "diamond-6", "star-8"]})
    assert feed.placement() == ["SW star-8"]
    for _ in range(4):  # lifted: seen without it, or as a collision
        feed(**reads)
        feed(2, **{**reads, "SW": "C"})
    feed(12, **{**reads, "SW": "C"})  # quiet for 1.2 s
    feed(12, **reads)
    assert [str(d) for d in feed.tracker.doubts(feed.now)] == ["lay-flat SW star-8"]
    feed(3, **{**reads, "SW": ["club-2", "diamond-6", "heart-8"]})
    assert feed.placement() == ["SW heart-8"] and feed.board()["SW"][-1] == "heart-8"


def test_a_tile_gone_from_its_square_but_seen_elsewhere_since_moves_there():
    """heart-7 seen over W1 on the way (it arrived there), then once on SW, where it lies on
    a stack whose top rarely shows; W1 reads empty: it is not lifted (a press would have
    been a swap, with heart-7 on the board) but follows the evidence to SW."""
    feed = Feed()
    feed(2, **quiet(W1="heart-7"))
    assert feed.placement() == ["W1 heart-7"]
    feed(**quiet(SW=["club-7", "heart-7"]))
    feed(25, **quiet())
    assert feed.placement() == ["SW heart-7"]
    assert feed.tracker.blocking(feed.now)  # seen there once: "lay it flat"


def test_unknown_tags_are_logged_each_time_a_new_one_shows_and_a_flood_stays_a_few_lines(caplog):
    """Before, only the first unknown tag on a square was ever logged: a second one there
    later said nothing. Now each tag is logged when it shows, and one that stays, or many
    that come and go, make a line a minute at most."""
    tracker = Tracker(registry())
    caplog.set_level(logging.WARNING, logger="setup.tracker")
    now = 0.0
    for uid in ("04AA000000000001", "04AA000000000002"):
        for _ in range(50):
            now += 0.1
            tracker.update(snap(NE=uid), now)
        now += 10.0
    lines = [r.getMessage() for r in caplog.records if "unknown tag" in r.getMessage()]
    assert lines == [
        "unknown tag 04AA000000000001 on square NE",
        "unknown tag 04AA000000000002 on square NE",
    ]
    caplog.clear()
    for n in range(600 * 10):  # ten minutes of two unknown tags taking turns on SW
        now += 0.1
        tracker.update(snap(SW=f"04BB00000000000{n % 2}"), now)
    lines = [r for r in caplog.records if "unknown tag" in r.getMessage()]
    assert 2 <= len(lines) <= 2 * 11


def test_a_tile_moved_by_the_readings_is_not_the_tile_the_display_says_was_seen():
    """`Tracker.latest` is what the display acknowledges ("Seen ♥4: lay it now", a tile
    held over an empty square). TUNE everything table 28: star-4, shown, then laid on
    NE, moved there by the readings just as heart-4 was being shown over W1: the display
    named star-4 again, and the family kept holding heart-4 until it tired. Nor is a tile
    seen once, in passing: lifted at once, the readers would take it for a hand."""
    feed = Feed()
    feed(**quiet(S2="star-4"))  # star-4 shown over S2: seen once, it may be a hand passing
    assert feed.tracker.latest() is None
    feed(2, **quiet(S2="star-4"))
    assert feed.tracker.latest() == tile("star-4")
    feed(3, **quiet(S2="star-4", W1="heart-4"))  # heart-4 shown over W1
    assert feed.tracker.latest() == tile("heart-4")
    for _ in range(20):  # star-4 laid on S1 (next to S2): the readings move it there
        feed(**quiet(S1="star-4", W1="heart-4"))
    assert "S1 star-4" in feed.placement()
    assert feed.tracker.latest() == tile("heart-4")


def test_a_tile_lifted_and_held_over_an_empty_square_is_the_tile_the_display_says_was_seen():
    """TUNE weak-tall table 7: heart-7 and heart-8 laid at once, heart-8 on W1, where it
    has no place; heart-8 lifted and held over the empty N2 to show it, as the display
    asked. The readings moved it there, so the display went on saying "Seen ♥7": the
    family held heart-8 until it tired, laid it on NE, where the readers cannot see, and
    the turn was scored without it. A tile moved onto an empty square is the one shown,
    unless the tile the display names is itself held over one (the test above)."""
    feed = Feed()
    feed(3, **quiet(SE=["spade-9", "heart-7"], W1="heart-8"))
    assert feed.tracker.latest() == tile("heart-7")
    for _ in range(20):  # lifted from W1, held over N2
        feed(**quiet(SE=["spade-9", "heart-7"], N2="heart-8"))
    assert "N2 heart-8" in feed.placement()
    assert feed.tracker.latest() == tile("heart-8")


def test_a_tile_back_in_sight_on_a_stack_is_not_the_tile_the_display_says_was_seen():
    """TUNE everything table 31: spade-8 shown over N1, then laid on NE, where the readers
    cannot see; spade-7 shown over E1 next. spade-8 then showed on NE after all, and the
    display said "Seen ♠8" while the family held spade-7 over E1, waiting to be told it
    was seen: they held it for seconds, and the preview ("not legal" with spade-7 on E1)
    had them taken for a player told it had no place, so spade-7, laid on NW, was taken
    to be in the hand and the turn scored without it. The tile held over a square alone
    stays the one named."""
    feed = Feed()
    feed(3, **quiet(NE="heart-5"))
    feed(3, **quiet(NE="heart-5", N1="spade-8"))  # shown over N1
    assert feed.tracker.latest() == tile("spade-8")
    for _ in range(400):  # laid on NE, unseen there (a table not learned yet: slowly)
        feed(**quiet(NE="heart-5", N1="-"))
        if "N1 spade-8" not in feed.placement():
            break
    assert feed.placement() == []
    feed(3, **quiet(NE="heart-5", E1="spade-7"))  # spade-7 shown over E1
    assert feed.tracker.latest() == tile("spade-7")
    feed(3, **quiet(NE=["heart-5", "spade-8"], E1="spade-7"))  # spade-8 shows on NE
    assert "NE spade-8" in feed.placement()
    assert feed.tracker.latest() == tile("spade-7")


def test_a_tile_seen_on_two_squares_and_forgotten_does_not_let_a_press_score_at_once():
    """TUNE everything table 18: diamond-10, laid on SW, was seen on NW and SW at once
    (a neighbour's crosstalk), so the readers waited for more sightings; the family laid
    it again, it went unseen for two seconds and was forgotten, and the press waiting
    for it scored the turn in that very sweep, without it, a tenth of a second before it
    showed on SW. Forgotten, it counts as a tile just lifted: the press waits a moment."""
    feed = Feed()
    feed(**quiet(NW=["star-3", "diamond-10"], SW=["club-7", "diamond-10"]))
    assert feed.tracker.blocking(feed.now)  # waiting for more sightings
    while feed.tracker._pending:
        feed(**quiet())  # laid again, unseen (the readers show the tiles below)
    assert feed.placement() == []
    assert feed.tracker.blocking(feed.now)
    feed(**quiet(SW=["club-7", "diamond-10"]))  # and it shows on SW
    assert feed.placement() == ["SW diamond-10"]


def test_a_tile_of_the_turn_covered_while_unseen_is_gone_and_asked_about_not_forgotten():
    """TUNE everything table 12: spade-8 shown over N1, then laid on NE where the readers
    cannot see; a tile that a neighbour's reader showed came onto N1 while spade-8 went
    unseen there, and spade-8 was taken off and forgotten: never asked about, the turn
    was scored without it. Taken off so, it has vanished (`Tracker.vanished`) and the
    press asks where it lies."""
    feed = Feed()
    feed(3, **quiet(N1="spade-8"))  # shown over N1
    feed(25, **quiet(N1="star-3"))  # laid on NE; N1 shows NW's tile through, not spade-8
    assert feed.board().get("N1") == ["spade-8"]
    feed(2, **quiet(N1="heart-9"))  # another tile on N1
    assert feed.board().get("N1") == ["heart-9"]
    assert [(t, square) for t, square, *_ in feed.tracker.vanished] == [(tile("spade-8"), "N1")]


def test_a_tile_shown_over_an_empty_square_and_laid_on_a_dark_stack_next_door_is_in_doubt():
    """TUNE crosstalk table 33: spade-2 shown over N1 for two seconds, as the display asked,
    then laid on NW, a stack too tall to read; N1's reader went on showing it by crosstalk,
    a few sweeps at a time. The sightings while it was held counted as it lying on N1, so
    the press scored it there. A first miss soon after it came ends a hand's holding it:
    what was read before weighs neither way, and the runs that follow are crosstalk's."""
    tall = ["star-3", "club-3", "heart-3", "diamond-3", "spade-3"]
    feed = Feed({**START, "NW": tall})
    reads = {**quiet(), "NW": "C"}
    for _ in range(4):  # this table's crosstalk comes in runs (W1 shows SW's club-7)
        feed(20, **reads)
        feed(4, **{**reads, "W1": "club-7"})
    feed(100, **reads)
    feed(20, **{**reads, "N1": "spade-2"})  # held over N1 for two seconds
    assert feed.placement() == ["N1 spade-2"]
    # laid on NW: N1 shows it through now and then, between misses and collisions
    for n, read in enumerate(["-", "spade-2", "-", "-", "C", "C", "spade-2", "-", "C"] * 2):
        feed(**{**reads, "N1": read})
        assert [str(d) for d in feed.tracker.doubts(feed.now)] == ["lay-flat N1 spade-2"], n


def test_a_tile_a_dark_stack_next_door_showed_stays_in_doubt_when_that_stack_misses_it():
    """TUNE crosstalk table 13: diamond-3 laid on W1, a stack of two whose third tile the
    readers had never read (the display named W1 as a square they cannot see), was read
    on S2 beside it by crosstalk, and by W1's own reader three times; W1 then missed it
    once, and that miss took W1 out of the squares it may lie on instead: the press
    scored it on S2. Where the readers cannot confirm a tile laid on top, their misses do
    not rule out one they showed there."""
    feed = Feed({**START, "W1": ["diamond-8", "club-1"], "S2": ["star-1"]})
    reads = {**quiet(), "W1": ["diamond-8", "club-1"], "S2": "star-1"}
    feed(30, **reads)
    assert feed.tracker.dark() == {"W1"}
    both = ["diamond-8", "club-1", "diamond-3"]
    feed(**{**reads, "S2": ["star-1", "diamond-3"], "W1": "C"})
    feed(2, **{**reads, "S2": ["star-1", "diamond-3"], "W1": both})
    for n, read in enumerate([{"W1": both}, {"S2": "C"}, {}, {"W1": "C"}]):
        feed(**{**reads, **read})
        assert feed.placement() == ["S2 diamond-3"]
        assert [str(d) for d in feed.tracker.doubts(feed.now)] == ["lay-flat S2 diamond-3"], n
