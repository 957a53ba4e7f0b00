"""What issue 25 saw on tables unlike our simulator, each as a scripted game through the real
`Table` (and its tracker) in simulated time: the readings are written out sweep by sweep,
so each test says exactly what the readers reported.

Each asserts what a family must get: the turn journalled as really laid; or, where the
readers cannot vouch for it, a question or a problem on the presser's display (naming the
square or the tile) instead of a silent misscore; a press that cannot stand saying why on
the presser's display until the next press; never stuck. They fail on the tracker of
main 5850cfd and are marked `xfail(strict=True)` until issue 25's new board belief fixes
them: remove a mark with its fix. The notices of the new design (questions, corrections)
are recognised by their fields (`side`, `square`, `tile`, a `doubt`'s), not by their
types, so the assertions need not change with them; adapt `for_seat`/`names` only if a
new notice carries the square or the tile under another name, never the assertions.
Item 7 (press latency) is measured in `make bench` (benchmarks/bench_soak.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import pytest

from companion.game.journal import Journal, start_record, turn_record
from companion.game.table import Table
from companion.game.view import BagEmpty, BonusAlert, PinShown, Question, TableView, Undo
from companion.sim.family import kind
from engine import Board, Game
from tests.helpers import config, registry, snap, tile

COLOURS = {"N": "red", "E": "purple", "S": "yellow", "W": "green"}
Reads = Mapping[str, str | Iterable[str]]


class Scripted:
    """The real Table, fed a snapshot every 0.1 s of what the test says the readers read.

    `reads` is what each square reads unless a sweep says otherwise (squares not named
    read nothing). With `board`, a game of `players` in progress is resumed from its
    journal (the start record and `turns`), as after a power cut; without, a lobby."""

    def __init__(
        self,
        tmp_path,
        reads: Reads,
        board: Mapping[str, list[str]] | None = None,
        players: tuple[str, ...] = ("S", "N"),
        turns: Iterable[tuple[str, list[tuple[str, str]]]] = (),
    ) -> None:
        self.config = config(tmp_path)
        self.now = 100.0
        if board is not None:
            game = Game(players, board=Board.from_mapping(board))
            journal = Journal(self.config.paths.journal)
            journal.append(start_record(game, COLOURS))
            for side, placed in turns:
                placement = [(square, tile(name)) for square, name in placed]
                journal.append(turn_record(side, placement, game.place(placement)))
        self.table = Table(
            self.config, registry(), Journal(self.config.paths.journal), now=self.now
        )
        self.reads = dict(reads)
        self.sounds: list[str] = []

    def sweep(self, n: int = 1, **squares: str | Iterable[str]) -> None:
        for _ in range(n):
            self.now += 0.1
            self.table.on_snapshot(snap(**{**self.reads, **squares}), self.now)
            self.table.tick(self.now)
            self.sounds += [s.kind for s in self.table.take_sounds()]

    def seconds(self, seconds: float, **squares: str | Iterable[str]) -> None:
        self.sweep(round(seconds / 0.1), **squares)

    def press(self, side: str, long: bool = False) -> None:
        self.table.on_press(side, long, self.now)

    def view(self) -> TableView:
        return self.table.view(self.now)

    def turns(self) -> list[dict]:
        """The turns journalled, as records (what a restart or `replay` would read)."""
        records = Journal(self.config.paths.journal).records()
        return [r for r in records if r["type"] == "turn"]


#: notices that never tell a player anything about the board
QUIET = (BonusAlert, BagEmpty, Undo, PinShown)


def for_seat(view: TableView, side: str) -> list[object]:
    """The notices on `side`'s display: those for that side, and those for everyone."""
    return [
        n
        for n in view.notices
        if not isinstance(n, QUIET) and getattr(n, "side", side) in (side, None)
    ]


def names(notice: object, square: str | None = None, t: str | None = None) -> bool:
    """Whether `notice` points at `square` (or the tile `t`), itself or through its doubt."""
    for value in (notice, getattr(notice, "doubt", None)):
        if value is None:
            continue
        squares = {getattr(value, "square", None), *getattr(value, "squares", ())}
        tiles = {getattr(value, "tile", None), *getattr(value, "tiles", ())}
        if (square is not None and square in squares) or (t is not None and tile(t) in tiles):
            return True
    return False


