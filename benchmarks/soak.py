"""A seeded soak: whole games on the simulated table with a family at it, through the real
`Table`, checked turn by turn against the rules engine's scores of what was really laid.

The family slides tiles across other squares before laying them, hovers with a tile in
hand, lays slowly, puts a tile on a wrong square and moves it within the turn, presses once
the display shows a legal preview (or forgets to press for a while), and does what the
display asks when a press is not taken ("lift your hand", "lay the tile flat", "the readers
cannot see square X": straighten the stack). The readers are `FaultModel.family()` by
default: realistic faults, hands seen over squares, stacks that fall silent for 5 to 20 s,
tall stacks whose top is hard to read, 7-byte UIDs on a v1 hub's 512-byte line, and
sweeps that come irregularly (every 60 to 200 ms): `V1_HUB`, an independent hub slower than
ours. `OUR_HUB` is this project's firmware (docs/firmware.md): protocol 2's 2048-byte line
and a sweep every 50 to 90 ms on a board of stacks.

What it reports (`SoakResult`): games scored exactly, silent misscores (a turn journalled
with other tiles or points than those really laid: must be 0), stuck games (no turn for 30 s
after a press on a readable table: must be 0), false alarms (a press on a table that was
physically fine, answered by asking the player to do something), slow presses (such a press
not taken within a second, while the display says "Checking the board"), problem sounds,
the wait from the last tile laid to a correct preview on the player's display, and from the
press to the turn scored.
"""

from __future__ import annotations

import logging
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from companion.board.problems import Problem
from companion.board.registry import Registry
from companion.config import Config, PathsConfig
from companion.game.journal import Journal
from companion.game.late import LATE_SWEEPS, LateTile
from companion.game.table import Table
from companion.game.view import IllegalMove
from engine import ALL_TILES, COMMON_SQUARES, SQUARES, Board, Game, Tile
from engine.geometry import GEOMETRIES
from hardware.hub.protocol import MAX_LINE, MAX_LINE_V1
from hardware.hub.sim import FaultModel, FaultyReaders, SimTable, tag_uid
from hardware.hub.sim_faults import fit_line
from hardware.hub.snapshot import Snapshot

try:  # the held press's notice (absent from the daemon before issue 15)
    from companion.game.view import Unsure
except ImportError:  # pragma: no cover - only when measuring the old code
    Unsure = None  # type: ignore[assignment,misc]

UIDS: dict[Tile, str] = {t: tag_uid(n + 1) for n, t in enumerate(ALL_TILES)}
#: the table's warnings ("board problems: ...") are the soak's figures, not its output: without
#: a handler of their own they would go to stderr by logging's last resort
logging.getLogger("setup").addHandler(logging.NullHandler())


@dataclass(frozen=True)
class Hub:
    """How the hub under the soak sweeps: seconds between sweeps (drawn evenly) and the
    longest `S` line it may send."""

    sweep: tuple[float, float]
    line: int


V1_HUB = Hub((0.06, 0.2), MAX_LINE_V1)
OUR_HUB = Hub((0.05, 0.09), MAX_LINE)

STUCK_SECONDS = 30.0
PLAYERS = {2: ("S", "N"), 3: ("S", "W", "N"), 4: ("S", "W", "N", "E")}


