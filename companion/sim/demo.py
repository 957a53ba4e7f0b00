"""A whole game on the simulated table, played by bots, through the real daemon.

The bots live in a small model of the physical game around the board (the bag, the hands,
the common hand): they put tiles on the simulated table, wait for the displays like a
person would, and press their buttons (gpiozero's mock pins). The virtual hub reports the
table with realistic, seeded reader faults over a real pty to the daemon's own `HubLink`;
the daemon scores from what its readers saw. At the end the daemon's scores are checked
against the rules engine's score of what the bots really did.

Everything runs in simulated time (a sweep is 0.1 s), so a seed gives the same game every
run. Killed at any moment and started again with the same journal, the demo rebuilds the
world from the seed up to the last event in the journal (the daemon resumes the game from
the same journal) and finishes with the same final scores.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from companion.config import Config, GameConfig, PathsConfig
from companion.daemon import Devices
from companion.game.journal import Journal, JournalError
from companion.game.replay import games
from companion.show.i18n import Catalogue
from companion.show.words import notice_words
from companion.sim.bots import best_placement
from companion.sim.clock import SimClock
from companion.sim.devices import SimDevices
from companion.sim.family import DoublePress, Hold, Press, Situation, answer_questions
from engine import ALL_TILES, COMMON_SQUARES, Board, Game, Options, Placed, Placement, Tile
from hardware.hub.sim import FaultModel

SWEEP = 0.1  # simulated seconds per sweep of the readers
SEATS = {2: ("S", "N"), 3: ("S", "W", "N"), 4: ("S", "W", "N", "E")}  # clockwise from S
HAND = 4
MISTAKE_RATE = 0.08  # a bot first lays a wrong extra tile, then takes it back
UNDO_RATE = 0.04  # a player undoes the turn just played, then plays again
LONG_PRESS = 0.3  # the demo's long press (simulated seconds, like all of its time)
SHORT_PRESS = 0.2  # a short press, longer than the buttons' bounce time
TAKE_IN_STEPS = 50  # steps of at most 0.2 s of wall time each, waiting for a sweep's line
#: after a press, how long the players wait for the turn to be scored, answering what the
#: displays ask, before they give up on it (simulated seconds since the last answer)
ANSWER_SECONDS = 30.0
#: the notices that ask the player something their button answers
ASKING = ("Question", "SwapQuestion", "Unconfirmed", "NotScored")


@dataclass
class Hands:
    """The tiles off the board: the bag, each player's hand and the common hand."""

    bag: list[Tile]
    own: dict[str, list[Tile]]
    common: list[Tile] = field(default_factory=list)

    def copy(self) -> Hands:
        return Hands(list(self.bag), {s: list(h) for s, h in self.own.items()}, list(self.common))

    def refill(self, side: str) -> None:
        """The common hand first, then the player's own."""
        while len(self.common) < HAND and self.bag:
            self.common.append(self.bag.pop())
        while len(self.own[side]) < HAND and self.bag:
            self.own[side].append(self.bag.pop())

    def take(self, side: str, tile: Tile) -> None:
        (self.own[side] if tile in self.own[side] else self.common).remove(tile)


@dataclass
class Step:
    """One thing done at the table (the unit a killed demo resumes after)."""

    kind: str  # "start", "turn", "undo", "return"
    side: str | None = None
    placement: Placement = Placement()
    wrong: tuple[str, Tile] | None = None  # a mistaken extra tile, taken back before the press
    hands_before: Hands | None = None