def asked(play: Scripted, side: str, square: str | None, t: str | None = None) -> bool:
    return any(names(n, square, t) for n in for_seat(play.view(), side))


def placed(record: dict) -> set[tuple[str, str]]:
    return {(square, name) for square, name in record["placed"]}


def family_gets(
    play: Scripted,
    side: str,
    laid: list[tuple[str, str]],
    points: int,
    about: tuple[str, str],
    seconds: float,
    reading: Callable[[int], Reads] = lambda _: {},
) -> None:
    """`side` presses; over `seconds` the turn is journalled as `laid` for `points`, or,
    while it is not, `side`'s display says something about `about` (the square, or the
    tile, the readers cannot vouch for); a turn journalled otherwise is announced to `side`
    (naming the tile) within 5 s, never silent."""
    square, name = about
    before = len(play.turns())
    play.press(side)
    for n in range(round(seconds / 0.1)):
        turns = play.turns()[before:]
        if turns:
            (turn,) = turns
            if placed(turn) == set(laid) and turn.get("points") == points:
                return
            for _ in range(50):  # wrong: is it announced (naming the tile)?
                if asked(play, side, None, name):
                    return
                play.sweep(**reading(n))
            raise AssertionError(f"{side} laid {laid} for +{points}; journalled {turn}: silent")
        play.sweep(**reading(n))
    assert asked(play, side, square, name), (
        f"{side}'s turn is not journalled after {seconds} s and their display shows "
        f"nothing about {square} or {name}: {play.view().notices}"
    )


# -- item 1 --------------------------------------------------------------------------------
TALL = ["club-7", "heart-1", "spade-8", "diamond-6", "heart-10"]


def dark(n: int) -> str | list[str]:
    """A stack of five the reader hardly sees: a collision or nothing, and one sweep in
    five its bottom tile (nearest to the antenna), never its top."""
    return "club-7" if n % 5 == 0 else "C" if n % 5 in (1, 3) else "-"


def test_a_tile_laid_on_a_tall_stack_that_is_never_seen_is_not_scored_silently(tmp_path):
    """S lays star-2 on NE (a stack of five whose reader reads a collision or nothing) and
    star-3 on SE: star 2-3-4 along NE, SE, E2 is +3. Before, the preview showed +2 (star
    3-4); S laid star-2 again, waited 25 s and pressed: +2 was journalled with nothing
    shown. Now S's display says, before anything is laid, that the readers cannot see a
    tile laid on NE and that it is to be shown first (held a moment over an empty square);
    S does so, lays it on NE (never seen there), waits 25 s (the preview still +2, the
    display saying star-2 is not confirmed) and presses: S is asked where star-2 lies,
    and the turn is +3 by S's word (or S's display names it until it is)."""
    board = {
        "NW": ["diamond-9"],
        "NE": TALL,
        "SW": ["club-10"],
        "SE": ["spade-9"],
        "E2": ["star-4"],
    }
    reads = {"NW": "diamond-9", "SW": "club-10", "SE": "spade-9", "E2": "star-4", "NE": "C"}
    play = Scripted(tmp_path, reads, board)
    for n in range(30):
        play.sweep(NE=dark(n))
    assert asked(play, "S", "NE")  # "the readers cannot see a tile laid on NE: show it"
    play.seconds(1.0, W1="star-2", NE=dark(3))  # shown over W1, empty ...
    play.seconds(1.0, NE="-")  # ... then laid on NE: not seen, now or ever
    play.reads["SE"] = ["spade-9", "star-3"]
    for n in range(20):
        play.sweep(NE=dark(n))
    for n in range(250):  # 25 s of waiting
        play.sweep(NE=dark(n))
    assert asked(play, "S", None, "star-2")  # "the readers cannot confirm star-2"
    answered = {"NE": True}  # what S answers when asked: it lies on NE, nowhere else

    def reading(n: int) -> Reads:
        for q in for_seat(play.view(), "S"):
            if getattr(q, "answers", None) and not q.pressed and q.tile == tile("star-2"):
                play.press("S")
                if not answered.get(q.square):
                    play.sweep(1, NE=dark(n))
                    play.press("S")  # two presses: not there
        return {"NE": dark(n)}

    family_gets(
        play,
        "S",
        [("NE", "star-2"), ("SE", "star-3")],
        3,
        ("NE", "star-2"),
        10.0,
        reading,
    )


