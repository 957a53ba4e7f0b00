"""The board as the daemon believes it: arrivals, silence, crosstalk, lifts, problems."""

import random

import pytest

from companion.board.tracker import Tracker
from companion.config import TrackerConfig
from engine import SQUARES, Board
from hardware.hub.sim import FaultModel, FaultyReaders, SimTable
from hardware.hub.snapshot import Snapshot
from tests.helpers import UIDS, UNKNOWN_UID, reader_neighbours, registry, snap, tile

START = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}


class Feed:
    """A tracker in a game (not the lobby) on START, fed snapshots 0.1 s apart."""

    def __init__(self, board: dict | None = None, settings: TrackerConfig | None = None):
        self.tracker = Tracker(registry(), settings=settings)
        self.tracker.lobby = False
        self.now = 10.0
        self.tracker.rebase(Board.from_mapping(START if board is None else board), self.now)

    def __call__(self, n: int = 1, **squares) -> None:
        for _ in range(n):
            self.now += 0.1
            self.tracker.update(snap(**squares), self.now)

    def board(self) -> dict:
        return self.tracker.board.to_mapping()

    def placement(self) -> list[str]:
        return [f"{sq} {t}" for sq, t in self.tracker.placement]

    def problems(self) -> list[str]:
        return [
            f"{p.code} {p.square}" if p.square else p.code for p in self.tracker.problems(self.now)
        ]


def quiet(**extra):
    """START as clean readings, plus `extra` squares."""
    return {**{sq: names[0] for sq, names in START.items()}, **extra}


def test_one_clean_sighting_is_an_arrival_and_silence_keeps_it():
    feed = Feed()
    feed(**quiet(NW=["star-3", "star-4"]))  # a new tile on a stack, seen once being put down
    assert feed.placement() == ["NW star-4"]
    feed(50, **quiet(NW="C"))  # the stack reads as a collision from then on (5 s)
    assert feed.placement() == ["NW star-4"]
    feed(50, **quiet(NW="-"))  # or as nothing
    assert feed.placement() == ["NW star-4"]
    assert feed.board()["NW"] == ["star-3", "star-4"]


def answered_changes(feed: Feed, n: int) -> None:
    """`n` tiles laid on W1 and lifted again, each read for 2.5 s while it lay there: the
    table's readers are heard answering after their stacks change (no silence follows)."""
    for k in range(n):
        name = ("heart", "club", "diamond")[k % 3] + f"-{k % 10 + 1}"
        feed(25, **quiet(W1=name))
        feed(1, **quiet())  # lifted: W1 reads nothing again
        feed(25, **quiet())


def test_a_tile_alone_that_reads_empty_is_in_doubt_until_the_table_is_known():
    """A single tile that reads as nothing may be lifted or its reader silent (issue 25,
    item 2: real readers do fall silent, a single tile included). On a table not heard
    yet the tile stays, in doubt (a press asks about it), until the silence would have
    lasted beyond belief; on a table whose readers have been heard answering after every
    change, the same readings lift it in about two seconds."""
    feed = Feed()
    feed(**quiet(S1="spade-3"))
    feed(21, **quiet(S1="-"))  # 2.1 s of nothing
    assert feed.placement() == ["S1 spade-3"]
    assert [str(d) for d in feed.tracker.doubts(feed.now)] == ["lay-flat S1 spade-3"]
    assert feed.tracker.hushed == (("S1", tile("spade-3")),)
    feed(900, **quiet(S1="-"))  # 90 s: longer than any silence believed
    assert feed.placement() == [] and "S1" not in feed.board()

    known = Feed()
    answered_changes(known, 30)
    assert known.tracker.evidence[SQUARES.index("S1")].after_change_rate() < 0.01
    known(**quiet(S1="spade-3"))
    known(15, **quiet(S1="-"))  # 1.5 s: missed sweeps, not yet a lift
    assert known.placement() == ["S1 spade-3"]
    known(6, **quiet(S1="-"))  # on this table a single tile does not read as nothing for 2 s
    assert known.placement() == [] and "S1" not in known.board()