class World:
    """The game as it really happens at the table: what the bots decide, from one seed.

    It never looks at the daemon: it keeps the true game with the engine (`truth`), so the
    daemon's scores can be checked against it."""

    def __init__(self, seed: int, players: tuple[str, ...], teams: bool, options: Options) -> None:
        self.rng = random.Random(f"world-{seed}")
        bag = list(ALL_TILES)
        self.rng.shuffle(bag)
        start = {sq: bag.pop() for sq in COMMON_SQUARES}
        self.start_board = Board({sq: [t] for sq, t in start.items()})
        self.hands = Hands(bag, {side: [] for side in players})
        for _ in range(HAND):
            self.hands.common.append(self.hands.bag.pop())
        for side in players:
            for _ in range(HAND):
                self.hands.own[side].append(self.hands.bag.pop())
        team_pairs = ((players[0], players[2]), (players[1], players[3])) if teams else None
        self.truth = Game(players, team_pairs, options, self.start_board)
        self.players = players
        self.last: Step | None = None

    def next_step(self) -> Step | None:
        """What happens next at the table (and the world changed accordingly)."""
        game = self.truth
        if game.finished:
            return None
        if game.needs_return:
            step = Step("return")
            returned = game.return_covered().returned
            self.hands.bag.extend(returned)
            self.rng.shuffle(self.hands.bag)
            for side in self.players:
                self.hands.refill(side)
            return self._done(step)
        last = self.last
        if (
            last is not None
            and last.kind == "turn"
            and last.placement
            and self.rng.random() < UNDO_RATE
        ):
            game.pop()
            assert last.hands_before is not None
            self.hands = last.hands_before
            return self._done(Step("undo", last.side, last.placement))
        side = game.active
        before = self.hands.copy()
        tiles = self.hands.own[side] + self.hands.common
        placement = best_placement(game, tiles, self.rng)
        if placement is None:
            game.swap()
            self._swap(side)
            return self._done(Step("turn", side, Placement(), hands_before=before))
        wrong = self._mistake(placement, tiles) if self.rng.random() < MISTAKE_RATE else None
        game.place(placement)
        for _, tile in placement:
            self.hands.take(side, tile)
        self.hands.refill(side)
        return self._done(Step("turn", side, placement, wrong, before))

    def _done(self, step: Step) -> Step:
        self.last = step
        return step

    def _swap(self, side: str) -> None:
        """Swaps up to 4 tiles of the own hand with the bag (draw first, then put back)."""
        hand = self.hands.own[side]
        count = min(len(hand), len(self.hands.bag), self.rng.randint(1, HAND))
        out = self.rng.sample(hand, count)
        for tile in out:
            hand.remove(tile)
            hand.append(self.hands.bag.pop())
        self.hands.bag.extend(out)
        self.rng.shuffle(self.hands.bag)

    def _mistake(self, placement: Placement, tiles: list[Tile]) -> tuple[str, Tile] | None:
        """An extra tile that makes the placement illegal, on a square not used by it."""
        game = self.truth
        used = {sq for sq, _ in placement}
        spare = [t for t in tiles if t not in {t for _, t in placement}]
        squares = sorted(game.seating.allowed(game.active, game.options.partner_squares) - used)
        for tile in self.rng.sample(spare, len(spare)):
            for square in self.rng.sample(squares, len(squares)):
                if not game.preview([*placement, (square, tile)]).legal:
                    return square, tile
        return None


@dataclass
class DemoResult:
    scores: dict[str, int]
    expected: dict[str, int]
    winner: str | None
    winner_team: int | None
    turns: int

    @property
    def matches(self) -> bool:
        return self.scores == self.expected