# -- item 2 --------------------------------------------------------------------------------
START = {"NW": "star-8", "NE": "diamond-9", "SW": "heart-9", "SE": "diamond-1"}


def test_a_start_tile_whose_reader_falls_silent_is_not_taken_off(tmp_path):
    """The four start tiles read; SW's reader then falls silent for 15 s (a warm reader, a
    tile a little off centre) and the players start meanwhile. The game must not start on
    three tiles without a word, and once SW answers again a legal turn is scored."""
    play = Scripted(tmp_path, START)
    board = Board.from_mapping({sq: [t] for sq, t in START.items()})
    play.seconds(2.0)
    play.seconds(3.0, SW="-")
    for side in ("S", "N"):
        play.press(side)
    play.press("S", long=True)
    play.seconds(1.0, SW="-")
    game = play.table.game
    if game is None:  # not started: the presser is told which square to look at
        assert asked(play, "S", "SW", "heart-9"), play.view().notices
    else:
        assert game.board == board, f"started on {game.board.to_mapping()}"
    play.seconds(11.0, SW="-")
    play.seconds(2.0)  # SW answers again
    if play.table.game is None:
        play.press("S", long=True)
        play.seconds(1.0)
    assert play.table.game is not None and play.table.game.board == board
    play.reads["W1"] = "heart-8"  # S lays heart-8 by heart-9 (SW) and star-8 (NW): +3
    play.seconds(1.0)
    family_gets(play, "S", [("W1", "heart-8")], 3, ("W1", "heart-8"), 30.0)


def star_4_laid_on_w2(tmp_path) -> Scripted:
    """A game of S and N in progress, a tile on each middle square; S has laid star-4 on W2
    (star 3-4 with NW), read there for a second."""
    board = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}
    play = Scripted(tmp_path, {sq: stack[-1] for sq, stack in board.items()}, board)
    play.seconds(1.0)
    play.reads["W2"] = "star-4"
    play.seconds(1.0)
    return play


def test_a_tile_of_the_turn_whose_reader_falls_silent_is_not_scored_without_it(tmp_path):
    """S lays star-4 on W2 and star-5 on W1 (star 3-4-5 from NW's star-3 ... as a run along
    NW, W2, W1: +3); W1's reader answers twice, then falls silent for 20 s after the
    change. Today star-5 is taken off after 2 s, the preview shows +2, and a press after
    waiting 25 s journals +2 with nothing shown."""
    play = star_4_laid_on_w2(tmp_path)
    play.sweep(2, W1="star-5")
    play.seconds(25.0, W1="-")  # silent: star-5 lies there all the while
    family_gets(
        play,
        "S",
        [("W2", "star-4"), ("W1", "star-5")],
        3,
        ("W1", "star-5"),
        10.0,
        lambda _: {"W1": "-"},
    )


@pytest.mark.xfail(
    strict=True,
    reason="issue 25, left open: keeping such a tile in doubt made TUNE everything worse",
)
def test_a_tile_told_not_legal_whose_reader_falls_silent_at_the_press_is_not_lifted(tmp_path):
    """TUNE silent table 22: S lays star-4 on W2 and heart-9 on W1 by mistake and presses:
    "not legal". W1's reader falls silent at that very moment; heart-9 lies there all the
    while. A family takes such a tile back, but not before reading the display: the run
    of nothing that began as it was pressed is no answer. Today heart-9 is taken off within
    2 s, and the next press scores +2 with heart-9 on the board. It should stay, in doubt,
    and the press ask about it. (Tried: a tile the game has no place for kept in doubt on
    a run of nothing that began within 0.3 s of "not legal": TUNE everything misscores
    went from 3 to 7 on 72 games, so it was left out.)"""
    play = star_4_laid_on_w2(tmp_path)
    play.seconds(1.0, W1="heart-9")
    play.press("S")
    assert play.table.game.moves == () and play.table.illegal is not None
    play.seconds(5.0, W1="-")  # silent from the press on
    assert ("W1", tile("heart-9")) in play.table.tracker.placement
    play.press("S")
    play.seconds(5.0, W1="-")
    assert play.table.game.moves == ()
    assert asked(play, "S", "W1", "heart-9")


