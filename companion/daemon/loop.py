"""The daemon's loop: one queue of typed events in, screens, sounds and the published state
out.

One thread owns the game. It waits on the hub link (`HubLink.read`, woken at once by any
event put into the daemon's inbox from another thread), puts what the hub said (a sweep, a
change of its health) and a tick into the inbox behind the presses and web requests that
came meanwhile, and hands every event, in the order they came, to its one handler
(`Daemon.handlers`, `companion.daemon.events`). Presses, sweeps and ticks go through the
mode the daemon is in (`companion.daemon.modes`: the table, the settings menu, the tiles'
registration). Then it builds the table's view once and shows it: the presenter draws from
its own thread and the buzzer plays from its own, so a slow display or a long tune never
delays the next sweep, and the publisher hands the state to the web companion. The watchdog
is pinged from this loop only, so a stuck loop gets the service restarted.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from companion.board.problems import Problem, ProblemCode
from companion.board.registry import Registry, RegistryError
from companion.board.word import PAGE, Said, Word
from companion.config import Config
from companion.daemon.devices import Devices
from companion.daemon.events import (
    ConfirmCorrection,
    Event,
    FamilyWord,
    HubState,
    Press,
    StopGame,
    Sweep,
    Tick,
    TileInHand,
    WebRequest,
)
from companion.daemon.modes import EnrolMode, MenuMode, Mode, TableMode
from companion.daemon.publish import Handler, Publisher, RequestError
from companion.daemon.requests import TableRequests
from companion.enrolment import TableEnrolment
from companion.game.journal import Journal
from companion.game.published import SimTruth, TableState
from companion.game.sounds import Sound, SoundEvent
from companion.game.table import Table
from companion.game.view import Correction, Phase, PinShown, Reply, TableView
from companion.menu import Menu
from companion.notify import Notifier
from companion.settings import Settings, SettingsStore
from companion.show.chart import save_game_chart
from companion.show.i18n import Catalogue, keys
from companion.show.screens import Shown
from engine import SQUARES, Tile, TileError
from hardware.hub.snapshot import Snapshot

log = logging.getLogger("setup.daemon")

#: steps failing in a row before the watchdog is left to restart the service
MAX_FAILURES = 20
#: longest wait for the hub in one step: sweeps (10/s) and button presses wake the loop at
#: once, so this only paces it while the hub is silent (alerts expire, the watchdog is fed)
#: and keeps an idle daemon from waking more often than the hub sweeps.
LOOP_WAIT = 0.25
#: how long the displays say that the table settings file was set aside
NOTICE_SECONDS = 30.0


class Daemon:
    """One table's daemon: a `Table` fed from `Devices`, in one mode at a time."""

    def __init__(
        self,
        config: Config,
        devices: Devices,
        *,
        registry: Registry | None = None,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        enrol_listeners: Iterable[Callable[[Any], None]] = (),
        journal: Journal | None = None,
    ) -> None:
        self.devices = devices
        self.inbox = devices.inbox
        #: who else hears the enrolment's prompts (on the simulated table: the person there)
        self.enrol_listeners = list(enrol_listeners)
        #: who else hears every sound the buzzer plays (the simulated table's page)
        self.sound_listeners: list[Callable[[Sound], None]] = []
        self.clock = clock
        self.notifier = notifier or Notifier(None)
        config.paths.state_dir.mkdir(parents=True, exist_ok=True)
        #: config.toml as the installer wrote it; `config` is it with the table's settings
        self.installed = config
        self.store = SettingsStore(config.paths.state_dir)
        self.settings = self.store.effective(config)
        self.config = config = self.settings.apply_to(config)
        log.info("table settings: %s%s", self.settings, _chosen(self.store))
        if registry is None:
            registry = load_registry(config)
        journal = journal or Journal(config.paths.journal)  # a card not saved: run's
        self.table = Table(config, registry, journal, now=clock())
        if self.store.problem is not None:
            self.table.announce(Problem(ProblemCode.SETTINGS_SET_ASIDE), clock(), NOTICE_SECONDS)
        #: every kind of event and the one handler it goes to
        self.handlers: dict[type, Callable[[Any], object]] = {
            Press: self.on_press,
            Sweep: self.on_sweep,
            HubState: self.on_hub_state,
            WebRequest: self.on_web_request,
            StopGame: self.on_stop_game,
            FamilyWord: self.on_word,
            TileInHand: self.on_in_hand,
            ConfirmCorrection: self.on_confirm_correction,
            Tick: self.on_tick,
        }
        #: what the buttons and the board mean now; set in `switch` only
        self.mode: Mode = TableMode(self)
        self._use_settings(self.settings)
        if TableEnrolment.interrupted(config.paths.state_dir):
            log.warning("the enrolment was interrupted (a power cut?): going on with it")
            self.switch(self.start_enrolment())
        #: what the displays show now (the table's view, the menu, the enrolment)
        self.shown: Shown | None = None
        self.view: TableView | None = None
        self._health: tuple[bool, tuple[int, ...], tuple[str, ...]] | None = None
        self._last_ping = 0.0
        self._status = ""
        self._connected: bool | None = None
        self._charted: object = None
        self.chart: Path | None = None  # the score chart of the game that ended last
        self.publisher: Publisher | None = None  # the web companion's socket, if served
        self.requests: TableRequests | None = None  # its pairing and settings requests
        #: the simulated table's truth, for the web companion's page of it (`run --sim`)
        self.sim_truth: Callable[[], SimTruth] | None = None
        self.steps = 0
        self.failures = 0  # steps failing in a row

    @property
    def menu(self) -> Menu | None:
        """The settings menu, while it is open."""
        return self.mode.menu if isinstance(self.mode, MenuMode) else None

    @property
    def enrolment(self) -> TableEnrolment | None:
        """The tiles' registration, while it is on the displays."""
        return self.mode.enrolment if isinstance(self.mode, EnrolMode) else None

    def switch(self, mode: Mode | None) -> None:
        """The daemon's mode from now on (None: it stays as it is)."""
        if mode is not None and mode is not self.mode:
            log.debug("mode: %r -> %r", self.mode, mode)
            self.mode = mode

    # -- the loop -----------------------------------------------------------------------
    def step(self, timeout: float = LOOP_WAIT) -> Snapshot | None:
        """One turn of the loop: wait up to `timeout` for the hub (any event ends the wait),
        then act on every event. Never raises: an error is logged and counted in `failures`
        (reset by a step that succeeds), the same in a simulated-time run as in `serve()`."""
        try:
            snapshot = self._step(timeout)
        except Exception:  # a bug must not end the game at once: log it, try again
            self.failures += 1
            log.exception("error in the main loop (%d in a row); going on", self.failures)
            return None
        self.failures = 0
        return snapshot

    def _step(self, timeout: float) -> Snapshot | None:
        link = self.devices.link
        snapshot = link.read(timeout)
        now = self.clock()
        health = link.health
        state = (health.connected, health.faulty_readers, health.shared_with)
        if state != self._health:
            self._health = state
            self.inbox.put(HubState(state[0], state[1], now, state[2]), wake=False)
        if snapshot is not None:
            # behind the presses that woke this wait: the sweep read with a press is as late
            # as the press, and counts among the sweeps that confirm it
            self.inbox.put(Sweep(snapshot, now), wake=False)
        self.inbox.put(Tick(now), wake=False)
        for event in self.inbox.take():
            self.dispatch(event)
        self.refresh(now, health.connected)
        self.steps += 1
        return snapshot

    def dispatch(self, event: Event) -> object:
        """Hands `event` to its one handler; what it answers (a word's refusal), mostly None."""
        return self.handlers[type(event)](event)

    # -- the handlers -------------------------------------------------------------------
    def on_press(self, press: Press) -> None:
        """A seat's press, at its own time: through the mode the daemon is in."""
        self.table.pressed(press.at)
        self.switch(self.mode.press(press))

    def on_sweep(self, sweep: Sweep) -> None:
        self.switch(self.mode.sweep(sweep))

    def on_hub_state(self, state: HubState) -> None:
        self.table.on_health(state.connected, state.faulty, state.at)
        if state.shared:  # another program on the hub's port: named on every display
            who = ", ".join(state.shared)
            self.table.announce(Problem(ProblemCode.PORT_SHARED, who=who), state.at, NOTICE_SECONDS)

    def on_web_request(self, request: WebRequest) -> None:
        """A web companion's request, answered here on the loop like a button press."""
        if self.publisher is not None:
            self.publisher.answer(request)

    def on_stop_game(self, event: StopGame) -> None:
        """Stops the game being played (kept unfinished in the archive; the lobby opens),
        from the table's question or a paired page; the table plays on if it cannot."""
        if self.table.stop(event.at, event.by):
            self.switch(TableMode(self))

    def stop_game(self, by: str, at: float) -> bool:
        """Stops the game now, through its event; whether it stopped."""
        self.dispatch(StopGame(by, at))
        return self.table.phase != Phase.PLAYING

    def _stop_request(self, request: Mapping[str, Any], now: float) -> dict[str, Any]:
        """A paired page's "stop" (the web companion checks the pairing, as for `set`)."""
        if self.table.phase != Phase.PLAYING or self.table.game is None:
            raise RequestError("No game is being played.")
        scores = dict(self.table.game.scores)
        if not self.stop_game("web", now):
            raise RequestError("The game could not be stopped: the card refuses to save it.")
        return {"scores": scores}

    def _tiles_request(self, request: Mapping[str, Any], now: float) -> dict[str, Any]:
        """The registered tiles, by name: what a paired page's "Correct the board" offers."""
        return {"tiles": sorted({str(tile) for _, tile in self.table.registry.items()})}

    def on_word(self, event: FamilyWord) -> str | None:
        """The family's word, taken by the table (journalled first) or refused: None, or
        the catalogue key of why not."""
        return self.table.take_word(event.word, event.at)

    def on_in_hand(self, event: TileInHand) -> str | None:
        """A paired page says the tile its player's display asks about is in a hand
        (journalled first, as the hold would be) or it is refused: None, or the catalogue
        key of why not."""
        return self.table.take_in_hand(event.tile, PAGE, event.at)

    def _word_request(self, request: Mapping[str, Any], now: float) -> None:
        """A paired page's word about a square (the web companion checks the pairing): said
        by "page" whatever the request says, through the typed `FamilyWord` (or, `said`
        "hand", the answer "in a hand" to the question shown, `TileInHand`); refused in one
        sentence of the table's language."""
        texts = Catalogue.load(self.config.game.language)
        said, square, name = (request.get(k) for k in ("said", "square", "tile"))
        try:
            tile = Tile.parse(name) if isinstance(name, str) else None
        except TileError:
            tile = None
        if said not in (*Said, Reply.HAND) or square not in SQUARES or tile is None:
            raise RequestError(texts.text("web.correct.not_a_word"))
        if said == Reply.HAND:  # the answer "in a hand" to the question shown about it
            why = self.dispatch(TileInHand(tile, now))
        else:
            why = self.dispatch(FamilyWord(Word(Said(said), square, tile, PAGE), now))
        if isinstance(why, str):
            # a key the catalogue lacks still never reaches the page as a key
            raise RequestError(texts.text(why if why in keys() else "web.correct.refused"))

    def on_confirm_correction(self, event: ConfirmCorrection) -> str | None:
        """The correction shown confirmed (journalled first) or refused: None, or the
        catalogue key of why not."""
        return self.table.confirm_correction(event.by, event.at, event.shown)

    def _correct_request(self, request: Mapping[str, Any], now: float) -> None:
        """A paired page's "Apply the correction" (the web companion checks the pairing):
        `correction` is the `Correction` the page showed, as published (its JSON); applied
        only while it is still the one pending, confirmed by "page" whatever the request
        says, through the typed `ConfirmCorrection`; refused in one sentence of the
        table's language."""
        texts = Catalogue.load(self.config.game.language)
        shown = request.get("correction")
        try:
            if not isinstance(shown, dict) or shown.get("kind") != Correction.kind:
                raise ValueError("not a correction")
            correction = Correction.from_json(shown)
        except (KeyError, TypeError, ValueError):  # TileError is a ValueError
            raise RequestError(texts.text("web.correction.not_shown")) from None
        why = self.dispatch(ConfirmCorrection(PAGE, correction, now))
        if isinstance(why, str):
            raise RequestError(texts.text(why if why in keys() else "web.correct.refused"))

    def on_tick(self, tick: Tick) -> None:
        self.switch(self.mode.tick(tick.at))
        self.table.tick(tick.at)

    # -- what is shown ------------------------------------------------------------------
    def refresh(self, now: float, connected: bool | None = None) -> None:
        """Shows the table's view and plays its sounds; `connected`: the hub link's state."""
        # Sounds first: a tune starts on its own threads, so it is not held up by drawing.
        for sound in self.table.take_sounds():
            self.play_sound(sound)
        view = self.table.view(now)
        if connected is None:
            connected = self.devices.link.health.connected
        shown = self.mode.shown(self._displayed(view, now))
        if shown != self.shown:
            self.shown = shown
            self.devices.presenter.show(shown, now)
        else:
            self.devices.presenter.tick(now)
        changed = view != self.view
        self.view = view
        if changed or connected != self._connected or not isinstance(shown, TableView):
            self._connected = connected
            status = describe(view, connected, isinstance(self.mode, MenuMode))
            if status != self._status:
                self._status = status
                self.notifier.status(status)
        if self.publisher is not None:
            sim = None if self.sim_truth is None else self.sim_truth()
            state = TableState(view, connected, self.settings, sim)
            # the seat frames: the view as every watcher may see it (never the pairing PIN),
            # but on the simulated table, whose displays are seen on its page only, what
            # the displays show, PIN included
            frames = None if isinstance(shown, TableView) and sim is None else shown
            self.publisher.publish(state, frames, now)
        if view.phase == Phase.OVER and self._charted is not self.table.game:
            self._charted = self.table.game
            self.chart = self._save_chart()

    def _save_chart(self) -> Path | None:
        """The finished game's score chart, next to its journal (none on a card that cannot
        be written)."""
        game = self.table.game
        if game is None or not self.table.journal.saving:
            return None
        config = self.config
        return save_game_chart(game, self.table.colours, config.paths.journal, config.game.language)

    def _displayed(self, view: TableView, now: float) -> TableView:
        """What the seat displays show of the table: its view, and the web companion's
        pairing PIN while it is up (for the people at the table alone: never published)."""
        pin = None if self.requests is None else self.requests.pairing.showing(now)
        if pin is None:
            return view
        return dataclasses.replace(view, notices=(*view.notices, PinShown(pin)))

    def play(self, event: SoundEvent) -> None:
        """A sound of the daemon's own (the menu, the enrolment), for everyone."""
        self.play_sound(Sound(event))

    def play_sound(self, sound: Sound) -> None:
        """Plays `sound` on the buzzer; whoever listens too hears of it (the simulated
        table's page, which says in words what its unheard buzzer played)."""
        self.devices.sounds.announce(sound, self.table.colours)
        for listener in self.sound_listeners:
            listener(sound)

    def publish_to(
        self, publisher: Publisher, *, handlers: dict[str, Handler] | None = None
    ) -> None:
        """Serves the web companion on `publisher`: the table's state at every change, the
        pairing and settings requests (`companion.daemon.requests`) and any other
        `handlers`; its requests come into the inbox."""
        self.publisher = publisher
        publisher.on_request = self.inbox.put
        self.requests = TableRequests(self.change_setting, lambda: self.config.game.language)
        publisher.handlers.update(self.requests.handlers())
        publisher.handlers["stop"] = self._stop_request
        publisher.handlers["tiles"] = self._tiles_request
        publisher.handlers["word"] = self._word_request
        publisher.handlers["correct"] = self._correct_request
        publisher.handlers.update(handlers or {})

    # -- the settings and the enrolment -------------------------------------------------
    def start_enrolment(self) -> Mode | None:
        """ "Register the tiles": the guided enrolment on every display, from this loop;
        None (with the refusal's sound) if it cannot start."""
        registry = self.table.registry
        if registry.path is None:  # no file (damaged and kept, or the simulation's)
            registry.path = self.config.paths.registry
            _set_aside(registry.path)
        enrolment = TableEnrolment(
            registry,
            self.config.paths.state_dir,
            readers=self.config.hub.readers,
            clock=self.clock,
            listeners=self.enrol_listeners,
        )
        try:
            enrolment.start()
        except OSError as exc:
            log.error("cannot start the enrolment: %s", exc)
            self.play(SoundEvent.REFUSED)
            return None
        self.play(SoundEvent.ENROL)
        return EnrolMode(self, enrolment)

    def change_setting(self, key: str, value: object) -> Settings:
        """Changes one table setting (the menu and the web companion both come here: the daemon
        is the settings file's only writer). Raises SettingsError for a value that is not
        allowed and OSError when the card cannot be written; nothing changes then. The next
        game takes it; a game in progress keeps its rule options and teams (its journal has
        them); language, sound and auto-end apply at once."""
        settings = self.store.apply(key, value, self.installed)
        self._use_settings(settings)
        return settings

    def _use_settings(self, settings: Settings) -> None:
        self.settings = settings
        self.config = self.table.config = settings.apply_to(self.installed)
        self.devices.presenter.set_language(self.config.game.language)
        sound = self.config.sound
        self.devices.sounds.adjust(sound.volume, sound.mute, self.config.game.language)
        self.mode.settings_changed(settings)

    def ping(self) -> None:
        """Tells systemd's watchdog the loop is alive (at half its interval)."""
        interval = self.notifier.watchdog_interval
        if interval is None:
            return
        wall = time.monotonic()
        if wall - self._last_ping >= interval:
            self._last_ping = wall
            self.notifier.watchdog()

    def start(self) -> None:
        """Everything before READY: what a game draws loaded (`Presenter.warm`), and the
        first picture on the displays (or they are known absent)."""
        self.devices.presenter.warm()
        self.refresh(self.clock())
        self.devices.presenter.flush(5.0)

    def serve(self, stop: threading.Event) -> None:
        """The main loop, until `stop` is set. READY once the first picture is on the displays
        (or they are known absent); watchdog pings only while steps succeed, so a loop that
        keeps failing gets the service restarted by systemd."""
        self.start()
        self.notifier.ready(self._status or "ready")
        log.info("ready: %s", self._status or "ready")
        # Everything made while starting (modules, fonts, the game) lives as long as the
        # daemon: out of the collector's way, so its pauses stay short in the loop.
        gc.collect()
        gc.freeze()
        while not stop.is_set():
            self.step(LOOP_WAIT)
            if self.failures:
                time.sleep(0.05)  # a failing step must not spin the CPU
            if self.failures < MAX_FAILURES:
                self.ping()
        self.notifier.stopping()


