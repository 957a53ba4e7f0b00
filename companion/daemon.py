"""The daemon's loop: hub snapshots, button presses and time in; screens and sounds out.

One thread owns the game: it reads the hub link, hands snapshots, link health and button
presses to the `Table`, and passes the resulting view to the presenter (which draws from
its own thread) and the sound events to the buzzer (which plays from its own thread), so a
slow display or a long tune never delays the next sweep. The watchdog is pinged from this
loop only, so a stuck loop gets the service restarted.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.board.problems import Problem
from companion.board.registry import Registry, RegistryError
from companion.config import Config
from companion.game.enrolling import TableEnrolment
from companion.game.journal import Journal
from companion.game.menu import Menu, opens
from companion.game.published import SimTruth, TableState
from companion.game.sounds import Sound, SoundEvent
from companion.game.table import Table
from companion.game.view import Phase, PinShown, TableView
from companion.notify import Notifier
from companion.publish import Handler, Publisher
from companion.requests import TableRequests
from companion.settings import Settings, SettingsError, SettingsStore
from companion.show.presenter import Presenter
from companion.show.tunes import Sounds
from hardware.display import DisplaySettings
from hardware.hub.link import HubLink
from hardware.hub.snapshot import Snapshot

if TYPE_CHECKING:  # gpiozero is imported when the buttons are opened
    from hardware.buttons import SeatButtons, Timer

log = logging.getLogger("setup.daemon")

Press = tuple[str, bool, float]
#: steps failing in a row before the watchdog is left to restart the service
MAX_FAILURES = 20
#: longest wait for the hub in one step: sweeps (10/s) and button presses wake the loop at
#: once, so this only paces it while the hub is silent (alerts expire, the watchdog is fed)
#: and keeps an idle daemon from waking more often than the hub sweeps.
LOOP_WAIT = 0.25
#: how long the displays say that the table settings file was set aside
NOTICE_SECONDS = 30.0


@dataclass
class Devices:
    """Everything the daemon drives; each part closes cleanly and may be absent."""

    link: HubLink
    presenter: Presenter
    sounds: Sounds
    buttons: SeatButtons | None = None  # None: they could not be opened (logged)
    presses: queue.SimpleQueue[Press] = field(default_factory=queue.SimpleQueue)
    closers: list[Callable[[], Any]] = field(default_factory=list)  # buzzer, sim hub
    clock: Callable[[], float] = time.monotonic

    def press(self, seat: str, long: bool) -> None:
        """A button press (from gpiozero's thread): queued, and the loop woken to act now."""
        self.presses.put((seat, long, self.clock()))
        self.link.wake()

    def close(self) -> None:
        buttons = () if self.buttons is None else (self.buttons.close,)
        for close in (
            self.presenter.close,
            self.sounds.close,
            *buttons,
            *reversed(self.closers),
            self.link.close,
        ):
            try:
                close()
            except Exception as exc:  # closing must go on for the others
                log.warning("while closing: %s", exc)


def open_devices(
    config: Config,
    *,
    hub_port: str | None = None,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    threaded: bool = True,
    displays: dict[str, DisplaySettings] | None = None,
    timer: Timer | None = None,
) -> Devices:
    """Opens the hub link, displays, buttons and buzzer from the config. A device that is
    missing is reported in the log and the daemon goes on without it. `clock` and `timer`
    are the buttons' time (simulated on the simulated table)."""
    from hardware.buttons import SeatButtons, thread_timer
    from hardware.buzzer import TunePlayer

    link = HubLink(hub_port or config.hub.port, clock=clock)
    link.open()
    seats = {side: seat for side, seat in config.seats.items() if seat.enabled}
    settings = displays or {side: seat.display for side, seat in seats.items()}
    presenter = Presenter.from_settings(
        settings, lang=config.game.language, clock=clock, threaded=threaded
    )
    closers: list[Callable[[], Any]] = []
    buzzer = None
    if config.sound.buzzer_pin is not None:
        try:
            buzzer = TunePlayer(config.sound.buzzer_pin, pin_factory=pin_factory)
            closers.append(buzzer.close)
        except Exception as exc:  # no GPIO (a PC), pin busy: play on without sound
            log.error(
                "no buzzer on pin %s: %s; the game goes on silently", config.sound.buzzer_pin, exc
            )
    sounds = Sounds(buzzer, config.sound, language=config.game.language)
    devices = Devices(link, presenter, sounds, closers=closers, clock=clock)
    pins = {side: seat.button_pin for side, seat in seats.items() if seat.button_pin is not None}
    try:
        devices.buttons = SeatButtons(
            pins,
            long_press=config.game.long_press,
            pin_factory=pin_factory,
            clock=clock,
            timer=timer or thread_timer,
            on_press=devices.press,
        )
    except Exception as exc:
        named = ", ".join(f"{side} on GPIO{pin}" for side, pin in pins.items())
        log.error("cannot open the seat buttons (%s): %s", named, exc)
    return devices


class Daemon:
    """One table's daemon: a `Table` fed from `Devices`."""

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
        #: who else hears the enrolment's prompts (on the simulated table: the person there)
        self.enrol_listeners = list(enrol_listeners)
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
            self.table.announce(Problem("settings-set-aside"), clock(), NOTICE_SECONDS)
        self.menu: Menu | None = None
        self.enrolment: TableEnrolment | None = None
        self._use_settings(self.settings)
        if TableEnrolment.interrupted(config.paths.state_dir):
            log.warning("the enrolment was interrupted (a power cut?): going on with it")
            self.start_enrolment()
        self._shown: object = None
        self.view: TableView | None = None
        self._health: tuple[bool, tuple[int, ...]] | None = None
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

    def step(self, timeout: float = LOOP_WAIT) -> Snapshot | None:
        """One turn of the loop: wait up to `timeout` for a snapshot, then act on everything.
        Never raises: an error is logged and counted in `failures` (reset by a step that
        succeeds), the same in a simulated-time run as in `serve()`."""
        try:
            snapshot = self._step(timeout)
        except Exception:  # a bug must not end the game at once: log it, try again
            self.failures += 1
            log.exception("error in the main loop (%d in a row); going on", self.failures)
            return None
        self.failures = 0
        return snapshot

    def _step(self, timeout: float) -> Snapshot | None:
        link, table = self.devices.link, self.table
        snapshot = link.read(timeout)
        now = self.clock()
        health = link.health
        state = (health.connected, health.faulty_readers)
        if state != self._health:
            self._health = state
            table.on_health(health.connected, health.faulty_readers, now)
        # Presses first: a press wakes the wait, so the sweep read with it is as late as the
        # press, and counts among the sweeps that confirm it.
        while True:
            try:
                seat, long, _ = self.devices.presses.get_nowait()
            except queue.Empty:
                break
            self.on_press(seat, long, now)
        if self.menu is not None and self.menu.idle(now):
            log.info(
                "settings menu closed after %.0f s without a press", now - self.menu.last_press
            )
            self.menu = None
        if snapshot is not None and self.enrolment is not None and self.enrolment.running:
            self.enrolment.feed(snapshot)  # the board is the enrolment's while it runs
        elif snapshot is not None:
            table.on_snapshot(snapshot, now)
        if self.publisher is not None:
            self.publisher.serve(now)  # the web companion's requests, on this thread
        table.tick(now)
        self.refresh(now, health.connected)
        self.steps += 1
        return snapshot

    def refresh(self, now: float, connected: bool | None = None) -> None:
        """Shows the table's view and plays its sounds; `connected`: the hub link's state."""
        # Sounds first: a tune starts on its own threads, so it is not held up by drawing.
        for sound in self.table.take_sounds():
            self._play(sound)
        view = self.table.view(now)
        if connected is None:
            connected = self.devices.link.health.connected
        shown: object = self._displayed(view, now)
        if self.enrolment is not None:
            shown = self.enrolment.view()
        elif self.menu is not None:
            shown = self.menu.view()
        if shown != self._shown:
            self._shown = shown
            self.devices.presenter.show(shown, now)
        else:
            self.devices.presenter.tick(now)
        changed = view != self.view
        self.view = view
        if changed or connected != self._connected or not isinstance(shown, TableView):
            self._connected = connected
            status = describe(view, connected, self.menu is not None)
            if status != self._status:
                self._status = status
                self.notifier.status(status)
        if self.publisher is not None:
            sim = None if self.sim_truth is None else self.sim_truth()
            state = TableState(view, connected, self.settings, sim)
            self.publisher.publish(state, None if isinstance(shown, TableView) else shown, now)
        if view.phase == Phase.OVER and self._charted is not self.table.game:
            self._charted = self.table.game
            self.chart = save_game_chart(self.table, self.config)

    def _displayed(self, view: TableView, now: float) -> TableView:
        """What the seat displays show of the table: its view, and the web companion's
        pairing PIN while it is up (for the people at the table alone: never published)."""
        pin = None if self.requests is None else self.requests.pairing.showing(now)
        if pin is None:
            return view
        return dataclasses.replace(view, notices=(*view.notices, PinShown(pin)))

    def _play(self, sound: Sound) -> None:
        self.devices.sounds.announce(sound, self.table.colours)

    def publish_to(
        self, publisher: Publisher, *, handlers: dict[str, Handler] | None = None
    ) -> None:
        """Serves the web companion on `publisher`: the table's state at every change, the
        pairing and settings requests (`companion.requests`) and any other `handlers`."""
        self.publisher = publisher
        self.requests = TableRequests(self.change_setting)
        publisher.handlers.update(self.requests.handlers())
        publisher.handlers.update(handlers or {})

    # -- the settings menu -----------------------------------------------------------------
    def on_press(self, seat: str, long: bool, now: float) -> None:
        """A seat's press: to the enrolment or the menu while they are open (or to open the
        menu), else to the table."""
        self.table.pressed(now)
        if self.enrolment is not None:
            return self._enrolment_press(long)
        if self.menu is None and opens(self.table.view(now), long):
            log.info("settings menu opened from %s", seat)
            self.menu = Menu(self.settings, now)
            return self._play(Sound(SoundEvent.MENU))
        if self.menu is None:
            self.table.on_press(seat, long, now)
            return
        action = self.menu.on_press(long, now)
        if action is None:
            return self._play(Sound(SoundEvent.MENU))
        if action.kind == "leave":
            log.info("settings menu closed by %s", seat)
            self.menu = None
            return self._play(Sound(SoundEvent.CLOSED))
        if action.kind == "enrol":
            return self.start_enrolment()
        if action.kind == "set":
            try:
                self.change_setting(str(action.key), action.value)
            except (SettingsError, OSError) as exc:
                log.error("the setting %s was not changed: %s", action.key, exc)
                return self._play(Sound(SoundEvent.REFUSED))
            return self._play(Sound(SoundEvent.SAVED))

    def start_enrolment(self) -> None:
        """ "Register the tiles": the guided enrolment on every display, from this loop."""
        registry = self.table.registry
        if registry.path is None:  # no file (damaged and kept, or the simulation's)
            registry.path = self.config.paths.registry
            _set_aside(registry.path)
        self.enrolment = TableEnrolment(
            registry,
            self.config.paths.state_dir,
            readers=self.config.hub.readers,
            clock=self.clock,
            listeners=self.enrol_listeners,
        )
        try:
            self.enrolment.start()
        except OSError as exc:
            log.error("cannot start the enrolment: %s", exc)
            self.enrolment = None
            return self._play(Sound(SoundEvent.REFUSED))
        self._play(Sound(SoundEvent.ENROL))

    def _enrolment_press(self, long: bool) -> None:
        enrolment = self.enrolment
        assert enrolment is not None
        if enrolment.running:
            if long:
                enrolment.stop()
                self._play(Sound(SoundEvent.CLOSED))
            return
        self.enrolment = self.menu = None  # the summary was read: back to the lobby
        self._play(Sound(SoundEvent.CLOSED))

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
        if self.menu is not None:
            self.menu.shown(settings)

    def ping(self) -> None:
        """Tells systemd's watchdog the loop is alive (at half its interval)."""
        interval = self.notifier.watchdog_interval
        if interval is None:
            return
        wall = time.monotonic()
        if wall - self._last_ping >= interval:
            self._last_ping = wall
            self.notifier.watchdog()

    def serve(self, stop: threading.Event) -> None:
        """The main loop, until `stop` is set. READY once the first picture is on the displays
        (or they are known absent); watchdog pings only while steps succeed, so a loop that
        keeps failing gets the service restarted by systemd."""
        self.refresh(self.clock())
        self.devices.presenter.flush(5.0)
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


def save_game_chart(table: Table, config: Config) -> Path | None:
    """The finished game's score chart, as a PNG next to its journal. Named after the game's
    first record, so a restart that shows the same finished game writes the same file."""
    from companion.game.archive import chart_path
    from companion.show.chart import progress_of, save_chart

    game = table.game
    if game is None or not table.journal.saving:  # a card that cannot be written: no file
        return None
    ranking = game.ranking()
    return save_chart(
        chart_path(config.paths.journal),
        progress_of(game),
        game.finish_line,
        table.colours,
        config.game.language,
        winner=ranking.winner,
    )


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
