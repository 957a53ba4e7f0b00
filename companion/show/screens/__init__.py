"""The screens: what the daemon shows, rendered for one seat's display as a 128x64 one-bit
image.

The daemon hands the presenter one `Shown` value per refresh (the web companion's seat frames
are drawn from the same value): the table's `TableView`, or, while the settings menu is
open, its `MenuView`, during the tiles' registration its `EnrolView`, or the question
whether to stop the game, a `StopQuestion`. For a `TableView`,
`Screens(lang).frame(view, side, now)` picks what that display shows at `now`, by priority:
a flashing bonus alert for that seat, the pairing PIN (in the lobby), a problem, the empty
bag, that seat's illegal move, question (a `Question`: what the readers cannot confirm and
the gestures that answer it, a line each), press not scored or doubt, then the phase's own
screen (lobby, the seat, game over); the seat screen of the player to move also says what
the readers cannot see (`ShowFirst`: show a tile first) or confirm (`Unconfirmed`: the
press will ask), in turn when both; during a game and at its end the pairing PIN shows in
a corner, over it. `key()` names the frame without drawing it, so the presenter draws only
when something visible changed.

A standing problem (`problems.STANDING`: the games are not being saved) does not stop the
game, so it does not take the displays for good: each shows it for `STANDING_SHOWN` seconds
in every `STANDING_EVERY`, and the game's own screen the rest of the time.

`python -m companion.show.screens --out DIR` writes every sample screen in every language.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from PIL import Image

from companion.board.problems import STANDING, Problem
from companion.enrolment import EnrolView
from companion.game.late import LateTile
from companion.game.stopping import StopQuestion
from companion.game.view import (
    ALERT_SECONDS,
    BagEmpty,
    BonusAlert,
    Correction,
    IllegalMove,
    Lobby,
    Notice,
    NotScored,
    Phase,
    PinShown,
    Question,
    ShowFirst,
    SwapQuestion,
    TableView,
    Unconfirmed,
    UndoHint,
    Unsure,
)
from companion.menu import MenuView
from companion.show.canvas import HEIGHT, WIDTH, Canvas
from companion.show.i18n import Catalogue
from companion.show.screens.alert import draw_alert
from companion.show.screens.enrol import draw_enrolment
from companion.show.screens.lobby import PAGE_SECONDS, draw_lobby, page_at, pages
from companion.show.screens.menu import draw_menu
from companion.show.screens.notice import draw_notice, draw_pin_badge
from companion.show.screens.over import draw_over
from companion.show.screens.seat import banner, draw_seat
from companion.show.screens.stop import draw_stop_question

__all__ = ["Screens", "Canvas", "WIDTH", "HEIGHT", "Shown"]

#: what the presenter hands to the screens: the table, or the menu, the enrolment or the
#: question whether to stop the game over it
Shown = TableView | MenuView | EnrolView | StopQuestion
#: a standing problem shows for STANDING_SHOWN seconds at the start of every STANDING_EVERY
STANDING_EVERY = 20.0
STANDING_SHOWN = 4.0
#: the player to move's screen shows its two notes of the readers in turn, this long each
NOTE_SECONDS = 4.0


@dataclass(frozen=True)
class Screens:
    """How the screens look: the language, and how long and fast bonus alerts flash."""

    lang: str = "en"
    alert_seconds: float = ALERT_SECONDS  # how long a bonus alert shows
    flash_period: float = 0.5  # seconds per phase: inverted, then normal, then inverted...
    size: tuple[int, int] = (WIDTH, HEIGHT)

    @property
    def texts(self) -> Catalogue:
        return Catalogue.load(self.lang)

    def alert(self, shown: Shown, side: str, now: float) -> tuple[BonusAlert, int] | None:
        """The alert showing on `side` at `now` and its flash phase (0, 1, 2 ...), if any."""
        if not isinstance(shown, TableView):
            return None
        showing = [a for a in shown.alerts_for(side) if 0 <= now - a.since < self.alert_seconds]
        if not showing or shown.phase != Phase.PLAYING:  # the lobby and the result come first
            return None
        alert = max(showing, key=lambda a: a.since)  # the newest one
        return alert, int((now - alert.since) // self.flash_period)

    def next_change(self, shown: Shown, now: float) -> float | None:
        """When any display's frame changes by time alone (a flash phase, an alert ending)."""
        if not isinstance(shown, TableView):
            return None
        times = []
        if shown.phase == Phase.PLAYING and any(
            len(_notes(shown, seat.side)) > 1 for seat in shown.seats if seat.active
        ):
            times.append((now // NOTE_SECONDS + 1) * NOTE_SECONDS)
        if any(_standing(notice) for notice in shown.notices):
            into = now % STANDING_EVERY
            times.append(now - into + (STANDING_SHOWN if into < STANDING_SHOWN else STANDING_EVERY))
        if shown.phase == Phase.LOBBY and len(pages(shown.lobby or Lobby())) > 1:
            since = (shown.lobby or Lobby()).since
            times.append(since + ((now - since) // PAGE_SECONDS + 1) * PAGE_SECONDS)
        for alert in shown.alerts:
            age = now - alert.since
            if age < 0:
                times.append(alert.since)
            elif age < self.alert_seconds:
                times.append(
                    alert.since
                    + min((age // self.flash_period + 1) * self.flash_period, self.alert_seconds)
                )
        return min(times, default=None)

    def key(self, shown: Shown, side: str, now: float) -> Hashable:
        """Equal keys draw equal frames: the kind of screen and exactly the parts of the view
        it is drawn from, so a change that one seat shows does not redraw the others."""
        return (*self._what(shown, side, now), _pin_badge(shown))

    def frame(self, shown: Shown, side: str, now: float = 0.0) -> Image.Image:
        return self.canvas(shown, side, now).image

    def canvas(self, shown: Shown, side: str, now: float = 0.0) -> Canvas:
        """The frame with the record of its texts (for tests)."""
        canvas = Canvas(self.size)
        texts = self.texts
        kind, parts = self._what(shown, side, now)
        if kind == "menu":
            draw_menu(canvas, parts[0], texts)
        elif kind == "enrol":
            draw_enrolment(canvas, parts[0], texts)
        elif kind == "stop":
            draw_stop_question(canvas, parts[0], texts)
        elif kind == "alert":
            draw_alert(canvas, shown, parts[0], texts, inverted=parts[1])
        elif kind == "notice":
            draw_notice(canvas, parts[0], texts, parts[1], shown)
        elif kind == "lobby":
            draw_lobby(canvas, shown, side, texts, parts[3])
        elif kind == "over":
            draw_over(canvas, shown, texts)
        elif kind == "seat":
            draw_seat(canvas, shown, parts[0], texts, hint=parts[5], note=parts[6])
        else:
            _draw_bystander(canvas, shown, side, texts)
        pin = _pin_badge(shown)
        if pin is not None:
            draw_pin_badge(canvas, pin, texts)
        return canvas

    def _what(self, shown: Shown, side: str, now: float) -> tuple[str, tuple]:
        """What the display of `side` shows at `now`, by priority, and everything of the view
        that screen is drawn from. `key` and `canvas` both use it, so they cannot disagree."""
        if isinstance(shown, MenuView):
            return "menu", (shown,)
        if isinstance(shown, EnrolView):
            return "enrol", (shown,)
        if isinstance(shown, StopQuestion):
            return "stop", (shown,)
        alert = self.alert(shown, side, now)
        if alert is not None:
            return "alert", (alert[0], alert[1] % 2 == 0, shown.colour(alert[0].side))
        notice = _notice_for(shown, side, now % STANDING_EVERY < STANDING_SHOWN)
        if notice is not None:
            return "notice", (notice, frozenset(square for square, _ in shown.board))
        if shown.phase == Phase.LOBBY:
            return "lobby", (shown.lobby, shown.colours, side, page_at(shown.lobby or Lobby(), now))
        if shown.phase == Phase.OVER:
            return "over", (shown.result, shown.teams, shown.colours, shown.seats)
        seat = shown.seat(side)
        if seat is None:
            return "bystander", (shown.seats,)
        undo = next((n for n in shown.notices if banner(n)), None)
        active = shown.active
        turn_of = None if active is None or seat.active else active.colour
        hint = any(isinstance(n, UndoHint) for n in shown.notices)
        note = _note_for(shown, side, now) if seat.active and undo is None else None
        return "seat", (seat, undo, turn_of, shown.last_turn, shown.colours, hint, note)


def _pin_badge(shown: Shown) -> str | None:
    """The pairing PIN in a corner: during a game and at its end, where the screen it
    would take is the players' (in the lobby it has the whole screen)."""
    if not isinstance(shown, TableView) or shown.phase == Phase.LOBBY:
        return None
    return next((n.pin for n in shown.notices if isinstance(n, PinShown)), None)


def _notice_for(view: TableView, side: str, standing: bool = True) -> Notice | None:
    """The notice `side` shows, if any; `standing`: whether standing problems show now
    (after every other notice: they are news only until the players know them). The
    pairing PIN has the whole screen in the lobby only (`_pin_badge` otherwise)."""
    for kind in (PinShown, Problem, Correction, BagEmpty):
        for notice in view.notices:
            if kind is PinShown and view.phase != Phase.LOBBY:
                continue
            if isinstance(notice, Correction) and notice.applied:
                continue  # done: a banner line on the seat's screen
            if isinstance(notice, kind) and not _standing(notice):
                return notice
    for notice in view.notices:
        if isinstance(
            notice, (IllegalMove, Unsure, Question, SwapQuestion, NotScored, LateTile)
        ) and (notice.side == side):
            return notice
    if standing:
        for notice in view.notices:
            if _standing(notice):
                assert isinstance(notice, Problem)
                return notice
    return None


def _notes(view: TableView, side: str) -> list[ShowFirst | Unconfirmed]:
    """What the player to move on `side` must know of the readers this turn: the tiles
    they cannot confirm (the preview leaves them out or counts them unsure) first, then
    the squares they cannot see (show a tile first)."""
    return [
        notice
        for kind in (Unconfirmed, ShowFirst)
        for notice in view.notices
        if isinstance(notice, kind) and notice.side == side
    ][:2]


def _note_for(view: TableView, side: str, now: float) -> ShowFirst | Unconfirmed | None:
    """The note the seat screen of `side` shows at `now`: both in turn, NOTE_SECONDS
    each, when there are both (neither may be hidden for the whole turn)."""
    notes = _notes(view, side)
    if not notes:
        return None
    return notes[int(now // NOTE_SECONDS) % len(notes)]


def _standing(notice: object) -> bool:
    return isinstance(notice, Problem) and notice.code in STANDING


def _draw_bystander(canvas: Canvas, view: TableView, side: str, texts: Catalogue) -> None:
    """A display on a side nobody plays: the scores of those who do."""
    canvas.title(texts.text("seat.not_playing"), inverted=False)
    y = 26
    for seat in view.seats:
        name = texts.colour(seat.colour)
        width = canvas.text((canvas.width - 2, y), str(seat.score), 10, bold=True, anchor="rs")
        canvas.text((2, y), name, 10, bold=seat.active, max_width=canvas.width - width - 8)
        y += 12