def _set_aside(path: Path) -> None:
    """A damaged registry is kept for a person to look at, out of the new one's way."""
    if not path.exists():
        return
    n = 1
    while (aside := path.with_name(f"{path.stem}-damaged-{n}{path.suffix}")).exists():
        n += 1
    try:
        path.replace(aside)
        log.warning("the damaged tile registry was kept as %s", aside.name)
    except OSError as exc:
        log.error("cannot set the damaged tile registry aside: %s", exc)


def _chosen(store: SettingsStore) -> str:
    if not store.overrides:
        return " (all from the config file)"
    return f" (chosen on the table: {', '.join(store.overrides)}; the rest from the config file)"


def load_registry(config: Config) -> Registry:
    """The tile registry of the state dir; an empty one (and a clear log line) if missing
    or damaged. A damaged file is left as it is, for a person to look at or enrol again: the
    daemon must still boot (its tiles then show as unknown on the displays)."""
    path = config.paths.registry
    if not path.exists():
        log.warning("no tile registry at %s: run `setup-companion enroll` first", path)
        return Registry(path)
    try:
        return Registry.load(path)
    except RegistryError as exc:
        log.error(
            "%s; every tile is unknown until it is fixed or `setup-companion enroll` is run", exc
        )
        return Registry(None)  # no file: nothing can ever be saved over the damaged one


def describe(view: TableView | None, hub_connected: bool = True, menu: bool = False) -> str:
    """One line for `systemctl status`."""
    if view is None:
        return "starting"
    if not hub_connected:
        return "reader hub not connected; " + describe(view)
    if view.phase == Phase.LOBBY and menu:
        return "lobby: settings menu open"
    if view.phase == Phase.LOBBY:
        joined = " ".join(view.lobby.joined) if view.lobby else ""
        return f"lobby: {joined or 'press to join'}"
    scores = " ".join(f"{seat.side} {seat.score}" for seat in view.seats)
    if view.phase == Phase.OVER:
        return f"game over: {scores}"
    active = view.active.side if view.active else "?"
    return f"playing, {active} to move: {scores}"