def test_a_tile_both_its_square_and_a_neighbour_read_all_along_is_not_scored_next_door(
    tmp_path,
):
    """TUNE crosstalk table 44, three seconds into the game: spade-8 laid on S2, whose
    reader sees it between collisions with a neighbour's tag, while S1's reader shows it in
    runs. The readings moved it to S1; then both squares read it nearly every sweep, and it
    was scored on S1 within a second of the press: S1's sightings were weighed against
    crosstalk, S2's own as nothing. S2's reader shows it as often as a tile lying there is
    shown, which weighs just as much the other way: it is scored on S2, or asked about."""
    board = {"NW": ["club-5"], "NE": ["star-5"], "SW": ["club-3"], "SE": ["heart-8"]}
    reads = {sq: stack[-1] for sq, stack in board.items()}
    play = Scripted(tmp_path, reads, board)
    play.seconds(1.0)
    other = "04000000000021"  # a neighbour's tag, crosstalk on S2's reader
    play.sweep(1, S2="spade-8")
    play.sweep(2, S2="C")
    play.sweep(1, S1="spade-8", S2="spade-8")
    play.sweep(1, S1="spade-8", S2="-")
    play.sweep(1, S1="spade-8", S2="C")
    play.press("S")
    s1 = ["spade-8", "spade-8", "spade-8", "-", "spade-8", "-", "-", "-", "-"]
    s2 = ["spade-8", "spade-8", [other, "spade-8"], "spade-8", [other, "spade-8"], "C"]
    for n in range(100):
        play.sweep(1, S1=s1[n % len(s1)], S2=s2[n % len(s2)])
        questions = [n for n in play.view().notices if isinstance(n, Question)]
        if play.table.game.moves or questions:
            break
    else:
        raise AssertionError("neither scored nor asked")
    for move in play.table.game.moves:
        assert move.scoring.placed == (("S2", tile("spade-8")),)
    assert all(q.tile == tile("spade-8") for q in questions)


# -- items 3 and 4 -------------------------------------------------------------------------
BOARD_3 = {
    "NW": ["diamond-9"],
    "NE": ["heart-1"],
    "SW": ["spade-10", "heart-2"],
    "SE": ["diamond-8", "spade-6"],
    "E1": ["spade-4"],
    "E2": ["club-5"],
    "S2": ["diamond-4"],
    "W1": ["club-3"],
}
READS_3 = {sq: stack[-1] for sq, stack in BOARD_3.items()}


def test_crosstalk_while_the_own_reader_misses_does_not_move_a_tile_of_the_turn(tmp_path):
    """S lays club-4 on SE (+4: club 4-5 with E2, 4-4-4 along E1, SE, S2). SE's reader
    misses the top of its stack one sweep in five or so; SW's reader sees club-4 in runs of
    several sweeps, whether or not SE saw it. Today two sightings on SW while SE missed it
    move club-4 there, and it is journalled on SW: +3 (club 3-4, 4-4), with no word."""
    play = Scripted(tmp_path, READS_3, BOARD_3)
    play.seconds(1.0)
    seen, missed = ["spade-6", "club-4"], "spade-6"
    over = ["heart-2", "club-4"]  # what SW reads while its antenna catches club-4
    play.sweep(3, SE=seen)  # club-4 laid on SE
    # a run of crosstalk on SW; SE misses club-4 twice in a row meanwhile
    for se in (seen, missed, missed, seen):
        play.sweep(SE=se, SW=over)
    assert play.view().seat("S").preview.legal  # a glance: legal, S presses
    pattern = [{"SE": seen, "SW": over}] * 3 + [{"SE": seen}, {"SE": seen}, {"SE": missed}]
    family_gets(play, "S", [("SE", "club-4")], 4, ("SE", "club-4"), 10.0, lambda n: pattern[n % 6])


