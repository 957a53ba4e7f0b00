"""A button press is acted on at once, not when the hub next says something: a press put into
the daemon's inbox wakes the loop out of its wait on the serial line (`HubLink.wake`).

The loop waits for an hour here: a step that returns at all was woken, so nothing is timed
(the join's deadline only stops a broken build from hanging the suite)."""

from __future__ import annotations

import threading
import time

HOUR = 3600.0
DEADLINE = 60.0  # real seconds: a failure's, never a measure of speed


def waiting(t) -> threading.Event:
    """Set once the daemon's loop is inside its wait on the hub."""
    inside = threading.Event()
    read = t.link.read

    def watched(timeout: float):
        inside.set()
        return read(timeout)

    t.link.read = watched
    return inside


def step_in_a_thread(t) -> threading.Thread:
    loop = threading.Thread(target=t.daemon.step, args=(HOUR,), daemon=True)
    loop.start()
    return loop


def test_a_press_wakes_a_loop_waiting_on_a_silent_hub(make_table):
    t = make_table(playing=False)
    inside = waiting(t)
    loop = step_in_a_thread(t)  # the hub sweeps no more: only the press can end this wait
    assert inside.wait(DEADLINE), "the loop never waited for the hub"
    pin = t.pins.pin(t.config.seats["W"].button_pin)
    pin.drive_low()
    t.clock.advance(0.05)  # the buttons time presses by the daemon's clock
    pin.drive_high()
    loop.join(DEADLINE)
    assert not loop.is_alive(), "the press did not wake the loop"
    assert t.table.joined == ["W"]


def test_a_press_before_the_wait_ends_the_next_wait_at_once(make_table):
    t = make_table(playing=False)
    t.devices.press("E", False, t.clock())  # as gpiozero's thread does, between two steps
    loop = step_in_a_thread(t)
    loop.join(DEADLINE)
    assert not loop.is_alive(), "the press put before the wait did not end it"
    assert t.table.joined == ["E"]
    # woken once per press, not for ever: the next wait lasts its whole timeout (a lower
    # bound, which a busy machine can only make longer)
    started = time.monotonic()
    assert t.daemon.step(0.3) is None
    assert time.monotonic() - started >= 0.25
