"""How `setup-companion run` stops on signals: Ctrl-C on `make play` sends SIGINT to the
daemon, and the shell's trap sends SIGTERM right after; the second can land while the first
handler is inside `Event.set`."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from companion.commands.run import Stopping

#: how long the nested handler may wait on the Event's lock before that counts as the
#: deadlock (a handler that works never waits on it at all)
DEADLOCK_SECONDS = 5.0


class SetInterrupted(threading.Event):
    """An Event whose `set` is interrupted, lock held, by a second signal: what happens when
    SIGTERM arrives while the SIGINT handler is setting the stop."""

    def __init__(self) -> None:
        super().__init__()
        self.sets = 0

    def set(self) -> None:
        # Event.set holds its Condition's lock; a lock it cannot take is the deadlock
        if not self._cond.acquire(timeout=DEADLOCK_SECONDS):
            raise AssertionError("a second signal waited on the stop's lock: deadlock")
        try:
            self.sets += 1
            if self.sets == 1:
                os.kill(os.getpid(), signal.SIGTERM)  # handled here, the lock held
            self._flag = True  # type: ignore[attr-defined]  # what Event.set does
            self._cond.notify_all()
        finally:
            self._cond.release()


@pytest.fixture
def handlers():
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def test_a_second_signal_inside_the_first_does_not_deadlock_the_stop(handlers):
    stop = SetInterrupted()
    on_signal = Stopping(stop)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C; SIGTERM follows inside its set()
    assert stop.is_set()
    assert stop.sets == 1  # the second signal found the stop already asked for


def test_a_signal_after_the_stop_is_harmless():
    stop = threading.Event()
    on_signal = Stopping(stop)
    on_signal(signal.SIGINT, None)
    on_signal(signal.SIGTERM, None)
    assert stop.is_set()