def test_a_scored_tile_believed_on_the_wrong_square_does_not_block_the_game(tmp_path):
    """S's club-4 was journalled on SW (+3) but lies on SE, as after item 3; the readers see
    it on SE. Today "tile seen twice" stays on SE and SW for good: N's next turn is never
    scored, whatever the family does (as long as no crosstalk run shows club-4 on SW
    again). The game must go on: N's turn journalled, or the wrong turn announced (naming
    SE or club-4)."""
    play = Scripted(tmp_path, READS_3, BOARD_3, turns=[("S", [("SW", "club-4")])])
    # SE's reader sees club-4 in 4 sweeps of 5; SW's reads heart-2: club-4 is not there
    pattern = [{"SE": ["spade-6", "club-4"]}] * 3 + [{"SE": "spade-6"}, {"SE": "club-4"}]
    play.reads["SW"] = "heart-2"
    for n in range(50):
        play.sweep(**pattern[n % len(pattern)])
    if any(names(n, t="club-4") or names(n, "SE") for n in play.view().notices):
        play.seconds(1.0)  # the family lays club-4 again on SE, as a display asks ...
    play.reads["N1"] = "diamond-10"  # ... and N lays diamond-10 next to diamond-9: +2
    for n in range(20):
        play.sweep(**pattern[n % len(pattern)])
    play.press("N")
    for n in range(300):  # 30 s, N pressing again every 4 s
        play.sweep(**pattern[n % len(pattern)])
        turns = play.turns()
        if len(turns) == 2:
            assert placed(turns[1]) == {("N1", "diamond-10")} and turns[1]["points"] == 2
            return
        if any(names(x, "SE", "club-4") and not _tile_twice(x) for x in play.view().notices):
            return  # the wrong turn is announced: the family can settle it
        if n % 40 == 39:
            play.press("N")
    raise AssertionError(f"stuck: N's press not scored in 30 s: {play.view().notices}")


def _tile_twice(notice: object) -> bool:
    problem = getattr(notice, "doubt", notice)
    return getattr(problem, "code", None) == "tile-twice"


