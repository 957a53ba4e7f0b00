"""A problem that repeats many times a second logged a few times, not every time.

A full card refuses every journal write and a hostile hub can send a hundred well-formed
error lines a second; logged line by line that is wear on the SD card and noise in journald.
`LogLimiter` logs a problem when it starts, then at most once every `every` seconds with how
many times it happened meanwhile, and once when it ends (`ended`, or by itself once it has
not happened for `every` seconds, noticed at the next `log` or `expire`). Each problem has a
key; different keys are limited apart, so one flood never hides another problem.

It lives in `hardware` (which imports nothing of the daemon) so that the hub link and the
daemon can both use it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

#: seconds between two lines about one problem that goes on
EVERY = 60.0


@dataclass
class _Spell:
    level: int
    message: str
    started: float
    logged: float  # when its last line was written
    seen: float  # when it last happened
    times: int = 1  # since it started
    unlogged: int = 0  # since its last line


class LogLimiter:
    """Rate-limited logging of repeating problems, one spell per key."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.every = every
        self.clock = clock
        self._spells: dict[str, _Spell] = {}

    def __repr__(self) -> str:
        return f"<LogLimiter {self.logger.name} every {self.every:g} s>"

    def log(self, level: int, key: str, message: str, *args: object) -> bool:
        """`message % args` happened (again); True if a line was written for it."""
        now = self.clock()
        self.expire(now)
        text = message % args if args else message
        spell = self._spells.get(key)
        if spell is None:
            self._spells[key] = _Spell(level, text, now, now, now)
            self.logger.log(level, "%s", text)
            return True
        spell.times += 1
        spell.unlogged += 1
        spell.seen, spell.message = now, text
        if now - spell.logged < self.every:
            return False
        self.logger.log(
            level, "%s (%d times in the last %s)", text, spell.unlogged, _span(now - spell.logged)
        )
        spell.logged, spell.unlogged = now, 0
        return True

    def ended(self, key: str, message: str = "", *args: object) -> bool:
        """The problem of `key` is over (a write went through); one line if it was logged."""
        spell = self._spells.pop(key, None)
        if spell is None:
            return False
        now = self.clock()
        text = (message % args if args else message) or f"no more: {spell.message}"
        self.logger.log(
            min(spell.level, logging.WARNING),
            "%s (after %d times in %s)",
            text,
            spell.times,
            _span(max(spell.seen, now) - spell.started),
        )
        return True

    def expire(self, now: float | None = None) -> None:
        """Ends the spells that have not happened for `every` seconds."""
        if not self._spells:
            return
        now = self.clock() if now is None else now
        for key in [k for k, s in self._spells.items() if now - s.seen >= self.every]:
            spell = self._spells.pop(key)
            self.logger.log(
                min(spell.level, logging.INFO),
                "no more for %s: %s (%d times in %s)",
                _span(now - spell.seen),
                spell.message,
                spell.times,
                _span(spell.seen - spell.started),
            )


def _span(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
