"""Issue 15's last silent misscore: a tile laid on a stack, missed in both sweeps of its
putting down, and a press within a second on the legal preview of the player's other tiles.
The press is confirmed by the readings after it, as many as a tile on each square would
need to show, as learned (issue 25); a square where the readers could not confirm a new top
in CONFIRM_MOST readings (a tall stack, a height no tile was read at yet) is not waited
for: the player to move is told to show a tile for it to a reader first (`ShowFirst`),
and a tile that shows up there after the turn is asked about ("last turn right?")."""

from companion.board.tracker import CONFIRM_STACK, CONFIRM_TALL, DARK_HOLD_SECONDS
from companion.game.journal import Journal
from companion.game.late import LateTile
from companion.game.table import Table
from companion.game.view import Question, ShowFirst, SwapQuestion
from engine import Board
from tests.helpers import config, registry, snap, tile

BOARD = {
    "NW": ["star-3"],
    "NE": ["heart-5", "club-2", "club-4", "club-6"],
    "SW": ["club-7"],
    "SE": ["spade-9"],
}
SEEN = {"NW": "star-3", "NE": ["club-4", "club-6"], "SW": "club-7", "SE": "spade-9"}


class Play:
    def __init__(self, tmp_path, board: dict = BOARD, seen: dict = SEEN) -> None:
        cfg = config(tmp_path)
        self.now = 100.0
        self.seen = seen
        self.table = Table(cfg, registry(), Journal(cfg.paths.journal), now=self.now)
        self.table.tracker.rebase(Board.from_mapping(board), self.now)
        self.sweep(5)
        for side in ("S", "N"):
            self.table.on_press(side, False, self.now)
        self.table.on_press("S", True, self.now)
        assert self.table.phase == "playing"

    def sweep(self, n: int = 1, **squares) -> None:
        for _ in range(n):
            self.now += 0.1
            self.table.on_snapshot(snap(**{**self.seen, **squares}), self.now)
            self.table.tick(self.now)


def test_a_stack_the_readers_cannot_confirm_is_named_and_a_tile_found_later_asked(tmp_path):
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    assert play.table.preview().legal
    # NE, four high: no tile was read yet at the height a fifth would lie at, so the
    # readers could not confirm one laid there: the player to move is told before laying
    assert ShowFirst("S", ("NE",), tile("star-4")) in play.table.view(play.now).notices
    # star-2 laid on NE all the same (star 2-3-4 along NE, NW, W2), unshown, both sightings
    # of its putting down missed
    play.sweep(2, W2="star-4", NE="heart-5")
    play.table.on_press("S", False, play.now)
    play.sweep(CONFIRM_STACK, W2="star-4", NE="heart-5")
    (move,) = play.table.game.moves  # not waited for: the family was told
    assert move.scoring.placed == (("W2", tile("star-4")),)
    play.sweep(3, W2="star-4", NE=["club-6", "star-2"])  # there it is, a moment later
    late = [n for n in play.table.view(play.now).notices if isinstance(n, LateTile)]
    assert [(n.side, n.square, n.tile) for n in late] == [("S", "NE", tile("star-2"))]


def test_a_press_on_stacks_reading_their_tops_is_scored_within_the_confirmation(tmp_path):
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    play.table.on_press("S", False, play.now)
    assert play.table.held == "S"  # NE, a stack of four, did not read every tile
    play.sweep(CONFIRM_TALL, W2="star-4")
    (move,) = play.table.game.moves
    assert move.scoring.placed == (("W2", tile("star-4")),)
    assert CONFIRM_STACK <= CONFIRM_TALL


def test_a_tile_arriving_under_a_held_press_starts_its_confirmation_anew(tmp_path):
    """The press was made with a tile still unseen; it shows meanwhile: the board still
    changes under the press, so the turn waits for the readings after that too (a third
    may lie unseen). (The squares holding one tile want two readings each: a second tile
    is assumed read every other sweep until one is seen.)"""
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    play.table.on_press("S", False, play.now)
    assert play.table.held == "S" and play.table.tracker.confirming
    play.sweep(1, W2="star-4")  # (fewer readings than a square of one tile asks)
    play.sweep(1, W2="star-4", W1="star-5")  # star-5 shows now
    assert play.table.game.moves == () and play.table.tracker.confirming
    play.sweep(CONFIRM_TALL, W2="star-4", W1="star-5")
    (move,) = play.table.game.moves
    assert set(move.scoring.placed) == {("W2", tile("star-4")), ("W1", tile("star-5"))}


