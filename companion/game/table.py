"""The game controller: the lobby, turns, undo, the bag and the end, from snapshots,
button presses and time.

The daemon feeds it (`on_snapshot`, `on_health`, `on_press`, `tick`) and shows `view(now)`
and `take_sounds()`. It never reads a clock (the demo runs in simulated time) and never
touches a device. Every event that changes a game is written to the journal before the game
changes, so a restart replays the journal and shows the same game with the same scores.

Buttons (docs/daemon.md has the reasons):
- lobby: a short press joins (the first is the start player; pressing again leaves);
  a long press starts the game with two or more players (two teams for four players when
  the config says so: the join order alternates the teams), once a start tile is seen on
  every common square;
- playing: a short press by the active seat ends the turn (no tiles: a swap) when the
  readers support the placement, or else says on that seat's display what to do and ends
  the turn by itself as soon as they do; a short press by anyone while the bag clean-up is
  pending confirms the clean-up; a long press by any player undoes the last turn;
- game over: a short press opens a new lobby once the ranking has been shown for
  OVER_PAUSE_SECONDS; a long press undoes the final turn.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable

from companion.board.problems import Problem, ProblemCode
from companion.board.registry import Registry
from companion.board.tracker import Tracker
from companion.board.word import PAGE, Said, Word
from companion.config import Config
from companion.game.amend import Amendment, amended
from companion.game.archive import prune
from companion.game.history import last_game
from companion.game.journal import (
    Journal,
    JournalError,
    amend_record,
    end_record,
    new_record,
    return_record,
    start_record,
    stop_record,
    turn_record,
    undo_record,
    word_record,
)
from companion.game.late import LateTile, LateWatch
from companion.game.notices import NoticeBoard
from companion.game.replay import lobby_words, resume
from companion.game.sounds import Sound, SoundEvent
from companion.game.table_view import game_result, last_turn
from companion.game.view import (
    ALERT_SECONDS,
    DOUBLE_SECONDS,
    BagEmpty,
    BonusAlert,
    Correction,
    GameResult,
    IllegalMove,
    Lobby,
    Notice,
    NotScored,
    Phase,
    Preview,
    Question,
    Reply,
    SeatView,
    ShowFirst,
    SwapQuestion,
    TableView,
    TurnResult,
    Unconfirmed,
    Undo,
    UndoHint,
    Unsure,
)
from companion.settings import RULES, Settings
from engine import COLOURS, COMMON_SQUARES, SIDES, SQUARES, Game, Illegal, Ranking, Scoring, Tile
from engine.geometry import DEFAULT_LINES
from hardware.hub.snapshot import Snapshot
from hardware.log_limit import LogLimiter

log = logging.getLogger("setup.table")

#: how long the "turn taken back" and "covered tiles are back" banners stay.
BANNER_SECONDS = 5.0
#: how long "hold to undo" shows after each turn
UNDO_HINT_SECONDS = 5.0
#: how long the displays say that turns of a damaged journal could not be read.
LOST_SECONDS = 60.0
#: a start refused for what the readers see is explained on the presser's display this long
#: (or until the board changes).
START_NOTICE_SECONDS = 10.0
#: after the final turn the ranking stays at least this long: a short press before that (the
#: player pressing again to be sure) does not open a new lobby.
OVER_PAUSE_SECONDS = 10.0
#: a player whose held press ended the turn by itself may press again to be sure: for this
#: long, that seat's short press does not confirm the bag clean-up the turn may have opened.
ECHO_SECONDS = 8.0
#: the "problem" sound plays for a problem (or a held press's doubt) that has lasted this
#: long, and at most once per PROBLEM_SOUND_GAP (three times a minute).
PROBLEM_SOUND_AFTER = 1.0
PROBLEM_SOUND_GAP = 20.0
#: a press is confirmed by the readings after it (`Tracker.confirm`: 0.1 s to about 1.3 s,
#: by how tall the stacks are) unless the last sweep read every stack exactly as believed:
#: a tile laid just before the press and missed while it was put down may show in them.
#: The held press says at once what stood in its way when pressed; a doubt that arises
#: while it is confirmed (a tall stack's top unseen a moment, a square quiet for a second)
#: is shown once it has lasted DOUBT_SHOWN_AFTER: most such states end within a few sweeps.
DOUBT_SHOWN_AFTER = 0.5
#: a press held this long for a doubt the family can settle (a tile of the placement the
#: readers do not confirm, a square that does not answer) asks the presser a `Question`
#: instead: by then the readers have had some thirty sweeps and the family a glance to lay
#: the tile flat; what they still do not see, they may never see (a tall stack, a silent
#: reader), and a family waiting longer gives up and presses anyway (issue 25).
QUESTION_AFTER = 3.0
#: ... and once the readers have swept this often since (a hub whose lines stall, on a busy
#: Pi, has not had its chance to confirm)
QUESTION_SWEEPS = 10
#: a press this soon after a start question went from its display answered it, late: it
#: neither joins nor leaves (a family's reaction time, 0.3 to 3 s)
ANSWER_GRACE = 3.0
#: a start refused for what the family can settle asks the starter this long
START_QUESTION_SECONDS = 30.0
#: the squares whose readers may see a square's tiles (its neighbours on the grid)
NEXT_TO: dict[str, tuple[str, ...]] = {
    square: tuple(
        sorted(
            {b for a, b in DEFAULT_LINES if a == square}
            | {a for a, b in DEFAULT_LINES if b == square}
        )
    )
    for square in SQUARES
}
#: how a question about a tile of the turn is answered: a press (there), two (not there), a
#: hold (in a hand)
ANSWERS_IN_GAME = (Reply.THERE, Reply.WITHOUT, Reply.HAND)
#: a tile of this turn in doubt (seen once, or only while laid) this long is said to be
#: unconfirmed on its player's display (`Unconfirmed`)
UNCONFIRMED_AFTER = 1.0
#: a tile the preview shows as having no place (the placement "not legal" with it) this
#: long, read there all the while, has been seen so by its player: taken back, it went to
#: the hand (a tile shown to a reader is held there 0.5 to 2 s)
TOLD_AFTER = 2.5
FRESH_SECONDS = 0.5


class Table:
    """One table: at most one game at a time, rebuilt from the journal on start."""

    def __init__(self, config: Config, registry: Registry, journal: Journal, *, now: float) -> None:
        self.config = config
        self.registry = registry
        self.journal = journal
        self.tracker = Tracker(registry, config.hub.readers, config.tracker)
        self.game: Game | None = None
        self.colours: dict[str, str] = dict(config.colours)
        self.joined: list[str] = []
        #: why the journal could not be resumed (it was set aside), for the log and display.
        self.startup_error: str | None = None
        #: shown on the displays: the journal could not be written, or was set aside damaged
        self.journal_problem: str | None = None
        self.notices = NoticeBoard()
        self._sounds: list[Sound] = []
        #: a press that waits for the readers: (side, the placement's tiles when pressed)
        self._held: tuple[str, frozenset[Tile]] | None = None
        self._held_since = now  # when the held press was made
        self._held_sweeps = 0  # ... and the readers' sweeps by then
        self._held_where: dict[Tile, str] = {}  # the placement pressed: each tile's square
        #: what the held press asks its player now (None: nothing, or only "lay it flat")
        self._asked: Question | None = None
        #: a short press answering a question: the first of two ("without it") or, if no
        #: second follows within DOUBLE_SECONDS, "it is there"
        self._first_answer: tuple[Question, float] | None = None
        #: tiles of this turn a refused press named as having no place ("not legal"): the
        #: family takes such a tile back into the hand, it is not laid where nobody sees
        self._told: dict[Tile, str] = {}  # ... and the square it lay on when told
        self._unwanted_since: dict[Tile, float] = {}  # shown as having no place, since when
        self._unconfirmed_since: dict[Tile, float] = {}  # a tile of the turn in doubt, since
        #: ... and of those, the ones still believed where they were after the player pressed
        #: again: taken back from a square the readers cannot see, or not? (asked)
        self._told_pressed: set[Tile] = set()
        #: squares the family said a tile of this turn does not lie on (a question's "not
        #: there"): a tile shown and gone is not asked about those again
        self._not_on: dict[Tile, set[str]] = {}
        self._in_hands: set[Tile] = set()  # ... nor about one said to be in a hand
        #: a scored turn the readers prove wrong: shown on every display until confirmed
        self._correction: tuple[Correction, Amendment] | None = None
        self._corrections_heard: set[Correction] = set()  # those the sound was played for
        # a press on the correction shown, waiting DOUBLE_SECONDS for a second (a refusal)
        self._correction_press: tuple[str, Correction, float] | None = None
        #: the placement the illegal move shown is about (it goes once that changes)
        self._illegal_for: tuple[tuple[str, Tile], ...] | None = None
        #: a press with no tile seen laid while squares the player may lay on are dark:
        #: a swap? (`SwapQuestion`)
        self._swap: SwapQuestion | None = None
        self._swap_said: str | None = None  # the side whose swap the family confirmed
        self._laid_unseen: str | None = None  # ... or who said tiles were laid unseen
        #: who was last shown a start question, and when (`_lately_asked`)
        self._start_asked: tuple[str, float] | None = None
        #: starts refused for doubts, each within START_NOTICE_SECONDS of the one before:
        #: (who pressed last, when the first was refused, when the last was)
        self._start_refused: tuple[str, float, float] | None = None
        self._over_since: float | None = None
        self._ended_by_itself: tuple[str, float] | None = None  # (side, when) of a held press
        self._problem_since: dict[Problem, float] = {}  # current problems, since when
        self._doubt_since: dict[Problem, float] = {}  # a held press's doubts, since when
        self._confirmed_for: tuple = ()  # the placement the held press was last confirmed for
        self._late: LateWatch | None = None  # the last turn, while a tile it missed may show
        self._late_told: frozenset[Tile] = frozenset()  # ... the tiles it was asked about
        self._sounded: set[Problem] = set()  # those the "problem" sound was played for
        self._last_problem_sound = float("-inf")
        self._preview: tuple[tuple[int, int], Scoring | Illegal | None] | None = None
        self._hinted_turn: TurnResult | None = None  # the last turn the undo hint was for
        self._hint_until = float("-inf")
        #: when a seat's button was last pressed (the daemon tells of every press, whatever
        #: it was for): the lobby's pages start again from "press to join"
        self.last_press = now
        self._last_game: GameResult | None = None  # the archive's latest, read once per lobby
        # a full card refuses every press: logged a few times a minute, in the inputs' time
        self._now = now
        self._write_log = LogLimiter(log, clock=lambda: self._now)
        self._resume(now)
        if self.game is None:
            self._last_game = last_game(self.journal.path)
        self._settle(now)

    def __repr__(self) -> str:
        return f"<Table {self.phase} {self.game!r}>"

    @property
    def phase(self) -> Phase:
        """The lobby (no game), playing, or over (the game is finished)."""
        game = self.game
        return Phase.LOBBY if game is None else Phase.OVER if game.finished else Phase.PLAYING

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
        phase = self.phase
        said = self.notices.latest(NotScored, now, self.tracker.version)
        if isinstance(said, NotScored) and said.side == seat:  # said until their next press
            self.notices.withdraw(NotScored)
        if phase == Phase.LOBBY and long:
            self._start(seat, now)
        elif phase == Phase.LOBBY:
            if self._answer(seat, now, self._start_question(now)):
                pass  # the start question answered
            elif self._lately_asked(seat, now):
                # its answer, just after the question went (settled by the readers, or
                # answered by another press): never a leave by mistake
                log.info("%s pressed just after the start question went: no join, no leave", seat)
                self._sound(SoundEvent.REFUSED, seat)
            else:
                self._join(seat)
        elif long and phase == Phase.PLAYING and self._in_hand(seat, now):
            pass  # a where-question answered: that tile is in a hand
        elif long and phase == Phase.PLAYING and self._swap_laid(seat, now):
            pass  # "a swap?" answered: no, tiles were laid unseen
        elif long:  # playing or over: take the last turn back
            self._undo_turn(seat, now)
        elif phase == Phase.PLAYING and self._correction is not None and not self._ends_turn(seat):
            self._press_correction(seat, now)  # a correction on every display: the answer
        elif phase == Phase.PLAYING:
            if self._answer_swap(seat, now):
                pass  # "a swap?" answered: yes
            elif not self._answer(seat, now):  # a question on its display: the answer
                self._press_in_game(seat, now)
        elif self._over_since is not None and now - self._over_since < OVER_PAUSE_SECONDS:
            log.info("%s pressed while the ranking is shown: press again later", seat)
            self._sound(SoundEvent.REFUSED, seat)
        else:
            self._new_game(now)
        self._settle(now)

    def take_word(self, word: Word, now: float) -> str | None:
        """The family's word about a tile the readers cannot vouch for (a seat's answer to a
        question, or a paired page's correction): journalled, then taken over the readers'
        evidence (`Tracker.settle`). None when taken, else why not: a sentence key of the
        displays' catalogue (`word.<why>`)."""
        why = self._take_word(word, now)
        self._settle(now)
        return why

    def _take_word(self, word: Word, now: float) -> str | None:
        why = self._word_refused(word)
        if why is not None:
            log.info("the family's word not taken (%s): %s", why, word)
            return f"word.{why}"
        if not self._write(word_record(word, now)):
            return "word.unsaved"
        log.info("the family's word: %s", word)
        if word.said == Said.ABSENT:
            self._not_on.setdefault(word.tile, set()).add(word.square)
        else:  # said to lie there: "not legal" stands or falls with it, not asked again
            self._told.pop(word.tile, None)
            self._told_pressed.discard(word.tile)
        held = self._held
        if held is not None and word.said == Said.ABSENT and word.tile in held[1]:
            # "score without it": the press stands for the rest of its placement
            self._held = (held[0], held[1] - {word.tile})
        self.tracker.settle(word, now)
        return None

    # -- corrections ----------------------------------------------------------------------
    def _follow_corrections(self, now: float) -> None:
        """A scored tile the readers consistently see elsewhere: its turn, scored again with
        the tile where it lies, is shown on every display until a player confirms it; it is
        withdrawn when the evidence goes (the tile put back where it was scored)."""
        game = self.game
        misplaced = dict(self.tracker.misplaced) if self.phase == Phase.PLAYING else {}
        pending = self._correction
        if pending is not None:
            shown = pending[0]
            if misplaced.get(shown.tile) == shown.squares[1] and game is not None:
                return
            log.info("the correction of turn %d is withdrawn: %s", shown.turn, "no longer seen")
            self._correction = None
        if game is None:
            return
        for tile, there in misplaced.items():
            amendment = amended(game, tile, there)
            if amendment is None:
                # no turn can be scored with it there (a start tile, or the rules forbid
                # it): the game keeps it where it lies, and nobody is asked to clear what
                # they cannot (its reader blind under a tall stack, crosstalk next door)
                log.info("%s seen on %s, where no turn can have laid it: crosstalk", tile, there)
                self.tracker.keep(tile)
                continue
            notice = Correction(
                amendment.turn,
                amendment.side,
                tile,
                amendment.squares,
                amendment.before.points,
                amendment.after.points,
            )
            log.warning(
                "turn %d of %s scored %s on %s, but it lies on %s: +%d, not +%d (to confirm)",
                notice.turn,
                notice.side,
                tile,
                notice.squares[0],
                there,
                notice.after,
                notice.before,
            )
            self._correction = (notice, amendment)
            if notice not in self._corrections_heard:  # once a correction, however it flickers
                self._corrections_heard.add(notice)
                self._sound(SoundEvent.PROBLEM)
            return

    def _ends_turn(self, seat: str) -> bool:
        """The press of the player to move, with tiles laid this turn, ends the turn even
        while a correction is shown (another player answers it): a player who laid tiles
        presses to end the turn without reading what the other displays say, and such a
        press took as "correct" a correction the readers' crosstalk made (TUNE everything
        tables: 4 of 9 misscores)."""
        game = self.game
        return game is not None and seat == game.active and bool(self.tracker.placement)

    def _press_correction(self, seat: str, now: float) -> None:
        """A press while a correction is shown: once, it is confirmed (after DOUBLE_SECONDS
        without a second); twice, it is refused: the tile lies where its turn scored it, and
        the game keeps it there whatever the readers show elsewhere (crosstalk next door that
        nothing on the table stops would otherwise offer it, and hold every press, for good)."""
        assert self._correction is not None
        game = self.game
        if game is None or seat not in game.players:
            return self._sound(SoundEvent.NOT_YOUR_TURN, seat)
        shown = self._correction[0]
        first = self._correction_press
        if first is not None and first[:2] == (seat, shown) and now - first[2] <= DOUBLE_SECONDS:
            self._correction_press = None
            self._correction = None
            log.info(
                "%s refused the correction of turn %d: %s lies on %s, where it was scored",
                seat,
                shown.turn,
                shown.tile,
                shown.squares[0],
            )
            self.tracker.keep(shown.tile)
            return
        self._correction_press = (seat, shown, now)

    def _follow_correction_press(self, now: float) -> None:
        """A single press on the correction shown confirms it once no second came."""
        first = self._correction_press
        if first is None or now - first[2] <= DOUBLE_SECONDS:
            return
        self._correction_press = None
        seat, shown, _ = first
        if self._correction is None or self._correction[0] != shown:
            log.info("%s's press on a correction no longer shown: nothing done", seat)
            return self._sound(SoundEvent.REFUSED, seat)
        why = self._apply_correction(seat, now)
        if why is not None:
            log.info("the correction not confirmed by %s: %s", seat, why)
            self._sound(SoundEvent.REFUSED, seat)

    def confirm_correction(
        self, by: str, now: float, shown: Correction | None = None
    ) -> str | None:
        """The correction on every display confirmed by `by`, a player or a paired page
        ("page"), as a player's press confirms it. `shown`: the correction the page showed;
        it is confirmed only if it is still the one pending (a page may be a moment late,
        and must never apply another). None when applied, else why not: a sentence key of
        the displays' catalogue (`correction.<why>`)."""
        pending = self._correction
        if self.phase != Phase.PLAYING or pending is None:
            why: str | None = "correction.none"
        elif shown is not None and shown != pending[0]:
            why = "correction.changed"
        else:
            why = self._apply_correction(by, now)
        if why is not None:
            log.info("the correction not confirmed by %s: %s", by, why)
        self._settle(now)
        return why

    def _apply_correction(self, by: str, now: float) -> str | None:
        """A player (or a paired page) confirmed the correction shown: journalled, then the
        game is the amended one (every later move played again on it). None, or why not."""
        game = self.game
        assert game is not None and self._correction is not None
        if by != PAGE and by not in game.players:
            return "correction.not-seated"
        notice, amendment = self._correction
        if not self._write(amend_record(amendment, by)):
            return "correction.unsaved"
        log.info("%s confirmed the correction of turn %d", by, notice.turn)
        self._correction = None
        self._held = None
        self.tracker.confirmed()
        self.game = amendment.game
        self._late = None
        self.notices.withdraw(LateTile, IllegalMove, NotScored)
        self.tracker.rebase(self.game.board, now)
        done = dataclasses.replace(notice, applied=True)
        self.notices.post(done, until=now + BANNER_SECONDS, alone=True)
        self._sound(SoundEvent.SCORE, notice.side, notice.after)
        self._after_move(now)
        return None

    # -- questions ------------------------------------------------------------------------
    def _question(self, side: str, doubt: Problem, lobby: bool = False) -> Question | None:
        """What the family can settle of `doubt`, asked of `side`: is this tile of the
        placement there (a press), or what lies on a square that does not answer; in the
        lobby, the start board's tile ("hold: it is there, start")."""
        tile, square = doubt.tile, doubt.square
        if square is None:
            return None
        if doubt.code in (ProblemCode.LAY_FLAT, ProblemCode.SEEN_ELSEWHERE) and tile is not None:
            # asked about the square the placement has it on (seen elsewhere: over another)
            square = next((sq for sq, t in self.tracker.placement if t == tile), square)
            # (in a game, a long press says it is in a hand: never an undo by mistake)
            replies = (Reply.START, Reply.WITHOUT) if lobby else ANSWERS_IN_GAME
            return Question(side, square, tile, replies)
        return None

    def take_in_hand(self, tile: Tile, by: str, now: float) -> str | None:
        """A paired page's answer to the question its player's display asks about `tile`:
        it is in a hand, on no square (as the hold at the table, `Reply.HAND`). None when
        taken, else why not: a catalogue key (`word.<why>`)."""
        asked = self._asked
        if asked is None or asked.tile != tile or Reply.HAND not in asked.answers:
            log.info("%s says %s is in a hand, but no display asks about it", by, tile)
            return "word.not-asked"
        why = self._take_word(Word(Said.ABSENT, asked.square, tile, by), now)
        if why is None:
            log.info("%s says %s is in a hand", by, tile)
            self._first_answer = None
            self._in_hands.add(tile)
        self._settle(now)
        return why

    def _in_hand(self, seat: str, now: float) -> bool:
        """A long press of `seat` while its display asks about a tile of the turn
        (`Reply.HAND`): it is in a hand, on no square; asked about no more. False: no
        such question (the long press is an undo)."""
        asked = self._asked
        if asked is None or asked.side != seat or Reply.HAND not in asked.answers:
            return False
        assert asked.tile is not None
        log.info("%s says %s is in a hand", seat, asked.tile)
        self._first_answer = None
        self._reply(asked, Reply.WITHOUT, now)  # journalled: not on the square asked about
        self._in_hands.add(asked.tile)
        return True

    def _start_question(self, now: float) -> Question | None:
        """The question the starter's display asks about the start board, if any: until
        answered, or until the readers settle it themselves (the tile read on its square
        again, no doubt left about it)."""
        asked = self.notices.latest(Question, now, self.tracker.version)
        if not isinstance(asked, Question) or Reply.START not in asked.answers:
            return None
        tracker = self.tracker
        if asked.tile in tracker.board.stack(asked.square) and not any(
            d.square == asked.square for d in tracker.doubts(now)
        ):
            self.notices.withdraw(Question)
            return None
        return asked

    def _answer(self, seat: str, now: float, asked: Question | None = None) -> bool:
        """A short press of `seat` while its display asks a question (`asked`: in the
        lobby, the start board's): its answer (the first of two presses waits
        DOUBLE_SECONDS for the second). False: no question to answer."""
        first = self._first_answer
        if first is not None and first[0].side == seat and now - first[1] <= DOUBLE_SECONDS:
            self._first_answer = None
            if Reply.START in first[0].answers:
                self.notices.withdraw(Question)
            self._reply(first[0], Reply.WITHOUT, now)
            return True
        asked = asked or self._asked
        if asked is None or asked.side != seat:
            return False
        if Reply.WITHOUT in asked.answers:
            self._first_answer = (asked, now)
            return True
        return False

    def _answer_swap(self, seat: str, now: float) -> bool:
        """A short press of `seat` while its display asks whether its press was a swap: it
        was (the turn ends so). False: no such question."""
        asked = self._swap
        if asked is None or asked.side != seat:
            return False
        log.info("%s says it was a swap", seat)
        self._swap = None
        self._swap_said = seat
        self._end_turn(now)  # the readers confirmed the press before it asked
        game = self.game
        if game is not None and game.active == seat and self._held is None:
            self._end_turn(now, pressed=True)  # the board changed meanwhile: held for it
        return True

    def _swap_laid(self, seat: str, now: float) -> bool:
        """A long press of `seat` while its display asks whether its press was a swap:
        tiles were laid that the readers did not see. The press does not stand; the
        display says to show each one (`NotScored` "unseen", until the next press).
        False: no such question (the long press is an undo)."""
        asked = self._swap
        if asked is None or asked.side != seat:
            return False
        log.info("%s says tiles were laid, not seen: not a swap", seat)
        self._swap = None
        self._laid_unseen = seat  # a tile now shown over any square is one of them
        self.notices.post(NotScored(seat, "unseen"), alone=True)
        self._sound(SoundEvent.REFUSED, seat)
        return True

    def _follow_swap(self, now: float) -> None:
        """The swap question stands while its player is to move and nothing shows laid; a
        tile that shows meanwhile makes it the press it was (held for that placement)."""
        asked = self._swap
        if asked is None:
            return
        game = self.game
        if self.phase != Phase.PLAYING or game is None or game.active != asked.side:
            self._swap = None
            return
        if self.tracker.placement:
            log.info("a tile showed while %s was asked about a swap: the press stands", asked.side)
            self._swap = None
            self._end_turn(now, pressed=True)

    def _reply(self, asked: Question, reply: Reply, now: float, tile: Tile | None = None) -> None:
        """`asked`, answered `reply`: the family's word it stands for, taken."""
        tile = tile or asked.tile or self.tracker.board.top(asked.square)
        if tile is None:
            return self._sound(SoundEvent.REFUSED, asked.side)
        said = Said.ABSENT if reply == Reply.WITHOUT else Said.LAID
        log.info("%s answers %s about %s on %s", asked.side, reply, tile, asked.square)
        if self._take_word(Word(said, asked.square, tile, asked.side), now) is not None:
            self._sound(SoundEvent.REFUSED, asked.side)

    def _follow_start_doubt(self, now: float) -> None:
        """Starts refused for doubts that still stand QUESTION_AFTER after the first of them
        ask the starter (until answered, or for START_QUESTION_SECONDS), whichever tile each
        named: a reader that falls silent after every change makes each laying again of a
        tile a new doubt, of that tile or of the next one laid again (TUNE silent table 66).
        A "lay it flat" the readers have settled meanwhile goes from the display."""
        refused = self._start_refused
        if refused is None:
            return
        seat, since, last = refused
        if self.phase != Phase.LOBBY or now - last > START_NOTICE_SECONDS:
            self._start_refused = None
            return
        doubts = self.tracker.doubts(now)
        told = self.notices.latest(Unsure, now, self.tracker.version)
        if (
            isinstance(told, Unsure)
            and told.doubt.code != ProblemCode.START_EMPTY  # (the table's, not a doubt)
            and told.doubt not in doubts
        ):
            self.notices.withdraw(Unsure)
        if doubts and now - since >= QUESTION_AFTER and self._ask_start(seat, doubts[0], now):
            self._start_refused = None

    def _ask_start(self, seat: str, doubt: Problem, now: float) -> bool:
        """Asks `seat` about `doubt` of the start board; False if the family cannot settle it
        (a problem stands, or no question settles this doubt)."""
        asked = self._question(seat, doubt, lobby=True)
        if asked is None or self.tracker.problems(now):
            return False
        self.notices.withdraw(Unsure)
        self.notices.post(asked, until=now + START_QUESTION_SECONDS, alone=True)
        return True

    def _follow_questions(self, now: float) -> None:
        """What the held press asks now; a single press's answer once no second came."""
        first = self._first_answer
        if first is not None and now - first[1] > DOUBLE_SECONDS:
            self._first_answer = None
            asked = first[0]
            if Reply.START in asked.answers:  # "it is there, start": the start goes on
                self.notices.withdraw(Question)
                self._reply(asked, Reply.START, now)
                self._start(asked.side, now)
            else:
                self._reply(asked, Reply.THERE, now)
        self._follow_start_doubt(now)
        if self.phase == Phase.LOBBY and (shown := self._start_question(now)) is not None:
            self._start_asked = (shown.side, now)
        held = self._held_notice(now)
        asked = held if isinstance(held, Question) and not held.pressed else None
        if isinstance(held, Question) and held.pressed:
            return  # the first press of an answer: its question stands as it was asked
        self._asked = asked

    def _word_refused(self, word: Word) -> str | None:
        """Why `word` may not be said now (None: it may): only about the board being played
        (this turn's tiles, or the board a game would start on), by a player or a page."""
        phase, game = self.phase, self.game
        if phase == Phase.OVER:
            return "over"
        if word.by != PAGE:
            seat = self.config.seats.get(word.by)
            if seat is None or not seat.enabled:
                return "not-seated"
            if game is not None and word.by not in game.players:
                return "not-seated"
        if game is None:
            return None
        scored = word.tile in game.board
        if scored and (word.said == Said.ABSENT or word.tile not in game.board.stack(word.square)):
            return "scored"  # a scored turn is corrected out loud, not by a word
        return None

    def tick(self, now: float) -> None:
        """Time passes: notices expire, a held press or a stable placement may end the turn."""
        healthy = self.journal.tend(now)  # a replaced file rewritten, a failed one retried
        if healthy is not None:
            self._journal_written(healthy, "")
        wait = self.config.game.auto_end_seconds
        playing = self.phase == Phase.PLAYING and self.journal.writable  # no retry every sweep
        if wait > 0 and playing and self._auto_end_due(now, wait):
            log.info("turn ended by itself after %.0f s of a stable legal placement", wait)
            self._end_turn(now)
        self._settle(now)

    # -- outputs --------------------------------------------------------------------------
    def take_sounds(self) -> list[Sound]:
        """The sound events since the last call, oldest first."""
        sounds, self._sounds = self._sounds, []
        return sounds

    def pressed(self, at: float) -> None:
        """A seat's button was pressed at `at` (whatever the press was for)."""
        self.last_press = at

    def view(self, now: float) -> TableView:
        """Everything the displays show now, whole: the daemon builds it once a refresh."""
        colours = tuple((side, self.colours[side]) for side in SIDES)
        posted = self.notices.current(now, self.tracker.version)
        alerts = tuple(n for n in posted if isinstance(n, BonusAlert) and n.since <= now)
        board = self.tracker.board
        shown = tuple((sq, board.stack(sq)) for sq in SQUARES if board.stack(sq))
        placement = tuple(self.tracker.placement)
        game = self.game
        phase = self.phase
        notices = self._notices(posted, now)
        if phase == Phase.LOBBY or game is None:
            lobby = Lobby(
                joined=tuple(self.joined),
                teams=self.lobby_teams(),
                rules=self.rules(),
                last=self._last_game,
                since=self.last_press,
            )
            return TableView(
                phase=Phase.LOBBY,
                colours=colours,
                teams=lobby.teams,
                lobby=lobby,
                alerts=alerts,
                notices=notices,
                board=shown,
                placement=placement,
            )
        playing = phase == Phase.PLAYING
        if playing and now < self._hint_until:
            notices = (*notices, UndoHint())
        preview = self.preview() if playing else None
        team_of = game.seating.team_of
        # the held press's player is told "checking" unless told what to do instead
        unsure = {n.side for n in notices if isinstance(n, (Unsure, Question, NotScored))}
        checking = self.held if playing and self.held not in unsure else None
        scores = game.scores
        seats = tuple(
            SeatView(
                side=side,
                colour=self.colours[side],
                score=scores[side],
                finish=game.finish_line,
                active=playing and side == game.active,
                preview=Preview.of(preview)
                if preview is not None and side == game.active
                else None,
                team=team_of(side),
                checking=side == checking,
            )
            for side in game.players
        )
        return TableView(
            phase=phase,
            seats=seats,
            colours=colours,
            teams=game.teams,
            last_turn=self.last_turn(),
            alerts=alerts,
            notices=notices,
            result=game_result(game) if phase == Phase.OVER else None,
            board=shown,
            placement=placement,
        )

    def rules(self) -> tuple[tuple[str, object], ...]:
        """The table settings that are rules of a game, as a game started now plays by."""
        settings = Settings.of(self.config)
        return tuple((key, settings[key]) for key in RULES)

    def preview(self) -> Scoring | Illegal | None:
        """What the current placement would score (None: nothing placed, or no game)."""
        if self.phase != Phase.PLAYING or self.game is None:
            return None
        key = (self.tracker.version, len(self.game.moves))
        if self._preview is None or self._preview[0] != key:
            placement = self.tracker.placement
            result = self.game.preview(placement) if placement else None
            self._preview = (key, result)
            self.tracker.unwanted = self._unwanted(placement, result)
        return self._preview[1]

    def _follow_told(self, now: float) -> None:
        """A tile the preview has shown the player to move as having no place ("not
        legal" with it, legal without) for TOLD_AFTER is one they were told about: taken
        back, it went to the hand, not where the readers cannot see."""
        unwanted = self.tracker.unwanted if self.phase == Phase.PLAYING else frozenset()
        # (counted while the readers show it there: a tile held a moment over a square it
        # has no place on, to show it to a reader, is not one the player was told about)
        seen = {t for t in unwanted if now - self.tracker.read_at(t) <= FRESH_SECONDS}
        self._unwanted_since = {t: self._unwanted_since.get(t, now) for t in seen}
        placed = {t: sq for sq, t in self.tracker.placement}
        for tile, since in self._unwanted_since.items():
            if now - since >= TOLD_AFTER and tile in placed:
                self._told[tile] = placed[tile]
        for tile, square in list(self._told.items()):
            if tile in placed and placed[tile] != square:  # laid again elsewhere: a new tile
                del self._told[tile]
                self._told_pressed.discard(tile)

    def _unwanted(self, placement, result) -> frozenset[Tile]:
        """The tiles of an illegal placement without which it would be legal: the family,
        seeing "not legal", takes such a tile back far more often than a reader falls
        silent, which the tracker weighs when such a tile reads as nothing."""
        game = self.game
        if game is None or not isinstance(result, Illegal):
            return frozenset()
        found = set()
        for _, tile in placement:
            rest = [(s, t) for s, t in placement if t != tile]
            if not rest or game.preview(rest).legal:
                found.add(tile)
        return frozenset(found)

    def announce(self, problem: Problem, now: float, seconds: float) -> None:
        """Shows `problem` on every display for `seconds` (something the daemon found that the
        players should know, such as a broken configuration file)."""
        self.notices.post(problem, until=now + seconds)

    @property
    def illegal(self) -> IllegalMove | None:
        """The illegal move shown since the last press, while the placement is unchanged."""
        found = self.notices.latest(IllegalMove, float("-inf"), self.tracker.version)
        return found if isinstance(found, IllegalMove) else None

    @property
    def held(self) -> str | None:
        """The side whose press waits for the readers to support its placement."""
        return self._held[0] if self._held else None

    def last_turn(self) -> TurnResult | None:
        """The latest turn of the game (a bag return is not a turn)."""
        return last_turn(self.game) if self.game is not None else None

    def lobby_teams(self) -> tuple[tuple[str, str], tuple[str, str]] | None:
        """Two teams when the config asks for them and four players joined."""
        j = self.joined
        if self.config.game.teams and len(j) == 4:
            return ((j[0], j[2]), (j[1], j[3]))
        return None

    # -- the lobby ------------------------------------------------------------------------
    def _join(self, seat: str) -> None:
        if seat in self.joined:
            self.joined.remove(seat)
            self._sound(SoundEvent.LEAVE, seat)
        elif len(self.joined) < len(SIDES):
            self.joined.append(seat)
            self._sound(SoundEvent.JOIN, seat)

    def _start(self, seat: str, now: float) -> None:
        if seat not in self.joined:
            self._join(seat)
        if len(self.joined) < 2:
            log.info("a game needs at least two players")
            return self._sound(SoundEvent.REFUSED, seat)
        tracker = self.tracker
        board = tracker.board
        asking = self._start_question(now)
        if asking is not None:
            # a hold is the start it was before the question, never its answer: a starter
            # holding again without reading the display says nothing about the board
            log.info("not starting yet: %s's display asks about %s", asking.side, asking.square)
            self.notices.post(
                dataclasses.replace(asking, side=seat),
                until=now + START_QUESTION_SECONDS,
                alone=True,
            )
            return self._sound(SoundEvent.REFUSED, seat)
        if not tracker.blocking(now) and (asked := self._start_layout_question(seat)):
            log.info(
                "not starting yet: %s asked whether %s lies on %s", seat, asked.tile, asked.square
            )
            self.notices.withdraw(Unsure)
            self.notices.post(asked, until=now + START_QUESTION_SECONDS, alone=True)
            return self._sound(SoundEvent.REFUSED, seat)
        if tracker.blocking(now):
            doubts = tracker.doubts(now)
            why = ", ".join(map(str, tracker.problems(now) or doubts)) or "readers not ready"
            log.info("not starting: %s", why)
            if doubts and not tracker.problems(now):
                # what to do; if the readers still do not see it after QUESTION_AFTER, the
                # starter is asked instead (`_follow_start_doubt`)
                run = self._start_refused
                since = now if run is None or now - run[2] > START_NOTICE_SECONDS else run[1]
                self._start_refused = (seat, since, now)
                if now - since >= QUESTION_AFTER and self._ask_start(seat, doubts[0], now):
                    self._start_refused = None
                    return self._sound(SoundEvent.REFUSED, seat)
                self.notices.post(
                    Unsure(seat, doubts[0]),
                    until=now + START_NOTICE_SECONDS,
                    version=tracker.version,
                    alone=True,
                )
            return self._sound(SoundEvent.REFUSED, seat)
        empty = [sq for sq in COMMON_SQUARES if not board.stack(sq)]
        if empty:
            # the rules start on one tile on each common square: one believed empty is a
            # start tile a reader misses (silent from the moment it was laid), or sees
            # through its neighbour, or one the family has still to lay
            log.info("not starting: no start tile seen on %s", ", ".join(empty))
            self.notices.post(
                Unsure(seat, Problem(ProblemCode.START_EMPTY, empty[0])),
                until=now + START_NOTICE_SECONDS,
                version=tracker.version,
                alone=True,
            )
            return self._sound(SoundEvent.REFUSED, seat)
        game = Game(self.joined, self.lobby_teams(), self.config.game.options, tracker.board)
        colours = {side: self.colours[side] for side in SIDES}
        if not self._write(start_record(game, colours)):
            return self._sound(SoundEvent.REFUSED, seat)
        log.info("game started: %s, board %s", " ".join(game.players), game.board.to_mapping())
        self.game, self.joined = game, []
        self._not_on.clear()  # the lobby's "not there" was about the start board
        self.notices.withdraw()  # a start question answered too
        self._follow_phase(now)
        tracker.rebase(game.board, now)
        self._sound(SoundEvent.START)
        self._sync_cleanup(now, announce=True)  # a start board may already fill the bag

    def _lately_asked(self, seat: str, now: float) -> bool:
        """Whether a start question was on `seat`'s display in the last ANSWER_GRACE
        seconds (or its first answering press is still waiting for a second)."""
        first = self._first_answer
        if first is not None and first[0].side == seat:
            return True
        asked = self._start_asked
        return asked is not None and asked[0] == seat and now - asked[1] <= ANSWER_GRACE

    def _start_layout_question(self, seat: str) -> Question | None:
        """The rules lay the start board as one tile on each common square. A believed start
        board with a common square empty and a tile too many next to it (on another square,
        or in a stack on a common square) is most likely a reader seeing that tile through
        its neighbour while the reader below it missed it: the starter is asked before the
        game starts on it ("♣5 on NE?": one press, it lies there and the game starts; two
        presses, not there). A tile the family said is not on that square is not asked
        about it again."""
        board = self.tracker.board
        for square in COMMON_SQUARES:
            if board.stack(square):
                continue
            for there in NEXT_TO[square]:
                stack = board.stack(there)
                extra = stack if there not in COMMON_SQUARES or len(stack) > 1 else []
                for tile in reversed(extra):  # the top first: the likelier to be seen through
                    if square not in self._not_on.get(tile, set()):
                        return Question(seat, square, tile, (Reply.START, Reply.WITHOUT))
        return None

    # -- turns ----------------------------------------------------------------------------
    def _press_in_game(self, seat: str, now: float) -> None:
        game = self.game
        assert game is not None
        if seat not in game.players:
            log.info("%s pressed, but does not play", seat)
            return self._sound(SoundEvent.NOT_YOUR_TURN, seat)
        if game.needs_return:
            echo = self._ended_by_itself
            if echo is not None and echo[0] == seat and now - echo[1] < ECHO_SECONDS:
                log.info(
                    "%s pressed again after the turn ended by itself: not a confirmation", seat
                )
                return self._sound(SoundEvent.REFUSED, seat)
            return self._return_covered(now, seat)
        if seat != game.active:
            log.info("%s pressed, but it is %s's turn", seat, game.active)
            return self._sound(SoundEvent.NOT_YOUR_TURN, seat)
        self._end_turn(now, pressed=True)

    def _end_turn(self, now: float, *, pressed: bool = False) -> None:
        """Ends the active player's turn if the readers support the placement. A press that
        they do not support yet is held (`pressed`): the turn ends by itself once they do."""
        game = self.game
        assert game is not None
        side = game.active
        tracker = self.tracker
        problems = tracker.problems(now)
        # a square that does not answer is a question the family can settle: the press is
        # held for it (asked after QUESTION_AFTER), other problems refuse it
        askable = pressed and all(p.code == ProblemCode.BLIND for p in problems)
        if not tracker.ready or (problems and not askable):
            log.info("turn not ended: %s", problems or "the readers are not ready")
            return self._sound(SoundEvent.REFUSED, side)
        placement = tracker.placement
        doubts = tracker.doubts(now)
        if pressed and not placement and doubts:  # a square does not answer: no swap on a guess
            log.info("%s pressed for a swap; the readers are not sure: %s", side, doubts[0])
            return self._sound(SoundEvent.REFUSED, side)
        if pressed:
            self._told_pressed |= self._told.keys() & {t for _, t in placement}
        unsure = bool(self._whereabouts(now))  # a tile shown and gone: where is it?
        if pressed and (doubts or unsure or not tracker.complete or not tracker.settled(now)):
            # a swap too: a tile laid unseen just before the press shows in the readings after
            why = doubts[0] if doubts else "confirming"
            log.info("%s pressed; waiting for the readers: %s", side, why)
            if self._held is None or self._held[0] != side:  # pressing again changes nothing
                self._held = (side, frozenset(t for _, t in placement))
                self._held_since = now
                self._held_sweeps = tracker.sweeps
                self._held_where = {t: sq for sq, t in placement}
                self._doubt_since = dict.fromkeys(doubts, float("-inf"))  # shown at once
                self._confirmed_for = placement
                tracker.confirm()
            return
        if doubts or unsure:
            return
        self._held = None
        tracker.confirmed()  # the press is taken: what moves from now, the family moved
        before = game.board
        if not placement:
            if not tracker.settled(now):
                log.info("%s pressed for a swap just as a tile left the board: again", side)
                return self._sound(SoundEvent.REFUSED, side)
            show = self._show_first(now)
            if show is not None and self._swap_said != side:
                # a tile laid where the readers cannot see looks just like a swap: asked
                log.info(
                    "%s pressed with no tile seen laid, %s dark: a swap?",
                    side,
                    ", ".join(show.squares),
                )
                self._swap = SwapQuestion(side, show.squares)
                return
            if not self._write(turn_record(side, ())):
                return self._sound(SoundEvent.REFUSED, side)
            game.swap()
            log.info("%s swaps", side)
            self._sound(SoundEvent.SWAP, side)
        else:
            result = game.preview(placement)
            if isinstance(result, Illegal):
                log.info("%s: illegal placement %s", side, result)
                told = self._unwanted(placement, result)
                placed = {t: sq for sq, t in placement}
                self._told.update((t, placed[t]) for t in told)
                for tile in told:  # a word that it lies there lapses: it goes back
                    tracker.unsettle(tile)
                # said until the placement changes (a tile taken back, or laid again), not
                # until any belief of the board does: where the readers churn (crosstalk
                # next door) the family would never get to read it
                self.notices.post(IllegalMove(side, result), alone=True)
                self._illegal_for = placement
                return self._sound(SoundEvent.ILLEGAL, side)
            if not self._write(turn_record(side, placement, result)):
                return self._sound(SoundEvent.REFUSED, side)
            game.place(placement)
            tracker.commit(now)
            log.info("%s scores: %s", side, result)
            self._sound(SoundEvent.SCORE, side, result.points)
            for owner, points in sorted(result.bonus.items()):
                self.notices.post(BonusAlert(owner, points, now), until=now + ALERT_SECONDS)
                self._sound(SoundEvent.BONUS, owner, points)
        self.notices.withdraw(IllegalMove, LateTile, NotScored)
        self._told.clear()
        self._told_pressed.clear()
        self._not_on.clear()
        self._in_hands.clear()
        self._swap = self._swap_said = self._laid_unseen = None
        # what the held press asked is answered by the move: a hold now is an undo, a press
        # pending as the first of two answers nothing
        self._asked = self._first_answer = None
        self._late = LateWatch.after(
            game, before, placement, side, self.colours[side], tracker.sweeps, tracker.dark(), now
        )
        self._late_told = frozenset()
        self._after_move(now)

    def _after_move(self, now: float) -> None:
        game = self.game
        assert game is not None
        self._follow_phase(now)
        if game.finished:
            ranking = self._write_end()
            log.info("game over: %s", ranking)
            return self._sound(SoundEvent.GAME_OVER, ranking.winner)
        self._sync_cleanup(now, announce=True)

    def _auto_end_due(self, now: float, wait: float) -> bool:
        game = self.game
        if game is None or game.needs_return or self.illegal is not None:
            return False
        result = self.preview()
        return (
            isinstance(result, Scoring)
            and now - self.tracker.changed >= wait
            and not self.tracker.blocking(now)
        )

    def _whereabouts(self, now: float) -> list[tuple[Tile, list[str]]]:
        """The tiles of this turn gone from the board that may lie where the readers cannot
        vouch for them, each with the squares to ask about, likeliest first. A tile that
        left a square it lay on alone (shown to a reader over an empty square, as
        docs/family.md asks before laying a tile where the readers cannot see; or a tile
        whose reader fell silent; or one taken back into the hand): the squares the readers
        cannot see where the player may lay it (`_dark_places`: where it fits first), and
        the square it left (first where that reader has been heard falling silent, else
        after those), the squares it was first seen on at once (a neighbour's crosstalk
        while its own reader fell silent), then where it would not fit (laid by mistake:
        the game then says "not legal"), then where it fits on a square whose reader was
        heard falling silent; a long press says it is in a hand, and ends the questions
        about it. A
        tile told "not legal" that the player pressed again with, still believed
        where the readers cannot see it taken back. Not a square the family said it is not
        on; nothing is taken without asking (a tile taken back looks the same)."""
        game = self.game
        assert game is not None
        allowed = game.seating.allowed(game.active, game.options.partner_squares)
        found = []
        shown_again = self._laid_unseen == game.active  # "I laid tiles": shown anywhere
        for tile, left, _, alone in self.tracker.vanished:
            if tile in self._in_hands:
                continue
            dark_places = self._dark_places(tile)
            fits = any(legal for _, legal in dark_places)
            if tile in self._told and not shown_again and not fits:
                # taken back after "not legal" (to the hand); but once the family said it
                # laid tiles unseen, a tile held over a square it may not lay on to show it
                # (told "not legal" there) is asked about (TUNE weak-tall table 48), and so
                # is one that fits where the readers cannot see: held over a square to be
                # shown, long, while "Seen" did not come (TUNE everything table 31: the
                # turn was scored without it)
                continue
            refused = self._not_on.get(tile, set())
            ranked = [(sq, legal) for sq, legal in dark_places if sq not in refused]
            places = [sq for sq, legal in ranked if legal]  # shown, then laid where it fits
            used = {square for square, _ in self.tracker.placement}
            if not alone and not shown_again:
                # lifted off a stack whose tile below read: taken back into the hand, or
                # shown over a low stack (docs/family.md: "an empty one or a low stack")
                # and laid where the readers cannot see: asked where it fits unseen, then
                # where it was (a reader that read the tile below while a neighbour's
                # crosstalk collided with the top: TUNE everything table 15)
                if fits and left in allowed and left not in refused | used | set(places):
                    places.append(left)
                if places:
                    found.append((tile, places))
                continue
            for square in self.tracker.first_seen_on(tile):  # seen there as it was laid
                if square in allowed and square not in refused | used and square not in places:
                    places.append(square)
            for square in self.tracker.been_on(tile):  # believed there before, this turn
                if square in allowed and square not in refused | used | {left, *places}:
                    places.append(square)
            if left not in refused and left not in places and left not in used:
                if self.tracker.may_fall_silent(left):
                    places.insert(0, left)
                else:
                    places.append(left)
            places += [sq for sq, legal in ranked if not legal]  # laid by mistake
            # then where else it fits on a square whose reader fell silent: the readings
            # there ruled it out, but a silence reads just so (TUNE everything table 10: a
            # tile laid on an empty square whose reader was silent, asked about on the
            # three dark squares it fits and said not there, was taken for one in the
            # hand and the turn scored without it)
            places += self._fits_unheard(tile, refused | used | {left, *places})
            if places:
                found.append((tile, places))
        placed = {t: sq for sq, t in self.tracker.placement}
        dark = self.tracker.dark()
        for tile in sorted(self._told_pressed):
            # told "not legal", pressed again: taken back, where the readers cannot see? (not
            # while they show it there: a lift of a tile they see is theirs to tell)
            square = placed.get(tile)
            if now - self.tracker.read_at(tile) <= FRESH_SECONDS:
                continue
            if square in dark and square not in self._not_on.get(tile, set()):
                found.append((tile, [square]))
        return found

    def _where_question(self, now: float) -> Question | None:
        """Once the player to move pressed, a tile of this turn whose whereabouts the
        readers cannot vouch for (`_whereabouts`) is asked about, square by square, until
        one is said (a press: it lies there) or none is left (twice: not there)."""
        game = self.game
        if self.phase != Phase.PLAYING or game is None or self._held is None:
            return None
        for tile, places in self._whereabouts(now):
            return Question(game.active, places[0], tile, ANSWERS_IN_GAME)
        return None

    def _follow_unconfirmed(self, now: float) -> None:
        """Since when each tile of the turn has been in doubt (seen once, or only while it
        was laid): for UNCONFIRMED_AFTER, a tile being laid is one such."""
        doubted = {d.tile for d in self.tracker.doubts(now) if d.tile is not None}
        self._unconfirmed_since = {t: self._unconfirmed_since.get(t, now) for t in doubted}

    def _unconfirmed(self, now: float) -> Unconfirmed | None:
        """Before the press: the tiles of this turn the readers cannot confirm, which the
        table will ask about once the player presses (shown to a reader, then laid where
        they cannot see; one its reader lost, that may have been taken back; one seen only
        while it was laid)."""
        game = self.game
        if self.phase != Phase.PLAYING or game is None or self._held is not None:
            return None
        if self._first_answer is not None:
            # the display says a first press was heard and a second means "not there": a
            # call to press (to be asked) beside it would be taken as that second press
            # (TUNE everything table 49: the tile then asked about everywhere but where
            # it lay, until the family gave up)
            return None
        tiles = [tile for tile, _ in self._whereabouts(now)]
        tiles += [tile for _, tile in self.tracker.hushed if tile not in tiles]
        for tile, since in self._unconfirmed_since.items():  # seen once, or only while laid
            if now - since >= UNCONFIRMED_AFTER and tile not in tiles:
                tiles.append(tile)  # (for a while: a tile being laid is seen once first)
        return Unconfirmed(game.active, tuple(tiles)) if tiles else None

    def _dark_places(self, tile: Tile) -> list[tuple[str, bool]]:
        """The squares the active player may lay `tile` on where the readings since it
        left do not rule it out (`Tracker.places`), not holding a tile of this turn, each
        with whether the placement is legal with it there: the legal first (a tile laid by
        mistake may lie on any: the game then says "not legal"), and among those where the
        readings weigh least against it first (TUNE everything table 27: asked in the order
        of the points it would score, a tile was asked about where it lay seventh, and the
        three tiles of the turn took the family 40 s of questions)."""
        game = self.game
        assert game is not None
        placement = list(self.tracker.placement)
        used = {square for square, _ in placement}
        allowed = game.seating.allowed(game.active, game.options.partner_squares)
        ranked = []
        for likeliest, square in enumerate(self.tracker.places(tile)):
            if square in allowed and square not in used:
                result = game.preview([*placement, (square, tile)])
                legal = isinstance(result, Scoring)
                ranked.append((not legal, likeliest, square, legal))
        return [(square, legal) for *_, square, legal in sorted(ranked)]

    def _fits_unheard(self, tile: Tile, but: set[str]) -> list[str]:
        """The squares the active player may lay `tile` on, but for `but`, whose reader
        was heard falling silent after a change (`Tracker.heard_silent`), where the
        placement is legal with it."""
        game = self.game
        assert game is not None
        placement = list(self.tracker.placement)
        allowed = game.seating.allowed(game.active, game.options.partner_squares)
        return [
            square
            for square in SQUARES
            if square in allowed
            and square not in but
            and self.tracker.heard_silent(square)
            and isinstance(game.preview([*placement, (square, tile)]), Scoring)
        ]

    def _show_first(self, now: float) -> ShowFirst | None:
        """The squares the active player may lay on that the readers cannot see now (or
        could not a moment ago: `Tracker.named_dark`)."""
        game = self.game
        if self.phase != Phase.PLAYING or game is None:
            return None
        allowed = game.seating.allowed(game.active, game.options.partner_squares)
        dark = self.tracker.named_dark(now) & allowed
        if not dark:
            return None
        squares = tuple(sq for sq in SQUARES if sq in dark)
        return ShowFirst(game.active, squares, self.tracker.latest())

    def _follow_held(self, now: float) -> None:
        """A held press ends the turn once the readers support the placement (a press with
        nothing seen: the placement that shows meanwhile, or a swap). It is dropped when
        the turn passed, or a tile of the placement pressed left the board (the player took
        it back: they press again on what is left)."""
        if self._held is None:
            return
        side, tiles = self._held
        game = self.game
        board = self.tracker.board
        placed = {t for _, t in self.tracker.placement}
        asked = {t for t, _ in self._whereabouts(now)}  # gone, and asked where it is
        left = [t for t in tiles if t not in board and t not in asked]
        if (
            self.phase != Phase.PLAYING
            or game is None
            or game.active != side
            or game.needs_return
            or (tiles and not placed)
            or left
        ):
            self._held = None
            self.tracker.confirmed()  # nothing waits for those readings now
            if left and self.phase == Phase.PLAYING:
                # no press is dropped without a word: until the player presses again
                tile = min(left)
                log.info("%s's press dropped: %s left the board after it", side, tile)
                why = NotScored(side, "lifted", self._held_where.get(tile), tile)
                self.notices.post(why, alone=True)
            return
        tracker = self.tracker
        if tracker.placement != self._confirmed_for:
            # the board still changes under the press: more may come, confirmed anew
            self._confirmed_for = tracker.placement
            tracker.confirm()
        if not tracker.blocking(now) and not self._whereabouts(now):
            log.info("the readers support %s's placement now: the turn ends", side)
            self._ended_by_itself = (side, now)
            self._end_turn(now)

    # -- undo -----------------------------------------------------------------------------
    def _undo_turn(self, seat: str, now: float) -> None:
        game = self.game
        assert game is not None
        if seat not in game.players:
            return self._sound(SoundEvent.REFUSED, seat)
        if not game.moves:
            log.info("nothing to undo")
            return self._sound(SoundEvent.REFUSED, seat)
        if game.moves[-1].kind == "return":
            log.info("the covered tiles are back in the bag: that cannot be undone")
            return self._sound(SoundEvent.REFUSED, seat)
        if not self._write(undo_record(game.moves[-1].side)):
            return self._sound(SoundEvent.REFUSED, seat)
        move = game.pop()
        log.info("%s undid the turn of %s (%s)", seat, move.side, move)
        self._held = None
        self._told.clear()
        self._told_pressed.clear()
        self._not_on.clear()
        self._in_hands.clear()
        self._swap = self._swap_said = self._laid_unseen = None
        self.tracker.confirmed()
        self._late = None
        self.notices.withdraw(LateTile)
        self._follow_phase(now)
        self.tracker.rebase(game.board, now, leave=True)
        self.notices.withdraw(IllegalMove)
        self.notices.post(Undo(move.side or seat), until=now + BANNER_SECONDS, alone=True)
        self._sync_cleanup(now, announce=False)
        self._sound(SoundEvent.UNDO, move.side)

    # -- the bag --------------------------------------------------------------------------
    def _sync_cleanup(self, now: float, *, announce: bool) -> None:
        """Watches the board for the clean-up while the game asks for it."""
        game = self.game
        if game is not None and game.needs_return and self.phase == Phase.PLAYING:
            if not self.tracker.cleaning:
                self.tracker.start_cleanup(now)
                if announce:
                    self._sound(SoundEvent.BAG_EMPTY)
        elif self.tracker.cleaning:
            self.tracker.stop_cleanup()

    def _return_covered(self, now: float, seat: str | None) -> None:
        game = self.game
        assert game is not None
        covered = game.board.covered()
        if not self._write(return_record(covered)):
            return self._sound(SoundEvent.REFUSED, seat)
        game.return_covered()
        how = f"confirmed by {seat}" if seat else "seen by the readers"
        log.info("%d covered tiles back in the bag (%s)", len(covered), how)
        self.tracker.rebase(game.board, now)
        self.notices.post(BagEmpty(returned=True), until=now + BANNER_SECONDS, alone=True)
        self._sound(SoundEvent.RETURNED)

    # -- game over ------------------------------------------------------------------------
    def stop(self, now: float, by: str) -> bool:
        """Stops the game being played before its end (`by`: "table" or "web"): the journal
        keeps it, unfinished, with its scores, and a new lobby opens. False (and nothing
        changes) when no game is being played or the card refuses the record."""
        game = self.game
        if game is None or self.phase != Phase.PLAYING:
            return False
        if not self._write(stop_record(game, by)):
            self._sound(SoundEvent.REFUSED)
            return False
        log.info("game stopped before its end (%s): %s", by, game.scores)
        self._held = None
        self._new_game(now)
        return True

    def _new_game(self, now: float) -> None:
        self._write(new_record())
        try:
            archived = self.journal.archive()
        except OSError as exc:  # the "new" record already closes the game
            log.error("cannot archive the journal: %s", exc)
        else:
            log.info("finished game archived as %s", archived)
            prune(self.journal.path, self.config.paths.keep_games)
        self.game, self.joined = None, []
        self.notices.withdraw()
        self._late = None
        self._last_game = last_game(self.journal.path)
        self.colours = dict(self.config.colours)
        self._follow_phase(now)
        self._sound(SoundEvent.NEW_GAME)

    # -- plumbing -------------------------------------------------------------------------
    def _follow_phase(self, now: float) -> None:
        """The one place where what follows from the phase is set: the tracker lets every
        tile come and go outside a game, and the ranking's pause starts when a game ends."""
        phase = self.phase
        self.tracker.lobby = phase != Phase.PLAYING
        if phase != Phase.OVER:
            self._over_since = None
        elif self._over_since is None:
            self._over_since = now

    def _settle(self, now: float) -> None:
        """After any input: the clean-up seen done, a held press ended, the problem sound."""
        self._now = now
        self._follow_phase(now)
        if self._illegal_for is not None and self.tracker.placement != self._illegal_for:
            self.notices.withdraw(IllegalMove)
            self._illegal_for = None
        game = self.game
        if self.phase == Phase.PLAYING and game is not None:
            if game.needs_return and self.tracker.cleanup_done:
                self._return_covered(now, None)
            self._follow_held(now)
            self._follow_swap(now)
        self._follow_questions(now)
        self._follow_correction_press(now)
        self._follow_corrections(now)
        self.preview()  # (keeps the tracker's `unwanted` up to date)
        self._follow_told(now)
        self._follow_unconfirmed(now)
        self._watch_late(now)
        self._sound_problems(now)
        self._follow_last_turn(now)

    def _follow_last_turn(self, now: float) -> None:
        """For UNDO_HINT_SECONDS after the last turn changed (a turn, or one taken back),
        every seat also says how to take it back."""
        if self.phase != Phase.PLAYING:
            return
        last = self.last_turn()
        if last != self._hinted_turn:
            self._hinted_turn = last
            self._hint_until = now + UNDO_HINT_SECONDS if last is not None else now

    def _watch_late(self, now: float) -> None:
        """A tile showing up on a tall stack just after a turn (or on any square its player
        could lay on, a moment after it), that would have been a legal part of it, is
        shown to the player of that turn (`companion.game.late`), who knows whether they
        laid it: the turn may have missed it."""
        self._follow_late(now)  # (posted until the next move: after the watch, too)
        watch, game = self._late, self.game
        if watch is None or game is None:
            return
        if not watch.current(game, self.tracker.sweeps, now):
            self._late = None
            return
        found = watch.suspect(self.tracker.board, game, now, self._late_told)
        if found is None:
            return
        log.warning(
            "%s showed up on %s just after %s's turn: it may have been laid in it, unseen",
            found.tile,
            found.square,
            found.side,
        )
        # once a tile: the watch goes on (the next player's tile, laid at once, may come
        # before the one the turn missed on a tall stack)
        self._late_told |= {found.tile}
        self.notices.post(found, alone=True)  # until the next move

    def _follow_late(self, now: float) -> None:
        """The tile shown as "Last turn right?" names the square the readers have it on now:
        a tile laid where the readers were silent may first show through a neighbour's
        crosstalk (TUNE everything table 0: club-7, laid on W1, showed on SW, and the
        notice went on naming SW after the readings moved it to W1; the family, who laid
        it on W1, did not take it for theirs)."""
        shown = self.notices.latest(LateTile, now, self.tracker.version)
        if shown is None:
            return
        square = self.tracker.board.square_of(shown.tile)
        if square is not None and square != shown.square:
            log.info("%s is on %s now, not %s", shown.tile, square, shown.square)
            self.notices.post(dataclasses.replace(shown, square=square), alone=True)

    def _notices(self, posted: tuple, now: float) -> tuple[Notice, ...]:
        """What the displays say, most urgent first: announcements, the journal, the board's
        problems, a held press, the illegal move, the bag, the undo banner."""
        notices: list[Notice] = [n for n in posted if isinstance(n, Problem)]
        if self.journal_problem is not None:
            notices.append(Problem(self.journal_problem))
        if self.journal.unsaved is not None:  # a card that cannot be written: never saved
            notices.append(Problem(self.journal.unsaved))
        asked = self._asked
        hidden = set()
        if asked is not None:  # the held press asks about that square: what to do about it
            hidden.add(Problem(ProblemCode.BLIND, asked.square))
        if self._correction is not None:  # the tile seen twice: its correction says why
            correction = self._correction[0]
            notices.append(correction)
            hidden.update(Problem(ProblemCode.TILE_TWICE, sq) for sq in correction.squares)
        notices.extend(p for p in self.tracker.problems(now) if p not in hidden)
        notices.extend(n for n in posted if isinstance(n, Correction))
        notices.extend(n for n in posted if isinstance(n, LateTile))
        held = self._held_notice(now)
        if held is not None:
            notices.append(held)
        if self._swap is not None:
            notices.append(self._swap)
        notices.extend(n for n in posted if isinstance(n, (IllegalMove, Unsure, Question)))
        notices.extend(n for n in posted if isinstance(n, NotScored))
        game = self.game
        if self.phase == Phase.PLAYING and game is not None and game.needs_return:
            notices.append(BagEmpty(returned=False))
        else:
            notices.extend(n for n in posted if isinstance(n, BagEmpty))
        notices.extend(n for n in posted if isinstance(n, Undo))
        show = self._show_first(now)
        if show is not None:
            notices.append(show)
        unconfirmed = self._unconfirmed(now)
        if unconfirmed is not None:
            notices.append(unconfirmed)
        return tuple(notices)

    def _held_notice(self, now: float) -> Unsure | Question | None:
        """What the table asks the player to move, or what their held press waits for:
        where a tile shown and gone lies (`_where_question`, once pressed); once a held
        press has waited QUESTION_AFTER, the question that settles its doubt; a doubt no
        question settles, once it has lasted DOUBT_SHOWN_AFTER. Nothing while a first
        press's answer may yet get its second."""
        first = self._first_answer
        if first is not None:  # a press answered it: said at once, a second may follow
            return dataclasses.replace(first[0], pressed=True)
        where = self._where_question(now)
        if where is not None:
            return where
        if self._held is None:
            return None
        side = self._held[0]
        doubts = self.tracker.doubts(now)
        since = self._doubt_since = {d: self._doubt_since.get(d, now) for d in doubts}
        shown = [d for d in doubts if now - since[d] >= DOUBT_SHOWN_AFTER]
        if not shown:
            return None
        # where waiting cannot help (a silent reader, a square the readers cannot see),
        # ask at once
        lost = {t for _, t in self.tracker.hushed}
        dark = self.tracker.dark()
        hopeless = any(d.tile in lost or d.square in dark for d in shown)
        waited = (
            now - self._held_since >= QUESTION_AFTER
            and self.tracker.sweeps - self._held_sweeps >= QUESTION_SWEEPS
        )
        if waited or hopeless:
            questions = [q for q in (self._question(side, d) for d in shown) if q is not None]
            # the question asked stays while it stands (a tile being shown to the readers
            # for it is a doubt of its own meanwhile)
            if self._asked in questions:
                return self._asked
            if questions:
                return questions[0]
        # what the readers may yet confirm is waited for ("Checking the board…", no alarm:
        # nobody can act on a reader's misses or silence), then asked; only what no
        # question settles is said as it is
        for doubt in shown:
            if self._question(side, doubt) is None:
                return Unsure(side, doubt)
        return None

    def _sound_problems(self, now: float) -> None:
        """The "problem" sound, for problems that last (PROBLEM_SOUND_AFTER), at most once
        per PROBLEM_SOUND_GAP: a state of a few sweeps (crosstalk, a hand) makes no noise."""
        # a tile to take off after an undo is announced by the undo itself
        current = {p for p in self.tracker.problems(now) if p.code != "take-off"}
        held = self._held_notice(now)
        if isinstance(held, Unsure):  # a question asks, it does not alarm
            current.add(held.doubt)
        self._problem_since = {p: self._problem_since.get(p, now) for p in current}
        self._sounded &= current
        due = [
            p
            for p, since in self._problem_since.items()
            if now - since >= PROBLEM_SOUND_AFTER and p not in self._sounded
        ]
        if due and now - self._last_problem_sound >= PROBLEM_SOUND_GAP:
            log.warning("board problems: %s", ", ".join(sorted(map(str, due))))
            self._sounded.update(due)
            self._last_problem_sound = now
            self._sound(SoundEvent.PROBLEM)

    def _write(self, record: dict) -> bool:
        """Journals one event; False (and nothing changes) if the card cannot be written."""
        try:
            self.journal.append(record)
        except (OSError, JournalError) as exc:
            self._journal_written(False, str(exc))
            return False
        self._journal_written(True, "")
        self.journal_problem = None  # written: also ends a "damaged" notice (a game started)
        return True

    def _journal_written(self, ok: bool, why: str) -> None:
        """Says in the log (when it starts, then once a minute) that the journal cannot be
        written, and when it can be again."""
        if not ok:
            self._write_log.log(
                logging.ERROR,
                "write",
                "cannot write the journal %s%s; the game is kept in memory and written "
                "whole as soon as the card can be written again",
                self.journal.path,
                f": {why}" if why else "",
            )
            self.journal_problem = "journal-unwritable"
            return
        self._write_log.ended("write", "the journal %s is written again", self.journal.path)
        if self.journal_problem == "journal-unwritable":
            self.journal_problem = None

    def _write_end(self) -> Ranking:
        game = self.game
        assert game is not None
        self._write(end_record(game))
        return game.ranking()

    def _sound(self, kind: SoundEvent, side: str | None = None, points: int = 0) -> None:
        self._sounds.append(Sound(kind, side, points))

    def _resume(self, now: float) -> None:
        resumed = resume(self.journal)
        records, found = resumed.records, resumed.games
        if resumed.damage is not None:
            self.startup_error = resumed.damage
            log.error("%s", resumed.damage)
            log.error(
                "the damaged journal was kept as %s; %d record(s) from the damage on are lost, "
                "the %d before it are resumed",
                resumed.aside,
                resumed.lost,
                len(records),
            )
            if found and not found[-1].closed:
                self.announce(Problem("journal-lost", count=resumed.lost), now, LOST_SECONDS)
            else:
                self.journal_problem = "journal-damaged"
        if self.journal.torn:
            log.warning(
                "journal %s: %s (a power cut while writing)", self.journal.path, self.journal.torn
            )
        if not found or found[-1].closed:
            for word in lobby_words(records):  # the start board the family vouched for
                self.tracker.settle(word, now)
            return
        if found[-1].stopped:  # the power went out between the stop and the new lobby
            self._new_game(now)
            return
        current = found[-1]
        self.game = current.game
        colours = current.start.get("colours") or {}
        if isinstance(colours, dict) and all(colours.get(s) in COLOURS for s in SIDES):
            self.colours = {s: colours[s] for s in SIDES}
        if self.game.finished and records[-1].get("type") != "end":
            self._write_end()  # the power went out between the last turn and its end record
        self._follow_phase(now)
        self.tracker.rebase(self.game.board, now)
        # the family's words hold over a restart: those of the turn being played as said,
        # the earlier ones where their tile still lies (its square's silence is no doubt)
        pending = len(current.words) - len(current.pending)
        for n, word in enumerate(current.words):
            if n >= pending or word.tile in self.game.board.stack(word.square):
                self.tracker.settle(word, now)
        self._sync_cleanup(now, announce=False)
        scores = ", ".join(f"{side} {points}" for side, points in self.game.scores.items())
        log.info("resumed the game of %s from %s (%s)", scores, self.journal.path, self.phase)
