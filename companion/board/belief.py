"""What the tracker believes, as values: a `SquareBelief` per square, a `TileBelief` per
tile believed on the board, and the `Turn`, what is known about this turn's tiles whether
they still lie on the board or not.

Each value holds its own facts, so the tracker keeps nothing in step by hand: a tile taken
off the board is forgotten with its `TileBelief`, a changed stack or a top seen again is one
method of its `SquareBelief`, and a turn scored (or replaced by the game's board) starts a
new `Turn`. What the readings teach about each square's reader is `SquareEvidence`, one per
square, held by its `SquareBelief`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from companion.board.evidence import SquareEvidence
from engine import SQUARES, Tile


def _latest(flags: deque[bool], last: int) -> int:
    return sum(list(flags)[-last:])


@dataclass(slots=True)
class SquareBelief:
    """One square: its believed stack, bottom first, and the weight of its readings."""

    evidence: SquareEvidence
    #: whether each of the last readings was a collision, the latest last
    collided: deque[bool]
    #: ... and whether each listed a tag believed elsewhere (a neighbour's crosstalk)
    crossed: deque[bool]
    stack: list[Tile] = field(default_factory=list)
    # evidence about the top tile since it was last seen there
    top_seen: float = 0.0
    clear: int = 0  # readings clearly without it
    usable: int = 0  # readings by a working reader
    #: the weight of the readings since the top was last seen: log P(gone) / P(there)
    #: (`decide.lift_step`, `decide.lift_run`), and where the run of nothing now going on
    #: began
    lift: float = 0.0
    lift_base: float = 0.0
    #: ... the same, allowing for the square's reader falling silent (a run of nothing is
    #: then one event, weighed by how often silences start and how long they last)
    lift_full: float = 0.0
    full_base: float = 0.0
    # evidence about the tiles below the top
    below_clear: int = 0  # readings in a row with no collision and none of them
    # does it answer: when a tile was last seen on it, and readings since
    answered: float = 0.0
    silent: int = 0
    #: a press wants this many more readings of it (`Tracker.confirm`; 0: none)
    to_confirm: int = 0
    unknown_seen: float = float("-inf")  # when a tag nobody enrolled was last read on it
    #: when the readers last could not confirm a tile laid on top (`Tracker.dark`)
    dark_at: float = float("-inf")

    @property
    def changed(self) -> float:
        """When the believed stack last changed (its evidence keeps the time)."""
        changed = self.evidence.changed_at
        return float("-inf") if changed is None else changed

    def new_stack(self, now: float) -> None:
        """The believed stack changed: evidence about the old one is void."""
        self.evidence.change(now)
        self.below_clear = 0
        self.collided.clear()
        self.crossed.clear()

    def fresh_top(self, now: float) -> None:
        """The top was seen (or is new): the weight of its misses starts again."""
        self.top_seen = now
        self.lift = self.lift_base = 0.0
        self.lift_full = self.full_base = 0.0
        self.clear = 0
        self.usable = 0

    def answer(self, now: float) -> None:
        self.answered = now
        self.silent = 0

    def collisions(self, last: int) -> int:
        """How many of the `last` readings were collisions."""
        return _latest(self.collided, last)

    def crosstalk(self, last: int) -> int:
        """How many of the `last` readings listed a tag believed elsewhere."""
        return _latest(self.crossed, last)


@dataclass(slots=True)
class HomeReadings:
    """The readings of a tile's square since it came there that say whether it lies there,
    each a sighting or a miss, counted apart by what the reading before it said: crosstalk
    comes in runs, so a sighting right after a sighting says little against it. The first
    is not counted: it is the sighting that brought the tile there, under either belief."""

    seen_after_miss: int = 0
    seen_after_seen: int = 0
    missed_after_miss: int = 0
    missed_after_seen: int = 0
    last_seen: bool | None = None  # (None: no reading yet)

    def add(self, shown: bool) -> None:
        if self.last_seen is None:
            pass
        elif shown and self.last_seen:
            self.seen_after_seen += 1
        elif shown:
            self.seen_after_miss += 1
        elif self.last_seen:
            self.missed_after_seen += 1
        else:
            self.missed_after_miss += 1
        self.last_seen = shown

    @property
    def seen(self) -> int:
        return self.seen_after_miss + self.seen_after_seen

    @property
    def missed(self) -> int:
        return self.missed_after_miss + self.missed_after_seen

    @property
    def count(self) -> int:
        return self.seen + self.missed


@dataclass(slots=True)
class TileBelief:
    """One tile believed on the board: its square, and what the readings (and the family)
    said about it there. A tile that leaves the board takes all of it along."""

    square: int
    #: a tile of this turn's placement: when it was first seen (None: not of this turn)
    arrived: float | None = None
    leaving: bool = False  # taken back by an undo, still to come off
    seen: int = 0  # sweeps seen on its square since put there
    #: a tile of this turn: its square's readings since it was put there, which weigh it
    #: lying there against a neighbour's crosstalk (`Tracker._weigh_home`)
    home: HomeReadings = field(default_factory=HomeReadings)
    #: sightings elsewhere since it was last seen on its own square: square -> (first seen
    #: there, how often)
    trail: dict[int, tuple[float, int]] = field(default_factory=dict)
    read_sweep: int = 0  # the sweep that last showed it on its own square
    #: ... and how many sweeps later it was first seen elsewhere since (0: not yet)
    left_after: int = 0
    #: seen off its square: log likelihood of it lying on each square it may lie on
    #: (`decide.place_step`), its own square included (None: nothing to weigh)
    place: dict[int, float] | None = None
    #: a tile that may go, unseen on its square since: the readings that missed it there
    #: (its position each time), learned once it shows again (a lifted tile's never)
    gap: list[tuple[int, bool]] = field(default_factory=list)
    #: a tile that may go, unseen on a run of nothing that a lift explains far better than
    #: misses but a silence of its square's reader as well: kept on the board, in doubt (a
    #: press asks about it), until the square answers, the silence would have lasted beyond
    #: belief, or the family says
    hushed: bool = False
    #: a scored tile: the square it is seen on instead, and the order of such findings
    #: (`Tracker.misplaced` offers the corrections in that order)
    misplaced: int | None = None
    flagged: int = 0
    #: a scored tile the game keeps where it lies whatever is seen elsewhere (`keep`)
    kept: bool = False
    #: the family's word (`Tracker.settle`) that it lies on its square: the word's number,
    #: in the order they were said (None: no word). Such a tile is no doubt, and its
    #: square's silence is none either; readings on its own square never take it off (they
    #: are what the family settled); seen elsewhere it moves as any tile of the turn, and
    #: is a doubt (a question) again.
    settled: int | None = None
    #: ... for a tile of this turn: the placement it was said with. The word is about that
    #: placement: once another tile of the turn comes or goes, the readers are asked again
    #: (a tile the family took away again after its word must not stay)
    settled_with: frozenset[Tile] | None = None

    def rebase(self, square: int) -> None:
        """The game's board has the tile on `square` (it may have had it elsewhere): what
        was seen against it (its gap) or elsewhere (misplaced) is void, and what holds
        only where it lay (kept, the family's word) holds only if it still lies there."""
        self.gap = []
        if self.place is not None and square not in self.place:
            self.place = None
        self.misplaced = None
        if square != self.square:
            self.kept = False
            self.settled = None
        self.square = square

    def scored(self) -> None:
        """No longer a tile of this turn (scored, or the game's board has it)."""
        self.arrived = None
        self.home = HomeReadings()


@dataclass(slots=True)
class Vanished:
    """A tile of this turn taken off the board and not seen since."""

    square: int  # where it was
    at: float  # when it left
    doubtful: bool  # asked about (it lay alone, or where the readers could hardly see it)


@dataclass(slots=True)
class Pending:
    """A new tile seen on more than one square: sightings per square until one leads."""

    first_seen: float
    counts: dict[int, int] = field(default_factory=dict)
    last_seen: float = 0.0


@dataclass(slots=True)
class Turn:
    """This turn's placement, and what is known about its tiles whether or not they still
    lie on the board: a tile of this turn that leaves may be back, or lie where the readers
    cannot see, and the table asks about it. Scored, or replaced by the game's board, a
    turn gives way to a new one."""

    #: the tiles that arrived since the turn began, in arrival order (on the board)
    placement: list[Tile] = field(default_factory=list)
    #: tiles of this turn taken off the board and not seen since (the table asks the game
    #: where such a tile may lie unseen: a square the readers cannot see, `dark`)
    vanished: dict[Tile, Vanished] = field(default_factory=dict)
    #: for each tile of this turn (on the board or vanished), per square, the weight of the
    #: readings since it was last seen against it lying unseen on top there
    #: (`decide.absence_step`): where a tile gone may lie
    absent: dict[Tile, list[float]] = field(default_factory=dict)
    #: tiles of this turn the readings moved, and every square each was moved from (not
    #: one it was lifted from: the readings showed that square without it)
    moved_from: dict[Tile, set[int]] = field(default_factory=dict)
    #: tiles of this turn the readings moved off squares whose crosstalk had shown them
    #: in runs on the square they were moved to (... those squares)
    carried: dict[Tile, set[int]] = field(default_factory=dict)
    #: a press waits for the readers (`Tracker.confirm`), and the tiles the readings
    #: moved meanwhile: the family pressed with each where it lay before, so the readings
    #: alone do not score it elsewhere (asked about)
    pressed: bool = False
    moved_since_press: set[Tile] = field(default_factory=set)
    #: tiles of this turn asked about once gone: gone again, they are asked about again
    doubted: set[Tile] = field(default_factory=set)
    #: tiles the family said are not on these squares: a sighting there makes such a tile
    #: arrive again only past SAID_NOT_ON_SIGHTINGS (and sightings there since)
    said_not_on: dict[Tile, dict[int, int]] = field(default_factory=dict)
    #: tiles the readings moved next door (from a stack): the square left
    moved: dict[Tile, int] = field(default_factory=dict)
    left_stack: dict[Tile, int] = field(default_factory=dict)  # ... and those taken off one
    #: tiles of this turn the readings moved from a square that showed them (held over it
    #: to be shown) to one that showed them that many sweeps after: a neighbour's crosstalk
    #: would have had to show such a tile at once (`Tracker._prompt_odds`)
    prompt: dict[Tile, int] = field(default_factory=dict)
    #: tiles first seen on two squares at once: a neighbour's crosstalk while the own
    #: reader falls silent after the change looks just like that (... and those squares)
    split: dict[Tile, tuple[int, ...]] = field(default_factory=dict)
    #: every square each tile of this turn was believed on, the latest last: one whose
    #: reader fell silent while a neighbour's showed it through may hold it still
    been: dict[Tile, list[int]] = field(default_factory=dict)
    #: the tile of this turn the readers last saw arrive (a tile shown over an empty square
    #: before it is laid where they cannot see: the display says it was seen)
    latest: Tile | None = None
    #: for each tile of this turn, the readings of each square next to the one it is
    #: believed on that has shown it, since it first did: a neighbour that shows it as
    #: often as a tile lying there would be shown holds it as likely (`Tracker._rival_weight`)
    nearby: dict[Tile, dict[int, HomeReadings]] = field(default_factory=dict)

    def take(self, tile: Tile) -> None:
        """`tile` left the board: out of the placement. Where it may lie is weighed on only
        if it vanished (`vanish`): a tile moved or covered over starts afresh."""
        self.placement = [t for t in self.placement if t != tile]
        self.prompt.pop(tile, None)
        if tile not in self.vanished:
            self.absent.pop(tile, None)

    def vanish(self, tile: Tile, square: int, at: float, doubtful: bool, off_stack: bool) -> None:
        """`tile` left `square` (`off_stack`: tiles lay below it), unseen since: asked
        about if `doubtful`, or if it was once already this turn (TUNE crosstalk table 37: a
        tile asked about, read on a stack next door by crosstalk, then "lifted" off it as
        the readers read that stack well, was scored without, never asked about again)."""
        if off_stack:
            self.left_stack[tile] = square
        doubtful = doubtful or tile in self.doubted
        if doubtful:
            self.doubted.add(tile)
        self.vanished[tile] = Vanished(square, at, doubtful)
        self.absent.setdefault(tile, [0.0] * len(SQUARES))