def test_covered_tiles_falling_silent_change_nothing_but_a_silent_square_is_named():
    """Silence never changes the belief, and a reader silent as long as readers fall silent
    (half a minute) is no alarm: nobody can act on it (issue 25). A square silent for twice
    as long as any silence heard is named blind (a broken reader: issue 15), and is no
    longer once it answers."""
    feed = Feed({"NW": ["star-3", "club-3", "heart-3"], "NE": ["heart-5"]})
    for what in ("-", "C", ["star-3"], ["heart-3"]):  # nothing, collision, bottom only, top only
        feed(40, NW=what, NE="-")  # and heart-5 (scored, alone) silent for 16 s
        assert feed.problems() == []
    assert feed.board() == {"NW": ["star-3", "club-3", "heart-3"], "NE": ["heart-5"]}
    feed(450, NW="heart-3", NE="-")  # 61 s in all: twice the longest silence believed
    assert feed.problems() == ["blind NE"]
    assert feed.board() == {"NW": ["star-3", "club-3", "heart-3"], "NE": ["heart-5"]}
    feed(1, NW="heart-3", NE="heart-5")
    assert feed.placement() == [] and feed.problems() == []


def test_crosstalk_does_not_move_a_tile():
    feed = Feed()
    feed(**quiet(S1="spade-3"))
    for i in range(60):  # spade-3 also seen on its neighbour SE every third sweep
        extra = ["spade-9", "spade-3"] if i % 3 == 0 else "spade-9"
        feed(**quiet(S1="spade-3", SE=extra))
    assert feed.placement() == ["S1 spade-3"]
    assert feed.board()["SE"] == ["spade-9"] and feed.problems() == []


def test_a_placed_tile_moved_to_another_square_follows_the_latest_evidence():
    """Seen twice on S2 and no longer on S1, it is on S2 (it used to take 6 sightings in 10
    sweeps); until then it stays on S1 (never absent) and cannot be scored. On a table not
    heard yet, S1 reading nothing may be its reader falling silent while S2's shows the
    tile through (issue 25, item 2 and 3): it is scored once S2 has read it a little longer
    than a neighbour's crosstalk explains."""
    feed = Feed()
    feed(3, **quiet(S1="spade-3"))
    feed(1, **quiet(S2="spade-3"))  # lifted from S1 and put on S2: one sighting
    assert feed.placement() == ["S1 spade-3"] and feed.tracker.blocking(feed.now)
    feed(1, **quiet(S2="spade-3"))
    assert feed.placement() == ["S2 spade-3"] and "S1" not in feed.board()
    assert feed.tracker.blocking(feed.now)
    scorable_within(feed, 8, ["S2 spade-3"], **quiet(S2="spade-3"))


def scorable_within(feed: Feed, sweeps: int, placement: list[str], **reads) -> None:
    """Fed `reads`, the tracker keeps `placement` and lets it be scored within `sweeps`
    sweeps (a tile whose square must first outweigh a neighbour's crosstalk)."""
    for _ in range(sweeps):
        feed(**reads)
        assert feed.placement() == placement
        if not feed.tracker.blocking(feed.now):
            return
    assert not feed.tracker.blocking(feed.now)


def test_a_scored_tile_seen_elsewhere_is_a_problem_not_a_move():
    feed = Feed()
    feed(10, **quiet(NW="-", W2="star-3"))  # star-3 (scored) seen only on W2
    assert feed.board()["NW"] == ["star-3"] and "W2" not in feed.board()
    assert feed.problems() == ["tile-twice W2", "tile-twice NW"]
    feed(10, **quiet())  # put back: the evidence fades within the window
    assert feed.problems() == []


def test_a_new_tile_seen_on_two_squares_waits_quietly_until_decided():
    feed = Feed()
    feed(**quiet(S1="spade-3", S2="spade-3"))
    assert feed.placement() == []
    # crosstalk as it is laid: a press waits for the next sightings, with no alarm
    assert feed.problems() == [] and feed.tracker.blocking(feed.now)
    feed(**quiet(S2="spade-3"))
    assert feed.placement() == []  # one more sighting is not a lead of two
    feed(**quiet(S2="spade-3"))
    assert feed.placement() == ["S2 spade-3"] and feed.problems() == []


def test_a_new_tile_that_stays_on_two_squares_asks_to_check():
    feed = Feed()
    feed(29, **quiet(S1="spade-3", S2="spade-3"))  # lying across both: undecided for 2.9 s
    assert feed.problems() == [] and feed.tracker.blocking(feed.now)
    feed(3, **quiet(S1="spade-3", S2="spade-3"))  # 3 s and more: someone can straighten it
    assert feed.problems() == ["tile-twice S1", "tile-twice S2"]
    feed(2, **quiet(S2="spade-3"))
    assert feed.placement() == ["S2 spade-3"] and feed.problems() == []


