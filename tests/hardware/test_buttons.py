"""Seat buttons on gpiozero's MockFactory: pins mapped to seats, short and long presses.

Held in simulated time (`SimClock`, which also runs the long-press timer): a press's length
is what the test says, whatever the machine's load (a 0 ms blip stays under the 30 ms bounce
window, a 60 ms press stays short of a long one)."""

from __future__ import annotations

import threading

import pytest

from companion.sim.clock import SimClock
from hardware.buttons import SeatButtons

PINS = {"N": 5, "E": 6, "S": 13, "W": 19}


class Recorder:
    def __init__(self):
        self.presses: list[tuple[str, bool]] = []
        self.times: list[float] = []
        self.threads: set[str] = set()
        self.event = threading.Event()

    def __call__(self, seat, long, at):
        self.presses.append((seat, long))
        self.times.append(at)
        self.threads.add(threading.current_thread().name)
        self.event.set()


def press(factory, pin, seconds, clock: SimClock):
    factory.pin(pin).drive_low()
    clock.advance(seconds)
    factory.pin(pin).drive_high()


def buttons_on(pin_factory, clock: SimClock, **settings) -> SeatButtons:
    return SeatButtons(
        PINS, pin_factory=pin_factory, clock=clock, timer=clock.call_later, **settings
    )


def test_each_seat_button_reports_its_own_seat(pin_factory):
    got, clock = Recorder(), SimClock()
    with buttons_on(pin_factory, clock, long_press=0.5, on_press=got) as buttons:
        for seat in ("S", "W", "N", "E"):
            press(pin_factory, PINS[seat], 0.06, clock)
        assert got.presses == [("S", False), ("W", False), ("N", False), ("E", False)]
        assert [b.pin.info.name for b in buttons.buttons.values()] == [
            f"GPIO{p}" for p in PINS.values()
        ]
        assert all(b.pull_up for b in buttons.buttons.values())


def test_a_long_press_is_reported_while_held_and_only_once(pin_factory):
    got, clock = Recorder(), SimClock()
    with buttons_on(pin_factory, clock, long_press=0.3, on_press=got) as buttons:
        pin_factory.pin(PINS["E"]).drive_low()
        clock.advance(0.29)
        assert got.presses == [], "not long yet"
        clock.advance(0.01)
        assert got.presses == [("E", True)], "reported while still held"
        clock.advance(0.3)
        pin_factory.pin(PINS["E"]).drive_high()
        clock.advance(0.05)
        assert got.presses == [("E", True)], "the release after a long press says nothing"
        assert got.times == [pytest.approx(1000.3)]  # when it became long
        assert buttons.events().empty(), "a press goes to the handler alone"


def test_contact_bounce_is_not_a_press(pin_factory):
    got, clock = Recorder(), SimClock()
    with buttons_on(pin_factory, clock, long_press=0.5, bounce=0.03, on_press=got):
        pin = pin_factory.pin(PINS["N"])
        pin.drive_low()
        clock.advance(0.029)
        pin.drive_high()  # a blip just inside the 30 ms window
        pin.drive_low()
        clock.advance(0.08)
        pin.drive_high()
        pin.drive_low()  # the release bounces too
        pin.drive_high()
        assert got.presses == [("N", False)]
        pin.drive_low()
        clock.advance(0.031)  # just longer than the window: a press
        pin.drive_high()
        assert got.presses == [("N", False)] * 2


def test_the_event_queue_keeps_order_and_times(pin_factory):
    clock = SimClock(start=100.0)
    with buttons_on(pin_factory, clock, long_press=0.5, bounce=0.0) as buttons:
        press(pin_factory, PINS["W"], 0.01, clock)
        press(pin_factory, PINS["S"], 0.02, clock)
        events = [buttons.events().get_nowait() for _ in range(2)]
        assert events == [("W", False, pytest.approx(100.01)), ("S", False, pytest.approx(100.03))]


def test_a_failing_handler_does_not_stop_the_buttons(pin_factory, caplog):
    called = []

    def broken(seat, long, at):
        called.append((seat, long))
        raise RuntimeError("daemon bug")

    clock = SimClock()
    with buttons_on(pin_factory, clock, long_press=0.5, on_press=broken):
        press(pin_factory, PINS["S"], 0.05, clock)
        press(pin_factory, PINS["S"], 0.05, clock)
        assert called == [("S", False)] * 2
    assert "the button handler failed for S" in caplog.text


def test_bad_settings_and_close(pin_factory):
    with pytest.raises(ValueError):
        SeatButtons(PINS, long_press=0.01, bounce=0.05, pin_factory=pin_factory)
    buttons = SeatButtons({"N": 5}, pin_factory=pin_factory)
    button = buttons.buttons["N"]
    buttons.close()
    assert button.closed and buttons.buttons == {}
