"""What the seat buttons and the board mean now: the daemon is in one mode at a time.

- `TableMode`: the game. Every press goes to the table (join, start, end a turn, undo, a
  new game); a long press in an empty lobby opens the settings menu.
- `MenuMode`: the settings menu on every display (`companion.menu`); any seat's button works
  it; it leaves for the table, or for the enrolment ("Register the tiles").
- `EnrolMode`: the tiles' registration (`companion.enrolment`) on every display; the board's
  sweeps are the enrolment's while it runs; a short press skips the tile asked for, a long
  one stops it, and once it is over any press goes back to the table.
- `StopMode`: "Stop this game?" on every display (`companion.game.stopping`), opened during
  a game by two seats' buttons held together: a long press stops the game, a short one (or
  a while without a press) plays on.

The daemon owns the mode (`Daemon.mode`, set in one place, `Daemon.switch`) and hands each
press, sweep and tick to it; a mode's handler returns the mode to switch to (None: stay).
Whatever the mode, the hub's health goes to the table and the web companion's requests are
answered; the table's notices and sounds go on under the menu.

Adding a mode (as `StopMode`, the "stop this game?" question): a `Mode` subclass here with
the handlers it needs (`press`, `sweep`, `tick`), what the displays show (`shown`, a value
the screens draw) and where it leads; the mode that opens it returns it from its handler.
"""

from __future__ import annotations

import logging
from typing import Protocol

from companion.daemon.events import Press, Sweep
from companion.enrolment import EnrolView, TableEnrolment
from companion.game.sounds import SoundEvent
from companion.game.stopping import QUESTION_SECONDS, StopQuestion
from companion.game.table import Table
from companion.game.view import Phase, TableView
from companion.menu import Menu, MenuAction, MenuView, opens
from companion.settings import Settings, SettingsError

log = logging.getLogger("setup.daemon")


class Daemon(Protocol):
    """What a mode may do with the daemon that owns it (`companion.daemon.loop.Daemon`)."""

    table: Table
    settings: Settings

    def play(self, event: SoundEvent) -> None: ...

    def change_setting(self, key: str, value: object) -> Settings: ...

    def start_enrolment(self) -> Mode | None: ...

    def stop_game(self, by: str, at: float) -> bool: ...


class Mode:
    """One mode of the daemon; each handler returns the mode to switch to (None: stay)."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def press(self, press: Press) -> Mode | None:
        return None

    def sweep(self, sweep: Sweep) -> Mode | None:
        """A sweep of the readers: the table's, unless the mode takes the board."""
        self.daemon.table.on_snapshot(sweep.snapshot, sweep.at)
        return None

    def tick(self, now: float) -> Mode | None:
        return None

    def shown(self, view: TableView) -> TableView | MenuView | EnrolView | StopQuestion:
        """What every display shows in this mode, over the table's `view`."""
        return view

    def settings_changed(self, settings: Settings) -> None:
        """The table settings changed (from this mode, or from the web companion)."""


class TableMode(Mode):
    """The game at the table."""

    def press(self, press: Press) -> Mode | None:
        table = self.daemon.table
        if opens(table.phase, table.joined, press.long):
            log.info("settings menu opened from %s", press.seat)
            self.daemon.play(SoundEvent.MENU)
            return MenuMode(self.daemon, press.at)
        if press.long and press.together and table.phase == Phase.PLAYING:
            # two buttons held together: the question, not an undo
            asked = tuple(sorted({press.seat, *press.together}))
            log.info("%s hold their buttons together: stop the game?", " and ".join(asked))
            self.daemon.play(SoundEvent.MENU)
            return StopMode(self.daemon, asked, press.at, pending=press.together)
        table.on_press(press.seat, press.long, press.at)
        return None


