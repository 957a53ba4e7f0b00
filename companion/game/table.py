"""The game controller: the lobby, turns, undo, the bag and the end, from snapshots,
button presses and time.

The daemon feeds it (`on_snapshot`, `on_health`, `on_press`, `tick`) and shows `view(now)`
and `take_sounds()`. It never reads a clock (the demo runs in simulated time) and never
touches a device. Every event that changes a game is written to the journal before the game
changes, so a restart replays the journal and shows the same game with the same scores.

Buttons (docs/daemon.md has the reasons):
- lobby: a short press joins (the first is the start player; pressing again leaves);
  a long press starts the game with two or more players (two teams for four players when
  the config says so: the join order alternates the teams);
- playing: a short press by the active seat ends the turn (no tiles: a swap); a short
  press by anyone while the bag clean-up is pending confirms the clean-up; a long press by
  any player undoes the last turn;
- game over: a short press opens a new lobby; a long press undoes the final turn.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from companion.board.problems import Problem
from companion.board.registry import Registry
from companion.board.tracker import Tracker
from companion.config import Config
from companion.game.journal import Journal, JournalError, games, start_record, turn_record
from companion.game.sounds import Sound
from companion.game.table_view import build_view
from companion.game.view import BonusAlert, IllegalMove, TableView, TurnResult, Undo
from engine import COLOURS, SIDES, Game, Illegal, Ranking, Scoring
from hardware.hub.snapshot import Snapshot

log = logging.getLogger("setup.table")

#: how long a bonus alert stays in the view (the screens flash it from its `since`).
ALERT_SECONDS = 8.0
#: how long the "turn taken back" and "covered tiles are back" banners stay.
BANNER_SECONDS = 5.0


class Table:
    """One table: at most one game at a time, rebuilt from the journal on start."""

    def __init__(self, config: Config, registry: Registry, journal: Journal, *, now: float) -> None:
        self.config = config
        self.registry = registry
        self.journal = journal
        self.tracker = Tracker(registry, config.hub.readers, config.tracker)
        self.phase = "lobby"
        self.game: Game | None = None
        self.colours: dict[str, str] = dict(config.colours)
        self.joined: list[str] = []
        #: why the journal could not be resumed (it was set aside), for the log and display.
        self.startup_error: str | None = None
        #: shown on the displays: the journal could not be written, or was set aside damaged
        self.journal_problem: str | None = None
        self._announced: list[tuple[Problem, float]] = []  # shown until a time
        self._sounds: list[Sound] = []
        self._alerts: list[BonusAlert] = []
        self._illegal: tuple[IllegalMove, int] | None = None  # notice, placement version
        self._undo: tuple[Undo, float] | None = None  # banner, until
        self._returned_until = -1.0
        self._problems: frozenset = frozenset()
        self._preview: tuple[tuple[int, int], Scoring | Illegal | None] | None = None
        self._resume(now)

    def __repr__(self) -> str:
        return f"<Table {self.phase} {self.game!r}>"

    # -- inputs ---------------------------------------------------------------------------
    def on_snapshot(self, snapshot: Snapshot, now: float) -> None:
        """One sweep of the readers."""
        self.tracker.update(snapshot, now)
        self._settle(now)

    def on_health(self, connected: bool, faulty_readers: Iterable[int], now: float) -> None:
        """The hub link's health: connected or not, and which readers report a fault."""
        self.tracker.set_health(connected, tuple(faulty_readers), now)
        self._settle(now)

    def on_press(self, seat: str, long: bool, now: float) -> None:
        """A button press on `seat` (N, E, S or W); `long` for a long press."""
        enabled = self.config.seats.get(seat)
        if seat not in SIDES or enabled is None or not enabled.enabled:
            log.warning("press from %r ignored: no such seat", seat)
            return
        if self.phase == "lobby" and long:
            self._start(seat, now)
        elif self.phase == "lobby":
            self._join(seat)
        elif long:  # playing or over: take the last turn back
            self._undo_turn(seat, now)
        elif self.phase == "playing":
            self._press_in_game(seat, now)
        else:
            self._new_game(now)
        self._settle(now)

    def tick(self, now: float) -> None:
        """Time passes: alerts and banners expire, a stable legal placement may end the turn."""
        self._alerts = [a for a in self._alerts if now - a.since < ALERT_SECONDS]
        if self._undo is not None and now >= self._undo[1]:
            self._undo = None
        wait = self.config.game.auto_end_seconds
        if wait > 0 and self.phase == "playing" and self._auto_end_due(now, wait):
            log.info("turn ended by itself after %.0f s of a stable legal placement", wait)
            self._end_turn(now)
        self._settle(now)

    # -- outputs --------------------------------------------------------------------------
    def take_sounds(self) -> list[Sound]:
        """The sound events since the last call, oldest first."""
        sounds, self._sounds = self._sounds, []
        return sounds

    def view(self, now: float) -> TableView:
        """Everything the displays show now."""
        return build_view(self, now)

    def preview(self) -> Scoring | Illegal | None:
        """What the current placement would score (None: nothing placed, or no game)."""
        if self.phase != "playing" or self.game is None:
            return None
        key = (self.tracker.version, len(self.game.moves))
        if self._preview is None or self._preview[0] != key:
            placement = self.tracker.placement
            result = self.game.preview(placement) if placement else None
            self._preview = (key, result)
        return self._preview[1]

    def announce(self, problem: Problem, now: float, seconds: float) -> None:
        """Shows `problem` on every display for `seconds` (something the daemon found that the
        players should know, such as a broken configuration file)."""
        self._announced.append((problem, now + seconds))

    def announced(self, now: float) -> tuple[Problem, ...]:
        self._announced = [(p, until) for p, until in self._announced if now < until]
        return tuple(p for p, _ in self._announced)

    @property
    def illegal(self) -> IllegalMove | None:
        """The illegal move shown since the last press, while the placement is unchanged."""
        return self._illegal[0] if self._illegal else None

    @property
    def undone(self) -> Undo | None:
        return self._undo[0] if self._undo else None

    @property
    def alerts(self) -> tuple[BonusAlert, ...]:
        return tuple(self._alerts)

    def returned_banner(self, now: float) -> bool:
        return now < self._returned_until

    # -- the lobby ------------------------------------------------------------------------
    def _join(self, seat: str) -> None:
        if seat in self.joined:
            self.joined.remove(seat)
            self._sound("leave", seat)
        elif len(self.joined) < len(SIDES):
            self.joined.append(seat)
            self._sound("join", seat)

    def lobby_teams(self) -> tuple[tuple[str, str], tuple[str, str]] | None:
        """Two teams when the config asks for them and four players joined."""
        j = self.joined
        if self.config.game.teams and len(j) == 4:
            return ((j[0], j[2]), (j[1], j[3]))
        return None

    def _start(self, seat: str, now: float) -> None:
        if seat not in self.joined:
            self._join(seat)
        if len(self.joined) < 2:
            log.info("a game needs at least two players")
            return self._sound("refused", seat)
        if self.tracker.blocking(now):
            log.info("not starting: the board has a problem %s", self.tracker.problems(now))
            return self._sound("refused", seat)
        game = Game(self.joined, self.lobby_teams(), self.config.game.options, self.tracker.board)
        colours = {side: self.colours[side] for side in SIDES}
        if not self._write(start_record(game, colours)):
            return self._sound("refused", seat)
        log.info("game started: %s, board %s", " ".join(game.players), game.board.to_mapping())
        self.game, self.phase, self.joined = game, "playing", []
        self._alerts, self._undo, self._illegal = [], None, None
        self.tracker.lobby = False
        self.tracker.rebase(game.board, now)
        self._sound("start")
        self._sync_cleanup(now, announce=True)  # a start board may already fill the bag

    # -- turns ----------------------------------------------------------------------------
    def _press_in_game(self, seat: str, now: float) -> None:
        game = self.game
        assert game is not None
        if seat not in game.players:
            log.info("%s pressed, but does not play", seat)
            return self._sound("not-your-turn", seat)
        if game.needs_return:
            return self._return_covered(now, seat)
        if seat != game.active:
            log.info("%s pressed, but it is %s's turn", seat, game.active)
            return self._sound("not-your-turn", seat)
        self._end_turn(now)

    def _end_turn(self, now: float) -> None:
        game = self.game
        assert game is not None
        side = game.active
        if self.tracker.blocking(now):
            log.info(
                "turn not ended: %s", self.tracker.problems(now) or "the readers are not ready"
            )
            return self._sound("refused", side)
        placement = self.tracker.placement
        if not placement:
            if not self._write(turn_record(side, ())):
                return self._sound("refused", side)
            game.swap()
            log.info("%s swaps", side)
            self._sound("swap", side)
        else:
            result = game.preview(placement)
            if isinstance(result, Illegal):
                log.info("%s: illegal placement %s", side, result)
                self._illegal = (IllegalMove(side, result), self.tracker.version)
                return self._sound("illegal", side)
            if not self._write(turn_record(side, placement, result)):
                return self._sound("refused", side)
            game.place(placement)
            self.tracker.commit(now)
            log.info("%s scores: %s", side, result)
            self._sound("score", side, result.points)
            for owner, points in sorted(result.bonus.items()):
                self._alerts.append(BonusAlert(owner, points, now))
                self._sound("bonus", owner, points)
        self._illegal = None
        self._after_move(now)

    def _after_move(self, now: float) -> None:
        game = self.game
        assert game is not None
        if game.finished:
            ranking = self._write_end()
            log.info("game over: %s", ranking)
            self.phase = "over"
            self.tracker.lobby = True
            return self._sound("game-over", ranking.winner)
        self._sync_cleanup(now, announce=True)

    def _auto_end_due(self, now: float, wait: float) -> bool:
        game = self.game
        if game is None or game.needs_return or self._illegal is not None:
            return False
        result = self.preview()
        return (
            isinstance(result, Scoring)
            and now - self.tracker.changed >= wait
            and not self.tracker.blocking(now)
        )

    # -- undo -----------------------------------------------------------------------------
    def _undo_turn(self, seat: str, now: float) -> None:
        game = self.game
        assert game is not None
        if seat not in game.players:
            return self._sound("refused", seat)
        if not game.moves:
            log.info("nothing to undo")
            return self._sound("refused", seat)
        if game.moves[-1].kind == "return":
            log.info("the covered tiles are back in the bag: that cannot be undone")
            return self._sound("refused", seat)
        if not self._write({"type": "undo", "side": game.moves[-1].side}):
            return self._sound("refused", seat)
        move = game.pop()
        log.info("%s undid the turn of %s (%s)", seat, move.side, move)
        self.phase = "playing"
        self.tracker.lobby = False
        self.tracker.rebase(game.board, now, leave=True)
        self._undo = (Undo(move.side or seat), now + BANNER_SECONDS)
        self._illegal = None
        self._sync_cleanup(now, announce=False)
        self._sound("undo", move.side)

    # -- the bag --------------------------------------------------------------------------
    def _sync_cleanup(self, now: float, *, announce: bool) -> None:
        """Watches the board for the clean-up while the game asks for it."""
        game = self.game
        if game is not None and game.needs_return and self.phase == "playing":
            if not self.tracker.cleaning:
                self.tracker.start_cleanup(now)
                if announce:
                    self._sound("bag-empty")
        elif self.tracker.cleaning:
            self.tracker.stop_cleanup()

    def _return_covered(self, now: float, seat: str | None) -> None:
        game = self.game
        assert game is not None
        covered = game.board.covered()
        record = {"type": "return", "tiles": sorted(map(str, covered))}
        if not self._write(record):
            return self._sound("refused", seat)
        game.return_covered()
        how = f"confirmed by {seat}" if seat else "seen by the readers"
        log.info("%d covered tiles back in the bag (%s)", len(covered), how)
        self.tracker.rebase(game.board, now)
        self._returned_until = now + BANNER_SECONDS
        self._sound("returned")

    # -- game over ------------------------------------------------------------------------
    def _new_game(self, now: float) -> None:
        self._write({"type": "new"})
        try:
            archived = self.journal.archive()
        except OSError as exc:  # the "new" record already closes the game
            log.error("cannot archive the journal: %s", exc)
        else:
            log.info("finished game archived as %s", archived)
        self.phase, self.game, self.joined = "lobby", None, []
        self._alerts, self._undo, self._illegal = [], None, None
        self.colours = dict(self.config.colours)
        self.tracker.lobby = True
        self._sound("new-game")

    # -- plumbing -------------------------------------------------------------------------
    def _settle(self, now: float) -> None:
        """After any input: the clean-up seen done, the illegal notice outdated, new problems."""
        if self._illegal is not None and self._illegal[1] != self.tracker.version:
            self._illegal = None
        game = self.game
        playing = self.phase == "playing" and game is not None
        if playing and game.needs_return and self.tracker.cleanup_done:
            self._return_covered(now, None)
        # a tile to take off after an undo is announced by the undo itself
        problems = frozenset(p for p in self.tracker.problems(now) if p.code != "take-off")
        if problems - self._problems:
            log.warning(
                "board problems: %s", ", ".join(sorted(map(str, problems - self._problems)))
            )
            self._sound("problem")
        self._problems = problems

    def _write(self, record: dict) -> bool:
        """Journals one event; False (and nothing changes) if the card cannot be written."""
        try:
            self.journal.append(record)
        except (OSError, JournalError) as exc:
            log.error("cannot write the journal %s: %s", self.journal.path, exc)
            self.journal_problem = "journal-unwritable"
            return False
        self.journal_problem = None  # written: also ends a "damaged" notice (a game started)
        return True

    def _write_end(self) -> Ranking:
        game = self.game
        assert game is not None
        ranking = game.ranking()
        self._write({"type": "end", "ranking": list(ranking.order), "scores": game.scores})
        return ranking

    def _sound(self, kind: str, side: str | None = None, points: int = 0) -> None:
        self._sounds.append(Sound(kind, side, points))

    def _resume(self, now: float) -> None:
        try:
            records = self.journal.records()
            found = games(records)
        except JournalError as exc:
            self.startup_error = str(exc)
            self.journal_problem = "journal-damaged"
            log.error("%s", exc)
            try:
                aside = self.journal.archive("damaged-")
                log.error("the damaged journal was kept as %s; starting afresh", aside)
            except OSError as move_error:
                log.error("cannot set the damaged journal aside: %s", move_error)
            return
        if self.journal.torn:
            log.warning(
                "journal %s: %s (a power cut while writing)", self.journal.path, self.journal.torn
            )
        if not found or found[-1].closed:
            return
        current = found[-1]
        self.game = current.game
        colours = current.start.get("colours") or {}
        if isinstance(colours, dict) and all(colours.get(s) in COLOURS for s in SIDES):
            self.colours = {s: colours[s] for s in SIDES}
        self.phase = "over" if self.game.finished else "playing"
        if self.game.finished and records[-1].get("type") != "end":
            self._write_end()  # the power went out between the last turn and its end record
        self.tracker.lobby = self.phase == "over"
        self.tracker.rebase(self.game.board, now)
        self._sync_cleanup(now, announce=False)
        log.info("resumed %r from %s", self.game, self.journal.path)

    def last_turn(self) -> TurnResult | None:
        """The latest turn of the game (a bag return is not a turn)."""
        if self.game is None:
            return None
        for move in reversed(self.game.moves):
            if move.kind == "place" and move.scoring is not None:
                return TurnResult.from_scoring(move.scoring)
            if move.kind == "swap" and move.side is not None:
                return TurnResult.swap(move.side)
        return None