class Demo:
    """Plays one whole game through the daemon; `run()` returns its result."""

    def __init__(
        self,
        *,
        seed: int = 1,
        players: int = 2,
        teams: bool = False,
        fast: bool = True,
        frames: Path | None = None,
        journal: Path,
        faults: FaultModel | None = None,
        out: Callable[[str], None] = print,
        unplug_turn: int | None = -1,
    ) -> None:
        if players not in SEATS:
            raise ValueError("the demo plays with 2, 3 or 4 players")
        if teams and players != 4:
            raise ValueError("teams need 4 players")
        self.seed, self.fast, self.frames, self.out = seed, fast, frames, out
        self.players = SEATS[players]
        self.teams = teams
        self.clock = SimClock()
        rng = random.Random(f"demo-{seed}")
        # one turn of the game on which the hub's cable is pulled and plugged back
        self.unplug_turn = rng.randint(3, 12) if unplug_turn == -1 else unplug_turn
        journal = Path(journal)
        game = GameConfig(teams=teams, long_press=LONG_PRESS)
        self.config = Config(game=game, paths=PathsConfig(journal.parent, journal_file=journal))
        self.world = World(seed, self.players, teams, self.config.game.options)
        self.sim = SimDevices(
            self.config,
            faults=faults if faults is not None else FaultModel.realistic(),
            seed=seed,
            clock=self.clock,
            threaded=False,
            sides=self.players,
        )
        self.rig, self.pins = self.sim.rig, self.sim.pins
        self.devices: Devices = self.sim.devices
        self.daemon = self.sim.daemon()
        self.turn = 0
        self.frame = 0

    # -- the table ------------------------------------------------------------------------
    def sweep(self, count: int = 1) -> None:
        """`count` sweeps of the readers, each taken in by the daemon before the next: the
        real daemon's loop is faster than the hub, so it is never a sweep behind. (Stepping
        once per sweep was not enough: a step a press woke, or one whose line came a moment
        late on a busy machine, read nothing, and from then on every snapshot was taken in
        one sweep late, more with each such step; past 20 the link took the hub for silent.
        Which steps those were changed from run to run, and so did the game.)"""
        hub, link = self.rig.hub, self.devices.link
        for _ in range(count):
            self.clock.advance(SWEEP)
            listening = link.is_open  # a port opened later drops what waited on it
            if not self.rig.sweep():  # unplugged: no sweep, only time passes
                self.daemon.step(0.0)
            else:
                sent = hub.records[-1]
                wanted = listening and sent.delivered and not sent.corrupted
                self._take_in(sent.seq if wanted else None)
            if not self.fast:
                time.sleep(SWEEP)

    def _until(self, condition: Callable[[], bool]) -> None:
        """Steps the daemon, the simulated clock standing still, until `condition` holds
        (at most TAKE_IN_STEPS steps of 0.2 s of wall time)."""
        for _ in range(TAKE_IN_STEPS):
            if condition():
                return
            self.daemon.step(0.2)

    def _take_in(self, seq: int | None) -> None:
        """Steps the daemon until it has read the snapshot `seq` (None: one step, as a
        damaged line never comes); a line on an open port arrives within moments."""
        snapshot = self.daemon.step(0.2)
        for _ in range(TAKE_IN_STEPS):
            if seq is None or (snapshot is not None and snapshot.seq == seq):
                return
            snapshot = self.daemon.step(0.2)
        raise RuntimeError(f"the daemon never read the hub's sweep {seq}")

    def put(self, square: str, tile: Tile) -> None:
        self.rig.put(square, tile)
        self.sweep(3)

    def lift(self, square: str) -> None:
        self.rig.lift(square)
        self.sweep(1)

    def press(self, side: str, long: bool = False) -> None:
        self.sim.press(side, LONG_PRESS + 0.1 if long else SHORT_PRESS)
        self.sweep(1)

    def wait_for(self, condition: Callable[[], bool], seconds: float = 10.0) -> bool:
        """Sweeps until `condition` holds (as a player watches the displays), at most `seconds`."""
        waited = 0.0
        while not condition():
            if waited >= seconds:
                return False
            self.sweep(1)
            waited += SWEEP
        return True

    # -- the game -------------------------------------------------------------------------
    def run(self) -> DemoResult:
        try:
            done = self._resume()
            if done == 0:
                self._start()
            while self._play_one():
                pass
            return self._finish()
        finally:
            self.devices.close()

    def _resume(self) -> int:
        """Replays the world up to the journal's last event; how many events that was."""
        try:
            records = Journal(self.config.paths.journal).records()
            found = games(records)
        except JournalError:  # the daemon sets a damaged journal aside: a new game
            return 0
        if not found:
            return 0
        start = max(i for i, r in enumerate(records) if r.get("type") == "start")
        events = sum(1 for r in records[start:] if r.get("type") in ("turn", "undo", "return"))
        for _ in range(events):
            step = self.world.next_step()
            if step is None:
                break
            if step.kind == "turn":
                self.turn += 1
        # the table as it really is: the game's board (tiles of an unfinished turn went back)
        for square, stack in self.world.truth.board.to_mapping().items():
            for name in stack:
                self.rig.put(square, Tile.parse(name))
        self.sweep(10)
        self.out(f"resumed after {events} events from {self.config.paths.journal}")
        self._show_scores()
        return events + 1

    def _start(self) -> None:
        board = self.world.start_board
        for square in COMMON_SQUARES:
            tile = board.top(square)
            assert tile is not None
            self.put(square, tile)
        self.sweep(5)
        for side in self.players:
            self.press(side)
        self.press(self.players[0], long=True)
        if self.daemon.table.phase != "playing":
            raise RuntimeError("the daemon did not start the game")
        names = ", ".join(f"{self.name(s)} ({s})" for s in self.players)
        self.out(f"new game: {names}; start board {board.to_mapping()}")
        self._save_frames("start")

    def name(self, side: str) -> str:
        """A seat as the score chart and the displays name it: its colour, in the table's
        language (the seat's letter only in the "new game" line, to tell which is which)."""
        colour = self.daemon.table.colours[side]
        return Catalogue.load(self.daemon.config.game.language).colour(colour)

    def _play_one(self) -> bool:
        step = self.world.next_step()
        if step is None:
            return False
        if step.kind == "return":
            self._return_covered()
        elif step.kind == "undo":
            self._undo(step)
        else:
            self.turn += 1
            self._turn(step)
        return True

    def _turn(self, step: Step) -> None:
        side = step.side
        assert side is not None
        table = self.daemon.table
        unplug = self.turn == self.unplug_turn
        if step.wrong is not None:
            for square, tile in [*step.placement, step.wrong]:
                self.put(square, tile)
            laid = {*step.placement, step.wrong}
            self.wait_for(  # the display shows the three tiles, and that they are not legal
                lambda: (
                    set(table.tracker.placement) == laid
                    and table.preview() is not None
                    and not table.preview().legal
                )
            )
            self.press(side)
            self.wait_for(lambda: table.illegal is not None, 5.0)  # told once confirmed
            reason = table.illegal.illegal.code if table.illegal else "?"
            self.out(
                f"  {self.name(side)} lays {_names([*step.placement, step.wrong])}: "
                f"not legal ({reason}); takes the {step.wrong[1]} back"
            )
            self.lift(step.wrong[0])
        else:
            for n, (square, tile) in enumerate(step.placement):
                self.put(square, tile)
                if unplug and n == 0:
                    self._unplug_and_replug()
        if unplug and not step.placement:
            self._unplug_and_replug()
        placement = set(step.placement)
        self.wait_for(
            lambda: (
                set(table.tracker.placement) == placement
                and not table.tracker.blocking(self.clock())
            )
        )
        moves = len(table.game.moves)
        self.press(side)
        # a press the readers confirm first (up to about a second on tall stacks) ends the
        # turn by itself: watch the display for it and answer what it asks (the readers
        # cannot see everything: the family settles it), press again if nothing comes
        waited = 0.0
        while len(table.game.moves) <= moves and waited < ANSWER_SECONDS:
            if self._answer(side, step.placement):
                waited = 0.0
            elif waited >= 5.0 and round(waited / SWEEP) % 50 == 0:
                self.press(side)
            self.sweep(1)
            waited += SWEEP
        self._report(side, step)
        self._save_frames(f"turn{self.turn:03d}")

    def _answer(self, side: str, placement: Placement) -> bool:
        """One look at `side`'s display, as a family that reads docs/family.md: a
        question the daemon asks is answered from what lies on the table
        (`companion.sim.family.answer_questions`, its button gestures only). Whether
        something was answered."""
        table = self.daemon.table
        view = table.view(self.clock())
        asked = [n for n in view.notices if getattr(n, "side", None) == side]
        if not any(type(n).__name__ in ASKING for n in asked):
            return False
        where = {t: sq for sq, stack in self.rig.stacks().items() for t in stack}
        situation = Situation(view, side, tuple(placement), where=where)
        gestures = [
            a for a in answer_questions(situation) if isinstance(a, Press | DoublePress | Hold)
        ]
        texts = Catalogue.load("en")
        said = {Press: "presses once", DoublePress: "presses twice", Hold: "holds"}
        for gesture in gestures:
            for notice in asked:
                if type(notice).__name__ in ASKING:
                    words = notice_words(notice, texts, view)
                    asks = " ".join(w for w in (words.body, *words.answers) if w)
                    self.out(f"  {self.name(side)}'s display: {asks}")
                    break
            self.out(f"  {self.name(side)} {said[type(gesture)]}")
            self.press(gesture.side, long=isinstance(gesture, Hold))
            if isinstance(gesture, DoublePress):
                self.press(gesture.side)
        return bool(gestures)

    def _unplug_and_replug(self) -> None:
        self.out("  (the hub's cable is pulled out for 3 seconds and plugged back in)")
        self.rig.hub.unplug()
        # the port's hang-up reaches the daemon when the kernel says so, later on a busy
        # machine: it is taken in before the simulated time goes on, so the link's backoff
        # (on the simulated clock) and the sweeps it misses are the same in every run
        self._until(lambda: not self.devices.link.health.connected)
        self.sweep(30)
        self.rig.hub.replug()
        self.sweep(10)

    def _undo(self, step: Step) -> None:
        side = step.side
        assert side is not None
        self.press(side, long=True)
        self.out(
            f"  {self.name(side)} takes the turn back (long press) and lifts "
            f"{_names(step.placement)}"
        )
        for square, _ in reversed(step.placement):
            self.lift(square)
        table = self.daemon.table
        self.wait_for(
            lambda: not table.tracker.leaving and not table.tracker.blocking(self.clock())
        )
        self._show_scores()

    def _return_covered(self) -> None:
        self.out("  the bag is empty: the covered tiles go back into the bag")
        truth = self.rig.stacks()
        for stack in truth.values():
            for tile in stack[:-1]:
                self.rig.remove(tile)
        self.sweep(3)
        game = self.daemon.table.game
        if not self.wait_for(lambda: not game.needs_return, 5.0):
            self.press(self.players[0])  # the readers could not confirm it: a player does

    def _report(self, side: str, step: Step) -> None:
        game = self.daemon.table.game
        last = game.moves[-1] if game.moves else None
        if not step.placement:
            self.out(f"turn {self.turn}: {self.name(side)} swaps")
        elif isinstance(last, Placed):
            s = last.scoring
            bonus = "".join(f", bonus {self.name(o)} +{n}" for o, n in sorted(s.bonus.items()))
            sets = ", ".join(map(str, s.sets))
            self.out(
                f"turn {self.turn}: {self.name(side)} lays {_names(step.placement)}: "
                f"+{s.points} ({sets}){bonus}"
            )
        self._show_scores()

    def _show_scores(self) -> None:
        game = self.daemon.table.game
        if game is not None:
            self.out(
                "  scores "
                + "  ".join(f"{self.name(s)} {n}" for s, n in game.scores.items())
                + f"  (bag {game.bag})"
            )

    def _save_frames(self, label: str) -> None:
        if self.frames is None:
            return
        self.frames.mkdir(parents=True, exist_ok=True)
        for side, display in self.devices.presenter.displays.items():
            device = display.device
            if device is not None and getattr(device, "image", None) is not None:
                device.image.save(self.frames / f"{label}-{side}.png")

    def _finish(self) -> DemoResult:
        self.sweep(5)
        game = self.daemon.table.game
        truth = self.world.truth
        if game is None:
            raise RuntimeError("the daemon has no game at the end of the demo")
        ranking = game.ranking()
        self.out(
            "game over: "
            + ", ".join(
                f"{i}. {self.name(s)} {game.scores[s]}" for i, s in enumerate(ranking.order, 1)
            )
        )
        if game.teams is not None:
            self.out(
                f"winning team: {' and '.join(map(self.name, game.teams[ranking.winner_team]))}"
                if ranking.winner_team is not None
                else "no winning team"
            )
        else:
            self.out(
                f"winner: {self.name(ranking.winner)}"
                if ranking.winner
                else "no winner (an unbreakable tie)"
            )
        result = DemoResult(
            game.scores, truth.scores, ranking.winner, ranking.winner_team, self.turn
        )
        verdict = "match" if result.matches else f"DIFFER from the true scores {truth.scores}"
        self.out(f"check: the daemon's scores {verdict} the rules engine's for what was played")
        if self.daemon.chart is not None:
            self.out(f"score chart: {self.daemon.chart}")
        self._save_frames("over")
        return result


def _names(placement: Iterable[tuple[str, Tile]]) -> str:
    return ", ".join(f"{tile} on {square}" for square, tile in placement)
