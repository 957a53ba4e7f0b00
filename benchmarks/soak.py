"""The soak: whole games on tables of random reader physics, with random families at them,
through the real `Table`, every journalled turn checked against what was really laid.

Each physics class (`hardware.hub.sim_classes.CLASSES`: "clean", "weak-tall", "silent",
"crosstalk", "everything") is a distribution of tables; the soak draws `tables` tables from
it and plays `games` games at each, each with its own family (`companion.sim.family`), its
own reader draws and 2, 3 or 4 players. Everything runs in simulated time from string seeds,
so a figure is the same on any machine, busy or not; games are spread over processes.

**Two seed sets.** Tables are drawn from `TUNE` or from `REPORT` (`SeedSet`): table n of
a class is seeded "<set>-<class>-table-<offset + n>", with TUNE's offsets below 1,000,000
and REPORT's from 1,000,000, so the two never share a table. Tune the daemon on TUNE
(`python -m benchmarks.soak`, which plays TUNE tables only, and the tests); `make bench` reports on REPORT alone, and
the report refuses any other set (`report()`), so tuning figures cannot be reported by
accident.

What counts (`GameRecord`, summed per class in `ClassResult`):

- **exact**: the game ended (or stopped after 250 turns) with every journalled turn, the
  start board and the scores as really played;
- **silent misscore**: a turn journalled with other tiles, points or bonus than those really
  laid (or a game started on another board) and no display announcing it within
  `WINDOW_SECONDS` (`companion.sim.family.announces`): the game stops there;
- **correction announced**: such a turn that a display announced (today: "last turn right?"
  naming a tile the turn missed); the family answers it (`answer`), and if the turn is
  taken back they lay it again and play on;
- **stuck**: a press of a legal placement (or of a swap) not scored `STUCK_SECONDS` (30 s)
  after it, while the family did whatever the displays asked that could be done (pressing
  again, hands off, tiles laid again, stacks straightened); or a game not started 30 s
  after the long press. The game stops there;
- **question**: a notice of kind "question" appearing (`companion.sim.family.kind`);
- **problem episode**: a run of sweeps in which the displays show a problem (a `Problem`,
  a held press's doubt, or "not legal" for a legal placement); a **false alarm** is one that
  begins while the table is physically fine: no hand over the board, nothing moved for 1 s,
  no tile laid by mistake or still to come off. A reader's silence, misses or crosstalk are
  the table's physics, not something the family did: an alarm about them is false;
- **press to turn scored**: from the first press of a turn to its journalling, in
  simulated seconds (a press made after waiting tired included).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path

from companion.board.registry import Registry
from companion.board.tracker import TALL_STACK
from companion.config import Config, PathsConfig
from companion.game.journal import Journal
from companion.game.table import Table
from companion.game.view import IllegalMove, Question, ShowFirst, SwapQuestion, TableView
from companion.sim.family import (
    Action,
    Answer,
    DoublePress,
    HandsOff,
    Hold,
    Prepare,
    Press,
    Relay,
    Show,
    Situation,
    Straighten,
    TakeOff,
    Temperament,
    announces,
    answer_questions,
    kind,
    show_first,
)
from companion.sim.rig import reader_neighbours
from engine import ALL_TILES, COMMON_SQUARES, SQUARES, Board, Game, Tile
from hardware.hub.sim import SimTable, tag_uid
from hardware.hub.sim_classes import CLASSES, PhysicsClass
from hardware.hub.sim_physics import PhysicalReaders, TablePhysics
from hardware.hub.snapshot import Snapshot

UIDS: dict[Tile, str] = {t: tag_uid(n + 1) for n, t in enumerate(ALL_TILES)}
#: the table's warnings ("board problems: ...") are the soak's figures, not its output
logging.getLogger("setup").addHandler(logging.NullHandler())

STUCK_SECONDS = 30.0
MAX_TURNS = 250
#: after a turn journalled unlike what was laid, how long the family watches the displays
#: for a word about it before the misscore counts as silent
WINDOW_SECONDS = 8.0
#: how long a family holds a tile shown to the readers, waiting for the display to say it
#: was seen, before it lays the tile anyway (drawn per gesture)
SHOW_PATIENCE = (3.0, 12.0)
#: the games' journals: in memory where there is a tmpfs (an fsync on disk costs more than
#: a game's sweeps)
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None
PLAYERS = {2: ("S", "N"), 3: ("S", "W", "N"), 4: ("S", "W", "N", "E")}
Placement = list[tuple[str, Tile]]


# -- seeds -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeedSet:
    """Which tables a soak plays on: table n is seeded `<name>-<class>-table-<offset+n>`."""

    name: str
    offset: int
    size: int = 1_000_000  # no set reaches into the next one's offsets

    def table_seed(self, physics: PhysicsClass, n: int) -> str:
        if not 0 <= n < self.size:
            raise ValueError(f"table {n} is outside the {self.name} set (0..{self.size - 1})")
        return f"{self.name}-{physics.name}-table-{self.offset + n}"


TUNE = SeedSet("tune", 0)
REPORT = SeedSet("report", 1_000_000)


# -- what is counted --------------------------------------------------------------------------
@dataclass
class GameRecord:
    """One game's figures (see the module's docstring for what each counts)."""

    games: int = 1
    exact: int = 0
    misscores: int = 0
    unseen: int = 0  # ... of them, of a tile no reader ever reported in its turn
    announced: int = 0
    stuck: int = 0
    unfinished: int = 0
    turns: int = 0
    presses: int = 0
    questions: int = 0
    episodes: int = 0
    false_alarms: int = 0
    problem_sounds: int = 0
    unclassified: int = 0
    press_to_end: list[float] = field(default_factory=list)  # every turn, swaps included
    press_to_place: list[float] = field(default_factory=list)  # ... placements only
    #: ... placements with no tile laid on a stack of TALL_STACK or more (the issue's "fast
    #: when the readers can see" target excepts tall stacks)
    press_to_low: list[float] = field(default_factory=list)
    to_preview: list[float] = field(default_factory=list)
    alarms: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass
class ClassResult(GameRecord):
    """The figures of many games, summed."""

    games: int = 0
    tables: int = 0
    seed_set: str = ""
    wall_seconds: float = 0.0

    def add(self, record: GameRecord) -> None:
        for f in fields(GameRecord):
            mine, theirs = getattr(self, f.name), getattr(record, f.name)
            if isinstance(mine, dict):
                for key, n in theirs.items():
                    mine[key] = mine.get(key, 0) + n
            else:
                setattr(self, f.name, mine + theirs)


class _GameOver(Exception):
    """The game stops here (stuck, or a misscore the family would argue about)."""


# -- one game -------------------------------------------------------------------------------
class Sitting:
    """One game at one table: the physical board, its readers, the daemon's `Table`, and a
    family at it that plays, watches the displays and answers them through `answer`."""

    def __init__(
        self,
        physics: TablePhysics,
        seed: str,
        players: int,
        folder: Path,
        answer: Answer = answer_questions,
        prepare: Prepare = show_first,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(f"{seed}-play")
        self.temper = Temperament.draw(random.Random(f"{seed}-family"))
        self.readers = PhysicalReaders(physics, random.Random(f"{seed}-readers"))
        self.answer = answer
        self.prepare = prepare
        self.sim = SimTable()
        config = Config(paths=PathsConfig(folder))
        registry = Registry(None, {uid: t for t, uid in UIDS.items()})
        self.now = 1000.0
        self.seq = 0
        self.table = Table(config, registry, Journal(config.paths.journal), now=self.now)
        self.sides = PLAYERS[players]
        self.record = GameRecord()
        self.ref: Game | None = None
        self.changed = self.now  # the last physical change
        self.view: TableView = self.table.view(self.now)
        # what the family knows
        self.active: str | None = None
        self.laid: Placement = []
        self.mistakes: list[Tile] = []
        self.last: tuple[str, tuple[tuple[str, Tile], ...]] | None = None
        self.leaving: list[Tile] = []
        self.attending = False
        self._asked: tuple[float, float] | None = None  # (since, after how long they act)
        self._calm_until = float("-inf")  # a gesture made: the next one not before
        # what the displays showed at the last sweep
        self._problem = False
        self._questions: frozenset = frozenset()
        self._unclassified: frozenset = frozenset()
        self._excused: set = set()  # "not legal" shown while a tile laid by mistake lay there
        self._reported: set[str] = set()  # every UID the readers reported this turn
        self.watch: tuple[float, Callable[[], bool]] | None = None
        self._first_press: float | None = None  # the first short press of the turn's player
        #: when each side last pressed short (a press answering a question included): a
        #: person presses again, tired of waiting, only that long after their own last press
        self._pressed: dict[str, float] = {}

    # -- the physical table ---------------------------------------------------------------
    def sweep(self, n: int = 1) -> None:
        for _ in range(n):
            self.now += self.readers.interval()
            readings = self.readers.sweep(self.sim.stacks, self.sim.hovering, self.now)
            self.seq += 1
            if self.readers.delivered():
                self.table.on_snapshot(Snapshot(self.seq, readings, self.now), self.now)
                for reading in readings:
                    self._reported.update(reading.uids)
            self.table.tick(self.now)
            self.view = self.table.view(self.now)
            self._watch()
            if self.attending:
                self._attend()

    def seconds(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.sweep()

    def until(self, condition: Callable[[], bool], seconds: float) -> bool:
        end = self.now + seconds
        while not condition():
            if self.now >= end:
                return False
            self.sweep()
        return True

    def _touched(self) -> None:
        self.changed = self.now

    def put(self, square: str, t: Tile) -> None:
        self.sim.put(SQUARES.index(square), UIDS[t])
        self._touched()

    def hover(self, square: str, t: Tile) -> None:
        self.sim.hover(SQUARES.index(square), UIDS[t])
        self._touched()

    def hands_off(self) -> None:
        if any(self.sim.hovering):
            for over in self.sim.hovering:
                for uid in over:
                    self.sim.unhover(uid)
            self._touched()

    def where(self, t: Tile) -> str | None:
        reader = self.sim.where(UIDS[t])
        return None if reader is None else SQUARES[reader]

    def relay(self, t: Tile) -> None:
        """Lift a tile (with what lies on it) and lay it again where it lies."""
        reader = self.sim.where(UIDS[t])
        if reader is None:
            return
        stack = self.sim.stacks[reader]
        above = stack[stack.index(UIDS[t]) + 1 :]
        for _ in above:
            self.sim.lift(reader)
        self.sim.remove(UIDS[t])
        self._touched()
        self.sweep()
        for uid in (UIDS[t], *above):
            self.sim.put(reader, uid)
        self._touched()

    def lay_again(self, square: str, t: Tile) -> None:
        """Lays `t` again, as the displays ask: a tile on a square they name as one the
        readers cannot see (the top of its stack) is shown first, then laid back."""
        actions = self.prepare(self.situation(), square, t)
        reader = self.sim.where(UIDS[t])
        if not actions or reader is None or self.sim.stacks[reader][-1] != UIDS[t]:
            return self.relay(t)
        for action in actions:
            self.perform(action)

    def take_off(self, t: Tile) -> None:
        if self.sim.where(UIDS[t]) is not None:
            self.sim.remove(UIDS[t])
            self._touched()
        self.laid = [(sq, x) for sq, x in self.laid if x != t]
        if t in self.mistakes:
            self.mistakes.remove(t)
        if t in self.leaving:
            self.leaving.remove(t)

    def show(self, t: Tile, over: str, seconds: float) -> None:
        """Holds `t` over `over` for `seconds`: a top tile is picked up and laid back, a
        tile in hand stays in hand (to be laid next)."""
        reader = self.sim.where(UIDS[t])
        if reader is not None and self.sim.stacks[reader][-1] != UIDS[t]:
            return  # only a top tile can be picked up and shown
        if reader is not None:
            self.sim.remove(UIDS[t])
        self.hover(over, t)
        self.seconds(seconds)
        # docs/family.md: held until the display says the readers saw it (or they tire)
        self.until(lambda: self._acknowledged(t), self.rng.uniform(*SHOW_PATIENCE))
        self.sim.unhover(UIDS[t])
        if reader is not None:
            self.sim.put(reader, UIDS[t])
        self._touched()

    def _acknowledged(self, t: Tile) -> bool:
        """The displays no longer ask to show tiles first, or say `t` was seen."""
        firsts = [n for n in self.view.notices if isinstance(n, ShowFirst)]
        return not firsts or any(n.seen == t for n in firsts)

    def press(self, side: str, long: bool = False) -> None:
        self.record.presses += not long
        if not long:
            self._pressed[side] = self.now
            if side == self.active and self._first_press is None:
                self._first_press = self.now  # the turn's first press, whatever asked for it
        self.table.on_press(side, long, self.now)
        self.view = self.table.view(self.now)

    def clean(self) -> bool:
        """The table is physically fine: no hand over it, nothing moved for 1 s, no tile
        laid by mistake or still to come off."""
        return (
            not any(self.sim.hovering)
            and self.now - self.changed >= 1.0
            and not self.mistakes
            and not any(self.where(t) for t in self.leaving)
        )

    # -- what the displays show, and the family's answers -----------------------------------
    def _watch(self) -> None:
        record, view = self.record, self.view
        for n in view.notices:
            if isinstance(n, IllegalMove) and self.mistakes:
                self._excused.add(n)  # the family's own mistake: rightly shown
        problems = [
            n
            for n in view.notices
            if kind(n) == "problem" or (isinstance(n, IllegalMove) and n not in self._excused)
        ]
        if problems and not self._problem:
            record.episodes += 1
            if self.clean():
                record.false_alarms += 1
                code = _code(problems[0])
                record.alarms[code] = record.alarms.get(code, 0) + 1
        self._problem = bool(problems)
        questions = frozenset(
            dataclasses.replace(n, pressed=False) if isinstance(n, Question) else n
            for n in view.notices
            if kind(n) == "question"
        )
        record.questions += len(questions - self._questions)
        self._questions = questions
        unclassified = frozenset(n for n in view.notices if kind(n) == "unclassified")
        record.unclassified += len(unclassified - self._unclassified)
        self._unclassified = unclassified
        for sound in self.table.take_sounds():
            record.problem_sounds += sound.kind == "problem"
        if self.watch is not None and self.watch[1]():
            record.to_preview.append(self.now - self.watch[0])
            self.watch = None

    def situation(self) -> Situation:
        where = {
            t: SQUARES[r] for r, stack in enumerate(self.sim.stacks) for t in map(_tile, stack)
        }
        return Situation(
            self.view,
            self.active,
            tuple(self.laid),
            tuple(self.mistakes),
            self.last,
            where,
            tuple(self.leaving),
        )

    def _attend(self) -> None:
        """The family reads the displays; after its reaction time it does what they ask."""
        actions = self.answer(self.situation())
        if not actions:
            self._asked = None
            return
        if self._asked is None:
            self._asked = (self.now, self.rng.uniform(*self.temper.react))
        since, delay = self._asked
        if self.now - since < delay or self.now < self._calm_until:
            return
        self._asked = None
        self._calm_until = self.now + self.rng.uniform(*self.temper.react)
        self.attending = False  # a gesture takes sweeps of its own: no answers inside it
        try:
            for action in actions:
                self.perform(action)
        finally:
            self.attending = True

    def perform(self, action: Action) -> None:
        if isinstance(action, Press):
            self.press(action.side)
        elif isinstance(action, DoublePress):
            self.press(action.side)
            # a double press is a hand's, not the readers': the second comes 0.15 to 0.5 s
            # after the first (within DOUBLE_SECONDS) whenever the next sweep comes
            self.now += self.rng.uniform(0.15, 0.5)
            self.press(action.side)
        elif isinstance(action, Hold):
            self.press(action.side, long=True)
        elif isinstance(action, HandsOff):
            self.hands_off()
        elif isinstance(action, Relay):
            self.relay(action.tile)
        elif isinstance(action, Straighten):
            self.readers.touch(SQUARES.index(action.square), self.now)
            self._touched()
        elif isinstance(action, Show):
            self.show(action.tile, action.over, action.seconds)
        elif isinstance(action, TakeOff):
            self.take_off(action.tile)

    # -- a game ---------------------------------------------------------------------------
    def play(self) -> GameRecord:
        record = self.record
        try:
            self._start()
            assert self.ref is not None
            while not self.ref.finished and record.turns < MAX_TURNS:
                self._turn(self._placement())
                self._bag()
            game = self.table.game
            assert game is not None
            if not self.ref.finished:
                record.unfinished += 1
                record.exact += game.scores == self.ref.scores
            elif not game.finished:
                record.notes.append(f"{self.seed}: the table did not end the game")
            elif game.scores != self.ref.scores:
                record.notes.append(f"{self.seed}: scores {game.scores}, not {self.ref.scores}")
            else:
                record.exact += 1
        except _GameOver as why:
            record.notes.append(f"{self.seed}: {why}")
        return record

    def _start(self) -> None:
        free = list(ALL_TILES)
        self.rng.shuffle(free)
        start = [(square, free.pop()) for square in COMMON_SQUARES]
        for square, t in start:
            self.put(square, t)
            self.seconds(self.rng.uniform(*self.temper.lay))
        self.laid = start  # the family knows what it laid: the hook may name these tiles
        for side in self.sides:
            self.press(side)
        first = self.now
        self.press(self.sides[0], long=True)
        self.attending = True
        last = self.now
        while self.table.phase != "playing":
            if self.now - first > STUCK_SECONDS:
                self.record.stuck += 1
                raise _GameOver("stuck: the game never started")
            self.sweep()
            if self.now - last >= self.temper.repress:
                self.press(self.sides[0], long=True)
                last = self.now
        self.attending = False
        self.laid = []
        self.ref = Game(self.sides, board=Board({sq: [t] for sq, t in start}))
        self.active = self.ref.active
        game = self.table.game
        assert game is not None
        if game.board != self.ref.board:
            self._misscored(f"started on {game.board.to_mapping()}, not {self.ref.board}")

    def _placement(self) -> Placement:
        """A legal placement of one to three tiles (empty: a swap)."""
        game, rng = self.ref, self.rng
        assert game is not None
        free = [t for t in ALL_TILES if t not in game.board]
        squares = sorted(game.seating.allowed(game.active, game.options.partner_squares))
        rng.shuffle(free)
        for t in free[:25]:
            for square in rng.sample(squares, len(squares)):
                placement = [(square, t)]
                if not game.preview(placement).legal:
                    continue
                for mate in free:
                    if len(placement) >= 3 or rng.random() < 0.4:
                        break
                    if mate in dict(placement).values():
                        continue
                    for other in rng.sample(squares, len(squares)):
                        if other in dict(placement):
                            continue
                        more = placement + [(other, mate)]
                        if game.preview(more).legal:
                            placement = more
                            break
                return placement
        return []

    def _mistake(self, placement: Placement) -> tuple[str, Tile] | None:
        """An extra tile that makes the placement illegal, on a square it does not use."""
        game = self.ref
        assert game is not None
        used = {sq for sq, _ in placement}
        squares = sorted(game.seating.allowed(game.active, game.options.partner_squares) - used)
        spare = [t for t in ALL_TILES if t not in game.board and t not in dict(placement).values()]
        for t in self.rng.sample(spare, min(10, len(spare))):
            for square in self.rng.sample(squares, len(squares)):
                if not game.preview([*placement, (square, t)]).legal:
                    return square, t
        return None

    def _lay(self, square: str, t: Tile) -> None:
        """One tile laid the way this family lays tiles."""
        rng, temper = self.rng, self.temper
        game = self.ref
        assert game is not None
        if rng.random() < temper.slide:  # slid across one or two other squares on the way
            for over in rng.sample([s for s in SQUARES if s != square], rng.randint(1, 2)):
                self.hover(over, t)
                self.sweep()
        if rng.random() < temper.hover:  # held over its square a moment first
            self.hover(square, t)
            self.sweep(rng.randint(1, 4))
        allowed = sorted(game.seating.allowed(game.active, game.options.partner_squares))
        wrong = [s for s in allowed if s != square]
        if wrong and rng.random() < temper.wrong_square:  # laid on a wrong square, moved
            self.put(rng.choice(wrong), t)
            self.seconds(rng.uniform(0.5, 1.5))
            self.sim.remove(UIDS[t])
            self._touched()
            if rng.random() < 0.5:
                self.hover(square, t)
                self.sweep()
        for action in self.prepare(self.situation(), square, t):  # as the displays ask
            self.perform(action)
        self.put(square, t)
        self.seconds(rng.uniform(*temper.lay))

    def _turn(self, placement: Placement) -> None:
        table, ref, rng, temper = self.table, self.ref, self.rng, self.temper
        game = table.game
        assert game is not None and ref is not None
        side = ref.active
        self.active = side
        self.laid, self.mistakes = [], []
        self.seconds(rng.uniform(*temper.think))
        self._reported = set()
        self._first_press = None
        truth = ref.preview(placement) if placement else None
        heights = ref.board  # the stacks before this turn's tiles
        mistake = (
            self._mistake(placement) if placement and rng.random() < temper.wrong_move else None
        )
        order = [*placement, *([mistake] if mistake else [])]
        for n, (square, t) in enumerate(order):
            self._lay(square, t)
            self.laid.append((square, t))
            if n == len(order) - 1 and truth is not None:  # from the moment it lay there
                self.watch = (self.changed, lambda: self._shows(side, truth, True))
        if mistake is not None:
            self.mistakes = [mistake[1]]
        before = self._moves()
        self.attending = True
        if mistake is not None and not self._fix_mistake(side, before):
            return self._scored(side, placement)  # scored with the wrong tile on the board
        self._first_press = None  # (the press that was told "not legal" does not count)
        if placement:
            self._await_preview(side, truth)
        self.seconds(rng.uniform(*temper.glance))
        if rng.random() < temper.forget:
            self.seconds(rng.uniform(3.0, 8.0))
        # a question on the display is read and answered (the hook) before pressing to end
        # the turn: the same button answers it
        self.until(lambda: not self._asked_of(side), STUCK_SECONDS)
        if self._moves() == before and self._first_press is None:
            self.press(side)
        first = self._first_press if self._first_press is not None else self.now
        last = self.now
        while self._moves() == before:
            if self.now - first > STUCK_SECONDS:
                self.record.stuck += 1
                raise _GameOver(
                    f"stuck: {side} pressed at {first:.1f} for {placement}; "
                    f"shown {[str(n) for n in self.view.notices]}; "
                    f"silent {sorted(self.readers.silent)}; stacks {self._truth()}"
                )
            self.sweep()
            if self._moves() == before and self._tired(side, last):
                self.press(side)
                last = self.now
        self.attending = False
        self.watch = None
        self.record.press_to_end.append(self.now - first)
        if placement:  # a swap may be asked about ("nothing seen: swap?"): apart as well
            self.record.press_to_place.append(self.now - first)
            if all(len(heights.stack(square)) < TALL_STACK - 1 for square, _ in placement):
                self.record.press_to_low.append(self.now - first)
        self._scored(side, placement)

    def _game(self) -> Game:
        """The table's game now (a correction confirmed replaces it with the amended one)."""
        game = self.table.game
        if game is None:  # (the family went on after the table's game was over)
            # a confirmed correction scored earlier turns again, and that ended the game:
            # the family's reference does not follow corrections, so it is not judged
            self.record.unfinished += 1
            raise _GameOver("the table's game ended on the scores of a confirmed correction")
        return game

    def _moves(self) -> int:
        return len(self._game().moves)

    def _tired(self, side: str, last: float) -> bool:
        """Whether `side`, whose press is not taken, presses again now: `repress` after
        their last press, whatever it was for (an answer to a question included), and not
        while their display asks them a question (they answer it instead)."""
        since = max(last, self._pressed.get(side, last))
        # "not legal" answered their press: while the tile laid by mistake is still there
        # they take it back first, they do not press again blindly
        shown = (IllegalMove,) if self.mistakes else ()
        return self.now - since >= self.temper.repress and not self._asked_of(side, *shown)

    def _asked_of(self, side: str, *also: type) -> bool:
        """`side`'s display asks them a question now (or shows a notice of `also`)."""
        kinds = (Question, SwapQuestion, *also)
        return any(isinstance(n, kinds) and n.side == side for n in self.view.notices)

    def _fix_mistake(self, side: str, before: int) -> bool:
        """The player presses on a placement with a tile laid by mistake, is told it is not
        legal and takes that tile back (the hook: `TakeOff`); False if the table scored a
        move meanwhile."""
        game = self.table.game
        assert game is not None
        first = last = self.now
        self.press(side)
        while self.mistakes:
            if self.now - first > STUCK_SECONDS:
                self.record.stuck += 1
                raise _GameOver(f"stuck: {side}'s wrong move {self.laid} never explained")
            self.sweep()
            if self._moves() != before:
                self.attending = False
                self.watch = None
                return False
            if self.mistakes and self._tired(side, last):
                self.press(side)
                last = self.now
        return True

    def _await_preview(self, side: str, truth) -> None:
        """Watches the display until it shows what was laid (a careful player: the points;
        a hasty one: any legal preview); lays the tiles again when it does not for a while;
        tired of waiting, presses anyway."""
        careful = self.rng.random() < self.temper.careful
        started = last = self.now
        moves = self._moves()
        while not self._shows(side, truth, careful):
            if self._moves() != moves or self._first_press is not None:
                return  # pressed as the display asked (the tile shown: where is it?)
            if self.now - started >= self.temper.give_up:
                return  # tired of waiting: presses anyway
            if self.now - last >= self.temper.relay_after:
                self.hands_off()
                self.attending = False  # a gesture takes sweeps of its own: no answers inside
                for square, t in list(self.laid):
                    self.lay_again(square, t)
                self.attending = True
                last = self.now
            self.sweep()

    def _shows(self, side: str, truth, careful: bool) -> bool:
        seat = self.view.seat(side)
        preview = seat.preview if seat is not None else None
        if preview is None or not preview.legal:
            return False
        return not careful or (
            preview.points == truth.points and dict(preview.bonus) == dict(truth.bonus)
        )

    def _scored(self, side: str, placement: Placement) -> None:
        """The table journalled a move: is it what was laid?"""
        ref, game = self.ref, self.table.game
        assert ref is not None and game is not None
        move = game.moves[-1]
        wrong = _wrong(move, placement, ref, side)
        if self.mistakes:  # what lies there is not a legal move: nothing may be scored
            wrong = frozenset((sq, t) for sq, t in self.laid if t in self.mistakes)
        if wrong is None:
            if placement:
                ref.place(placement)
            else:
                ref.swap()
            if game.board != ref.board:  # scored right by chance on a board believed wrong
                self._misscored(
                    f"{side}'s turn scored on a board unlike the table's: "
                    f"{game.board.to_mapping()} for {ref.board.to_mapping()}"
                )
            self.record.turns += 1
            self.last = (side, tuple(placement))
            self.active = ref.active
            if placement and self.rng.random() < self.temper.undo_own:
                self._take_back(side, placement)
            return
        self.last = (side, tuple(placement))
        scored = getattr(getattr(move, "scoring", None), "placed", ())
        what = f"{side} laid {placement}; the table journalled {move} {list(scored)}"
        if not self._announced(side, wrong, self._moves()):
            laid = frozenset(self.laid) if self.mistakes else frozenset(placement)
            self._misscored(what, (t for sq, t in wrong if (sq, t) in laid))
        self.record.announced += 1
        if self._moves() >= len(ref.moves) + 1:  # not taken back: the family argues
            raise _GameOver(f"announced, not taken back: {what}")
        self.record.notes.append(f"{self.seed}: announced and taken back: {what}")
        self._replay(side, placement)

    def _announced(self, side: str, wrong: frozenset, moves: int) -> bool:
        """The family watches the displays for a word about the turn just journalled (and
        answers what they ask, a long press to take it back included)."""
        game = self.table.game
        assert game is not None
        said = False
        self.attending = True
        end = self.now + WINDOW_SECONDS
        while self.now < end and self._moves() >= moves:
            self.sweep()
            said = said or any(announces(n, side, wrong) for n in self.view.notices)
        self.attending = False
        return said

    def _take_back(self, side: str, placement: Placement) -> None:
        """The player takes back the turn just played (a long press) and plays it again."""
        assert self.ref is not None
        moves = len(self.ref.moves)
        self.seconds(self.rng.uniform(0.3, 2.0))
        self.press(side, long=True)
        if self.table.game is None or len(self.table.game.moves) >= moves:
            return  # refused: it stands
        self.ref.pop()
        self.record.turns -= 1
        self._replay(side, placement)

    def _replay(self, side: str, placement: Placement) -> None:
        """After an undo: the turn's tiles come off (the displays say so), then the same
        player lays the turn again."""
        ref = self.ref
        assert ref is not None
        self.active = side
        self.leaving = [t for _, t in placement if self.where(t) is not None]
        self.laid = []
        self.attending = True
        for t in list(self.leaving):
            self.take_off(t)
            self.seconds(self.rng.uniform(*self.temper.lay))
        self.until(lambda: not self.view.notices, 3.0)
        self.attending = False
        self._turn(placement)

    def _misscored(self, what: str, missed: Iterable[Tile] = ()) -> None:
        self.record.misscores += 1
        unseen = sorted(str(t) for t in missed if UIDS[t] not in self._reported)
        if unseen:  # no reading showed it: only a question could have caught it
            self.record.unseen += 1
            what += f"; never reported by any reader: {', '.join(unseen)}"
        raise _GameOver(f"silent misscore: {what}; stacks {self._truth()}")

    def _bag(self) -> None:
        ref, table = self.ref, self.table
        assert ref is not None
        if not ref.needs_return:
            return
        for t in ref.board.covered():
            self.sim.remove(UIDS[t])
        self._touched()
        game = table.game
        assert game is not None
        if not self.until(lambda: not self._game().needs_return, 5.0):
            self.press(ref.active)  # a player confirms it
        ref.return_covered()

    def _truth(self) -> dict[str, list[str]]:
        return {
            SQUARES[r]: [str(_tile(uid)) for uid in stack]
            for r, stack in enumerate(self.sim.stacks)
            if stack
        }