def test_an_undecided_tile_that_is_never_seen_again_is_forgotten():
    feed = Feed(settings=TrackerConfig(pending_seconds=3.0))
    feed(**quiet(S1="spade-3", S2="spade-3"))
    feed(20, **quiet())
    assert feed.problems() == [] and feed.tracker.blocking(feed.now)
    feed(15, **quiet())
    assert feed.problems() == [] and feed.placement() == []
    feed(5, **quiet())  # (forgotten, it counts as a tile lifted a moment ago)
    assert not feed.tracker.blocking(feed.now)


def test_unknown_tag_is_shown_and_never_placed():
    feed = Feed()
    feed(**quiet(E1=UNKNOWN_UID))
    assert feed.problems() == ["unknown-tag E1"] and feed.placement() == []
    feed(20, **quiet(E1=UNKNOWN_UID))
    feed(31, **quiet())  # gone for longer than unknown_seconds (3 s)
    assert feed.problems() == []


def test_reader_fault_and_disconnect_keep_the_board():
    feed = Feed()
    before = feed.board()
    feed(30, **quiet(NW="F"))  # NW's reader in fault: star-3 unseen, its square unknown
    assert feed.board() == before
    assert feed.problems() == ["reader-fault NW"]
    feed.tracker.set_health(False, (), feed.now)
    assert feed.problems() == ["hub-disconnected"] and not feed.tracker.ready
    feed.tracker.set_health(True, (8,), feed.now)  # reader 8 (under NW) faulty per health
    feed(30, **quiet(NW="-"))
    assert feed.board() == before and feed.problems() == ["reader-fault NW"]
    assert feed.tracker.blocking(feed.now)


def test_a_placed_tile_lifted_from_a_stack_goes_only_on_clear_readings():
    feed = Feed()
    feed(**quiet(NW=["star-3", "star-4"]))
    assert feed.placement() == ["NW star-4"]
    feed(40, **quiet(NW="-"))  # nothing: a stack may read as nothing
    assert feed.placement() == ["NW star-4"]
    for _ in range(20):  # mostly bottom only, but collisions too: the stack is still there
        feed(3, **quiet(NW="star-3"))
        feed(1, **quiet(NW="C"))
    assert feed.placement() == ["NW star-4"]
    feed(21, **quiet(NW="star-3"))  # only the tile below, every sweep, for 2 s: lifted
    assert feed.placement() == []
    assert feed.board()["NW"] == ["star-3"]


def test_lobby_lets_every_tile_go_and_places_nothing():
    feed = Feed()
    answered_changes(feed, 30)  # readers that answer after every change
    feed.tracker.lobby = True
    feed(**quiet(S1="spade-3"))
    assert feed.placement() == [] and feed.board()["S1"] == ["spade-3"]
    feed(25)  # every square empty for 2.5 s: the board was cleared
    assert feed.board() == {}


@pytest.mark.parametrize("lobby", [False, True])
def test_realistic_readers_never_change_a_still_board(lobby):
    """Ten minutes of realistic faults (seeded) on a board with stacks: nothing arrives,
    nothing leaves, and no problem ever shows; also in the lobby, where every tile may go
    (so a covered tile is only believed gone on strong evidence)."""
    stacks = {
        "NW": ["star-3", "club-3", "heart-3"],
        "NE": ["heart-5", "heart-6"],
        "SW": ["club-7"],
        "SE": ["spade-9", "spade-8"],
        "N1": ["diamond-2"],
        "E2": ["diamond-10", "club-10"],
    }
    sim = SimTable()
    for square, names in stacks.items():
        for name in names:
            sim.put(SQUARES.index(square), UIDS[tile(name)])
    faults = FaultModel.realistic()
    readers = FaultyReaders(12, faults, random.Random(4), reader_neighbours())
    feed = Feed(stacks)
    feed.tracker.lobby = lobby
    blocked = 0
    for seq in range(6000):
        feed.now += 0.1
        feed.tracker.update(Snapshot(seq, readers.sweep(sim.stacks)), feed.now)
        blocked += bool(feed.tracker.problems(feed.now))
    assert feed.board() == stacks
    assert feed.placement() == []
    assert blocked == 0