def test_a_press_with_nothing_seen_is_confirmed_before_it_is_taken_for_a_swap(tmp_path):
    """spade-8 laid on club-7 (SW) and missed in both sweeps of its putting down: the
    preview shows nothing, and the press reads as a swap. It is confirmed like any press,
    so the tile that shows within the confirmation is scored as this player's, not
    journalled as a swap and then found in the next player's placement."""
    play = Play(tmp_path)
    play.sweep(2)
    play.table.on_press("S", False, play.now)
    assert play.table.game.moves == ()
    assert play.table.held == "S"
    play.sweep(1, SW=["club-7", "spade-8"])  # spade 8-9 with SE
    play.sweep(CONFIRM_TALL + 3, SW=["club-7", "spade-8"])
    (move,) = play.table.game.moves
    assert move.kind == "place"
    assert move.scoring.placed == (("SW", tile("spade-8")),)
    assert move.side == "S"


def test_a_swap_is_taken_once_the_readings_after_the_press_show_nothing_new(tmp_path):
    play = Play(tmp_path)
    play.sweep(2)
    play.table.on_press("S", False, play.now)
    assert play.table.game.moves == ()  # NE, a stack of four, did not read every tile
    play.sweep(CONFIRM_TALL)
    # NE's top is one the readers could not confirm a tile laid on: "a swap?" (stop 31)
    assert play.table.game.moves == ()
    assert play.table.view(play.now).notices[-3:][0] == SwapQuestion("S", ("NE",))
    play.table.on_press("S", False, play.now)  # a press: a swap
    (move,) = play.table.game.moves
    assert move.kind == "swap" and move.side == "S"
    assert play.table.game.active == "N"


def test_the_player_sees_at_once_that_the_press_is_taken_while_the_readers_confirm(tmp_path):
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    seat = lambda: play.table.view(play.now).seat("S")  # noqa: E731
    assert not seat().checking
    play.table.on_press("S", False, play.now)
    assert seat().checking and not play.table.view(play.now).seat("N").checking
    play.sweep(CONFIRM_TALL, W2="star-4")
    assert len(play.table.game.moves) == 1
    assert not any(s.checking for s in play.table.view(play.now).seats)


def test_readings_of_nothing_do_not_confirm_a_square_that_holds_tiles(tmp_path):
    """star-5 laid on club-7 (SW), missed while put down, and SW then reads nothing: a stack
    of two reads as nothing one sweep in ten, a single tile almost never, so a silence is no
    evidence that nothing new lies there. Only readings that show a tile confirm it."""
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    play.sweep(2, W2="star-4", SW="-")
    play.table.on_press("S", False, play.now)
    play.sweep(CONFIRM_STACK + 2, W2="star-4", SW="-")
    assert play.table.game.moves == ()
    play.sweep(2, W2="star-4", SW=["club-7", "star-5"])
    # (NE's stack of four next to SW is one whose top the readers cannot confirm: star-5
    # is scored on SW once read there longer than NE's crosstalk would show it)
    for _ in range(20):
        play.sweep(1, W2="star-4", SW=["club-7", "star-5"])
        if play.table.game.moves:
            break
    (move,) = play.table.game.moves
    assert set(move.scoring.placed) == {("W2", tile("star-4")), ("SW", tile("star-5"))}


def test_a_collision_on_a_single_tile_does_not_confirm_it(tmp_path):
    """A single tile cannot collide: a collision there says a second tag lies on it."""
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    play.table.on_press("S", False, play.now)
    play.sweep(CONFIRM_STACK + 2, W2="star-4", SW="C")
    assert play.table.game.moves == ()


def test_a_held_press_dropped_by_an_undo_leaves_no_confirmation_behind(tmp_path):
    """Nothing waits for those readings any more: they must not hold up what comes next."""
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    play.table.on_press("S", False, play.now)
    play.sweep(CONFIRM_TALL + 3, W2="star-4")
    assert len(play.table.game.moves) == 1
    play.sweep(4, W2="star-4", N1="star-5")
    play.table.on_press("N", False, play.now)
    assert play.table.held == "N" and play.table.tracker.confirming
    play.table.on_press("S", True, play.now)  # S takes back the turn before
    assert play.table.held is None and play.table.game.moves == ()
    assert not play.table.tracker.confirming


