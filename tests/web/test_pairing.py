"""The pairing PIN: shown for a while, good once, a few tries, and no endless guessing."""

from __future__ import annotations

import pytest

from companion.daemon.publish import RequestError
from companion.daemon.requests import ATTEMPTS, LOCK_AFTER, LOCK_SECONDS, PIN_SECONDS, Pairing


def wrong(pin: str) -> str:
    return "0000" if pin != "0000" else "1111"


def test_a_pin_pairs_once_and_only_while_it_shows():
    pairing = Pairing()
    pin = pairing.new(now=10.0)
    assert len(pin) == 4 and pin.isdigit() and pairing.showing(10.0) == pin
    pairing.check(pin, 11.0)
    with pytest.raises(RequestError, match="ask for one first"):
        pairing.check(pin, 12.0)  # used: it pairs one browser
    pin = pairing.new(20.0)
    assert pairing.showing(20.0 + PIN_SECONDS) is None
    with pytest.raises(RequestError, match="ask for one first"):
        pairing.check(pin, 20.0 + PIN_SECONDS)


def test_wrong_tries_void_the_pin_and_guessing_pin_after_pin_locks_it():
    pairing = Pairing()
    pin = pairing.new(0.0)
    for left in range(ATTEMPTS - 1, 0, -1):
        with pytest.raises(RequestError, match=f"{left} tries left"):
            pairing.check(wrong(pin), 1.0)
    with pytest.raises(RequestError, match="no tries are left"):
        pairing.check(wrong(pin), 1.0)
    with pytest.raises(RequestError):
        pairing.check(pin, 1.0)  # voided: the right one is too late
    tries = ATTEMPTS  # a check after the PIN was voided counts for nothing
    now = 2.0
    while tries < LOCK_AFTER:
        pin = pairing.new(now)
        for _ in range(min(ATTEMPTS, LOCK_AFTER - tries)):
            with pytest.raises(RequestError):
                pairing.check(wrong(pin), now)
            tries += 1
        now += 1.0
    with pytest.raises(RequestError, match="too many wrong PINs"):
        pairing.new(now)
    assert pairing.new(now + LOCK_SECONDS)  # after a while, a PIN again
