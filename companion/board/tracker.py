"""The board as the daemon believes it, built from noisy reader snapshots.

Readers miss tags now and then, a stack reads as a collision, as its bottom tag or as
nothing, the top tile of a stack is seen in only some sweeps, a tile is also seen by a
neighbouring reader now and then, a hand holds a tile over a square for a moment, a tall
stack falls silent. So the tracker believes stacks by their history:

- a tile arrives on one clean sighting (status ok, a reader not in fault, an enrolled tile
  not already believed on the board) and becomes the new top of that square;
- a new tile seen on two squares in the same sweep is decided by the next sightings, or
  shown as "check these squares";
- a believed tile never leaves because it fell silent. It leaves only where the game expects
  it: a tile of the current placement (or any tile before a game) that stays unseen while
  its square reads clearly without it; a tile taken back by an undo; the covered tiles once
  the bag ran empty;
- a tile that may move (not yet scored) follows the latest evidence: seen on another square
  twice, more often and more recently than on its own, it moves there, on top or not;
  a scored tile seen elsewhere is shown as a problem instead;
- a square that stops answering (no tile seen on it while it holds some) is named blind.

What is believed is not yet what may be scored: `doubts()` says, tile by tile and square by
square, why the evidence of the last moments does not support the placement yet (a tile seen
once only, a tile unseen since its square read without it, a tile seen elsewhere, a square
that has not answered; before a game, a tile of the start board seen only once). The table
ends a turn, or starts a game, only when there are none.

What is believed is kept as values (`companion.board.belief`): a `SquareBelief` per
square, a `TileBelief` per tile on the board (forgotten whole when the tile leaves), and the
`Turn`, what is known about this turn's tiles whether still on the board or gone.
Everything is decided from the snapshots and the `now` passed in: no clock is read here.
See docs/daemon.md for the reasoning and the numbers.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from companion.board.belief import HomeReadings, Pending, SquareBelief, TileBelief, Turn
from companion.board.cleanup import Cleanup
from companion.board.decide import (
    CONFIRM_MOST,
    DOUBT_LLR,
    ELSEWHERE_LLR,
    LIFT_LLR,
    MISPLACED_LLR,
    MOVE_LLR,
    PLAUSIBLE_LLR,
    THERE_FLOOR,
    absence_step,
    crosstalk_collides,
    home_weight,
    improbable_collisions,
    lift_run,
    lift_step,
    place_step,
    readings_to_confirm,
)
from companion.board.evidence import (
    LOW_STACK,
    SILENCE_READINGS,
    Silences,
    SquareEvidence,
    wilson,
)
from companion.board.problems import Problem
from companion.board.reading import Reading, Sweep
from companion.board.registry import Registry
from companion.board.word import Said, Word
from companion.config import TrackerConfig
from engine import COMMON_SQUARES, SQUARES, Board, Tile
from engine.geometry import DEFAULT_LINES, SQUARE_INDEX
from hardware.hub.snapshot import Snapshot
from hardware.log_limit import LogLimiter

log = logging.getLogger("setup.tracker")

#: a reader heard falling silent after this share of its stack's changes (or more) may
#: well be silent when a tile of this turn goes unseen there: the family is asked about
#: that square first
SILENT_OFTEN = 0.1
#: a scored tile is believed to lie elsewhere (a correction) only once its own square has
#: not read it for this long: a tile that lies elsewhere never shows at home, one at home
#: shows there while crosstalk runs show it next door (issue 25, item 3)
MISPLACED_UNSEEN = 3.0
#: a tile of this turn seen on its square far less often than its reader sees a tile at
#: its place in that stack is doubted (a question) once the readings are HOME_DOUBT_RATIO
#: times likelier as a neighbour's crosstalk (seen in up to HOME_CROSS_RATE of the sweeps)
#: than as the tile lying there: laid on a stack its own reader hardly sees, it is seen
#: next door in runs (issue 25, item 3). Readings of nothing past SILENCE_READINGS in a
#: row count for nothing (a silence).
HOME_CROSS_RATE = 1 / 3
HOME_DOUBT_RATIO = 1000.0
#: a tile of this turn the family said is not on a square arrives there again only once
#: seen there in more sweeps than this since (the readers clearly say otherwise): then it
#: is a doubt again, asked about
SAID_NOT_ON_SIGHTINGS = 8
#: ... and a tile of this turn the readings moved to another square is scored there once
#: its readings there are this much likelier as it lying there than as crosstalk (a few
#: sightings on a square that sees it well; never, on one that hardly does: it is asked)
MOVED_LLR = math.log(20.0)
#: ... where the square it was moved from is empty and hid it only if its reader fell
#: silent as it came: silences after a change taken this many standard errors above
#: what the table's changes showed (a table heard a little may fall silent more often)
HUSHED_Z = 1.0
#: a tile read on the square it was moved to within this many sweeps of its last sighting
#: on the square it left was carried straight over (`Tracker._hushed_odds`)
PROMPT_SWEEPS = 10
#: a start square left empty by a run of nothing this long ago or less is asked about
#: before a game starts on the board without its tile (issue 25, item 2)
LEFT_SECONDS = 120.0
#: usable sweeps after (re)connecting before the board is trusted for a turn's end.
READY_SWEEPS = 3
#: a square believed to hold at most one tile that reads as a collision this often in the
#: last COLLISION_WINDOW readings holds a tile the readers cannot see: "check square X"
#: (a window long enough that a crosstalk run of a dozen sweeps does not make it one)
COLLISION_WINDOW = 40
COLLISIONS_UNREADABLE = 6
#: ... its collisions weighed as runs once this table's crosstalk runs were watched over
#: this many sweeps (the prior's weight is ten)
CROSS_RUNS_LEARNED = 30.0
#: a new tile seen on two squares is only a problem ("tile seen twice") once its sightings
#: have left it undecided this long (a tile lying across two squares); before, a press
#: waits for the next sightings, with no alarm (crosstalk as it is laid)
PENDING_PROBLEM_SECONDS = 3.0
#: readings in a row with no collision and no sighting of a covered tile that may go (in the
#: lobby, or a tile of this turn) before it is believed lifted from under the top. A real
#: stack of two gives such a reading about a third of the time and contradicts it about half
#: of the time, so 20 in a row happen by chance about once in 10^8 tries.
BELOW_CLEAR_READINGS = 20
#: a tile that may move is moved to a square where it was seen this many times in the last
#: `window_sweeps` sweeps, more often and more recently than on its own square.
FOLLOW_SIGHTINGS = 2
#: a tile of the placement is scored only once seen on its square in this many sweeps.
CONFIRM_SIGHTINGS = 2
#: a press is confirmed by the readings after it (`Tracker.confirm`): each square as many
#: times as a tile laid on it just before the press, its laying missed, would need to show
#: (`decide.readings_to_confirm`, from the square's learned reader), at most CONFIRM_TALL
#: (`decide.CONFIRM_MOST`): past that, waiting confirms nothing (a tall stack whose top is
#: read too rarely: the late watch and the family settle it). CONFIRM_STACK: about what a
#: stack whose top shows one sweep in three needs on a table not learned yet.
CONFIRM_TALL = CONFIRM_MOST
CONFIRM_STACK = 3
#: ... only if not seen on another square alone (without its own) for this long,
RECENT_SECONDS = 1.0
#: ... and, as the top of its square, seen within this long, with fewer readings of its
#: square clearly without it since than this: a single tile missed twice in a row is lifted
#: or hovering; the top of a stack reads as the tiles below it one sweep in six.
FRESH_SECONDS = 1.0
FADE_READINGS = 2
FADE_READINGS_STACK = 4
#: every square holding tiles must have answered (shown one of its tiles) within this long,
#: for a turn to end: a tile laid on a silent stack would be missed. A stack of two on the
#: readers of docs/daemon.md answers in about half of the sweeps: ten silent sweeps in a row
#: happen about once in 1,500 tries, and last a sweep or two.
ANSWER_SECONDS = 1.0
#: a square holding tiles that has gone silent holds a press back ("Checking the
#: board…", no alarm: nobody can act on a silent reader) at most this long: past it, what it
#: cannot confirm is left to the late watch and to the family.
QUIET_WAIT_SECONDS = 3.0
#: a tile of this turn on top of a stack of TALL_STACK or more is believed lifted only after
#: WEAK_LIFT times `lift_seconds` unseen and `lift_sweeps` clear readings.
TALL_STACK = 5
WEAK_LIFT = 4
#: a swap is not taken this soon after the believed board changed (a tile just lifted may be
#: a tile unseen for a while: the press is refused, the next one counts).
SETTLE_SECONDS = 0.5
#: ... and a square that was silent for SILENCE_RECOVERED must have answered again this long
#: (a tile laid while it was silent has the time to show).
SILENCE_RECOVERED = 2.0
RECOVER_SECONDS = 2.0
#: a square silent this long (and this many readings) while it holds a tile the game keeps,
#: and twice as long as its longest silence heard out, is blind, shown to everyone: "the
#: readers cannot see square X" (a reader that broke; silences of a working reader last up
#: to half a minute on the tables of the soak, and nobody can act on those).
BLIND_SECONDS = 40.0
BLIND_READINGS = 200
#: a stack reading as a collision in this many of the last BLIND_WINDOW readings is blind too
#: (a tall stack, or more tags than the hub's line can carry: it reports `C` every sweep).
BLIND_WINDOW = 20
BLIND_COLLISIONS = 18
#: a square the readers could not confirm is still named so (`Tracker.named_dark`) this long
#: after: a silent reader that answers one sweep now and then, or a tall stack read now and
#: then, would otherwise drop from "show the tile first" for a moment, and a family that
#: looks up then lays its tile there unshown (TUNE silent tables 35 and 41: tiles no reader
#: ever reported, scored without)
DARK_HOLD_SECONDS = 5.0
_N = len(SQUARES)
COMMON_INDEX = frozenset(SQUARE_INDEX[square] for square in COMMON_SQUARES)
#: the squares whose readers may see a square's tiles (crosstalk): its neighbours
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            {SQUARE_INDEX[b] for a, b in DEFAULT_LINES if a == square}
            | {SQUARE_INDEX[a] for a, b in DEFAULT_LINES if b == square}
        )
    )
    for square in SQUARES
)
#: a square's readings teach how it reads its stack only this long after the stack last
#: changed (a hand may still be over it)
LEARN_AFTER_SECONDS = 1.0
#: a tile's first miss on its square this soon after it came ends a hand's holding it there,
#: not its lying there: the sightings before it weigh neither way (`_weigh_home`)
HELD_SECONDS = 4.0
#: a gap longer than this many readings teaches nothing more (the tile was likely lifted)
GAP_READINGS = 300


class Tracker:
    """The believed stacks, the current placement, and what looks wrong on the board."""

    def __init__(
        self,
        registry: Registry,
        readers: Sequence[str] = SQUARES,
        settings: TrackerConfig | None = None,
    ) -> None:
        if sorted(readers) != sorted(SQUARES):
            raise ValueError("readers must name each square once")
        self.registry = registry
        self.settings = settings or TrackerConfig()
        self._square_of_reader = tuple(SQUARE_INDEX[square] for square in readers)
        #: before a game (and after it) every tile may come and go, and nothing is placed.
        #: The table sets it from its phase.
        self.lobby = True
        #: how each square's reader behaves, learned from this game's readings
        self.silences = Silences()  # ... and the whole table's, about silences
        self.evidence = [SquareEvidence(table=self.silences) for _ in range(_N)]
        self._squares = tuple(
            SquareBelief(
                evidence,
                deque(maxlen=max(BLIND_WINDOW, COLLISION_WINDOW)),
                deque(maxlen=COLLISION_WINDOW),
            )
            for evidence in self.evidence
        )
        self._tiles: dict[Tile, TileBelief] = {}  # the tiles on the board, as put there
        self._turn = Turn()
        #: when a reading last showed each tile on the square it is believed on (kept
        #: apart from its `TileBelief`: a tile that the game's board drops keeps it, `rebase`)
        self._read_at: dict[Tile, float] = {}
        #: tiles taken off on a run of nothing, until seen again: the square and when. One
        #: that shows again on that square, the run unbroken, proves a silence of its
        #: reader (`SquareEvidence.silence_heard`): silences are learned only once proven
        self._left: dict[Tile, tuple[int, float]] = {}
        self._pending: dict[Tile, Pending] = {}
        #: numbers the tiles found misplaced and the family's words, as they come: both
        #: are shown in that order (`misplaced`, `settled_words`)
        self._order = itertools.count(1)
        self._unknown_log = LogLimiter(log, clock=lambda: self._now)
        self._cleanup: Cleanup | None = None
        self._snapshot_faults: frozenset[int] = frozenset()
        self._health_faults: frozenset[int] = frozenset()
        self.connected = False
        self._fresh_sweeps = 0  # usable sweeps since (re)connecting
        self.version = 0  # goes up whenever the believed board changes
        self.changed = 0.0  # when the placement last changed
        self._lifted = float("-inf")  # when a tile was last believed lifted
        #: the last sweep read every square exactly as believed, every tag of every stack:
        #: a tile laid unseen is then unlikely enough to score at once (else `confirm`)
        self.complete = False
        self.sweeps = 0  # sweeps taken in
        self._now = 0.0  # the time of the sweep (or game event) being taken in
        #: tiles of this turn the game has no place for (the placement is not legal with
        #: them, legal without): the family takes such a tile back on seeing "not legal",
        #: so one that reads as nothing is lifted, not silent (set by the table)
        self.unwanted: frozenset[Tile] = frozenset()
        self._last_sweep = Sweep((None,) * _N, {})
        self._seen_before: Mapping[Tile, tuple[int, ...]] = {}  # the sweep before's sightings

    def __repr__(self) -> str:
        return f"<Tracker {self.board!r} placement={self.placement}>"

    # -- what it believes ---------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The believed board: the scored tiles, this turn's arrivals, tiles still to leave."""
        return Board(
            {SQUARES[i]: square.stack for i, square in enumerate(self._squares) if square.stack}
        )

    @property
    def placement(self) -> tuple[tuple[str, Tile], ...]:
        """The tiles that arrived since the turn began, in arrival order."""
        return tuple((SQUARES[self._tiles[tile].square], tile) for tile in self._turn.placement)

    @property
    def leaving(self) -> tuple[tuple[str, Tile], ...]:
        """Tiles an undo took back that are still seen on the board."""
        return tuple(
            (SQUARES[i], t)
            for i, square in enumerate(self._squares)
            for t in square.stack
            if self._tiles[t].leaving
        )

    @property
    def ready(self) -> bool:
        """Connected, and enough sweeps seen since, to end a turn on what it believes."""
        return self.connected and self._fresh_sweeps >= READY_SWEEPS

    def problems(self, now: float) -> tuple[Problem, ...]:
        """What the players must see and fix, in board order (nothing is scored meanwhile)."""
        found: list[Problem] = []
        if not self.connected:
            found.append(Problem("hub-disconnected"))
        faulty = self._snapshot_faults | self._health_faults
        for i in sorted(faulty):
            found.append(Problem("reader-fault", SQUARES[i]))
        keep = self.settings.unknown_seconds
        for i, square in enumerate(self._squares):
            if now - square.unknown_seen < keep:
                found.append(Problem("unknown-tag", SQUARES[i]))
        twice: set[int] = set()
        for pending in self._pending.values():
            if now - pending.first_seen >= PENDING_PROBLEM_SECONDS:
                twice.update(pending.counts)
        for belief in self._tiles.values():
            if belief.misplaced is not None:
                twice.update((belief.square, belief.misplaced))
        found.extend(Problem("tile-twice", SQUARES[i]) for i in sorted(twice))
        off = sorted({belief.square for belief in self._tiles.values() if belief.leaving})
        found.extend(Problem("take-off", SQUARES[i]) for i in off)
        for i, square in enumerate(self._squares):
            if i in faulty:
                continue
            size = len(square.stack)
            hits = square.collisions(COLLISION_WINDOW)
            if (
                size <= 1
                and hits >= COLLISIONS_UNREADABLE
                and improbable_collisions(
                    square.evidence,
                    size,
                    hits,
                    min(COLLISION_WINDOW, len(square.collided)),
                    self._crosstalk_runs(),
                )
                and not crosstalk_collides(
                    square.evidence, hits, square.crosstalk(COLLISION_WINDOW)
                )
            ):
                found.append(Problem("unreadable", SQUARES[i]))
            elif size and self._blind(i, now) and not self._vouched(i):
                found.append(Problem("blind", SQUARES[i]))
        return tuple(found)

    def _crosstalk_runs(self) -> float:
        """How often this table's crosstalk, once seen, is seen again the next sweep: 0
        until CROSS_RUNS_LEARNED sweeps of runs taught it (readings count as independent)."""
        runs = self.silences.cross_runs
        return runs.p if runs.trials >= CROSS_RUNS_LEARNED else 0.0

    def doubts(self, now: float) -> tuple[Problem, ...]:
        """Why the evidence of the last moments does not support scoring what is believed yet,
        most useful first: each a `Problem` naming the square (and the tile) to look at.
        Empty: every tile of the placement was seen where the placement has it, lately
        enough, and nowhere else, and every square holding tiles answered."""
        found: list[Problem] = []
        for tile in self._turn.placement:
            belief = self._tiles[tile]
            i = belief.square
            if belief.settled is not None:
                continue  # the family's word
            there = self._likelier_elsewhere(belief, ELSEWHERE_LLR)
            if there is not None:
                # the readings make it likelier elsewhere than crosstalk explains (a sighting
                # on the way, then laid on a stack whose top shows one sweep in ten)
                found.append(Problem("seen-elsewhere", SQUARES[there], tile))
            elif (
                belief.hushed
                or tile in self._turn.moved_since_press
                or belief.seen < CONFIRM_SIGHTINGS
                or self._fading(i, tile)
                or self._only_while_laid(i, tile, now)
                or self._crosstalk_doubt(tile, belief)
            ):
                found.append(Problem("lay-flat", SQUARES[i], tile))
        if self.lobby:  # the board a game would start on: every top seen more than once
            for i, square in enumerate(self._squares):
                stack = square.stack
                if not stack or self._vouched(i):
                    if not stack and i in COMMON_INDEX:
                        # a start square left empty by a run of nothing: its tile may lie
                        # there unseen (a silent reader), or the family took it away
                        left = self._left_on(i, now)
                        if left is not None:
                            found.append(Problem("lay-flat", SQUARES[i], left))
                    continue
                top = self._tiles[stack[-1]]
                if top.hushed or top.seen < CONFIRM_SIGHTINGS:
                    found.append(Problem("lay-flat", SQUARES[i], stack[-1]))
        return tuple(found)

    def _left_on(self, i: int, now: float) -> Tile | None:
        """The tile last taken off square i on a run of nothing, within LEFT_SECONDS, not
        seen since."""
        found = [(at, t) for t, (j, at) in self._left.items() if j == i and now - at < LEFT_SECONDS]
        return max(found)[1] if found else None

    def _only_while_laid(self, i: int, tile: Tile, now: float) -> bool:
        """`tile`, the top of square i, was seen only while it was being laid, not since
        it settled (LEARN_AFTER_SECONDS), for a second now: nothing vouches that it stayed
        (a tall stack that reads as a collision or nothing)."""
        belief = self._tiles[tile]
        laid = belief.arrived
        if laid is None or self._squares[i].stack[-1] != tile or belief.settled is not None:
            return False
        seen = self._read_at.get(tile, laid)
        return seen - laid < LEARN_AFTER_SECONDS and now - max(seen, laid) >= ANSWER_SECONDS

    def _likelier_elsewhere(self, belief: TileBelief, llr: float) -> int | None:
        """The square where the readings have the tile `llr` likelier than on its own."""
        where = belief.place
        home = belief.square
        if not where or home not in where:
            return None
        best = max((s for s in where if s != home), key=where.__getitem__, default=None)
        if best is not None and where[best] - where[home] >= llr:
            return best
        return None

    def dark(self) -> frozenset[str]:
        """The squares where the readers could not confirm a tile laid on top now: a stack
        whose new top they would see so rarely that a press cannot wait for it (more than
        CONFIRM_MOST readings, `decide.readings_to_confirm`), or a square holding tiles
        whose reader is silent. A tile for such a square is shown to a reader first (held
        over an empty square, docs/family.md); a press does not wait for them."""
        faulty = self._snapshot_faults | self._health_faults
        return frozenset(SQUARES[i] for i in range(_N) if i not in faulty and self._dark(i))

    def named_dark(self, now: float) -> frozenset[str]:
        """The squares the displays name as ones the readers cannot see (`dark`): those, and
        those that were within DARK_HOLD_SECONDS and still hold tiles. A press still waits
        for the readings of a square that can confirm it now (`confirm`)."""
        faulty = self._snapshot_faults | self._health_faults
        return self.dark() | frozenset(
            SQUARES[i]
            for i, square in enumerate(self._squares)
            if i not in faulty and square.stack and now - square.dark_at < DARK_HOLD_SECONDS
        )

    def _dark(self, i: int, below: Tile | None = None, cautious: bool = True) -> bool:
        """Whether a tile laid on top of square i (or `below`, its top, when it was laid)
        would go unconfirmed (not `cautious`: at the rates the table's readers showed,
        `decide.readings_to_confirm`)."""
        square = self._squares[i]
        height = square.stack.index(below) if below is not None else len(square.stack)
        if not height:
            return False  # an empty square reads nothing whether its reader hears or not
        evidence = square.evidence
        if below is None and evidence.quiet >= SILENCE_READINGS:
            return True  # silent now (what a tile laid then did is `readings_to_confirm`'s)
        return readings_to_confirm(evidence, height, cautious) is None

    def _hides(self, i: int) -> bool:
        """Whether a tile laid on top of square i would likely go unseen there: silent now,
        a position its reader shows too rarely by what this table's readers have shown,
        or one `_dark` fears while the reader never showed the stack's top tile either.
        (`_dark`'s caution alone, a position never read yet taken as all but dark, is for
        scoring a press; here it would make every tile laid beside a stack of two, early
        in a game, wait for the readings to outweigh a crosstalk nobody has seen.)"""
        if self._dark(i, cautious=False):
            return True
        stack = self._squares[i].stack
        return bool(stack) and not self._tiles[stack[-1]].seen and self._dark(i)

    def first_seen_on(self, tile: Tile) -> tuple[str, ...]:
        """The squares a tile of this turn was first seen on at once (empty: one square):
        where it may lie when the square the readings chose is said not to hold it."""
        return tuple(SQUARES[i] for i in self._turn.split.get(tile, ()))

    def been_on(self, tile: Tile) -> tuple[str, ...]:
        """The squares a tile of this turn was believed on, the latest first (where it
        lies may be one whose reader fell silent while a neighbour's showed it through)."""
        return tuple(SQUARES[i] for i in reversed(self._turn.been.get(tile, ())))

    def latest(self) -> Tile | None:
        """The tile of this turn the readers last saw arrive, once they know it: read
        CONFIRM_SIGHTINGS times where it arrived, or gone from there since (then it is
        asked about). A tile seen once, in passing, is not yet one to lay: lifted at once,
        it would be taken for a hand passing over (TUNE weak-tall tables: families that
        laid it on the first "Seen" were pressed for a tile the table had forgotten)."""
        tile = self._turn.latest
        if tile is None:
            return None
        if tile in self._turn.vanished:
            return tile
        belief = self._tiles.get(tile)
        return tile if belief is not None and belief.seen >= CONFIRM_SIGHTINGS else None

    def places(self, tile: Tile) -> tuple[str, ...]:
        """The squares a tile of this turn gone from the board may lie on unseen: those
        whose readings since it left do not rule it out (`decide.PLAUSIBLE_LLR`), the
        square it left aside (a silence of its reader explains that, the table asks); those
        whose readings weigh least against it first."""
        weights = self._turn.absent.get(tile)
        if weights is None:
            return ()
        left = self._turn.vanished[tile].square
        faulty = self._snapshot_faults | self._health_faults
        return tuple(
            SQUARES[i]
            for weight, i in sorted((weight, i) for i, weight in enumerate(weights))
            if i != left and i not in faulty and weight < PLAUSIBLE_LLR
        )

    def _weigh_absent(self, sweep: Sweep) -> None:
        """One more sweep's weight against each tile of this turn lying unseen on each
        square, from its last sighting on (a tile seen starts again from nothing)."""
        absent = self._turn.absent
        for tile in self._turn.placement:
            if tile in sweep.seen or tile not in absent:
                absent[tile] = [0.0] * _N
        for weights in absent.values():
            for i, reading in enumerate(sweep.readings):
                if reading is not None and weights[i] < PLAUSIBLE_LLR:
                    step = absence_step(self.evidence[i], len(self._squares[i].stack), reading)
                    weights[i] = max(0.0, weights[i] + step)

    @property
    def vanished(self) -> tuple[tuple[Tile, str, float, bool], ...]:
        """Tiles of this turn taken off and not seen since: (tile, the square it left,
        when, whether it lay there alone). A tile shown to a reader over an empty square
        before it is laid where the readers cannot see (`dark`) is one; so is a tile
        taken back into the hand."""
        return tuple(
            (t, SQUARES[gone.square], gone.at, gone.doubtful)
            for t, gone in self._turn.vanished.items()
        )

    def read_at(self, tile: Tile) -> float:
        """When a reading last showed `tile` on the square it is believed on."""
        return self._read_at.get(tile, float("-inf"))

    @property
    def hushed(self) -> tuple[tuple[str, Tile], ...]:
        """Tiles that may go, unseen on a run of nothing a silence of their reader explains
        as well as a lift (kept, in doubt): (square, tile)."""
        hushed = sorted(t for t, belief in self._tiles.items() if belief.hushed)
        return tuple((SQUARES[self._tiles[t].square], t) for t in hushed)

    def may_fall_silent(self, square: str) -> bool:
        """The reader of `square` has been heard falling silent just after a change at
        least one time in SILENT_OFTEN (learned, proven silences only)."""
        return self.evidence[SQUARE_INDEX[square]].after_change_rate() >= SILENT_OFTEN

    def heard_silent(self, square: str) -> bool:
        """The reader of `square` itself was heard falling silent just after a change
        (proven silences only, not the table's prior)."""
        return self.evidence[SQUARE_INDEX[square]].after_change.hits >= 1.0

    def _vouched(self, i: int) -> bool:
        """The top of square i lies there by the family's word."""
        stack = self._squares[i].stack
        return bool(stack) and self._tiles[stack[-1]].settled is not None

    def confirm(self) -> None:
        """A press wants the evidence of the readings after it (CONFIRM_EMPTY, CONFIRM_STACK,
        CONFIRM_TALL): blocking until every square read as often without a new tile."""
        self._turn.pressed = True
        faulty = self._snapshot_faults | self._health_faults  # (named as problems anyway)
        for i, square in enumerate(self._squares):
            if i in faulty or self._vouched(i):  # the family's word stands for its readings
                continue
            if self._dark(i):
                continue  # the readers cannot confirm it: the family shows its tiles first
            need = readings_to_confirm(square.evidence, len(square.stack)) or CONFIRM_MOST
            square.to_confirm = max(square.to_confirm, need)

    def confirmed(self) -> None:
        """Nothing waits for the readings `confirm` asked for any more (the press was
        dropped)."""
        self._turn.pressed = False
        for square in self._squares:
            square.to_confirm = 0

    @property
    def confirming(self) -> bool:
        return any(square.to_confirm for square in self._squares)

    def _count_confirming(self, sweep: Sweep, now: float) -> None:
        """One more reading for each square a press is confirmed by. A reading of its top
        tile confirms a square that is not tall at once; a square that a tile would make
        tall must also show its top (covered, it shows a fifth as often) within twice
        CONFIRM_TALL readings. For a single tile only a reading of it counts: a lone tile
        reads nearly every sweep, so nothing or a collision there is what a second tile
        laid on it gives. For a stack, a reading of nothing counts unless it falls in a
        silence (the third in a row or later): a stack reads as nothing or as a collision now
        and then whatever lies on it, which the counts above allow for; a silence says
        nothing of what lies there. A square silent for QUIET_WAIT_SECONDS is waited for no
        more (its reader may stay silent for half a minute: the late watch and the family
        settle what it hides)."""
        for i, (square, reading) in enumerate(zip(self._squares, sweep.readings, strict=True)):
            if not square.to_confirm or reading is None:
                continue
            if square.stack and square.evidence.silent_for(now) >= QUIET_WAIT_SECONDS:
                log.info("%s is silent: the press waits for it no more", SQUARES[i])
                square.to_confirm = 0
                continue
            height = len(square.stack)
            if height == 1 and reading.kind != "ok":
                continue
            if height > 1 and reading.nothing and square.silent >= SILENCE_READINGS - 1:
                continue
            square.to_confirm -= 1

    def settled(self, now: float) -> bool:
        """No tile was believed lifted in the last SETTLE_SECONDS."""
        return now - self._lifted >= SETTLE_SECONDS

    def blocking(self, now: float) -> bool:
        """True while a turn must not be scored (or a game started): a problem, a doubt, a
        press being confirmed, a tile believed lifted just now, or too few sweeps seen yet."""
        return (
            not self.ready
            or self.confirming
            or not self.settled(now)
            or bool(self._pending)
            or bool(self.problems(now))
            or bool(self.doubts(now))
        )

    def _silenced(self, i: int, now: float) -> bool:
        square = self._squares[i]
        return square.silent >= SILENCE_READINGS and now - square.answered >= ANSWER_SECONDS

    def _blind(self, i: int, now: float) -> bool:
        """Square i holds tiles and has stopped answering for far longer than its reader's
        silences last, while it holds a tile the game keeps (a tile that may go is lifted
        instead). A stack read as `C` every sweep is no alarm: nobody can act on it."""
        square = self._squares[i]
        if now - square.answered < 2 * square.evidence.silence_longest():
            return False
        keeps = any(not self._may_go(self._tiles[t]) for t in square.stack)
        return keeps and square.silent >= BLIND_READINGS and now - square.answered >= BLIND_SECONDS

    def _fading(self, i: int, tile: Tile) -> bool:
        """`tile`, the top of square i, has gone unseen while its square read without it."""
        square = self._squares[i]
        if square.stack[-1] != tile:
            return False  # covered in the same turn: the game says why that is not legal
        return square.lift >= DOUBT_LLR

    # -- what the game tells it ----------------------------------------------------------
    def unsettle(self, tile: Tile) -> None:
        """The family's word about `tile` lapses (the game says it has no place: the
        family takes it back): the readers decide about it again."""
        belief = self._tiles.get(tile)
        if belief is None or belief.settled is None:
            return
        belief.settled = belief.settled_with = None
        if self._squares[belief.square].stack[-1] == tile:
            self._fresh_top(belief.square, self._now)  # unseen from now, not since it was laid

    def settle(self, word: Word, now: float) -> None:
        """The family's word about a tile the readers cannot vouch for (the table checked
        that it may be said): `Said.LAID` puts the tile on top of the square (a tile of this
        turn in a game; believed elsewhere, it moves there) and makes it no doubt;
        `Said.ABSENT` takes it off that square. The word holds until the readers clearly
        contradict it: the tile seen on another square moves there and is a doubt again."""
        self._now = now
        i = SQUARE_INDEX[word.square]
        tile = word.tile
        self._pending.pop(tile, None)
        belief = self._tiles.get(tile)
        if belief is not None:
            belief.hushed = False
        if word.said == Said.ABSENT:
            if belief is not None:
                belief.settled = None
            self._left.pop(tile, None)
            self._turn.said_not_on.setdefault(tile, {})[i] = 0
            if belief is not None and belief.square == i:
                log.info("%s taken off %s by the family's word", tile, word.square)
                self._lifted = now
                # not in a hand (that is an answer of its own, `Reply.HAND`): it lies
                # somewhere the readers cannot see, asked about square by square
                self._gone(tile, now, doubtful=True)
            self._said_with()
            return
        if belief is None or belief.square != i:
            if belief is not None:
                self._take(tile)
            log.info("%s lies on %s by the family's word", tile, word.square)
            self._arrive(tile, i, now)
            belief = self._tiles[tile]
        if belief.settled is None:
            belief.settled = next(self._order)
        belief.place = None  # weighed afresh from the word on
        self._turn.moved.pop(tile, None)
        self._turn.split.pop(tile, None)
        self._said_with()
        square = self._squares[i]
        if self._vouched(i):  # a press waiting for its readings waits no more
            square.to_confirm = 0
        belief.seen = max(belief.seen, CONFIRM_SIGHTINGS)
        belief.trail.clear()
        square.answer(now)
        if square.stack[-1] == tile:
            self._fresh_top(i, now)
        self._touch(now)

    def _said_with(self) -> None:
        """The words said so far hold for the placement as it is now."""
        placement = self._words_placement()
        for belief in self._tiles.values():
            said = belief.settled is not None and belief.arrived is not None
            belief.settled_with = placement if said else None

    def _words_placement(self) -> frozenset[Tile]:
        """The tiles of this turn as the family's words see them: on the board, or gone
        from a square they lay on alone and asked about (a tile shown over an empty square
        leaving it is the gesture docs/family.md asks for, not the placement changing:
        weak-tall table 10 asked again about every tile already answered as each shown
        tile left, and the turn outlasted the family)."""
        shown = (t for t, gone in self._turn.vanished.items() if gone.doubtful)
        return frozenset(self._turn.placement).union(shown)

    def _expire_words(self) -> None:
        """A word about a tile of this turn holds while the placement it was said with
        stands; once another tile of the turn came or went, that tile is a doubt again."""
        placement = self._words_placement()
        for tile, belief in self._tiles.items():
            if belief.settled_with is not None and belief.settled_with != placement:
                log.info("%s: the placement changed since the family's word; asked again", tile)
                belief.settled = belief.settled_with = None
                if self._squares[belief.square].stack[-1] == tile:
                    self._fresh_top(belief.square, self._now)  # unseen from now, not since laid

    def keep(self, tile: Tile) -> None:
        """The game keeps scored `tile` on its square whatever the readings show elsewhere
        (no turn can be scored with it there: a start tile, or the rules forbid it): its
        sightings elsewhere are crosstalk, never a problem, while it lies there. (A tall
        stack whose reader never reads its tiles, seen next door in runs, would otherwise
        show "tile seen twice" that nothing the family does can clear.)"""
        belief = self._tiles.get(tile)
        if belief is None or self._may_go(belief):
            return
        if not belief.kept:
            log.info(
                "%s is kept on %s: its sightings elsewhere are crosstalk",
                tile,
                SQUARES[belief.square],
            )
        belief.kept = True
        belief.misplaced = None
        belief.place = None

    @property
    def misplaced(self) -> tuple[tuple[Tile, str], ...]:
        """Scored tiles the readers consistently see on another square than the game's:
        (tile, the square it is seen on). The table offers to correct their turn."""
        return tuple((t, SQUARES[there]) for t, there in self._misplaced())

    def _misplaced(self) -> list[tuple[Tile, int]]:
        """The scored tiles seen elsewhere, and where, in the order they were found."""
        found = [
            (b.flagged, t, b.misplaced) for t, b in self._tiles.items() if b.misplaced is not None
        ]
        return [(t, there) for _, t, there in sorted(found, key=lambda item: item[0])]

    @property
    def settled_words(self) -> tuple[tuple[str, Tile], ...]:
        """The tiles that lie where they are by the family's word: (square, tile)."""
        said = [(b.settled, t, b.square) for t, b in self._tiles.items() if b.settled is not None]
        return tuple((SQUARES[i], t) for _, t, i in sorted(said, key=lambda item: item[0]))

    def rebase(self, board: Board, now: float, *, leave: bool = False) -> None:
        """The game's board is now `board` (a game started or resumed, a turn was taken back,
        covered tiles went to the bag). Tiles of this turn stay on top of it; believed tiles
        that the game no longer has are dropped, or with `leave` are expected to come off
        (and then the turn's arrivals must come off too)."""
        self._now = now
        old = self._tiles
        extra = set(self._turn.placement) | {t for t, b in old.items() if b.leaving}
        if leave:
            extra |= {t for t in old if t not in board}
        stacks: list[list[Tile]] = [list(board.stack(square)) for square in SQUARES]
        for i, square in enumerate(self._squares):
            stacks[i].extend(t for t in square.stack if t in extra and t not in board)
        dropped = [t for t in old if t not in board and t not in extra]
        if dropped:
            log.info("tiles no longer on the board: %s", " ".join(map(str, dropped)))
        tiles: dict[Tile, TileBelief] = {}
        for i, stack in enumerate(stacks):
            for t in stack:
                belief = tiles[t] = old.get(t) or TileBelief(i)
                belief.rebase(i)
                if leave:
                    belief.leaving = t not in board
        placement: list[Tile] = []
        if not leave:
            placement = [t for t in self._turn.placement if t in tiles and t not in board]
        placed = set(placement)
        for t, belief in tiles.items():
            if t not in placed:
                belief.scored()
        self._tiles = tiles
        self._turn = Turn(placement)
        self._said_with()
        self._cleanup = None
        for i, square in enumerate(self._squares):
            square.stack = stacks[i]
            self._new_stack(i)
            self._fresh_top(i, now)
            square.answer(now)
        self._touch(now)

    def commit(self, now: float) -> None:
        """The game scored this turn's placement: its tiles are part of the board now."""
        self._turn = Turn()
        for belief in self._tiles.values():
            belief.scored()
            belief.settled_with = None  # a word stands for the board now, not a placement
            belief.hushed = False
        self._touch(now)

    def start_cleanup(self, now: float) -> None:
        """The bag is empty: the covered tiles are to go back; watch every covered square."""
        scored = [
            [
                t
                for t in square.stack
                if not self._tiles[t].leaving and self._tiles[t].arrived is None
            ]
            for square in self._squares
        ]
        self._cleanup = Cleanup(scored, now)

    def stop_cleanup(self) -> None:
        self._cleanup = None

    @property
    def cleaning(self) -> bool:
        """Watching for the covered tiles to go back to the bag."""
        return self._cleanup is not None

    @property
    def cleanup_done(self) -> bool:
        """Every square that had covered tiles has read only its top tile for a while."""
        return self._cleanup is not None and self._cleanup.done

    def set_health(self, connected: bool, faulty_readers: Iterable[int], now: float) -> None:
        if not connected and self.connected:
            log.warning("reader hub disconnected: keeping the last known board")
        if not connected:
            self._fresh_sweeps = 0
            self._snapshot_faults = frozenset()  # the last sweep's faults are old news
            for square in self._squares:  # silence while away is no news about a square
                square.answer(now)
        self.connected = connected
        self._health_faults = frozenset(
            self._square_of_reader[r]
            for r in faulty_readers
            if 0 <= r < len(self._square_of_reader)
        )

    # -- what the readers say ------------------------------------------------------------
    def update(self, snapshot: Snapshot, now: float) -> None:
        """Takes in one sweep of the readers."""
        self._now = now
        if not self.connected:
            log.info("reader hub connected")
            for square in self._squares:
                square.answer(now)
        self.connected = True
        sweep = Sweep.read(
            snapshot, self.registry.tile, self._square_of_reader, self._health_faults
        )
        for i, uids in sweep.unknown.items():
            # each tag and square logged when first seen, then once a minute at most while
            # it stays, however many sweeps see it
            where = SQUARES[i]
            for uid in uids:
                self._unknown_log.log(
                    logging.WARNING, f"{uid} {where}", "unknown tag %s on square %s", uid, where
                )
            self._squares[i].unknown_seen = now
        faults = sweep.faults
        seen = sweep.seen
        self._snapshot_faults = frozenset(faults)
        if not faults and not self._health_faults:
            self._fresh_sweeps += 1
        self._last_sweep = sweep
        self._learn(sweep, now)
        self._weigh_absent(sweep)
        arrived = seen
        seen = self._apart(sweep, seen)
        self._remember(seen, now)
        self._weigh_tops(sweep, now)
        self._weigh_below(sweep)
        self.complete = all(
            reading is not None and reading.exactly(square.stack)
            for square, reading in zip(self._squares, sweep.readings, strict=True)
        ) and not any(belief.hushed for belief in self._tiles.values())
        self.sweeps += 1
        self._count_confirming(sweep, now)
        self._listen(sweep, now)
        self._arrive_new(arrived, now)
        self._move_or_flag(seen, now)
        self._weigh_home(sweep, now)  # (a tile that came in this sweep: its first sighting)
        self._remove_gone(now)
        self._expire_words()
        for i, square in enumerate(self._squares):
            if self._dark(i):
                square.dark_at = now
        if self._cleanup is not None:
            settings = self.settings
            self._cleanup.watch(sweep, now, settings.lift_sweeps, settings.lift_seconds)

    def _apart(
        self, sweep: Sweep, seen: Mapping[Tile, tuple[int, ...]]
    ) -> Mapping[Tile, tuple[int, ...]]:
        """Where each believed tile was seen, but for sightings on another square in a
        reading that shows a tile of its own square too: a neighbour's crosstalk shows a
        square's tiles together, so such a sighting is as likely under either belief and
        says nothing of a move (TUNE everything table 18: heart-3, on NE, read on NW with
        club-9 below it through NE's crosstalk runs while NE's reader was silent, was moved
        to NW and scored there)."""
        found: dict[Tile, tuple[int, ...]] = {}
        for tile, squares in seen.items():
            belief = self._tiles.get(tile)
            if belief is not None:
                home = belief.square
                squares = tuple(
                    s
                    for s in squares
                    if s == home
                    or not any(
                        t != tile and (b := self._tiles.get(t)) is not None and b.square == home
                        for t in sweep.readings[s].tiles
                    )
                )
            if squares:
                found[tile] = squares
        return found

    def _learn(self, sweep: Sweep, now: float) -> None:
        """What this sweep teaches about each square's reader (`SquareEvidence`): only
        about stacks that have not changed for LEARN_AFTER_SECONDS, and only from tiles that
        are there for sure (the game keeps them) or that showed again after the gap."""
        for i, reading in enumerate(sweep.readings):
            if reading is None:
                continue
            square = self._squares[i]
            stack = square.stack
            evidence = square.evidence
            if reading.answered and evidence.quiet >= SILENCE_READINGS:
                back = [t for t in reading.tiles if self._left.get(t, (None, 0.0))[0] == i]
                if back and self._left[back[0]][1] >= evidence.quiet_since:
                    # taken off on this run, and here again: the reader was silent
                    low = len(stack) + len(back) <= LOW_STACK
                    evidence.silence_heard(
                        now - evidence.quiet_since, evidence.run_after_change, low
                    )
            evidence.hear(reading.answered, bool(stack), now, low=len(stack) <= LOW_STACK)
            if not stack or now - square.changed < LEARN_AFTER_SECONDS:
                continue
            if evidence.quiet >= SILENCE_READINGS:
                continue  # a silence is learned as one (`hear`), not reading by reading
            evidence.learn_reading(len(stack), reading.nothing, reading.collision)
            for position, tile in enumerate(stack):
                shown = reading.shows(tile)
                top = position == len(stack) - 1
                belief = self._tiles[tile]
                may_go = self._may_go(belief)
                if not may_go and not belief.seen:
                    # the game has it here, but no reading ever showed it here: it may lie
                    # elsewhere (a turn proven wrong later): it teaches nothing (else its
                    # absence would be learned as a dark height, its sightings elsewhere as
                    # crosstalk, and the belief would explain itself away)
                    continue
                if not may_go:
                    evidence.learn_position(position, shown, top)
                elif not shown:
                    if len(belief.gap) < GAP_READINGS:
                        belief.gap.append((position, top))
                else:
                    gap, belief.gap = belief.gap, []
                    for missed, was_top in gap:
                        evidence.learn_position(missed, False, was_top)
                    evidence.learn_position(position, True, top)
                if may_go:
                    continue
                before = self._seen_before.get(tile, ())
                for j in NEIGHBOURS[i]:
                    there = sweep.readings[j]
                    if there is not None and tile not in self._squares[j].stack:
                        evidence.learn_cross(j, there.shows(tile))
                        if j in before:
                            self.silences.cross_runs.add(there.shows(tile), memory=1e9)
            if not any(self._kept(t) for t in stack):
                continue
            for j in NEIGHBOURS[i]:
                there = sweep.readings[j]
                if there is not None:
                    neighbours = self._squares[j].stack
                    evidence.learn_cross_any(
                        j,
                        any(
                            t in stack and t not in neighbours and self._kept(t)
                            for t in there.tiles
                        ),
                    )

    def _kept(self, tile: Tile) -> bool:
        """`tile` lies where it is believed for sure: the game keeps it there, and it was
        read there (what its neighbours show of it is crosstalk)."""
        belief = self._tiles[tile]
        return belief.seen > 0 and not self._may_go(belief)

    def _weigh_home(self, sweep: Sweep, now: float) -> None:
        """For each tile of this turn, this reading of its square, where it says whether
        the tile lies there (`TileBelief.home`, weighed by `_home_weight`): a reading
        without it counts only LEARN_AFTER_SECONDS after it came (a hand may be over it);
        a collision says nothing either way; nothing in a row past SILENCE_READINGS is a
        silence, not misses (but for a tile first seen on two squares at once)."""
        for tile in self._turn.placement:
            belief = self._tiles[tile]
            square = self._squares[belief.square]
            reading = sweep.readings[belief.square]
            arrived = now if belief.arrived is None else belief.arrived
            if (
                reading is not None
                and not reading.collision
                and (reading.shows(tile) or now - arrived >= LEARN_AFTER_SECONDS)
                # (a tile first seen on two squares at once: runs of nothing on the one
                # chosen are a neighbour's crosstalk pausing as likely as a silence)
                and (
                    reading.answered
                    or square.evidence.quiet <= SILENCE_READINGS
                    or tile in self._turn.split
                )
            ):
                shown = reading.shows(tile)
                if not shown and not belief.home.missed and now - arrived <= HELD_SECONDS:
                    # the sightings so far may all be of a hand holding it over this square
                    # to show it before laying it next door: they say nothing either way
                    # (TUNE crosstalk table 33: a tile shown over N1, laid on a dark stack
                    # beside it and read on N1 by crosstalk, was scored on N1)
                    belief.home = HomeReadings(last_seen=True)
                belief.home.add(shown)
            nearby = self._turn.nearby.setdefault(tile, {})
            for j in NEIGHBOURS[belief.square]:
                reading = sweep.readings[j]
                if reading is None or reading.collision:
                    continue
                shown = reading.shows(tile)
                if j not in nearby and not shown:
                    continue
                if shown or reading.answered or self._squares[j].evidence.quiet <= SILENCE_READINGS:
                    nearby.setdefault(j, HomeReadings()).add(shown)

    def _home_weight(self, tile: Tile, belief: TileBelief, rivals: tuple[int, ...]) -> float:
        """log P(its square's readings | `tile` lies there) / P(... | a neighbour's
        reader shows it there by crosstalk) (`decide.home_weight`): the neighbours it may
        lie on instead (`rivals`) at the most their links were seen to show, any other at
        HOME_CROSS_RATE; the rates among the readings that are no collision (those say
        nothing here)."""
        square = self._squares[belief.square]
        stack = square.stack
        position = stack.index(tile)
        top = position == len(stack) - 1
        clear = max(0.01, 1.0 - square.evidence.collides(len(stack)))
        there = min(0.99, square.evidence.sees(position, top) / clear)
        cross = self._cross_ceiling(belief.square, rivals) if rivals else HOME_CROSS_RATE
        cross = min(0.99, cross / clear)
        weight = square.evidence.seen_weight(position, top)
        return home_weight(belief.home, there, weight, cross, self.silences.cross_runs.p)

    def _crosstalk_doubt(self, tile: Tile, belief: TileBelief) -> bool:
        """The readings of the tile's square since it came are HOME_DOUBT_RATIO times
        likelier as a neighbour's crosstalk than as the tile lying there; or a neighbour
        may hold it instead, seen where it is believed only by that neighbour's crosstalk
        (`_rivals`: a square where a tile laid on top would likely go unseen, the one the
        readings moved it from, the others it was first seen on at once; or the family
        said it is not where the readers had it; a neighbour that showed it where the
        readers could not confirm a tile laid on top), and its readings there do not clearly
        show it lying there (`_home_weight`, with the odds the table's other links give
        against a link not watched yet crossing at all): a neighbour's crosstalk runs
        while its own reader misses the top of its stack, or is silent, look just like
        that."""
        i = belief.square
        rivals = self._rivals(tile, i)
        near = {j: w for j in NEIGHBOURS[i] if (w := self._rival_weight(tile, i, j)) > 0.0}
        # (a square the display names as one the readers cannot confirm a tile on: there,
        # its reader's misses do not rule out a tile it showed: TUNE crosstalk table 13)
        shown = self._turn.nearby.get(tile, {})  # (the neighbours that showed it)
        rivals = tuple(
            j for j in NEIGHBOURS[i] if j in rivals or j in near or (j in shown and self._dark(j))
        )
        weight = self._home_weight(tile, belief, rivals)
        if weight <= -math.log(HOME_DOUBT_RATIO):
            return True
        if tile in self._turn.said_not_on:
            return weight < math.log(HOME_DOUBT_RATIO)
        if not rivals:
            return False
        # each rival weighed on its own link's evidence; together, as likely as the sum of
        # them. A neighbour that shows it as a tile lying there would be shown weighs the
        # other way just as much (its own reader, not crosstalk from here). (The square it
        # was moved from, read without it since, is not counted for it: on crosstalk
        # tables that is the true square whose reader misses its top, TUNE crosstalk
        # tables 4, 10, 20, 44: 4 -> 6 misscores.)
        against = [
            self._home_weight(tile, belief, (j,))
            - near.get(j, 0.0)
            + self._unwatched_odds(i, (j,))
            + self._hushed_odds(tile, j, near)
            + self._prompt_odds(tile, i, j)
            for j in rivals
        ]
        least = min(against)
        together = least - math.log(sum(math.exp(least - a) for a in against))
        return together < MOVED_LLR

    def _prompt_odds(self, tile: Tile, i: int, j: int) -> float:
        """The log odds against `tile` lying on rival j, seen on square i by j's crosstalk,
        where it was moved to i from a square that showed it (held over it, to be shown)
        and i showed it `k` sweeps later (`Turn.prompt`): laid on j in between, j's link
        would have had to show it on i within those k sweeps, at most 1 - (1 - c)^k for a
        link that shows j's tiles in a share c of the sweeps at most; lying on i, the
        tile shows as soon as it is laid. Only for a link the readings tell does not
        cross (`SquareEvidence.crossing`): a link not watched yet, or one that crosses,
        may be in a run as the tile comes (TUNE clean tables: a tile shown over S1 and
        laid on NE, read there at once and every sweep after but one in five, was asked
        about at every press for the stack of three next door)."""
        k = self._turn.prompt.get(tile)
        evidence, runs = self._squares[j].evidence, self.silences.cross_runs.p
        if not k or evidence.crossing(i, runs) is not False:
            return 0.0
        share = evidence.cross_ceiling(i, runs)
        return -math.log(1.0 - (1.0 - share) ** k)

    def _hushed_odds(self, tile: Tile, j: int, near: Mapping[int, float]) -> float:
        """The log odds against the only way `tile` may lie unseen on rival j where j is
        an empty square the readings moved it from this turn and has shown it no more: j's
        reader fell silent as the tile came (what this table taught of silences after a
        change). None where j's crosstalk had shown it on its new square in runs while it
        lay on j (`Turn.carried`): a silence of j's reader then explains the move as well
        as a slide does (TUNE everything table 12: a tile read ten times on W2, then
        through NW's crosstalk beside NW's own tile as W2 fell silent, was scored on NW).
        A tile shown over an empty square, then laid next door, leaves that square just
        so; where silences do not follow changes, the readings of the square it was laid
        on need not outweigh one. Where the tile showed on its square within PROMPT_SWEEPS
        of leaving j (`Turn.prompt`: carried straight over), that silence must also have
        begun at that very sweep and lasted as long as j has read nothing since
        (`SquareEvidence.silence_outlasts`); a tile that showed only later may have lain
        on j through a silence begun before (TUNE everything table 0: a tile on S1, whose
        reader fell silent as it was laid, read on E2 by crosstalk 3 s later, was scored on
        E2 when that was weighed too). 0 where j may hide it otherwise (a stack, a
        first sighting on two squares, its reader showing it), and on a table whose
        readers were heard silent over a low stack for as long as j has been quiet (they
        fall silent by themselves too, whatever lies there: TUNE everything tables). Runs
        of nothing over taller stacks do not count for that: a stack too tall to read gives
        them, a clean table's only "silences" (counted, on TUNE clean tables a tile shown
        over N2 and laid on NE next door, read there between misses, was asked about at
        nearly every press)."""
        evidence = self._squares[j].evidence
        quiet = evidence.silent_for(self._now)
        if (
            any(heard >= quiet for heard in self.silences.low_lasts)
            or (self._turn.moved.get(tile) != j and j not in self._turn.moved_from.get(tile, ()))
            or j in self._turn.carried.get(tile, ())
            or j in self._turn.split.get(tile, ())
            or j in near
            or self._squares[j].stack
        ):
            return 0.0
        changes = evidence.table.after_change
        rate = max(evidence.after_change_rate(), wilson(changes.p, changes.trials, HUSHED_Z))
        k = self._turn.prompt.get(tile)
        if k is not None and k <= PROMPT_SWEEPS:
            rate *= evidence.silence_outlasts(quiet)
        return -math.log(max(1e-6, rate))

    def _rival_weight(self, tile: Tile, i: int, j: int) -> float:
        """log P(square j's readings | `tile` lies on top of j) / P(... | it lies on square
        i and j's reader shows it by crosstalk), over j's readings since it first showed
        the tile (`Turn.nearby`); 0 where j never showed it."""
        readings = self._turn.nearby.get(tile, {}).get(j)
        if readings is None or not readings.count:
            return 0.0
        square = self._squares[j]
        height = len(square.stack)  # it would lie on top of j's stack
        clear = max(0.01, 1.0 - square.evidence.collides(height + 1))
        there = min(0.99, square.evidence.sees(height) / clear)
        runs = self.silences.cross_runs.p
        cross = min(0.99, self._squares[i].evidence.cross_ceiling(j, runs) / clear)
        weight = square.evidence.seen_weight(height)
        return home_weight(readings, there, weight, cross, runs)

    def _unwatched_odds(self, i: int, rivals: tuple[int, ...]) -> float:
        """The log odds against crosstalk from `rivals` to square i that the table's
        other links give, where a rival's own link was not watched enough to tell
        (`SquareEvidence.crossing`): of the links told so far, how few cross at all
        (a table whose readers show no neighbour's tiles anywhere hardly starts on the
        link not watched yet). 0 where a rival's link is known to cross."""
        runs = self.silences.cross_runs.p
        told = [self._squares[j].evidence.crossing(i, runs) for j in rivals]
        if any(told):
            return 0.0
        if all(t is False for t in told):
            return 0.0  # (their ceilings say it)
        crossing = clean = 0
        for square in self._squares:
            for j in square.evidence.cross_any:
                said = square.evidence.crossing(j, runs)
                crossing += said is True
                clean += said is False
        return math.log((2 + crossing + clean) / (1 + crossing))

    def _rivals(self, tile: Tile, i: int) -> tuple[int, ...]:
        """The neighbours of square i where `tile`, believed on i, may lie unseen instead,
        seen on i only by their crosstalk: every square the readings moved it from this
        turn (`Turn.moved_from`: TUNE everything table 16, a tile read on N1 whose reader fell
        silent, moved by single sightings to N2, NE and N2 again, was scored there with
        only NE weighed), the others it was first seen on at once, and every neighbour on
        which a tile laid on top would likely go unseen (`_hides`: a stack whose top is seen
        too rarely, a silent reader); every neighbour, once the family said it is not on a
        square."""
        turn = self._turn
        if tile in turn.said_not_on:
            return NEIGHBOURS[i]
        faulty = self._snapshot_faults | self._health_faults
        found = {j for j in NEIGHBOURS[i] if j not in faulty and self._hides(j)}
        if tile in turn.moved:
            found.add(turn.moved[tile])
        found.update(turn.split.get(tile, ()))
        found.update(turn.moved_from.get(tile, ()))
        return tuple(j for j in NEIGHBOURS[i] if j in found)

    def _cross_ceiling(self, i: int, rivals: tuple[int, ...]) -> float:
        """The most often the crosstalk of a tile lying on one of `rivals` may show it at
        square i, as this table taught (`SquareEvidence.cross_ceiling`; `CROSS_MOST` where
        a link was not watched yet)."""
        runs = self.silences.cross_runs.p
        return max(self._squares[j].evidence.cross_ceiling(i, runs) for j in rivals)

    def _weigh_places(self, seen: Mapping[Tile, tuple[int, ...]]) -> None:
        """For each believed tile seen off its square (and until that is explained), the
        weight of the readings for each square it may lie on (`decide.place_step`)."""
        usable = {i for i, r in enumerate(self._last_sweep.readings) if r is not None}
        tiles = [
            t
            for t in seen
            if (belief := self._tiles.get(t)) is not None
            and seen[t] != (belief.square,)
            and not belief.kept  # (crosstalk, whatever it shows)
        ]
        tiles += [t for t, b in self._tiles.items() if b.place is not None and t not in tiles]
        for tile in tiles:
            belief = self._tiles[tile]
            home = belief.square
            where = belief.place
            if where is None or home not in where:
                where = belief.place = {home: 0.0}
            squares = seen.get(tile, ())
            for s in squares:
                where.setdefault(s, where[home])
            positions = {}
            for s in where:
                stack = self._squares[s].stack
                if s == home:
                    position = stack.index(tile)
                    positions[s] = (position, position == len(stack) - 1)
                else:
                    positions[s] = (len(stack), True)
            before = self._seen_before.get(tile, ())
            place_step(where, squares, before, usable, self.evidence, positions, home)
            for s in [s for s in where if s != home and where[s] - where[home] < -MOVE_LLR]:
                del where[s]
            if len(where) == 1:
                belief.place = None
        self._seen_before = seen

    def _remember(self, seen: Mapping[Tile, tuple[int, ...]], now: float) -> None:
        """Keeps, for each believed tile seen, whether it was seen on its own square or only
        elsewhere (and where)."""
        for tile in seen:
            self._left.pop(tile, None)  # seen again: what its gap proves is learned
        self._weigh_places(seen)
        for tile, squares in seen.items():
            belief = self._tiles.get(tile)
            if belief is None:
                continue
            if belief.square in squares:
                self._read_at[tile] = now
                belief.seen += 1
                belief.trail.clear()
                belief.read_sweep = self.sweeps
                continue
            trail = belief.trail
            if not trail:
                belief.left_after = self.sweeps - belief.read_sweep
            for i in squares:
                first, count = trail.get(i, (now, 0))
                trail[i] = (first, count + 1)

    def _weigh_tops(self, sweep: Sweep, now: float) -> None:
        """Counts, per square, the readings that are clearly without its top tile."""
        for i, reading in enumerate(sweep.readings):
            square = self._squares[i]
            stack = square.stack
            if reading is None or not stack:
                continue
            if reading.shows(stack[-1]):
                self._fresh_top(i, now)
                continue
            square.usable += 1
            evidence, height = square.evidence, len(stack)
            if reading.nothing:
                # a run of nothing is weighed whole: on top of the weight before it
                k, seconds = evidence.quiet, now - evidence.quiet_since
                fast = lift_run(evidence, height, k, seconds, silences=False)
                square.lift = square.lift_base + fast
                square.lift_full = square.full_base + lift_run(evidence, height, k, seconds)
            elif reading.collision or (reading.tiles and reading.tiles <= set(stack[:-1])):
                under = height >= 2 and reading.shows(stack[-2])
                step = lift_step(evidence, height, reading.collision, under)
                square.lift = max(THERE_FLOOR, square.lift + step)
                square.lift_full = max(THERE_FLOOR, square.lift_full + step)
            if not reading.nothing:
                square.lift_base, square.full_base = square.lift, square.lift_full
            verdict = self._without_top(stack, reading)
            if verdict:
                square.clear += 1
            elif verdict is False:
                square.clear = 0

    def _weigh_below(self, sweep: Sweep) -> None:
        """Counts, per square, the readings that show none of the tiles below the top and no
        collision; and keeps which squares read as collisions."""
        for i, (square, reading) in enumerate(zip(self._squares, sweep.readings, strict=True)):
            if reading is None:
                continue
            square.collided.append(reading.collision)
            square.crossed.append(
                any((b := self._tiles.get(t)) is not None and b.square != i for t in reading.tiles)
            )
            below = square.stack[:-1]
            if reading.collision or reading.tiles.intersection(below):
                square.below_clear = 0
            elif reading.kind == "ok":
                square.below_clear += 1

    def _listen(self, sweep: Sweep, now: float) -> None:
        """Which squares answered: showed any tile this sweep. A silence says nothing about
        a lift, so for a square answering again after one the silence does not count as time
        its top went unseen (what was seen before it still counts: a tile lifted just before
        a stack fell quiet for a second must not stay believed, to be pinned under the next)."""
        for i, reading in enumerate(sweep.readings):
            if reading is None:
                continue
            square = self._squares[i]
            if not reading.answered:
                square.silent += 1
                continue
            if self._silenced(i, now) and square.stack:
                silence = now - max(square.answered, square.top_seen)
                square.top_seen = min(now, square.top_seen + max(0.0, silence))
            square.answer(now)

    def _without_top(self, stack: list[Tile], reading: Reading) -> bool | None:
        """Does this reading (that did not see the top tile) show the square without it?
        True: clearly; False: the stack seems still there; None: cannot tell."""
        below = stack[:-1]
        if reading.nothing:
            # a stack may read as nothing, so empty only speaks for tiles that may all go
            return all(self._may_go(self._tiles[t]) for t in below) or None
        if reading.collision:
            # one tile left cannot collide (it is still there); a lone tile's square collides
            # only by a neighbour's tags, whether it lies there or not (TUNE crosstalk 44)
            return False if len(below) == 1 else None
        tiles = reading.tiles
        if tiles and tiles <= set(below):
            return True
        return None

    def _arrive_new(self, seen: Mapping[Tile, tuple[int, ...]], now: float) -> None:
        settings = self.settings
        turn = self._turn
        for tile, squares in seen.items():
            if tile in self._tiles:
                continue
            said_not = turn.said_not_on.get(tile)
            if said_not:
                for i in set(squares) & said_not.keys():
                    said_not[i] += 1
                # the family's word holds until the readers clearly contradict it (a
                # neighbour's crosstalk runs on the square said without it)
                squares = tuple(
                    i
                    for i in squares
                    if said_not.get(i, SAID_NOT_ON_SIGHTINGS) >= SAID_NOT_ON_SIGHTINGS
                )
                if not squares:
                    continue
            pending = self._pending.get(tile)
            if pending is None and len(squares) == 1:
                left = turn.left_stack.pop(tile, None)  # gone off a stack, seen again
                self._arrive(tile, squares[0], now)
                if left is not None and left in NEIGHBOURS[squares[0]]:
                    turn.moved[tile] = left  # moved next door, in effect (see `_move`)
                continue
            if pending is None:
                pending = self._pending[tile] = Pending(now)
                where = " and ".join(SQUARES[i] for i in squares)
                log.info("%s seen on %s at once: waiting for more sightings", tile, where)
            pending.last_seen = now
            for i in squares:
                pending.counts[i] = pending.counts.get(i, 0) + 1
            ranked = sorted(pending.counts.items(), key=lambda item: -item[1])
            lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
            if lead >= settings.decide_lead:
                del self._pending[tile]
                self._arrive(tile, ranked[0][0], now, since=pending.first_seen, seen=lead)
                # scored there once read there well (`_crosstalk_doubt`)
                turn.split[tile] = tuple(sorted(pending.counts))
        for tile, pending in list(self._pending.items()):
            if now - pending.last_seen >= settings.pending_seconds:
                log.info("%s no longer seen: forgotten", tile)
                del self._pending[tile]
                # as a tile lifted: a press held for it does not score in the same sweep
                # (TUNE everything table 18: a tile laid by a neighbour's crosstalk, seen
                # on both squares, was forgotten as the family laid it again, and the turn
                # scored without it a tenth of a second before it showed)
                self._lifted = now

    def _start_holds(self, belief: TileBelief, there: int) -> bool:
        """In the lobby, sightings alone do not move a tile off a square the start board
        has one on to a square no start tile lies on, nor anywhere once the family said it
        lies there: such sightings are a neighbour's crosstalk while its own reader misses
        it (TUNE everything tables 22 and 39: start tiles hopped from square to square
        faster than the starter's answers held them, and the game never started). A tile
        the family does move goes once its square reads clearly without it, to where it
        was seen since (`_remove_gone`)."""
        if not self.lobby or belief.square not in COMMON_INDEX:
            return False
        return belief.settled is not None or there not in COMMON_INDEX

    def _move_or_flag(self, seen: Mapping[Tile, tuple[int, ...]], now: float) -> None:
        """A believed tile seen on another square: moved if it may move (not scored yet) and
        the latest evidence is there, else (scored, seen there consistently) shown as a
        problem until the evidence is gone."""
        candidates = [t for t in seen if t in self._tiles]  # in reader order: reproducible
        candidates += [t for t, _ in self._misplaced() if t not in seen]
        for tile in candidates:
            belief = self._tiles.get(tile)
            if belief is None:
                continue  # taken off meanwhile, with its finding
            home = belief.square
            if self._may_go(belief):
                belief.misplaced = None
                there = self._followed(belief)
                if there is not None and not self._start_holds(belief, there):
                    self._move(tile, home, there, now)
                continue
            there = None if belief.kept else self._likelier_elsewhere(belief, MISPLACED_LLR)
            if there is not None and now - self.read_at(tile) < MISPLACED_UNSEEN:
                there = None  # read on its own square a moment ago: crosstalk runs, not a move
            if there is None:
                belief.misplaced = None
            elif belief.misplaced is None:
                log.warning(
                    "%s belongs on %s but is seen on %s", tile, SQUARES[home], SQUARES[there]
                )
                belief.misplaced = there
                belief.flagged = next(self._order)

    def _followed(self, belief: TileBelief) -> int | None:
        """Where the latest evidence has a tile that may move, if not on its own square:
        MOVE_LLR likelier there; a tile that lies where it is by the family's word, only
        MISPLACED_LLR likelier (the readings since the word; the word holds until the
        readers clearly contradict it, and a silent reader under it with a neighbour's
        crosstalk running does not)."""
        llr = MISPLACED_LLR if belief.settled is not None else MOVE_LLR
        return self._likelier_elsewhere(belief, llr)

    def _last_trail(self, tile: Tile) -> int:
        """The square where `tile` was seen most often since last seen on its own (the
        latest first seen, of equals)."""
        trail = self._tiles[tile].trail
        return max(trail, key=lambda i: (trail[i][1], trail[i][0]))

    def _move(self, tile: Tile, home: int, there: int, now: float) -> None:
        """Moves a tile that may move to where the latest evidence has it: at its place in
        that stack and in the placement by its first sighting there."""
        belief = self._tiles[tile]
        since, seen = belief.trail.get(there, (now, 1))
        log.info("%s moved from %s to %s", tile, SQUARES[home], SQUARES[there])
        # a tile taken back by an undo and put down again is a new placement
        placed = belief.arrived is not None or (belief.leaving and not self.lobby)
        alone = self._squares[home].stack == [tile]
        # a lone tile that lay on its square (read there more than in passing) and whose
        # square reads nothing since, which a silence of its reader explains as well as a
        # lift: seen next door, that is crosstalk as likely as a slide; so is one already
        # held so (`hushed`), however briefly it was read there (TUNE everything table 0:
        # a tile read once as it was laid on S1, whose reader then fell silent, was read on
        # E2 by crosstalk and scored there)
        quiet = self._squares[home].evidence.quiet > 0
        lay = belief.seen >= CONFIRM_SIGHTINGS
        hushed = belief.hushed or (
            alone and lay and quiet and self._squares[home].lift_full < LIFT_LLR
        )
        # (seen nowhere else on the way: `left_after` counts to its first sighting there)
        left_after = belief.left_after if belief.seen and set(belief.trail) == {there} else 0
        self._take(tile)
        if placed:
            self._arrive(tile, there, now, since=since, seen=seen, moved=True)
            self._turn.moved_from.setdefault(tile, set()).add(home)
            if self._turn.pressed:
                # the family pressed with it where it lay: the readings alone do not score
                # it elsewhere (TUNE everything table 1: a tile read well on W2, whose
                # reader fell silent after the press while W1's crosstalk ran on)
                self._turn.moved_since_press.add(tile)
            shown = self._turn.nearby.get(tile, {}).pop(there, None)
            if shown is not None and shown.missed and home in NEIGHBOURS[there]:
                # what its new square read since it first showed it, misses included, is
                # what a tile lying there would have had to give (TUNE everything table
                # 14: a tile on N1 shown on N2 in runs, moved there as N1's reader fell
                # silent, was scored on a run of seven)
                self._tiles[tile].home = shown
                self._turn.carried.setdefault(tile, set()).add(home)
            if left_after:
                self._turn.prompt[tile] = left_after
            if (not alone or hushed) and home in NEIGHBOURS[there]:
                # scored there once read there well (a tile slid across is, at once): its
                # own reader missing the top of a stack while a neighbour's crosstalk runs
                # moves a tile just the same, on readings that never vouch for it there
                self._turn.moved[tile] = home
        else:
            self._put(tile, there, now, self._depth(there, since)).seen = seen
            self._touch(now)

    def _remove_gone(self, now: float) -> None:
        settings = self.settings
        for i, square in enumerate(self._squares):
            stack = square.stack
            if not stack:
                continue
            if square.below_clear >= BELOW_CLEAR_READINGS:
                below = [
                    t for t in stack[:-1] if self._may_go(b := self._tiles[t]) and not b.leaving
                ]
                for tile in [t for t in below if self._tiles[t].settled is None]:
                    log.info("%s taken from under the top of %s", tile, SQUARES[i])
                    # a tile of this turn is asked about: one shown over a square, laid
                    # where the readers cannot see, then covered by the next tile laid on
                    # the square it was shown over reads just like this
                    self._gone(tile, now, doubtful=True)
                if not stack:
                    continue
            top = stack[-1]
            belief = self._tiles[top]
            unseen = now - square.top_seen
            if belief.leaving:
                gone = (
                    unseen >= settings.leave_seconds and square.clear >= settings.lift_sweeps
                ) or (
                    unseen >= 3 * settings.leave_seconds and square.usable >= settings.lift_sweeps
                )
            elif belief.settled is not None:
                continue  # the family's word: its own square's readings are what they settled
            elif self._may_go(belief):
                gone = self._lifted_off(i, now)
                if gone and self._silence_explains(square, top, belief) and not belief.trail:
                    # as likely a silence of its reader as a lift (and not seen elsewhere
                    # since): it stays, in doubt
                    if not belief.hushed:
                        log.info("%s unseen on %s, whose reader may be silent", top, SQUARES[i])
                        belief.hushed = True
                    continue
            else:
                continue
            if gone and belief.trail and not belief.leaving:
                # gone from here, but seen elsewhere since last seen here: it lies there
                # (seen once on a tall stack whose top shows one sweep in ten)
                self._move(top, i, self._last_trail(top), now)
            elif gone:
                log.info("%s taken off %s", top, SQUARES[i])
                self._lifted = now
                if square.evidence.quiet:
                    self._left[top] = (i, now)
                self._gone(top, now)

    def _silence_explains(self, square: SquareBelief, top: Tile, belief: TileBelief) -> bool:
        """A run of nothing on `square`, whose top `top` may go, is explained by a silence
        of its reader nearly as well as by a lift (LIFT_RATIO, `decide.lift_run` with
        silences). A tile the game has no place for (`unwanted`: the family, told "not
        legal", takes it back) or one an undo took back is lifted on the misses alone."""
        if belief.leaving or top in self.unwanted:
            return False
        if not square.evidence.quiet:
            return False  # the tiles below read without it: no silence explains that
        return square.lift_full < LIFT_LLR

    def _gone(self, tile: Tile, now: float, *, doubtful: bool = False) -> None:
        """`tile` left the board: taken off the belief; a tile of this turn is remembered
        as vanished (it may lie unseen where the readers cannot see, `vanished`), asked
        about if `doubtful`, or if it lay alone or where the readers could hardly see it."""
        belief = self._tiles[tile]
        if belief.arrived is not None and not self.lobby:
            i = belief.square
            height = len(self._squares[i].stack)
            # asked about if it lay alone (shown to a reader over an empty square) or where
            # the readers could hardly see it (its lift is a guess); not if the readers saw
            # it lifted off a stack they read well (taken back into the hand)
            doubtful = doubtful or height == 1 or self._dark(i, below=tile)
            self._turn.vanish(tile, i, now, doubtful, off_stack=height > 1)
        self._take(tile)
        self._touch(now)

    def _lifted_off(self, i: int, now: float, llr: float = LIFT_LLR) -> bool:
        """Has the top of square i been unseen for `lift_seconds`, with readings LIFT_RATIO
        (or `llr`) times likelier without it than with it (`decide.lift_step`,
        `decide.lift_run`)?"""
        square = self._squares[i]
        return now - square.top_seen >= self.settings.lift_seconds and square.lift >= llr

    # -- changing the belief ---------------------------------------------------------------
    def _may_go(self, belief: TileBelief) -> bool:
        return self.lobby or belief.leaving or belief.arrived is not None

    def _depth(self, i: int, since: float) -> int:
        """How many tiles of this turn on square i arrived after `since` (they lie above)."""
        stack = self._squares[i].stack
        depth = 0
        while depth < len(stack) and self._arrived(stack[-1 - depth], -1.0) > since:
            depth += 1
        return depth

    def _arrived(self, tile: Tile, default: float) -> float:
        arrived = self._tiles[tile].arrived
        return default if arrived is None else arrived

    def _arrive(
        self,
        tile: Tile,
        i: int,
        now: float,
        since: float | None = None,
        seen: int = 1,
        moved: bool = False,
    ) -> None:
        """`tile` arrived on square i when first seen (`since`, for a tile that had to be
        decided or that moved): below the tiles of this turn that arrived after it, in
        arrival order; `seen` sightings there so far. A tile that `moved` is not the one
        the display says the readers saw last (`latest`): that is the one being shown,
        unless it moved onto an empty square while that one is not held over one itself
        (lifted from where it lay, to be shown: `_held_up`). Nor is a tile of this turn that
        comes back into sight on a stack while that one is held over a square alone: the
        family holds it there until the display names it (TUNE everything table 31: a tile
        shown while another, laid before, showed again on a dark stack was never named,
        held for seconds, and taken for one the player was told had no place)."""
        since = now if since is None else since
        log.info("%s arrived on %s", tile, SQUARES[i])
        stack = self._squares[i].stack
        held = self._turn.latest != tile and self._held_up(self._turn.latest)
        if moved:
            shown = not stack and not held
        else:
            shown = not (held and stack and tile in self._turn.vanished)
        if stack:
            top = self._tiles[stack[-1]]
            covered = self._may_go(top) and top.settled is None
            if covered and self._lifted_off(i, now, 0.0):
                # a tile of this turn unseen for a while, covered by a new one: it was
                # lifted (two tiles on one square in one turn would not be legal anyway:
                # the readings need only have stopped showing it, not be LIFT_RATIO
                # likelier without it)
                log.info("%s taken off %s: %s lies there now", stack[-1], SQUARES[i], tile)
                # gone, not forgotten: it may lie where the readers cannot see, and is asked
                # about (TUNE everything table 12: a tile shown over N1, laid on a dark
                # stack, then "covered" on N1 by a neighbour's crosstalk, was scored
                # without, never asked about)
                self._lifted = now
                self._gone(stack[-1], now)
        belief = self._put(tile, i, now, self._depth(i, since))
        belief.seen = seen
        if not self.lobby:
            placement = self._turn.placement
            later = [t for t in placement if self._arrived(t, 0.0) > since]
            placement.insert(len(placement) - len(later), tile)
            belief.arrived = since
            been = self._turn.been.setdefault(tile, [])
            if i in been:
                been.remove(i)
            been.append(i)
            if shown:
                self._turn.latest = tile
        self._touch(now)

    def _held_up(self, tile: Tile | None) -> bool:
        """`tile` lies alone on its square: it may be held over it, being shown."""
        belief = self._tiles.get(tile) if tile is not None else None
        return belief is not None and self._squares[belief.square].stack == [tile]

    def _put(self, tile: Tile, i: int, now: float, depth: int = 0) -> TileBelief:
        """Puts `tile` on square i, `depth` tiles below the top (0: as the new top)."""
        stack = self._squares[i].stack
        stack.insert(len(stack) - depth, tile)
        belief = self._tiles[tile] = TileBelief(i)
        self._turn.vanished.pop(tile, None)
        self._new_stack(i)
        self._squares[i].answer(now)
        if depth == 0:
            self._fresh_top(i, now)
        return belief

    def _take(self, tile: Tile) -> None:
        """Takes `tile` off the believed board, with everything known about it there."""
        i = self._tiles.pop(tile).square
        self._read_at.pop(tile, None)
        self._squares[i].stack.remove(tile)
        self._turn.take(tile)
        self._new_stack(i)
        self._fresh_top(i, self._now)

    def _new_stack(self, i: int) -> None:
        self._squares[i].new_stack(self._now)

    def _fresh_top(self, i: int, now: float) -> None:
        square = self._squares[i]
        if square.stack:
            self._tiles[square.stack[-1]].hushed = False  # seen (or new): no silence to explain
        square.fresh_top(now)

    def _touch(self, now: float) -> None:
        self.version += 1
        self.changed = now
