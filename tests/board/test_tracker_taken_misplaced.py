"""A tile flagged as seen elsewhere, then taken off the board in the same sweep, leaves no
stale flag behind: the next `problems()` must not fail (it raised KeyError, and the daemon's
step with it, every sweep until a restart)."""

from companion.board.tracker import Tracker
from engine import Board
from tests.helpers import registry, snap


def test_a_covered_tile_seen_elsewhere_and_then_taken_is_no_problem_and_no_crash():
    tracker = Tracker(registry())
    tracker.lobby = True  # between games every tile may go
    now = 10.0
    tracker.rebase(Board.from_mapping({"NW": ["star-3", "star-4"], "NE": ["heart-5"]}), now)
    for _ in range(30):  # NW reads only its top; star-3 keeps turning up on W2
        now += 0.1
        tracker.update(snap(NW="star-4", NE="heart-5", W2="star-3"), now)
        problems = tracker.problems(now)  # the daemon asks after every sweep
        assert all(p.square in (None, "NW", "W2") for p in problems), problems
