"""A button press is acted on at once, not when the hub next says something: the press
wakes the daemon's loop out of its wait on the serial line (`HubLink.wake`)."""

from __future__ import annotations

import threading
import time


def test_a_press_wakes_a_loop_waiting_on_a_silent_hub(make_table):
    t = make_table(playing=False)
    woke: list[float] = []

    def step() -> None:
        t.daemon.step(30.0)  # the hub sweeps no more: only the press can end this wait
        woke.append(time.monotonic())

    loop = threading.Thread(target=step, daemon=True)
    loop.start()
    time.sleep(0.2)
    assert loop.is_alive(), "the loop should be waiting for the hub"
    pin = t.pins.pin(t.config.seats["W"].button_pin)
    pin.drive_low()
    time.sleep(0.05)
    t.clock.advance(0.05)  # the buttons time presses by the daemon's clock
    released = time.monotonic()
    pin.drive_high()
    loop.join(10.0)
    assert woke and woke[0] - released < 5.0, "the press did not wake the loop"
    assert t.table.joined == ["W"]


def test_a_press_before_the_wait_ends_the_next_wait_at_once(make_table):
    t = make_table(playing=False)
    t.devices.press("E", False, t.clock())  # as gpiozero's thread does, between two steps
    started = time.monotonic()
    t.daemon.step(30.0)
    assert time.monotonic() - started < 5.0
    assert t.table.joined == ["E"]
    started = time.monotonic()
    assert t.daemon.step(0.3) is None  # woken once per press, not for ever
    assert time.monotonic() - started >= 0.25
