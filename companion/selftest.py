"""The self-test of a built table: hub link, each reader, each display, button and the buzzer.

Each check gives a `Check`: PASS or FAIL (or SKIP for what is not configured) with a
one-line reason a hobbyist can act on. The checks talk to the devices through the same
code as the daemon (`HubLink`, luma devices from `hardware.display`, gpiozero through
`SeatButtons` and `TunePlayer`), so what passes here works in a game.
"""

from __future__ import annotations

import contextlib
import queue
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import serial
from gpiozero.exc import PinFactoryFallback

from companion.config import Config
from companion.show.canvas import Canvas
from companion.show.i18n import Catalogue
from companion.show.screens.selftest import draw_selftest
from engine import SIDES
from hardware.buttons import SeatButtons
from hardware.buzzer import TunePlayer
from hardware.display import DisplayError, DisplaySettings, describe, open_display
from hardware.hub.holders import holders
from hardware.hub.link import HubLink
from hardware.i2c_scan import Panel, find_panels

#: the wiring (docs/hardware.md): the display of seat SIDES[k] on multiplexer channel k
CHANNEL_OF = {side: channel for channel, side in enumerate(SIDES)}
MIN_RATE = 5.0  # snapshots per second the daemon needs to follow a game
RATE_WINDOW = 1.0  # seconds of snapshots the rate is measured over
TEST_TUNE = (("C6", 0.08), ("E6", 0.08), ("G6", 0.08), ("C7", 0.16))


@dataclass(frozen=True)
class Check:
    """One check's verdict: `passed` is None for a check that was skipped."""

    name: str
    passed: bool | None
    reason: str

    @property
    def verdict(self) -> str:
        return "SKIP" if self.passed is None else "PASS" if self.passed else "FAIL"

    def __str__(self) -> str:
        return f"{self.verdict} {self.name}: {self.reason}"


