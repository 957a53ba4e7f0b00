"""Another program reading the hub's port (issue 24): a serial terminal left running on it,
one that takes no lock, over a real pty. It opened the port first and reads it as picocom
does (select, then a non-blocking read of whatever is there).

Before, the link took a read whose bytes the other program had taken for the hub gone
(pyserial: "device reports readiness to read but returned no data"), closed the port and
reopened it after a backoff, again and again, and the sweeps the other program read never
came: turns took 13 s instead of 1. Now the link names the program, keeps its connection,
and has the hub reconnect, which hangs the program up; from then on every sweep is read.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from hardware.hub import port_guard
from hardware.hub.link import HubLink
from hardware.hub.sim import SimTable, VirtualHub

DEADLINE = 30.0  # real seconds, generous: every wait is on a condition

#: a serial terminal: its name is picocom's (what /proc/<pid>/comm says), it reads what
#: comes and says how much it took once the port is hung up
TERMINAL = r"""
import ctypes, os, select, sys, termios
ctypes.CDLL(None).prctl(15, b"picocom", 0, 0, 0)  # PR_SET_NAME
fd = os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
print("open", flush=True)
taken = 0
while True:
    select.select([fd], [], [], 0.5)
    try:
        termios.tcgetattr(fd)  # a hung-up terminal answers no more
        taken += len(os.read(fd, 4096))
    except BlockingIOError:
        continue
    except (OSError, termios.error):
        break
print("hung up after taking", taken, "bytes", flush=True)
"""


def until(condition: Callable[[], object], what: str) -> object:
    end = time.monotonic() + DEADLINE
    while not (value := condition()):
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
    return value


@pytest.fixture
def hub() -> Iterator[VirtualHub]:
    with VirtualHub(SimTable(), seed=1) as hub:
        yield hub


@pytest.fixture
def terminal(hub: VirtualHub) -> Iterator[subprocess.Popen[str]]:
    """The terminal on the hub's port, opened before the link opens it."""
    process = subprocess.Popen(
        [sys.executable, "-c", TERMINAL, os.path.realpath(hub.port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "open\n"
    yield process
    process.kill()
    process.wait()


def read_while(link: HubLink, going: Callable[[], bool], seen: set[str]) -> None:
    """The link reads (as the daemon's loop does) until `going()` is false, noting every
    name its health gives for the others on its port."""
    end = time.monotonic() + DEADLINE
    seen.update(link.health.shared_with)
    while going():
        assert time.monotonic() < end, f"still going: {link.health}"
        link.read(0.1)
        seen.update(link.health.shared_with)


def test_a_terminal_reading_the_port_is_named_and_cut_off_and_every_sweep_read(
    hub, terminal, monkeypatch
):
    monkeypatch.setattr(port_guard, "SIGNS_SECONDS", 3.0)  # how long it is named once gone
    seen: set[str] = set()
    with HubLink(hub.port) as link:
        hub.start(0.05)  # a hub sweeping on its own, as the real one does
        read_while(link, lambda: terminal.poll() is None, seen)
        assert f"picocom (pid {terminal.pid})" in seen
        assert terminal.stdout.read().startswith("hung up")  # the hub reconnected
        hub.stop()  # from here on, one sweep at a time

        def back() -> bool:
            hub.sweep()
            return link.read(0.2) is not None and link.health.connected

        until(back, "the hub back")
        until(lambda: link.read(0.1) is None and not link.health.shared_with, "no one named")
        # the port is the link's alone now: every sweep is read, none missed
        before = link.health
        for _ in range(30):
            line = hub.sweep()
            assert until(lambda: link.read(0.5), f"the sweep {line!r}").seq == int(line.split()[1])
        after = link.health
        assert (
            after.missed_sweeps == before.missed_sweeps and after.taken_reads == before.taken_reads
        )


def test_without_cutting_it_off_the_link_names_it_and_never_drops_the_hub(hub, terminal):
    """The self-test's link names the terminal and leaves it be; a read the terminal took
    first is no lost hub (before: a disconnect and a backoff each time). Two such reads:
    which of the two readers wakes first is the scheduler's choice, and on a busy machine
    the terminal wins seldom (five took 30 s there, the whole deadline)."""
    seen: set[str] = set()
    with HubLink(hub.port, evict=False) as link:
        hub.start(0.02)
        until(lambda: link.read(0.1) is not None, "a first sweep")
        read_while(link, lambda: link.health.taken_reads < 2, seen)
        assert link.health.connected and link.health.reconnects == 0
        assert seen == {f"picocom (pid {terminal.pid})"}
        assert terminal.poll() is None  # still there: only named
