"""Seat buttons on gpiozero's MockFactory: pins mapped to seats, short and long presses."""

from __future__ import annotations

import threading
import time

import pytest

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


def press(factory, pin, seconds):
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()


def test_each_seat_button_reports_its_own_seat(pin_factory):
    got = Recorder()
    with SeatButtons(PINS, long_press=0.5, pin_factory=pin_factory, on_press=got) as buttons:
        for seat in ("S", "W", "N", "E"):
            press(pin_factory, PINS[seat], 0.06)
        assert got.presses == [("S", False), ("W", False), ("N", False), ("E", False)]
        assert [b.pin.info.name for b in buttons.buttons.values()] == [
            f"GPIO{p}" for p in PINS.values()
        ]
        assert all(b.pull_up for b in buttons.buttons.values())


def test_a_long_press_is_reported_while_held_and_only_once(pin_factory):
    got = Recorder()
    with SeatButtons(PINS, long_press=0.3, pin_factory=pin_factory, on_press=got) as buttons:
        pin_factory.pin(PINS["E"]).drive_low()
        assert got.event.wait(timeout=3), "reported while still held"
        assert got.presses == [("E", True)]
        time.sleep(0.3)
        pin_factory.pin(PINS["E"]).drive_high()
        time.sleep(0.05)
        assert got.presses == [("E", True)], "the release after a long press says nothing"
        assert got.times[0] > 0
        assert buttons.events().empty(), "a press goes to the handler alone"


def test_contact_bounce_is_not_a_press(pin_factory):
    got = Recorder()
    with SeatButtons(PINS, long_press=0.5, bounce=0.03, pin_factory=pin_factory, on_press=got):
        pin = pin_factory.pin(PINS["N"])
        pin.drive_low()
        pin.drive_high()  # a 0 ms blip
        pin.drive_low()
        time.sleep(0.08)
        pin.drive_high()
        pin.drive_low()  # the release bounces too
        pin.drive_high()
        assert got.presses == [("N", False)]


def test_the_event_queue_keeps_order_and_times(pin_factory):
    clock = iter(range(100, 200)).__next__
    with SeatButtons(
        PINS, long_press=0.5, bounce=0.0, pin_factory=pin_factory, clock=clock
    ) as buttons:
        press(pin_factory, PINS["W"], 0.01)
        press(pin_factory, PINS["S"], 0.01)
        events = [buttons.events().get(timeout=1) for _ in range(2)]
        assert events == [("W", False, 101), ("S", False, 103)]


def test_a_failing_handler_does_not_stop_the_buttons(pin_factory, caplog):
    called = []

    def broken(seat, long, at):
        called.append((seat, long))
        raise RuntimeError("daemon bug")

    with SeatButtons(PINS, long_press=0.5, pin_factory=pin_factory, on_press=broken):
        press(pin_factory, PINS["S"], 0.05)
        press(pin_factory, PINS["S"], 0.05)
        assert called == [("S", False)] * 2
    assert "the button handler failed for S" in caplog.text


def test_bad_settings_and_close(pin_factory):
    with pytest.raises(ValueError):
        SeatButtons(PINS, long_press=0.01, bounce=0.05, pin_factory=pin_factory)
    buttons = SeatButtons({"N": 5}, pin_factory=pin_factory)
    button = buttons.buttons["N"]
    buttons.close()
    assert button.closed and buttons.buttons == {}
