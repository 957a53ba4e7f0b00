"""One device lifecycle for every part the daemon holds: close once, `closed`, `with`."""

from __future__ import annotations

import pytest

from companion.config import SoundConfig
from companion.notify import Notifier
from companion.show.presenter import Presenter
from companion.show.tunes import Sounds
from companion.sim.clock import SimClock
from companion.sim.rig import SimRig
from hardware.buttons import SeatButtons
from hardware.buzzer import TunePlayer
from hardware.device import Device
from hardware.display import Display
from hardware.hub.sim import SimTable, VirtualHub

PINS = {"N": 5, "S": 13}


def makers(pwm_factory):
    return {
        "display": lambda: Display("N", {"driver": "dummy"}),
        "buttons": lambda: SeatButtons(PINS, pin_factory=pwm_factory),
        "buzzer": lambda: TunePlayer(18, pin_factory=pwm_factory),
        "sounds": lambda: Sounds(None, SoundConfig()),
        "presenter": lambda: Presenter.from_settings({"N": {"driver": "dummy"}}),
        "notifier": lambda: Notifier(None),
        "virtual hub": lambda: VirtualHub(SimTable()),
        "sim rig": lambda: SimRig(),
    }


@pytest.mark.parametrize(
    "name",
    ["display", "buttons", "buzzer", "sounds", "presenter", "notifier", "virtual hub", "sim rig"],
)
def test_every_device_closes_once_says_so_and_is_a_context_manager(pwm_factory, name):
    device = makers(pwm_factory)[name]()
    assert isinstance(device, Device) and not device.closed
    closes = []
    inner = device._close
    device._close = lambda: closes.append(inner())  # type: ignore[method-assign]
    with device as same:
        assert same is device
    assert device.closed
    device.close()  # the daemon closes everything on the way out, whatever closed before
    device.close()
    assert device.closed and len(closes) == 1


def test_a_long_press_is_timed_by_the_injected_clock(pwm_factory):
    """On the simulated table the long-press timer runs in simulated time: no real wait."""
    clock = SimClock()
    got: list[tuple[str, bool, float]] = []
    with SeatButtons(
        PINS,
        long_press=1.0,
        pin_factory=pwm_factory,
        clock=clock,
        timer=clock.call_later,
        on_press=lambda seat, long, at: got.append((seat, long, at)),
    ):
        pin = pwm_factory.pin(PINS["S"])
        pin.drive_low()
        clock.advance(0.99)
        assert got == [], "not long yet"
        clock.advance(0.02)
        assert got == [("S", True, 1001.0)], "long as soon as the simulated second has passed"
        pin.drive_high()
        assert len(got) == 1, "the release after a long press says nothing more"
        pin.drive_low()
        clock.advance(0.5)
        pin.drive_high()
        clock.advance(5.0)  # the cancelled timer of the short press never fires
    assert got == [("S", True, 1001.0), ("S", False, pytest.approx(1001.51))]


def test_sim_clock_runs_timers_at_their_time_in_order():
    clock = SimClock(start=0.0)
    seen: list[tuple[str, float]] = []
    clock.call_later(2.0, lambda: seen.append(("b", clock())))
    clock.call_later(1.0, lambda: seen.append(("a", clock())))
    clock.call_later(1.5, lambda: seen.append(("never", clock()))).cancel()
    clock.advance(3.0)
    assert seen == [("a", 1.0), ("b", 2.0)] and clock() == 3.0
