"""What the web companion may ask the daemon: a pairing PIN, and a change of a table setting.

The daemon stays the only writer of the table's settings (`companion.settings`); the web
companion only asks, over the daemon's socket (`companion.daemon.publish`). Changing a setting from
a phone needs pairing, like a TV: the phone asks, the table shows a short PIN on every seat
display, and the person types it on the phone. A PIN works once, for `PIN_SECONDS`, and
`ATTEMPTS` wrong tries void it (a new one must be asked for on the table).
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.daemon.publish import Handler, RequestError
from companion.settings import Settings, SettingsError

log = logging.getLogger("setup.web")

PIN_DIGITS = 4
PIN_SECONDS = 120.0
ATTEMPTS = 5
#: wrong tries in a row (over any number of PINs) after which no PIN is shown for a while:
#: guessing 4 digits 5 at a time, asking for PIN after PIN, would otherwise only cost time
LOCK_AFTER = 15
LOCK_SECONDS = 300.0


@dataclass
class Pairing:
    """The PIN shown on the table, if any, and the tries left for it."""

    pin: str | None = None
    until: float = 0.0
    left: int = 0
    wrong: int = 0  # wrong tries in a row
    locked_until: float = 0.0

    def new(self, now: float) -> str:
        if now < self.locked_until:
            minutes = max(1, round((self.locked_until - now) / 60))
            raise RequestError(f"too many wrong PINs: ask again in {minutes} min")
        self.pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        self.until, self.left = now + PIN_SECONDS, ATTEMPTS
        return self.pin

    def showing(self, now: float) -> str | None:
        return self.pin if self.pin is not None and now < self.until else None

    def check(self, pin: Any, now: float) -> None:
        """Accepts the PIN shown now (and voids it: it pairs one phone), or RequestError."""
        shown = self.showing(now)
        if shown is None:
            raise RequestError("no PIN is showing on the table: ask for one first")
        self.left -= 1
        if isinstance(pin, str) and hmac.compare_digest(pin.strip(), shown):
            self.pin, self.wrong = None, 0
            return
        self.wrong += 1
        if self.wrong >= LOCK_AFTER:
            self.pin, self.wrong, self.locked_until = None, 0, now + LOCK_SECONDS
            log.warning("%d wrong PINs in a row: no PIN for %.0f s", LOCK_AFTER, LOCK_SECONDS)
            raise RequestError("wrong PIN, once too often: no PIN for a few minutes")
        if self.left <= 0:
            self.pin = None
            raise RequestError("wrong PIN, and no tries are left: ask the table for a new one")
        raise RequestError(f"wrong PIN: {self.left} tries left")


class TableRequests:
    """The daemon's answers to the web companion's pairing and settings requests. `change`
    changes one table setting (the daemon's own, the one the seat buttons' menu uses)."""

    def __init__(self, change: Callable[[str, object], Settings]) -> None:
        self.change = change
        self.pairing = Pairing()
        #: the simulated table's displays are seen nowhere: the log says what they show
        self.log_pin = False

    def handlers(self) -> dict[str, Handler]:
        return {"pin": self.pin, "pair": self.pair, "set": self.set}

    def pin(self, request: Mapping[str, Any], now: float) -> dict[str, Any]:
        pin = self.pairing.new(now)
        log.info("a web companion asked to pair: the PIN shows on the displays")
        if self.log_pin:
            log.info("simulated table: the displays show the PIN %s", pin)
        return {"seconds": PIN_SECONDS}

    def pair(self, request: Mapping[str, Any], now: float) -> None:
        self.pairing.check(request.get("pin"), now)
        log.info("a web companion paired with the table")

    def set(self, request: Mapping[str, Any], now: float) -> dict[str, Any]:
        """Through the daemon's own `change_setting`, the one the seat buttons' menu uses."""
        try:
            settings = self.change(str(request.get("key")), request.get("value"))
        except SettingsError as exc:
            raise RequestError(str(exc)) from None
        except OSError as exc:
            raise RequestError(f"the setting cannot be saved: {exc.strerror}") from None
        return {"values": dict(settings)}