class TableSelfTest:
    """The checks of one table, from its configuration.

    `hub_port` overrides the config's port, `displays` its display settings (side ->
    settings), `pin_factory` is gpiozero's (None: the Pi's own). `opener` opens a display
    from its settings (tests wrap it to look at the devices). `press(side, pin)` is called
    when the check asks for a button: the simulation presses it from there; a real table
    has a person. `out` receives every line the check prints, as it happens. `scan` finds
    the panels on the I2C buses when a display fails (None: not looked for). `simulated`:
    the displays and buzzer are in memory, nothing to look at or listen to."""

    def __init__(
        self,
        config: Config,
        *,
        hub_port: str | None = None,
        displays: Mapping[str, Mapping[str, Any]] | None = None,
        pin_factory: Any = None,
        opener: Callable[[Mapping[str, Any]], Any] = open_display,
        press: Callable[[str, Any], None] | None = None,
        buttons: bool = True,
        button_timeout: float = 10.0,
        hub_timeout: float = 3.0,
        out: Callable[[str], None] = print,
        scan: Callable[[], list[Panel]] | None = find_panels,
        simulated: bool = False,
    ) -> None:
        self.config = config
        self.port = hub_port or config.hub.port
        self.seats = {side: seat for side, seat in config.seats.items() if seat.enabled}
        self.display_settings = dict(
            displays or {side: seat.display for side, seat in self.seats.items()}
        )
        self.pin_factory = pin_factory
        self.opener = opener
        self.press = press
        self.test_buttons = buttons
        self.button_timeout = button_timeout
        self.hub_timeout = hub_timeout
        self.out = out
        self.scan = scan
        self.simulated = simulated
        self.devices: dict[str, Any] = {}  # side -> the open luma device of each display

    def run(self) -> list[Check]:
        """Every check in order, each printed through `out` as soon as it is known."""
        checks: list[Check] = []
        try:
            for check in self._all():
                self.out(str(check))
                checks.append(check)
        finally:
            self._close_displays()
        return checks

    def _all(self) -> Iterator[Check]:
        # the self-test names a program reading the hub's port; the daemon cuts it off
        with HubLink(self.port, evict=False) as link:
            hub = self.check_hub(link)
            yield hub
            port = self.check_port(link)
            if hub.passed or port.passed is False:  # no hub: only one on its port is news
                yield port
            yield from self.check_readers(link if hub.passed else None)
        yield from self.check_displays()
        yield from self.check_buttons()
        yield self.check_buzzer()

    # -- the hub ---------------------------------------------------------------------------
    def check_hub(self, link: Any) -> Check:
        """Connects, hears HELLO (the firmware version) and snapshots at MIN_RATE or more."""
        name = "hub link"
        first = _wait(lambda: link.read(0.25), self.hub_timeout)
        if first is None:
            link.close()  # let go of the port, so the probe sees the port's own error
            return Check(name, False, self._why_silent())
        received = [first.received]
        started = time.monotonic()
        while time.monotonic() - started < RATE_WINDOW:
            snapshot = link.read(0.25)
            if snapshot is not None:
                received.append(snapshot.received)
        span = received[-1] - received[0]
        rate = (len(received) - 1) / span if span > 0 else 0.0
        health = link.health
        if health.firmware is None:
            return Check(name, False, f"{self.port} sends snapshots but no HELLO to VERSION")
        reason = f"firmware {health.firmware} on {self.port}, {rate:.1f} snapshots/s"
        if health.bad_lines:
            reason += f", {health.bad_lines} bad line(s) dropped"
        if rate < MIN_RATE:
            return Check(name, False, f"{reason}: too slow (at least {MIN_RATE:g}/s needed)")
        return Check(name, True, reason)

    def check_port(self, link: Any) -> Check:
        """No other program has the hub's port open: one that reads it takes the sweeps."""
        name = "hub port"
        others = link.health.shared_with or tuple(map(str, holders(self.port)))
        if others:
            return Check(
                name,
                False,
                f"also open in {', '.join(others)}, which takes the hub's lines: close it "
                "(the daemon has the hub reconnect, which cuts it off)",
            )
        return Check(name, True, f"{self.port} is open in no other program")

    def _why_silent(self) -> str:
        """Why nothing came: the port's own error if it cannot be opened."""
        try:
            port = serial.serial_for_url(self.port, exclusive=True, timeout=0)
        except (OSError, ValueError) as exc:
            busy = "lock" in str(exc).lower() or "busy" in str(exc).lower()
            hint = " (is setup-companion running? stop it first)" if busy else ""
            return f"cannot open {self.port}: {_first_line(exc)}{hint}"
        port.close()
        return f"no line from the hub on {self.port} within {self.hub_timeout:g} s"

    def check_readers(self, link: Any | None) -> Iterator[Check]:
        """The hub's own test of its readers (`SELFTEST`), one line per reader."""
        readers = self.config.hub.readers
        if link is None:
            yield Check("readers", False, "not tested: the hub link failed")
            return
        answer = link.self_test(timeout=3.0)
        if answer is None:
            yield Check("readers", False, "the hub did not answer SELFTEST within 3 s")
            return
        for reader, version in enumerate(answer.readers):
            square = readers[reader] if reader < len(readers) else "?"
            name = f"reader {reader} ({square})"
            if version is None:
                reason = "fault: check its chip-select wire, 3.3 V, GND and RST"
                yield Check(name, False, reason)
            else:
                yield Check(name, True, f"ok (version register {version})")

    # -- the displays ----------------------------------------------------------------------
    def check_displays(self) -> Iterator[Check]:
        """Opens each seat's display and draws the test pattern with its side on it; if one
        fails, looks for the panels on every I2C bus."""
        failed = []
        for check in self._each_display():
            if check.passed is False:
                failed.append(check.name.removeprefix("display "))
            yield check
        if failed and self.scan is not None:
            yield self.check_display_buses(failed)

    def _each_display(self) -> Iterator[Check]:
        look = "in memory: nothing to look at" if self.simulated else "look at it"
        for side in self.seats:
            name = f"display {side}"
            settings = self.display_settings.get(side)
            if settings is None:
                yield Check(name, None, "no display configured")
                continue
            try:
                device = self.opener(settings)
            except DisplayError as exc:
                yield Check(name, False, str(exc))
                continue
            self.devices[side] = device
            try:
                device.display(self.pattern(side, device.size))
            except Exception as exc:  # luma and the bus raise many kinds; all mean no picture
                yield Check(name, False, f"{describe(settings)} cannot draw: {exc}")
                continue
            yield Check(name, True, f"{describe(settings)} shows SELFTEST {side} ({look})")

    def check_display_buses(self, failed: list[str]) -> Check:
        """Where the panels really are, and the config lines that say so; `failed`: the
        sides whose display did not open."""
        name = "display buses"
        assert self.scan is not None
        try:
            panels = self.scan()
        except Exception as exc:  # no /dev/i2c-* access, smbus2 missing ...
            return Check(name, False, f"cannot scan the I2C buses: {_first_line(exc)}")
        if not panels:
            return Check(
                name,
                False,
                "no panel answers on any I2C bus: check the multiplexer's and panels' 3.3 V,"
                " GND, SDA and SCL, and that I2C is on (reboot once after make install)",
            )
        found = ", ".join(map(str, panels))
        seats = seat_panels(panels)
        if not seats:
            return Check(
                name,
                False,
                f"panels found on {found}, none on a multiplexer channel: check the"
                " multiplexer (address 0x70, the i2c-mux line in config.txt)",
            )
        wanted = {}
        for side, given in self.display_settings.items():
            try:
                settings = (
                    given
                    if isinstance(given, DisplaySettings)
                    else DisplaySettings.from_mapping(given)
                )
            except DisplayError:
                continue  # its own check said why
            if settings.interface == "i2c":
                wanted[side] = (settings.i2c_port, settings.i2c_address)
        wrong = {
            side: panel
            for side, panel in seats.items()
            if side in wanted and wanted[side] != (panel.bus, panel.address)
        }
        if not wrong:
            missing = ", ".join(side for side in failed if side not in seats)
            return Check(
                name,
                False,
                f"panels found on {found}; none for display {missing or '?'}: check its wires",
            )
        for line in ["  paste into /etc/setup-companion/config.toml:", *config_lines(wrong)]:
            self.out(line if line.startswith("  ") else f"    {line}")
        return Check(name, False, f"panels found on {found}: the config names other buses")

    def pattern(self, side: str, size: tuple[int, int], prompt: str | None = None) -> Any:

        canvas = Canvas(tuple(size))
        texts = Catalogue.load(self.config.game.language)
        draw_selftest(canvas, side, self.seats[side].colour, texts, prompt=prompt)
        return canvas.image

    def _show(self, side: str, prompt: str) -> None:
        device = self.devices.get(side)
        if device is None:
            return
        # a display that cannot draw has had its FAIL line already
        with contextlib.suppress(Exception):
            device.display(self.pattern(side, device.size, prompt))

    def _close_displays(self) -> None:
        for device in self.devices.values():
            with contextlib.suppress(Exception):
                device.cleanup()  # persist: the last picture stays on
        self.devices.clear()

    # -- the buttons -----------------------------------------------------------------------
    def check_buttons(self) -> Iterator[Check]:
        """Asks each seat in turn to press its button within `button_timeout` seconds."""
        if not self.test_buttons:
            yield Check("buttons", None, "not tested (--no-buttons)")
            return
        pins = {s: seat.button_pin for s, seat in self.seats.items() if seat.button_pin is not None}
        for side in self.seats:
            if side not in pins:
                yield Check(f"button {side}", None, "no button configured")
        if not pins:
            return
        try:
            with _quiet_fallbacks():
                buttons = SeatButtons(pins, pin_factory=self.pin_factory)
        except Exception as exc:  # no GPIO here, a pin in use ...
            for side, pin in pins.items():
                yield Check(f"button {side}", False, f"cannot use pin {pin}: {_first_line(exc)}")
            return
        with buttons:
            for side, pin in pins.items():
                yield self._check_button(buttons, side, pin)

    def _check_button(self, buttons: Any, side: str, pin: Any) -> Check:
        name = f"button {side}"
        colour = self.seats[side].colour
        events = buttons.events()
        _drain(events)
        if buttons.buttons[side].is_active:
            return Check(
                name, False, f"pin {pin} reads pressed before being asked: stuck or shorted"
            )
        self.out(f"  press the {side} ({colour}) button within {self.button_timeout:g} s ...")
        self._show(side, "selftest.press")
        if self.press is not None:
            self.press(side, pin)
        others: list[str] = []
        deadline = time.monotonic() + self.button_timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                seat, _long, _ = events.get(timeout=min(left, 0.25))
            except queue.Empty:
                continue
            if seat == side:
                self._show(side, "selftest.pressed")
                return Check(name, True, f"pin {pin}: pressed")
            others.append(seat)
        wrong = f"; {', '.join(sorted(set(others)))} was pressed instead" if others else ""
        return Check(
            name,
            False,
            f"pin {pin}: not pressed within {self.button_timeout:g} s{wrong} (check its wires)",
        )

    # -- the buzzer ------------------------------------------------------------------------
    def check_buzzer(self) -> Check:
        """Drives the buzzer's pin and plays a short rising tune at full volume."""
        pin = self.config.sound.buzzer_pin
        if pin is None:
            return Check("buzzer", None, "no buzzer configured")
        try:
            with _quiet_fallbacks():
                player = TunePlayer(pin, volume=1.0, pin_factory=self.pin_factory)
        except Exception as exc:
            return Check("buzzer", False, f"cannot use pin {pin}: {_first_line(exc)}")
        with player:
            try:
                player.play(TEST_TUNE)
            except Exception as exc:
                return Check("buzzer", False, f"pin {pin}: cannot play: {_first_line(exc)}")
            if not player.wait(timeout=5.0):
                return Check("buzzer", False, f"pin {pin}: the test tune did not end")
        listen = "simulated: nothing to hear" if self.simulated else "listen for it"
        return Check("buzzer", True, f"pin {pin}: played the test tune ({listen})")


