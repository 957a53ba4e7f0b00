"""The pairing PIN: shown for a while, good once, one at a time, a few an hour, and wrong
tries that lock out the guesser, never the family (simulated time)."""

from __future__ import annotations

import pytest

from companion.daemon.publish import RequestError
from companion.daemon.requests import (
    ATTEMPTS,
    HOUR,
    PIN_SECONDS,
    PINS_PER_DEVICE,
    PINS_PER_HOUR,
    WAITS,
    WRONG_PER_PIN,
    Pairing,
)

FAMILY, ABUSER = "192.168.1.20", "192.168.1.66"


def wrong(pin: str) -> str:
    return "0000" if pin != "0000" else "1111"


def shown(pairing: Pairing, now: float, device: str = FAMILY) -> str:
    pairing.new(now, device)
    pin = pairing.showing(now)
    assert pin is not None and len(pin) == 4 and pin.isdigit()
    return pin


def test_a_pin_pairs_once_and_only_while_it_shows():
    pairing = Pairing()
    pin = shown(pairing, 10.0)
    pairing.check(pin, 11.0, FAMILY)
    with pytest.raises(RequestError, match="ask for one first"):
        pairing.check(pin, 12.0, FAMILY)  # used: it pairs one browser
    pin = shown(pairing, 20.0)
    assert pairing.showing(20.0 + PIN_SECONDS) is None
    with pytest.raises(RequestError, match="ask for one first"):
        pairing.check(pin, 20.0 + PIN_SECONDS, FAMILY)


def test_one_pin_at_a_time_asking_again_changes_nothing():
    pairing = Pairing()
    assert pairing.new(0.0, ABUSER) == (PIN_SECONDS, True)
    pin, until = pairing.pin, pairing.until
    for n in range(1, 6):  # six requests in a row: one PIN, for its two minutes only
        assert pairing.new(float(n), ABUSER) == (PIN_SECONDS - n, False)
    assert (pairing.pin, pairing.until) == (pin, until)


def test_a_few_pins_an_hour_and_fewer_for_one_device():
    pairing = Pairing()
    now = 0.0
    for _ in range(PINS_PER_DEVICE):
        shown(pairing, now, ABUSER)
        now += PIN_SECONDS  # each runs out
    with pytest.raises(RequestError, match=r"This device has asked for 3 PINs .* ask again in"):
        pairing.new(now, ABUSER)
    for n in range(PINS_PER_HOUR - PINS_PER_DEVICE):  # the family still may, up to the cap
        shown(pairing, now, f"192.168.1.{n}")
        now += PIN_SECONDS
    with pytest.raises(RequestError, match=r"The table has shown 6 PINs .* ask again in 48 min"):
        pairing.new(now, FAMILY)
    assert shown(pairing, HOUR, FAMILY)  # an hour after the first, one more


def test_wrong_tries_lock_out_the_guesser_not_the_family():
    pairing = Pairing()
    pin = shown(pairing, 0.0, FAMILY)
    for left in range(ATTEMPTS - 1, 0, -1):
        with pytest.raises(RequestError, match=f"{left} tr"):
            pairing.check(wrong(pin), 1.0, ABUSER)
    with pytest.raises(RequestError, match="this device may try again in 30 s"):
        pairing.check(wrong(pin), 1.0, ABUSER)
    with pytest.raises(RequestError, match="from this device: try again in 29 s"):
        pairing.check(pin, 2.0, ABUSER)  # even the right one: it waits
    with pytest.raises(RequestError, match="from this device"):
        pairing.new(2.0, ABUSER)  # nor may it ask for PINs meanwhile
    pairing.check(pin, 3.0, FAMILY)  # the family pairs all the same

    pin = shown(pairing, 40.0, FAMILY)  # the guesser's next pause is longer
    for _ in range(ATTEMPTS):
        with pytest.raises(RequestError):
            pairing.check(wrong(pin), 41.0, ABUSER)
    with pytest.raises(RequestError, match=f"try again in {WAITS[1] - 1:.0f} s"):
        pairing.check(pin, 42.0, ABUSER)
    pairing.check(pin, 42.0, FAMILY)


def test_many_devices_guessing_together_void_the_pin():
    pairing = Pairing()
    pin = shown(pairing, 0.0)
    for n in range(WRONG_PER_PIN - 1):
        with pytest.raises(RequestError, match="Wrong PIN"):
            pairing.check(wrong(pin), 1.0, f"10.0.0.{n}")
    with pytest.raises(RequestError, match="tried too often"):
        pairing.check(wrong(pin), 1.0, "10.0.0.99")
    with pytest.raises(RequestError, match="ask for one first"):
        pairing.check(pin, 1.0, FAMILY)


def test_a_guesser_is_remembered_on_a_clock_far_from_zero():
    pairing = Pairing()
    now = 10 * HOUR  # the daemon's monotonic clock, hours after boot
    pin = shown(pairing, now)
    for _ in range(ATTEMPTS - 1):
        with pytest.raises(RequestError):
            pairing.check(wrong(pin), now, ABUSER)
    with pytest.raises(RequestError, match="may try again"):
        pairing.check(wrong(pin), now + 1, ABUSER)
    pin = shown(pairing, now + 2 * HOUR)  # an hour after its wait: forgotten, a fresh start
    with pytest.raises(RequestError, match="4 tries left"):
        pairing.check(wrong(pin), now + 2 * HOUR, ABUSER)