def test_a_tile_shown_over_a_square_it_may_not_lie_on_is_asked_about_once_laid_unseen(
    tmp_path,
):
    """TUNE weak-tall table 48: star-2 held over N1 to show it (N's square: "not legal"
    there meanwhile), then laid on NE, where no reader sees it. The press asks "star-2 on
    N1?" (no), then "a swap?"; the player holds ("I laid tiles"). Taken for a tile told
    "not legal" and taken back to the hand, star-2 was never asked about where it may lie:
    the next press asked "a swap?" again, and so on until the family gave up. It is asked
    about where it may lie: it fits on NE, where the readers cannot see (a tile told "not
    legal" goes back to the hand only when it fits nowhere the readers cannot see)."""
    play = Play(tmp_path)
    play.sweep(25, N1="star-2")  # held over N1 for 2.5 s
    play.sweep(5)  # laid on NE, unseen
    play.table.on_press("S", False, play.now)
    play.sweep(10)
    assert [(q.square, q.tile) for q in questions(play)] == [("N1", tile("star-2"))]
    play.table.on_press("S", False, play.now)
    play.sweep(2)
    play.table.on_press("S", False, play.now)  # twice: not there
    play.sweep(15)
    assert [(q.square, q.tile) for q in questions(play)] == [("NE", tile("star-2"))]
    assert not any(isinstance(n, SwapQuestion) for n in play.table.view(play.now).notices)


def questions(play: Play) -> list[Question]:
    return [n for n in play.table.view(play.now).notices if isinstance(n, Question)]


def test_a_square_named_dark_is_not_dropped_for_a_reading_in_a_silence(tmp_path):
    """TUNE silent tables 35 and 41: a reader in a silence (or a tall stack) answered one
    sweep now and then, so "show the tile first" dropped its square for that moment; the
    family, looking up just then, laid a tile there unshown, and no reader ever reported
    it: the turn was scored without it. A square stays named DARK_HOLD_SECONDS after the
    readers last could not see it, while a press waits for its readings as soon as it
    answers (the readers can confirm it then)."""
    play = Play(tmp_path)

    def named() -> tuple[str, ...]:
        shown = [n for n in play.table.view(play.now).notices if isinstance(n, ShowFirst)]
        return shown[0].squares if shown else ()

    assert named() == ("NE",)
    play.sweep(6, SW="-")  # SW's reader falls silent
    assert named() == ("NE", "SW")
    play.sweep(1)  # and answers for one sweep
    assert named() == ("NE", "SW")
    assert "SW" not in play.table.tracker.dark()  # a press would wait for its readings
    play.sweep(round(DARK_HOLD_SECONDS * 10) - 2)
    assert named() == ("NE", "SW")
    play.sweep(3)
    assert named() == ("NE",)


def test_a_tile_shown_and_gone_is_asked_about_first_where_the_readings_say_least_against_it(
    tmp_path,
):
    """TUNE everything table 27: three tiles shown, then laid where the readers cannot
    see; each was asked about square by square in the order of the points it would
    score, and a tile was asked about where it lay only after six squares whose readers
    had shown their stacks without it: 40 s of questions, and the family gave up. The
    squares whose readings weigh least against it come first: here SE, a tall stack that
    reads as a collision (no evidence either way), before NE, whose reader shows the
    tiles under where it would lie."""
    board = {**BOARD, "SE": ["spade-9", "diamond-2", "diamond-3", "diamond-4"]}
    play = Play(tmp_path, board, {**SEEN, "SE": ["diamond-3", "diamond-4"]})
    play.sweep(5, SW=["club-7", "star-4"], SE="C")  # shown over SW
    play.sweep(40, SE="C")  # lifted, and laid on SE
    assert play.table.tracker.vanished and play.table.tracker.placement == ()
    play.table.on_press("S", False, play.now)
    play.sweep(10, SE="C")
    assert [(q.square, q.tile) for q in questions(play)] == [("SE", tile("star-4"))]