# -- item 5 --------------------------------------------------------------------------------
def test_a_press_right_after_a_lift_is_scored_or_says_why_until_the_next_press(tmp_path):
    """Red (N) lays heart-8 on E1 and spade-1 on E2 (not one set), lifts spade-1 and presses
    0.3 s later. Today every display says "lay spade-1 flat on E2", the message goes after
    about 2 s, and 7 s later it is still Red's turn with the old preview and no word."""
    board = {"NW": ["diamond-9"], "NE": ["heart-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    reads = {"NW": "diamond-9", "NE": "heart-7", "SW": "club-10", "SE": "spade-9"}
    play = Scripted(tmp_path, reads, board, turns=[("S", [("SW", "club-9")])])
    play.reads["SW"] = "club-9"
    play.seconds(1.0)
    play.reads["E1"] = "heart-8"
    play.seconds(1.0)
    play.seconds(1.5, E2="spade-1")
    assert not play.view().seat("N").preview.legal  # "not one set", before the press
    play.sweep(3)  # spade-1 lifted
    play.press("N")
    for _ in range(100):  # the next 10 s
        play.sweep()
        turns = play.turns()
        if len(turns) == 2:
            assert placed(turns[1]) == {("E1", "heart-8")} and turns[1]["points"] == 2
            return
        shown = for_seat(play.view(), "N")
        assert shown, f"{play.now:.1f}: N's press is neither scored nor explained"


# -- item 6 --------------------------------------------------------------------------------
def test_a_tall_stack_the_readers_hardly_see_raises_no_alarm_on_a_still_table(tmp_path):
    """A stack of six whose reader reads a collision or nothing, and its top one sweep in
    forty: nobody can do anything about that, so nothing is shown and nothing sounds while
    the table stands still for a minute, and a turn laid elsewhere is scored without one."""
    board = {
        "NW": ["star-3"],
        "NE": ["club-7", "heart-1", "spade-8", "diamond-6", "heart-10", "heart-5"],
        "SW": ["club-2"],
        "SE": ["spade-9"],
    }
    reads = {"NW": "star-3", "SW": "club-2", "SE": "spade-9"}
    play = Scripted(tmp_path, reads, board)

    def ne(n: int) -> dict:
        return {"NE": "heart-5" if n % 40 == 0 else "C" if n % 4 else "-"}

    alarms: list[tuple[float, object]] = []

    def sweep(n: int) -> dict:
        alarms.extend((play.now, x) for x in play.view().notices if alarm(x))
        return ne(n)

    play.sweep(**ne(1))  # the hub's first sweep: it is connected
    for n in range(600):
        play.sweep(**sweep(n))
    assert alarms == [] and "problem" not in play.sounds
    play.reads["W2"] = "star-4"  # S lays star-4 next to star-3 (NW): +2
    for n in range(20):
        play.sweep(**sweep(n))
    family_gets(play, "S", [("W2", "star-4")], 2, ("NE", "star-4"), 10.0, sweep)
    assert alarms == [] and "problem" not in play.sounds


def alarm(notice: object) -> bool:
    """A problem shown on every display or a held press's doubt (a question of the new
    design is not one: `companion.sim.family.NOTICE_KINDS` says which is which)."""
    return kind(notice) in ("problem", "unclassified")


def test_a_tile_shown_over_an_empty_square_then_laid_next_door_is_scored_at_the_press(
    tmp_path,
):
    """TUNE clean table 0: diamond-4, to be laid at a height SE's reader never read yet,
    was shown over the empty S1 first (as the display asks), then laid on SE, whose
    reader shows it about every other sweep. The readings moved it from S1, so S1 was
    taken as a square it might lie on unseen, its reader fallen silent, and SE's
    sightings as S1's crosstalk: the press was asked about ("is diamond-4 there?") on a
    table whose readers never fell silent. Clean tables asked 21 questions a game, and
    their presses waited 5.6 s at p99, mostly for this. Where silences do not follow
    changes, it is scored at once."""
    board = {
        "NW": ["club-9"],
        "NE": ["diamond-5"],
        "SW": ["spade-8"],
        "SE": ["diamond-10", "spade-5"],
    }
    reads = {sq: stack for sq, stack in board.items()}
    play = Scripted(tmp_path, reads, board)
    play.seconds(3.0)
    play.sweep(3, S1="diamond-4")  # shown over S1
    laid = ["diamond-10", "spade-5", "diamond-4"]
    old = ["diamond-10", "spade-5"]
    se = [laid, "C", old, laid, old, "C", old, laid]  # as SE read it: 3 sweeps in 8
    for n in range(15):  # laid on SE
        play.sweep(SE=se[n % len(se)])
    assert play.view().seat("S").preview.legal
    play.press("S")
    for n in range(10):  # a second
        play.sweep(SE=se[n % len(se)])
        if play.turns():
            break
    assert [placed(t) for t in play.turns()] == [{("SE", "diamond-4")}]
    assert not [n for n in play.view().notices if isinstance(n, Question)]


def test_a_tile_an_undo_took_back_goes_on_a_square_that_collides_by_crosstalk(tmp_path):
    """TUNE crosstalk table 44: an undone turn's lone tile was taken off a square whose
    neighbours' tags collide there every other sweep. A collision was taken as that tile
    still lying there (one tile alone cannot collide), so the readers never had five
    clear readings in a row: "take it off" stayed until the family laid the tile again
    for the turn, and the game was stuck. A lone tile needs a neighbour's tag to collide,
    whether it lies there or not: such a collision says nothing either way."""
    board = {"NW": ["diamond-9"], "NE": ["club-7"], "SW": ["club-10"], "SE": ["spade-9"]}
    play = Scripted(tmp_path, {sq: stack[-1] for sq, stack in board.items()}, board)
    play.seconds(2.0)
    play.seconds(2.0, S1="spade-8")  # spade 8-9 along S1, SE: +2
    play.press("S")
    play.seconds(1.0, S1="spade-8")
    assert [r["points"] for r in play.turns()] == [2]
    play.press("S", long=True)  # undone: spade-8 is to come off
    assert play.table.tracker.leaving == (("S1", tile("spade-8")),)
    for n in range(30):  # taken off: S1 reads nothing, or its neighbours' tags colliding
        play.sweep(S1="C" if n % 2 else "-")
    assert play.table.tracker.leaving == ()
    assert [n for n in play.view().notices if getattr(n, "code", None) == "take-off"] == []