class StopMode(Mode):
    """ "Stop this game?" on every display; the game goes on under it (its sweeps, its
    notices) until a long press stops it or anything else closes the question."""

    def __init__(
        self, daemon: Daemon, asked_by: tuple[str, ...], now: float, pending: frozenset[str]
    ) -> None:
        super().__init__(daemon)
        self.asked_by = asked_by
        self.since = now
        #: the other held buttons, whose own long press is part of the gesture, not an answer
        self.pending = set(pending)

    def __repr__(self) -> str:
        return f"<StopMode asked by {'+'.join(self.asked_by)}>"

    def press(self, press: Press) -> Mode | None:
        if press.long and press.seat in self.pending:
            self.pending.discard(press.seat)
            return None
        if press.long:
            log.info("%s confirms: the game stops", press.seat)
            self.daemon.stop_game("table", press.at)
        else:
            log.info("%s: the game goes on", press.seat)
            self.daemon.play(SoundEvent.CLOSED)
        return TableMode(self.daemon)

    def tick(self, now: float) -> Mode | None:
        if self.daemon.table.phase != Phase.PLAYING:  # it ended meanwhile (by itself)
            return TableMode(self.daemon)
        if now - self.since < QUESTION_SECONDS:
            return None
        log.info("the stop question went away after %.0f s without a press", now - self.since)
        return TableMode(self.daemon)

    def shown(self, view: TableView) -> StopQuestion:
        scores = tuple((seat.side, seat.score) for seat in view.seats)
        return StopQuestion(scores, view.colours, self.asked_by)


class MenuMode(Mode):
    """The settings menu on every display; the table's game goes on under it (the lobby)."""

    def __init__(self, daemon: Daemon, now: float) -> None:
        super().__init__(daemon)
        self.menu = Menu(daemon.settings, now)

    def __repr__(self) -> str:
        return f"<MenuMode at {self.menu.item}>"

    def press(self, press: Press) -> Mode | None:
        daemon = self.daemon
        action = self.menu.on_press(press.long, press.at)
        if action is None:
            daemon.play(SoundEvent.MENU)
            return None
        if action.kind == MenuAction.LEAVE:
            log.info("settings menu closed by %s", press.seat)
            daemon.play(SoundEvent.CLOSED)
            return TableMode(daemon)
        if action.kind == MenuAction.ENROL:
            return daemon.start_enrolment()  # None (refused): the menu stays open
        try:
            daemon.change_setting(str(action.key), action.value)
        except (SettingsError, OSError) as exc:
            log.error("the setting %s was not changed: %s", action.key, exc)
            daemon.play(SoundEvent.REFUSED)
        else:
            daemon.play(SoundEvent.SAVED)
        return None

    def tick(self, now: float) -> Mode | None:
        if not self.menu.idle(now):
            return None
        log.info("settings menu closed after %.0f s without a press", now - self.menu.last_press)
        return TableMode(self.daemon)

    def shown(self, view: TableView) -> MenuView:
        return self.menu.view()

    def settings_changed(self, settings: Settings) -> None:
        self.menu.shown(settings)


class EnrolMode(Mode):
    """The tiles' registration on every display, fed the daemon's sweeps while it runs."""

    def __init__(self, daemon: Daemon, enrolment: TableEnrolment) -> None:
        super().__init__(daemon)
        self.enrolment = enrolment

    def press(self, press: Press) -> Mode | None:
        if self.enrolment.running:
            if press.long:
                self.enrolment.stop()
                self.daemon.play(SoundEvent.CLOSED)
            else:  # the next tile: this one stays as it was
                self.enrolment.skip()
                self.daemon.play(SoundEvent.MENU)
            return None
        self.daemon.play(SoundEvent.CLOSED)  # the summary was read: back to the lobby
        return TableMode(self.daemon)

    def sweep(self, sweep: Sweep) -> Mode | None:
        if self.enrolment.running:  # the board is the enrolment's while it runs
            self.enrolment.feed(sweep.snapshot)
            return None
        return super().sweep(sweep)

    def shown(self, view: TableView) -> EnrolView:
        return self.enrolment.view()
