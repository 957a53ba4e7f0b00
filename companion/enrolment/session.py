"""The guided enrolment run inside the daemon, from the settings menu ("Register the tiles"):
as the service's own user, so the registry it writes is always one the service can read.

`Enrolment` (companion.enrolment.guide) is a loop that reads sweeps; here it runs on its own
thread and reads the sweeps the daemon's loop hands it (`feed`), while the daemon goes on
pinging the watchdog, drawing (`view()` on every display) and taking presses: a long press
stops the enrolment (every tile registered so far stays registered), and once it is done or
stopped any press goes back to the lobby. A short press skips the tile asked for. When every
tile has its tag already, it goes through all of them again (`again`): a short press skips
a tile, and a tile put down is registered anew (a tag replaced under one tile, say).

While an enrolment runs, a marker file (`enrolling` in the state dir) says so: after a power
cut the daemon starts again in the enrolment, and it goes on with the tiles still missing
(the registry is saved after each tile). The marker goes when the enrolment ends.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.atomic import fsync_directory, write_atomic
from companion.board.registry import Registry
from companion.enrolment.guide import Enrolment, Listener, Prompt, SkipTile
from engine import ALL_TILES, SQUARES
from hardware.hub.snapshot import Snapshot

log = logging.getLogger("setup.enrol")

MARKER = "enrolling"


@dataclass(frozen=True, slots=True)
class EnrolView:
    """What every display shows during the enrolment: the latest prompt, or at the end the
    summary (`enrolled` of `total`, how many tags were found on the wrong tile, and whether
    it was stopped before every tile had its tag)."""

    prompt: Prompt | None = None
    enrolled: int = 0
    total: int = len(ALL_TILES)
    duplicates: int = 0
    finished: bool = False
    stopped: bool = False
    again: bool = False  # every tile had its tag: going through them all, a press skipping


class _Stopped(Exception):
    """A long press stopped the enrolment."""


class TableEnrolment:
    """One run of the guided enrolment on the table, fed the daemon's sweeps."""

    def __init__(
        self,
        registry: Registry,
        state_dir: Path,
        *,
        readers: Sequence[str] = SQUARES,
        square: str = "NW",
        clock: Callable[[], float],
        listeners: Iterable[Listener] = (),
    ) -> None:
        self.registry = registry
        self.marker = Path(state_dir) / MARKER
        self.square = square if square in readers else readers[0]
        self.readers = tuple(readers)
        self.clock = clock
        self.listeners = list(listeners)  # besides the displays: the simulated person
        self.duplicates = 0
        self.error: str | None = None
        self._prompt: Prompt | None = None
        self._sweeps: queue.Queue[Snapshot] = queue.Queue()
        self._stop = threading.Event()
        self._skip = threading.Event()
        self._done = threading.Event()
        #: every tile has its tag: this run goes through them all again
        self.again = not registry.missing()
        self._fed = self._taken = self._handled = 0  # sweeps fed, given out, acted on
        self._closed = False
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"<TableEnrolment {len(self.registry)}/{len(ALL_TILES)} on {self.square}>"

    @staticmethod
    def interrupted(state_dir: Path) -> bool:
        """An enrolment was running when the power went (its marker is still there)."""
        return (Path(state_dir) / MARKER).exists()

    def start(self) -> None:
        write_atomic(self.marker, f"square {self.square}\n")
        log.info("enrolment started: %d of %d tiles have a tag", len(self.registry), 50)
        self._thread = threading.Thread(target=self._run, name="enrolment", daemon=True)
        self._thread.start()

    # -- the daemon's side --------------------------------------------------------------------
    def feed(self, snapshot: Snapshot) -> None:
        """One sweep of the readers, for the enrolment."""
        self._fed += 1
        self._sweeps.put(snapshot)

    def stop(self) -> None:
        """Stops the enrolment at the next sweep (what was registered stays)."""
        self._stop.set()

    def skip(self) -> None:
        """Skips the tile asked for now (it stays as it was); the next one is asked for."""
        self._skip.set()

    def close(self) -> None:
        """The daemon stops: the thread ends, the enrolment does not (its marker stays, so the
        next start goes on with it)."""
        self._closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def settled(self, timeout: float) -> bool:
        """Waits (real time) until every sweep fed so far has been acted on: tests go in lock
        step with it, whatever the machine's speed."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._done.is_set() or self._handled == self._fed:
                return True
            time.sleep(0.002)
        return False

    def view(self) -> EnrolView:
        done = self._done.is_set()
        return EnrolView(
            None if done else self._prompt,
            len(self.registry),
            len(ALL_TILES),
            self.duplicates,
            finished=done,
            stopped=done and bool(self.registry.missing()),
            again=self.again,
        )

    # -- the enrolment's side -----------------------------------------------------------------
    def read(self, timeout: float) -> Snapshot | None:
        """The next sweep (the enrolment's SnapshotSource)."""
        self._handled = self._taken  # asked again: every sweep given out was acted on
        if self._stop.is_set():
            raise _Stopped
        if self._skip.is_set():
            self._skip.clear()
            raise SkipTile
        try:
            snapshot = self._sweeps.get(timeout=timeout)
        except queue.Empty:
            return None
        if self._stop.is_set():
            raise _Stopped
        self._taken += 1
        return snapshot

    def _told(self, prompt: Prompt) -> None:
        if prompt.kind == "duplicate":
            self.duplicates += 1
        self._prompt = prompt
        for listener in self.listeners:
            listener(prompt)

    def _run(self) -> None:
        enrolment = Enrolment(
            self.registry,
            self,
            square=self.square,
            readers=self.readers,
            clock=self.clock,
            listeners=[self._told],
        )
        try:
            enrolment.run(ALL_TILES if self.again else None)
            log.info(
                "enrolment done: every tile has its tag (%d tags already taken)", self.duplicates
            )
        except _Stopped:
            log.info("enrolment stopped: %d of 50 tiles have a tag", len(self.registry))
        except OSError as exc:
            self.error = (
                f"cannot save the tile registry {self.registry.path}: {exc.strerror or exc}"
            )
            log.error("%s", self.error)
        except Exception:  # a bug must not leave the table stuck in the enrolment
            log.exception("the enrolment failed")
        finally:
            if not self._closed:
                with contextlib.suppress(OSError):
                    os.unlink(self.marker)
                    fsync_directory(self.marker.parent)
            self._done.set()
