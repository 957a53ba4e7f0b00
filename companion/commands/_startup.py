"""How the daemon starts when something is wrong: never dark without saying why.

Anything that stops `setup-companion run` before a game can be played is a `Stopped`: its
problem's sentence goes on every display that can be reached (`companion.show.stopped`), in
the status systemd shows, and as one sentence on stderr; then the daemon exits and the
unit's restart policy (a burst, then a slow retry) tries again. The displays keep the
sentence in between. What needs no stop does not stop: a card that cannot be written is
played on without saving (`saving_problem`), with every display saying so.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from companion.board.problems import Problem
from companion.commands._common import CommandError
from companion.notify import Notifier
from hardware.display import DisplaySettings

log = logging.getLogger("setup.daemon")

#: a card with fewer free bytes than this when the daemon starts is full: nothing is saved
FULL_BELOW = 64 * 1024


class Stopped(CommandError):
    """The daemon cannot start: `problem` for the displays, the text for stderr and log."""

    def __init__(
        self,
        problem: str,
        message: str,
        displays: Mapping[str, DisplaySettings],
        language: str = "en",
    ) -> None:
        super().__init__(message)
        self.problem = Problem(problem)
        self.displays = dict(displays)
        self.language = language

    def tell(self, notifier: Notifier) -> tuple[str, ...]:
        """Says why on every display it can reach and to systemd; the sides reached."""
        from companion.show.stopped import show_stopped

        reached = tuple(show_stopped(self.problem, self.displays, self.language))
        notifier.status(f"cannot start: {self}")
        # stderr has the sentence (the command line prints it): the rest is for a developer
        log.debug("told why on the displays: %s", ", ".join(reached) or "none could be reached")
        return reached


def config_displays(args: argparse.Namespace) -> tuple[dict[str, DisplaySettings], str]:
    """The displays and language of `--config` as far as it can be read."""
    from companion.config import displays_anyway

    return displays_anyway(args.config)


def saving_problem(state_dir: Path, unwritable: str | None) -> str | None:
    """Why games cannot be saved on this card (a problem code), or None when they can: the
    lock found it cannot be written, or it has (next to) no room left."""
    if unwritable is not None:
        return unwritable
    try:
        info = os.statvfs(state_dir)
    except OSError:
        return None  # cannot tell: the journal finds out at its first write
    if info.f_bavail * info.f_frsize < FULL_BELOW:
        return "card-full"
    return None
