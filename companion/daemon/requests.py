"""What the web companion may ask the daemon: a pairing PIN, and a change of a table setting.

The daemon stays the only writer of the table's settings (`companion.settings`); the web
companion only asks, over the daemon's socket (`companion.daemon.publish`). Changing a setting from
a phone needs pairing, like a TV: the phone asks, the table shows a short PIN on its seat
displays, and the person types it on the phone. A PIN works once, for `PIN_SECONDS`.

Anyone on the home network may ask, so nothing one device does may disturb the table or
keep the family from pairing (each request names the `device` it came from, the web
companion's client address):

- One PIN at a time: asking while one shows shows no other (and does not make it last).
  At most `PINS_PER_HOUR` PINs an hour, `PINS_PER_DEVICE` of them for one device.
- Wrong tries lock out the guesser, not the family: after `ATTEMPTS` wrong tries a device
  waits (`WAITS`, longer each time) while the others may still type the PIN the table
  shows. Many devices guessing one PIN together void it after `WRONG_PER_PIN` wrong tries
  (a 4-digit PIN is then guessed once in 500 PINs at most).
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.daemon.publish import Handler, RequestError
from companion.settings import Settings, SettingsError
from companion.show.i18n import Catalogue

log = logging.getLogger("setup.web")

PIN_DIGITS = 4
PIN_SECONDS = 120.0
HOUR = 3600.0
#: PINs shown in an hour, and for one device
PINS_PER_HOUR = 6
PINS_PER_DEVICE = 3
#: wrong tries one device makes in a row before it must wait
ATTEMPTS = 5
#: how long it waits after each ATTEMPTS wrong tries: longer every time, up to the last
WAITS = (30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)
#: wrong tries of one PIN, over every device, after which it no longer works
WRONG_PER_PIN = 20


def duration(seconds: float, texts: Catalogue | None = None) -> str:
    """A wait in words: "30 s", "2 min", "1 h" (in the language of `texts`)."""
    texts = texts or Catalogue.load("en")
    if seconds < 90:
        return texts.text("pairing.seconds", n=max(1, round(seconds)))
    if seconds < 90 * 60:
        return texts.text("pairing.minutes", n=round(seconds / 60))
    return texts.text("pairing.hours", n=round(seconds / 3600))


@dataclass
class Guesser:
    """One device's wrong tries: since its last wait, and how many waits it has had."""

    wrong: int = 0
    waits: int = 0
    until: float = 0.0  # it may try again from then
    last: float = 0.0  # its last wrong try


@dataclass
class Pairing:
    """The PIN shown on the table, if any, and who asked and guessed lately. Its refusals
    are sentences in the table's `language` (asked at each refusal: it may change)."""

    language: Callable[[], str] = field(default=lambda: "en", repr=False)
    pin: str | None = None
    until: float = 0.0
    wrong: int = 0  # wrong tries of the PIN showing, over every device
    asked: deque[tuple[float, str]] = field(default_factory=deque)  # (when, device) this hour
    guessers: dict[str, Guesser] = field(default_factory=dict)

    def showing(self, now: float) -> str | None:
        return self.pin if self.pin is not None and now < self.until else None

    def new(self, now: float, device: str = "") -> tuple[float, bool]:
        """Shows a PIN for `device` (unless one shows already): the seconds it shows for,
        and whether it is a new one. RequestError when the limits refuse it."""
        self._waiting(device, now)
        if self.showing(now) is not None:
            return self.until - now, False
        while self.asked and self.asked[0][0] <= now - HOUR:
            self.asked.popleft()
        mine = [at for at, who in self.asked if who == device]
        if len(mine) >= PINS_PER_DEVICE:
            wait = mine[0] + HOUR - now
            raise self._refused("pairing.asked_device", n=PINS_PER_DEVICE, wait=wait)
        if len(self.asked) >= PINS_PER_HOUR:
            wait = self.asked[0][0] + HOUR - now
            raise self._refused("pairing.asked_table", n=PINS_PER_HOUR, wait=wait)
        self.asked.append((now, device))
        self.pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        self.until, self.wrong = now + PIN_SECONDS, 0
        return PIN_SECONDS, True

    def check(self, pin: Any, now: float, device: str = "") -> None:
        """Accepts the PIN shown now (and voids it: it pairs one phone), or RequestError."""
        self._waiting(device, now)
        shown = self.showing(now)
        if shown is None:
            raise self._refused("pairing.no_pin")
        if isinstance(pin, str) and hmac.compare_digest(pin.strip(), shown):
            self.pin = None
            self.guessers.pop(device, None)
            return
        guesser = self.guessers.setdefault(device, Guesser())
        guesser.wrong += 1
        guesser.last = now
        self.wrong += 1
        if self.wrong >= WRONG_PER_PIN:
            self.pin = None
            log.warning(
                "the pairing PIN was guessed wrong %d times: it no longer works", self.wrong
            )
            raise self._refused("pairing.voided")
        if guesser.wrong >= ATTEMPTS:
            wait = WAITS[min(guesser.waits, len(WAITS) - 1)]
            guesser.wrong, guesser.waits, guesser.until = 0, guesser.waits + 1, now + wait
            log.warning(
                "%d wrong PINs from %s: it waits %s", ATTEMPTS, device or "a device", duration(wait)
            )
            raise self._refused("pairing.wait", n=ATTEMPTS, wait=wait)
        raise self._refused("pairing.wrong", n=ATTEMPTS - guesser.wrong)

    def _waiting(self, device: str, now: float) -> None:
        """RequestError while `device` waits after wrong tries; forgets the devices that
        tried nothing for an hour (and wait no more)."""
        for who in [w for w, g in self.guessers.items() if max(g.until, g.last) + HOUR < now]:
            del self.guessers[who]
        guesser = self.guessers.get(device)
        if guesser is not None and now < guesser.until:
            raise self._refused("pairing.locked", wait=guesser.until - now)

    def _refused(self, key: str, *, wait: float | None = None, **args: object) -> RequestError:
        """The refusal `key` in the table's language; `wait` (seconds) said as a duration."""
        texts = Catalogue.load(self.language())
        if wait is not None:
            args["wait"] = duration(wait, texts)
        return RequestError(texts.text(key, **args))


class TableRequests:
    """The daemon's answers to the web companion's pairing and settings requests. `change`
    changes one table setting (the daemon's own, the one the seat buttons' menu uses)."""

    def __init__(
        self,
        change: Callable[[str, object], Settings],
        language: Callable[[], str] = lambda: "en",
    ) -> None:
        self.change = change
        self.pairing = Pairing(language)
        #: the simulated table's displays are seen nowhere: the log says what they show
        self.log_pin = False

    def handlers(self) -> dict[str, Handler]:
        return {"pin": self.pin, "pair": self.pair, "set": self.set}

    def pin(self, request: Mapping[str, Any], now: float) -> dict[str, Any]:
        """Shows a PIN (never sent back: it is for the people at the table)."""
        seconds, new = self.pairing.new(now, _device(request))
        if new:
            log.info("a web companion asked to pair: the PIN shows on the displays")
            if self.log_pin:
                log.info("simulated table: the displays show the PIN %s", self.pairing.pin)
        return {"seconds": round(seconds), "already": not new}

    def pair(self, request: Mapping[str, Any], now: float) -> None:
        self.pairing.check(request.get("pin"), now, _device(request))
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


def _device(request: Mapping[str, Any]) -> str:
    """The device a request came from, as the web companion names it (its address)."""
    device = request.get("device")
    return device[:64] if isinstance(device, str) else ""