def seat_panels(panels: Iterable[Panel]) -> dict[str, Panel]:
    """The panel of each seat, by the channel it is wired to (the first one found on it)."""
    seats: dict[str, Panel] = {}
    for panel in panels:
        for side, channel in CHANNEL_OF.items():
            if panel.channel == channel and side not in seats:
                seats[side] = panel
    return seats


def config_lines(seats: Mapping[str, Panel], driver: str = "ssd1306") -> list[str]:
    """The lines for /etc/setup-companion/config.toml that name these panels."""
    lines = []
    for side in SIDES:
        panel = seats.get(side)
        if panel is None:
            continue
        lines += [
            f"[seats.{side}]",
            f'display = {{ display = "{driver}", interface = "i2c", i2c_port = {panel.bus},'
            f' i2c_address = "0x{panel.address:02X}" }}',
        ]
    return lines


def summary(checks: list[Check]) -> str:
    failed = [c.name for c in checks if c.passed is False]
    passed = sum(1 for c in checks if c.passed)
    skipped = sum(1 for c in checks if c.passed is None)
    text = f"selftest: {passed} passed, {len(failed)} failed"
    if skipped:
        text += f", {skipped} skipped"
    return text + (f" ({', '.join(failed)})" if failed else "")


def _wait(read: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = read()
        if value is not None:
            return value
    return None


def _drain(events: queue.SimpleQueue) -> None:
    while True:
        try:
            events.get_nowait()
        except queue.Empty:
            return


@contextlib.contextmanager
def _quiet_fallbacks() -> Iterator[None]:
    """gpiozero warns for each pin library it tries and lacks; the check's FAIL line says
    what matters (no pin factory at all), so the terminal is not flooded."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        yield


def _first_line(exc: BaseException) -> str:
    return (str(exc) or type(exc).__name__).splitlines()[0]