def test_realistic_readers_see_a_tile_put_on_a_stack_and_its_lift():
    sim = SimTable()
    for square, names in START.items():
        sim.put(SQUARES.index(square), UIDS[tile(names[0])])
    readers = FaultyReaders(
        12,
        FaultModel.realistic(),
        random.Random(9),
        reader_neighbours(),
    )
    feed = Feed()

    def sweeps(n):
        for _ in range(n):
            feed.now += 0.1
            feed.tracker.update(Snapshot(0, readers.sweep(sim.stacks)), feed.now)

    sweeps(5)
    sim.put(SQUARES.index("NE"), UIDS[tile("heart-6")])
    sweeps(3)
    assert feed.placement() == ["NE heart-6"]
    sweeps(100)
    assert feed.placement() == ["NE heart-6"]
    sim.lift(SQUARES.index("NE"))
    sweeps(60)
    assert feed.placement() == []
    assert feed.board() == START


def test_a_tile_lifted_from_under_the_top_in_the_lobby_is_gone_on_strong_evidence():
    feed = Feed({"NE": ["heart-5", "heart-6"]})
    feed.tracker.lobby = True
    feed(10, NE="heart-6")  # the top alone, but only 1 s of it: could still be a stack
    assert feed.board() == {"NE": ["heart-5", "heart-6"]}
    feed(5, NE="C")  # a collision: it is a stack after all
    feed(15, NE="heart-6")
    assert feed.board() == {"NE": ["heart-5", "heart-6"]}
    feed(5, NE="heart-6")  # 20 clean readings in a row
    assert feed.board() == {"NE": ["heart-6"]}


def _crosstalk_runs_learned(feed: Feed) -> None:
    """This table's crosstalk comes in runs: NW's star-3 read over W1 ten sweeps at a time,
    four times, then SW read clean for 20 s (its tile collides only by chance)."""
    for _ in range(4):
        feed(20, **quiet())
        feed(10, **quiet(W1="star-3"))
    feed(200, **quiet())


def test_a_crosstalk_run_colliding_with_a_single_tile_is_no_alarm():
    """Stop 34 (most of the crosstalk tables' false alarms): a neighbour's tag answering
    with SW's single tile for a run of a dozen sweeps collided a dozen times, and SW was
    named "cannot be read" (a problem sound, and every press refused) on a table that was
    fine. Where this table's crosstalk comes in runs, a run of collisions weighs as the few
    independent readings it is."""
    feed = Feed()
    _crosstalk_runs_learned(feed)
    feed(12, **quiet(SW="C"))
    assert "unreadable SW" not in feed.problems()
    feed(28, **quiet())
    feed(12, **quiet(SW="C"))  # and the next run
    assert "unreadable SW" not in feed.problems()


def test_collisions_that_come_with_a_neighbours_tag_listed_are_no_alarm():
    """TUNE everything tables (1.9 "cannot be read" alarms a game on still tables, most of
    their false alarms): SE's spade-9 laid next to SW, SW's reader shows it with club-7 in
    about half the sweeps, and collides in most of those. The collisions come far more
    often than SW's learned rate (a new neighbour tile crossing), in runs longer than the
    table's listed crosstalk runs show (the sweeps that collided are not listed). The
    neighbour's tag listed in the same readings explains them: nobody can act on it."""
    feed = Feed()
    _crosstalk_runs_learned(feed)
    both = ["club-7", "spade-9"]
    pattern = ["C", "C", both, "C", "C", "C", both, "club-7", "club-7", "club-7"]
    for n in range(60):
        feed(**quiet(SW=pattern[n % len(pattern)]))
        assert "unreadable SW" not in feed.problems(), n


def test_a_single_tile_colliding_on_and_on_is_unreadable_on_a_crosstalk_table_too():
    feed = Feed()
    _crosstalk_runs_learned(feed)
    feed(30, **quiet(SW="C"))  # three seconds of collisions: no crosstalk run is that long
    assert "unreadable SW" in feed.problems()


def test_a_single_tile_square_that_keeps_colliding_cannot_be_read():
    feed = Feed()
    feed(5, **quiet())
    feed(5, **quiet(SW="C"))
    # five collisions may be a passing glitch (a crosstalk run from a neighbour)
    assert "unreadable SW" not in feed.problems()
    feed(1, **quiet(SW="C"))
    assert "unreadable SW" in feed.problems()  # a tile no reader can see is there
    feed(40, **quiet())  # read again, clean, for the window's length
    assert "unreadable SW" not in feed.problems()