@dataclass
class SoakResult:
    games: int = 0
    exact: int = 0
    misscores: int = 0  # turns journalled unlike the truth, while shown as right
    announced: int = 0  # ... and the displays said so: a tile it missed showed up after it
    late_notices: int = 0  # "a tile showed up after the turn" notices (all, announced or not)
    stuck: int = 0
    unfinished: int = 0  # stopped after 250 turns (exact so far)
    turns: int = 0
    presses: int = 0
    false_alarms: int = 0
    slow_presses: int = 0
    problem_sounds: int = 0
    to_preview: list[float] = field(default_factory=list)  # last tile -> correct preview
    press_to_end: list[float] = field(default_factory=list)  # press -> turn scored
    press_sweeps: list[int] = field(default_factory=list)  # ... in sweeps, whatever the hub
    notes: list[str] = field(default_factory=list)
    alarms: dict[str, int] = field(default_factory=dict)  # false alarms by what was shown

    def add(self, other: SoakResult) -> None:
        names = ("games", "exact", "misscores", "announced", "late_notices", "stuck", "unfinished")
        for name in (*names, "turns", "presses"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.false_alarms += other.false_alarms
        self.slow_presses += other.slow_presses
        self.problem_sounds += other.problem_sounds
        self.to_preview += other.to_preview
        self.press_to_end += other.press_to_end
        self.press_sweeps += other.press_sweeps
        self.notes += other.notes
        for code, n in other.alarms.items():
            self.alarms[code] = self.alarms.get(code, 0) + n


def neighbours() -> dict[int, tuple[int, ...]]:
    geometry = GEOMETRIES["default"]
    return {
        i: tuple(j for j in range(len(SQUARES)) if geometry.neighbours[i] >> j & 1)
        for i in range(len(SQUARES))
    }


class _Stuck(Exception):
    pass


class _Misscored(Exception):
    pass


class _Announced(Exception):
    """A turn scored unlike the truth, but the displays said so (`LateTile`)."""


class Family:
    """One game: the table under test, the physical board, and the players at it."""

    def __init__(
        self, seed: int, faults: FaultModel, players: int, folder: Path, hub: Hub = V1_HUB
    ) -> None:
        self.seed = seed
        self.hub = hub
        self.rng = random.Random(f"family-{seed}")
        self.sim = SimTable()
        self.readers = FaultyReaders(len(SQUARES), faults, random.Random(seed), neighbours())
        registry = Registry(None, {uid: t for t, uid in UIDS.items()})
        config = Config(paths=PathsConfig(folder))
        self.now = 1000.0
        self.seq = 0
        self.table = Table(config, registry, Journal(config.paths.journal), now=self.now)
        self.sides = PLAYERS[players]
        self.result = SoakResult(games=1)
        self.changed = self.now  # the last physical change (for false alarms)
        self.ref: Game | None = None
        self._late: set[LateTile] = set()  # the late-tile notices shown at the last sweep
        #: since when the display should show the true preview, and the check that it does
        self.watch: tuple[float, Callable[[], bool]] | None = None

    # -- the physical table --------------------------------------------------------------
    def sweep(self, n: int = 1) -> None:
        for _ in range(n):
            self.now += self.rng.uniform(*self.hub.sweep)
            readings = self.readers.sweep(self.sim.stacks, self.sim.hovering)
            self.seq += 1
            snapshot = Snapshot(self.seq, fit_line(self.seq, readings, self.hub.line), self.now)
            self.table.on_snapshot(snapshot, self.now)
            self.table.tick(self.now)
            late = {n for n in self.table.view(self.now).notices if isinstance(n, LateTile)}
            self.result.late_notices += len(late - self._late)
            self._late = late
            sounds = self.table.take_sounds()
            self.result.problem_sounds += sum(s.kind == "problem" for s in sounds)
            if self.watch is not None and self.watch[1]():
                self.result.to_preview.append(self.now - self.watch[0])
                self.watch = None

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

    def put(self, square: str, t: Tile) -> None:
        self.sim.put(SQUARES.index(square), UIDS[t])
        self.changed = self.now

    def hover(self, square: str, t: Tile) -> None:
        self.sim.hover(SQUARES.index(square), UIDS[t])
        self.changed = self.now

    def hands_off(self) -> None:
        for over in self.sim.hovering:
            for uid in over:
                self.sim.unhover(uid)
        self.changed = self.now

    def relay(self, t: Tile) -> None:
        """Lift a tile and lay it again where it lies (flat, this time)."""
        reader = self.sim.where(UIDS[t])
        if reader is None:
            return
        stack = self.sim.stacks[reader]
        above = stack[stack.index(UIDS[t]) + 1 :]
        for _ in above:  # a tile of this turn is the top; else lift what lies on it too
            self.sim.lift(reader)
        self.sim.remove(UIDS[t])
        self.sweep()
        self.sim.put(reader, UIDS[t])
        for uid in above:
            self.sim.put(reader, uid)
        self.changed = self.now

    def clean(self) -> bool:
        """The table is physically fine: no hand over it, no silent stack, still for 1 s."""
        return (
            not any(self.sim.hovering)
            and not self.readers.silent
            and self.now - self.changed >= 1.0
        )

    # -- a game --------------------------------------------------------------------------
    def play(self) -> SoakResult:
        try:
            self._start()
            assert self.ref is not None
            for _ in range(250):
                if self.ref.finished:
                    break
                self._turn()
                self._bag()
            game = self.table.game
            exact = game is not None and game.scores == self.ref.scores
            self.result.exact += bool(exact)
            if not self.ref.finished:  # no legal placement found for many turns: swaps
                self.result.unfinished += 1
            elif game is None or not game.finished:
                exact = False
                self.result.notes.append(f"seed {self.seed}: the table did not end the game")
            if not exact:
                self.result.notes.append(f"seed {self.seed} not exact: {game and game.scores}")
        except _Stuck as stuck:
            self.result.stuck += 1
            self.result.notes.append(f"seed {self.seed} stuck: {stuck}")
        except _Misscored as wrong:
            self.result.misscores += 1
            self.result.notes.append(f"seed {self.seed} misscored: {wrong}")
        except _Announced as wrong:  # the family would take the turn back: the game ends here
            self.result.announced += 1
            self.result.notes.append(
                f"seed {self.seed} scored unlike the truth, announced: {wrong}"
            )
        return self.result

    def _start(self) -> None:
        free = list(ALL_TILES)
        self.rng.shuffle(free)
        start = {square: [free.pop()] for square in COMMON_SQUARES}
        for square, (t,) in start.items():
            self.put(square, t)
        self.seconds(1.0)
        table = self.table
        for side in self.sides:
            table.on_press(side, False, self.now)
        for _ in range(20):
            table.on_press(self.sides[0], True, self.now)
            if table.phase == "playing":
                break
            self.hands_off()
            self.seconds(0.5)
        else:
            raise _Stuck("the game never started")
        self.ref = Game(self.sides, board=Board(start))
        if table.game.board != self.ref.board:
            raise _Misscored(f"start board {table.game.board} is not {self.ref.board}")

    def _placement(self) -> list[tuple[str, Tile]]:
        """A legal placement of one to three tiles (empty: a swap)."""
        game = self.ref
        assert game is not None
        rng = self.rng
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

    def _turn(self) -> None:
        game, ref, rng = self.table.game, self.ref, self.rng
        assert game is not None and ref is not None
        side = ref.active
        placement = self._placement()
        self.seconds(rng.uniform(0.5, 2.0))  # the player looks at the board and picks tiles
        allowed = sorted(ref.seating.allowed(side, ref.options.partner_squares))
        truth = ref.preview(placement) if placement else None

        def correct() -> bool:
            seat = self.table.view(self.now).seat(side)
            preview = seat.preview if seat is not None else None
            return (
                preview is not None
                and preview.legal
                and preview.points == truth.points
                and dict(preview.bonus) == dict(truth.bonus)
            )

        for n, (square, t) in enumerate(placement):
            if rng.random() < 0.25:  # slid across one or two other squares on the way
                for over in rng.sample([s for s in SQUARES if s != square], rng.randint(1, 2)):
                    self.hover(over, t)
                    self.sweep()
            if rng.random() < 0.3:  # held over its square a moment before it is laid
                self.hover(square, t)
                self.sweep(rng.randint(1, 3))
            wrong = [s for s in allowed if s != square]
            if wrong and rng.random() < 0.08:  # laid on a wrong square, then moved
                self.put(rng.choice(wrong), t)
                self.seconds(rng.uniform(0.5, 1.5))
                self.sim.remove(UIDS[t])
                if rng.random() < 0.5:
                    self.hover(square, t)
                    self.sweep()
            self.put(square, t)
            if n == len(placement) - 1:
                self.watch = (self.now, correct)
            self.seconds(rng.uniform(0.3, 1.2))  # families lay tiles slowly
        before = len(game.moves)

        def legal_shown() -> bool:
            seat = self.table.view(self.now).seat(side)
            return not placement or (
                seat is not None and seat.preview is not None and seat.preview.legal
            )

        for _ in range(5):  # a glance at the display; nothing shown: lay the tiles again
            if self.until(legal_shown, 4.0):
                break
            for _, t in placement:
                self.relay(t)
        self.seconds(rng.uniform(0.2, 1.0))  # reading it takes a moment
        if rng.random() < 0.1:
            self.seconds(rng.uniform(3.0, 8.0))  # forgot to press
        first, first_sweep = self.now, self.seq
        self._press(side)
        pressed_clean = self.clean()
        answered = False
        last_press = self.now
        while len(game.moves) == before:
            if self.now - first > STUCK_SECONDS:
                raise _Stuck(f"{side} pressed at {first:.1f}, no turn 30 s later")
            self.sweep()
            if len(game.moves) != before:
                break
            shown = self._respond(side, placement)
            if shown and not answered and pressed_clean:
                self.result.alarms[shown] = self.result.alarms.get(shown, 0) + 1
            answered = answered or bool(shown)
            if self.now - last_press >= 4.0:
                self._press(side)
                last_press = self.now
        self.watch = None
        waited = self.now - first
        if len(game.moves) != before:
            self.result.press_to_end.append(waited)
            self.result.press_sweeps.append(self.seq - first_sweep)
        if pressed_clean and answered:
            self.result.false_alarms += 1
        elif pressed_clean and waited > 1.0:
            self.result.slow_presses += 1
        self._check(side, placement, game.moves[-1])
        if placement:
            ref.place(placement)
        else:
            ref.swap()
        self.result.turns += 1

    def _press(self, side: str) -> None:
        self.result.presses += 1
        self.table.on_press(side, False, self.now)

    def _respond(self, side: str, placement: list[tuple[str, Tile]]) -> str:
        """Does what the display asks; what it asked ("" for nothing)."""
        view = self.table.view(self.now)
        asked = ""
        for notice in view.notices:
            problem = None
            if Unsure is not None and isinstance(notice, Unsure) and notice.side == side:
                problem = notice.doubt
            elif isinstance(notice, Problem):
                problem = notice
            elif isinstance(notice, IllegalMove) and notice.side == side:
                self.hands_off()
                for _, t in placement:
                    self.relay(t)
                return "illegal"
            if problem is None:
                continue
            asked = problem.code
            if self.rng.random() < 0.5:
                continue  # people take a moment to read and act
            self.hands_off()
            if problem.square is not None:
                self.readers.wake(SQUARES.index(problem.square))  # straighten the stack
            mine = {t for _, t in placement}
            tile = getattr(problem, "tile", None)  # (problems named no tile before issue 15)
            if tile is not None and tile in mine:
                self.relay(tile)
            elif problem.code in ("tile-twice", "unreadable") and problem.square is not None:
                for _, t in placement:
                    if self.sim.where(UIDS[t]) == SQUARES.index(problem.square):
                        self.relay(t)
        return asked

    def _check(self, side: str, placement, move) -> None:
        ref = self.ref
        assert ref is not None
        if not placement:
            if move.kind != "swap":
                raise _Misscored(f"{side} swapped; the table has {move}")
            return
        truth = ref.preview(placement)
        scored = getattr(move, "scoring", None)  # a swap has none
        if (
            move.kind != "place"
            or scored is None
            or set(scored.placed) != set(placement)
            or scored.points != truth.points
            or dict(scored.bonus) != dict(truth.bonus)
        ):
            missed = set(placement) - set(scored.placed if scored else ())
            self._announced_or_silent(
                side,
                missed,
                f"{side} laid {placement} for {truth}; the table scored {move} "
                f"{scored.placed if scored else ''} at {self.now:.1f}; "
                f"silent {sorted(self.readers.silent)}; stacks {self.sim.stacks}",
            )

    def _announced_or_silent(self, side: str, missed: set, what: str) -> None:
        """A turn scored unlike the truth: the family stops and looks. Did the displays say,
        within LATE_SWEEPS, that a tile it missed showed up after it (`LateTile`)?"""
        for _ in range(LATE_SWEEPS + 1):
            self.sweep()
            for notice in self.table.view(self.now).notices:
                if (
                    isinstance(notice, LateTile)
                    and notice.side == side
                    and (notice.square, notice.tile) in missed
                ):
                    raise _Announced(what)
        raise _Misscored(what)

    def _bag(self) -> None:
        ref, table = self.ref, self.table
        assert ref is not None
        if not ref.needs_return:
            return
        for t in ref.board.covered():
            self.sim.remove(UIDS[t])
        self.changed = self.now
        if not self.until(lambda: not table.game.needs_return, 5.0):
            table.on_press(ref.active, False, self.now)  # a player confirms it
        ref.return_covered()


def soak(
    games: int,
    *,
    seed: int = 0,
    faults: FaultModel | None = None,
    players: tuple[int, ...] = (2, 3, 4),
    hub: Hub = V1_HUB,
) -> SoakResult:
    """Plays `games` whole games (seeds seed, seed+1, ...), each with its own journal."""
    total = SoakResult()
    for n in range(games):
        with tempfile.TemporaryDirectory(prefix="soak-") as folder:
            family = Family(
                seed + n,
                faults or FaultModel.family(),
                players[n % len(players)],
                Path(folder),
                hub,
            )
            total.add(family.play())
    return total