_TILE_OF = {uid: t for t, uid in UIDS.items()}


def _tile(uid: str) -> Tile:
    return _TILE_OF[uid]


def _code(notice: object) -> str:
    problem = getattr(notice, "doubt", notice)
    return str(getattr(problem, "code", type(notice).__name__))


def _wrong(move, placement: Placement, ref: Game, side: str) -> frozenset | None:
    """What `move` got wrong against what `side` really laid: None if nothing, else the
    (square, tile) pairs laid and not scored or scored and not laid (empty if only the
    points, bonus, side or kind differ)."""
    scoring = getattr(move, "scoring", None)
    if not placement:
        if move.kind == "swap" and getattr(move, "side", side) == side:
            return None
        return frozenset(scoring.placed if scoring is not None else ())
    truth = ref.preview(placement)
    scored = frozenset(scoring.placed) if scoring is not None else frozenset()
    if (
        scoring is not None
        and scoring.active == side
        and scored == frozenset(placement)
        and scoring.points == truth.points
        and dict(scoring.bonus) == dict(truth.bonus)
    ):
        return None
    return scored ^ frozenset(placement)


# -- many games ------------------------------------------------------------------------------
def play_table(
    physics_class: str,
    seed_set: SeedSet,
    n: int,
    games: int,
    answer: Answer = answer_questions,
) -> list[GameRecord]:
    """The `games` games at table n of a class in a seed set."""
    physics = CLASSES[physics_class]
    seed = seed_set.table_seed(physics, n)
    table = physics.draw(random.Random(seed), reader_neighbours(), seed=seed)
    records = []
    for k in range(games):
        players = (2, 3, 4)[(n + k) % 3]
        with tempfile.TemporaryDirectory(prefix="soak-", dir=SCRATCH) as folder:
            sitting = Sitting(table, f"{seed}-game-{k}", players, Path(folder), answer)
            records.append(sitting.play())
    return records


