"""A tile that shows up on a tall stack just after a turn was scored, and that would have been a
legal part of that turn, is announced on every display (`companion.game.late`): on a stack
of five or more the readers see the top one sweep in ten, so a tile laid there unseen can pass
the press's confirmation. The score may be wrong, and the displays say so. On a low stack,
only for LATE_QUICK_SECONDS: a laying missed there shows within a sweep or two."""

from companion.game.late import LATE_QUICK_SECONDS, LATE_SWEEPS, LateTile
from companion.show.screens import Screens
from tests.game.test_confirm import Play
from tests.helpers import tile

HIDDEN = ["club-4", "club-6"]  # what NE (a stack of four) reads while star-2 lies on it unseen


def scored_without_star_2(tmp_path) -> Play:
    """S lays star-4 on W2 (seen) and star-2 on NE (never seen): star 2-3-4 along NE, NW, W2.
    The press is confirmed by readings of NE that show its old top, and S scores star 3-4."""
    play = Play(tmp_path)
    play.sweep(4, W2="star-4", NE=HIDDEN)
    play.table.on_press("S", False, play.now)
    play.sweep(12, W2="star-4", NE=HIDDEN)
    (move,) = play.table.game.moves
    assert move.scoring.placed == (("W2", tile("star-4")),) and move.scoring.points == 2
    play.table.take_sounds()
    return play


def late_tiles(play: Play) -> list[LateTile]:
    return [n for n in play.table.view(play.now).notices if isinstance(n, LateTile)]


def test_a_tile_that_shows_up_after_the_turn_and_fits_it_is_announced(tmp_path):
    play = scored_without_star_2(tmp_path)
    assert late_tiles(play) == []
    play.sweep(2, W2="star-4", NE=["club-6", "star-2"])  # there it is, on top of NE
    (late,) = late_tiles(play)
    assert (late.side, late.square, late.tile) == ("S", "NE", tile("star-2"))
    assert late.colour == play.table.colours["S"]
    assert play.table.take_sounds() == []  # most such tiles are the next player's: no alarm
    # it is N's turn meanwhile: nothing is blocked; S sees it until the next move
    assert play.table.game.active == "N"
    play.sweep(100, W2="star-4", NE=["club-6", "star-2"])
    assert late_tiles(play) == [late]
    screens = Screens("en")
    assert "Last turn right?" in [
        t for t, _, _ in screens.canvas(play.table.view(play.now), "S", play.now).texts
    ]
    assert "Last turn right?" not in [
        t for t, _, _ in screens.canvas(play.table.view(play.now), "N", play.now).texts
    ]
    play.table.on_press("N", False, play.now)  # N says it is theirs by scoring it
    play.sweep(12, W2="star-4", NE=["club-6", "star-2"])
    assert len(play.table.game.moves) == 2 and late_tiles(play) == []


def test_the_player_of_that_turn_takes_it_back_and_the_notice_goes(tmp_path):
    play = scored_without_star_2(tmp_path)
    play.sweep(2, W2="star-4", NE=["club-6", "star-2"])
    assert late_tiles(play)
    play.table.on_press("S", True, play.now)  # S: "it was mine", the turn is taken back
    assert play.table.game.moves == () and late_tiles(play) == []


def test_a_tile_of_the_next_player_that_could_not_have_been_part_of_the_turn_is_theirs(
    tmp_path,
):
    play = scored_without_star_2(tmp_path)
    play.sweep(4, W2="star-4", NE=["club-6", "heart-9"])  # N: heart-9 next to SE spade-9
    assert late_tiles(play) == []
    assert ("NE", tile("heart-9")) in play.table.tracker.placement


def test_a_tile_showing_up_long_after_the_turn_is_the_next_players(tmp_path):
    play = scored_without_star_2(tmp_path)
    play.sweep(LATE_SWEEPS, W2="star-4", NE=HIDDEN)
    play.sweep(2, W2="star-4", NE=["club-6", "star-2"])
    assert late_tiles(play) == []


def scored_without_star_2_on_a_low_stack(tmp_path) -> Play:
    """S lays star-4 on W2 (seen) and star-2 on SW, a square of one tile (star 2-3-4 along
    SW, NW, W2): both sightings of its laying missed, and the press confirmed by readings of
    SW that show only club-7 below it (a second tile reads one sweep in three on some
    tables). SW is no tall stack: nothing warned the player to show the tile first."""
    play = Play(tmp_path)
    play.sweep(4, W2="star-4")
    play.table.on_press("S", False, play.now)
    for _ in range(30):
        play.sweep(1, W2="star-4")
        if play.table.game.moves:
            break
    (move,) = play.table.game.moves
    assert move.scoring.placed == (("W2", tile("star-4")),)
    return play


def test_a_missed_tile_on_a_low_stack_showing_just_after_the_turn_is_asked_about(tmp_path):
    """Issue 25 (TUNE weak-tall table 15): spade-1 laid on a square of one tile, seen 0.3 s
    after the turn was scored without it, was taken for the next player's tile."""
    play = scored_without_star_2_on_a_low_stack(tmp_path)
    play.sweep(3, W2="star-4", SW=["club-7", "star-2"])  # there it is, a moment later
    assert [(n.side, n.square, n.tile) for n in late_tiles(play)] == [("S", "SW", tile("star-2"))]


def test_a_tile_on_a_low_stack_after_the_quick_watch_is_the_next_players(tmp_path):
    play = scored_without_star_2_on_a_low_stack(tmp_path)
    play.sweep(round(LATE_QUICK_SECONDS / 0.1) + 1, W2="star-4")
    play.sweep(3, W2="star-4", SW=["club-7", "star-2"])  # N laid it: N's turn goes on
    assert late_tiles(play) == []
    assert ("SW", tile("star-2")) in play.table.tracker.placement


def test_the_next_players_quick_tile_does_not_end_the_watch_on_the_tall_stack(tmp_path):
    """N lays star-5 on W1 at once (it would have fitted S's turn too: asked, needlessly);
    then S's star-2 shows on top of NE, the tall stack: asked about as well."""
    play = scored_without_star_2(tmp_path)
    play.sweep(2, W2="star-4", NE=HIDDEN, W1="star-5")
    assert [(n.square, n.tile) for n in late_tiles(play)] == [("W1", tile("star-5"))]
    play.sweep(20, W2="star-4", NE=HIDDEN, W1="star-5")
    play.sweep(2, W2="star-4", NE=["club-6", "star-2"], W1="star-5")
    assert [(n.square, n.tile) for n in late_tiles(play)] == [("NE", tile("star-2"))]


def test_the_notice_names_the_square_the_tile_is_read_on_now(tmp_path):
    """TUNE everything table 0: club-7, laid on W1 whose reader was silent, first showed
    on SW by crosstalk and was announced there; the readings then moved it to W1, and the
    notice went on naming SW. The family, who laid it on W1, did not take it for theirs,
    and the turn missed it in silence. The notice follows the tile."""
    play = scored_without_star_2_on_a_low_stack(tmp_path)
    play.sweep(3, W2="star-4", SW=["club-7", "star-2"])  # shows through SW first
    assert [n.square for n in late_tiles(play)] == ["SW"]
    play.sweep(20, W2="star-4", W1="star-2")  # W1's reader answers: it lies there
    assert play.table.tracker.board.square_of(tile("star-2")) == "W1"
    assert [(n.side, n.square, n.tile) for n in late_tiles(play)] == [("S", "W1", tile("star-2"))]