def _play_table(job: tuple[str, SeedSet, int, int, Answer]) -> list[GameRecord]:
    return play_table(*job)


def soak(
    physics_class: str,
    *,
    seed_set: SeedSet = TUNE,
    tables: int = 100,
    games: int = 5,
    first: int = 0,
    workers: int = 1,
    answer: Answer = answer_questions,
) -> ClassResult:
    """`games` games at each of `tables` tables (numbers first, first+1, ...) of a class."""
    started = time.perf_counter()
    result = ClassResult(seed_set=seed_set.name, tables=tables)
    jobs = [(physics_class, seed_set, first + n, games, answer) for n in range(tables)]
    for records in _map(_play_table, jobs, workers):
        for record in records:
            result.add(record)
    result.wall_seconds = time.perf_counter() - started
    return result


def _map(function, jobs: list, workers: int) -> Iterator:
    if workers <= 1:
        return map(function, jobs)
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        return iter(list(pool.map(function, jobs, chunksize=1)))
    finally:
        pool.shutdown()


def report(
    classes: Iterable[str] = tuple(CLASSES),
    *,
    seed_set: SeedSet = REPORT,
    tables: int = 100,
    games: int = 5,
    workers: int = 2,
    answer: Answer = answer_questions,
) -> dict[str, ClassResult]:
    """The figures `make bench` reports: REPORT tables only, the family answering with
    `answer`."""
    if seed_set != REPORT:
        raise ValueError("figures are reported on the REPORT set only; tune on TUNE")
    return {
        name: soak(
            name, seed_set=seed_set, tables=tables, games=games, workers=workers, answer=answer
        )
        for name in classes
    }


def summary(name: str, result: ClassResult) -> str:
    from benchmarks.figure import percentile

    games = max(result.games, 1)
    ends = result.press_to_end or [0.0]
    places = result.press_to_place or [0.0]
    lows = result.press_to_low or [0.0]
    return (
        f"{name} ({result.seed_set}, {result.tables} tables, {result.games} games, "
        f"{result.wall_seconds:.0f} s): exact {result.exact}, silent misscores "
        f"{result.misscores} ({result.unseen} never reported), stuck {result.stuck}, announced {result.announced}, "
        f"unfinished {result.unfinished}, questions {result.questions / games:.2f}/game, "
        f"false alarms {result.false_alarms / games:.2f}/game (episodes "
        f"{result.episodes / games:.2f}), press to scored p50 {percentile(ends, 50):.2f} s "
        f"p99 {percentile(ends, 99):.2f} s (placements p50 {percentile(places, 50):.2f} s "
        f"p99 {percentile(places, 99):.2f} s; on stacks below {TALL_STACK} p50 "
        f"{percentile(lows, 50):.2f} s p99 {percentile(lows, 99):.2f} s), alarms {result.alarms}"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("classes", nargs="*", default=list(CLASSES))
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--notes", action="store_true", help="print every game's notes")
    args = parser.parse_args(argv)
    for name in args.classes:
        result = soak(
            name, tables=args.tables, games=args.games, first=args.first, workers=args.workers
        )
        print(summary(name, result))
        if args.notes:
            print("\n".join(f"  {note}" for note in result.notes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
