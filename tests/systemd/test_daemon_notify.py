"""The real daemon (`setup-companion run`) talking sd_notify to a socket the test listens on.

These run the daemon as a subprocess the way systemd does: NOTIFY_SOCKET and WATCHDOG_USEC
in the environment, SIGTERM to stop it. They wait for `companion/commands/run.py` (the
daemon, written by the lead engineer) and are skipped until it exists.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 30.0  # generous: a loaded CI machine may take seconds to start Python

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("companion.commands.run") is None,
    reason="companion/commands/run.py (the daemon) does not exist yet",
)


class Daemon:
    def __init__(self, args: list[str], listener, log: Path, watchdog_usec: int | None) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
        env["NOTIFY_SOCKET"] = listener.env_value
        if watchdog_usec is not None:
            env["WATCHDOG_USEC"] = str(watchdog_usec)
        self.log = log
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", *args],
            env=env,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        self._log_file.flush()
        return self.log.read_text(errors="replace")

    def stop(self) -> int:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(TIMEOUT)
        finally:
            self._log_file.close()

    def kill(self) -> None:
        if self.alive():
            self.process.kill()
            self.process.wait(TIMEOUT)
        self._log_file.close()


@pytest.fixture
def start(listener, tmp_path) -> Iterator:
    started: list[Daemon] = []

    def _start(*args: str, watchdog_usec: int | None = 1_000_000) -> Daemon:
        daemon = Daemon(list(args), listener, tmp_path / "daemon.log", watchdog_usec)
        started.append(daemon)
        return daemon

    yield _start
    for daemon in started:
        daemon.kill()


def wait_ready(listener, daemon: Daemon) -> dict[str, str]:
    try:
        message = listener.wait_for(
            lambda m: "READY=1" in m.split("\n"), TIMEOUT, alive=daemon.alive
        )
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n--- daemon output ---\n{daemon.output()}") from None
    return listener.parse(message)


def wait_watchdogs(listener, daemon: Daemon, count: int) -> None:
    for _ in range(count):
        listener.wait_for(lambda m: "WATCHDOG=1" in m.split("\n"), TIMEOUT, alive=daemon.alive)


def test_sim_daemon_sends_ready_then_watchdog_pings_then_stopping(start, listener, tmp_path):
    daemon = start("--sim", "--state-dir", str(tmp_path / "state"))
    wait_ready(listener, daemon)
    ready_at = len(listener.messages)
    wait_watchdogs(listener, daemon, 2)
    # Readiness came first: no watchdog ping before READY=1.
    assert not any("WATCHDOG=1" in m for m in listener.messages[: ready_at - 1])
    # NotifyAccess=main: systemd only believes the main process.
    assert set(listener.senders) == {daemon.process.pid}

    assert daemon.stop() == 0, daemon.output()
    listener.wait_for(lambda m: "STOPPING=1" in m.split("\n"), TIMEOUT)


def test_without_watchdog_usec_the_daemon_sends_no_pings(start, listener, tmp_path):
    daemon = start("--sim", "--state-dir", str(tmp_path / "state"), watchdog_usec=None)
    wait_ready(listener, daemon)
    assert daemon.stop() == 0, daemon.output()
    listener.wait_for(lambda m: "STOPPING=1" in m.split("\n"), TIMEOUT)
    assert not any("WATCHDOG=1" in m for m in listener.messages)


def start_without_hub(start, tmp_path) -> tuple[Daemon, Path]:
    missing = tmp_path / "no-such-hub"
    # Not --sim: the real hub link on a port that is not there, and the config's displays,
    # which this machine does not have either.
    return start("--hub-port", str(missing), "--state-dir", str(tmp_path / "state")), missing


def test_absent_hub_still_becomes_ready_and_keeps_pinging(start, listener, tmp_path):
    daemon, missing = start_without_hub(start, tmp_path)
    wait_ready(listener, daemon)
    # The hub is reported absent (in the journal: the daemon's log), naming the port.
    assert re.search(
        rf"hub.*(absent|disconnected|cannot open).*{re.escape(str(missing))}", daemon.output(), re.I
    ), daemon.output()
    # A missing hub is not a hung main loop: restarting would not plug it in.
    wait_watchdogs(listener, daemon, 2)
    assert daemon.alive(), daemon.output()
    assert daemon.stop() == 0, daemon.output()


def test_absent_hub_shows_in_the_status_line(start, listener, tmp_path):
    daemon, _ = start_without_hub(start, tmp_path)
    wait_ready(listener, daemon)
    wait_watchdogs(listener, daemon, 1)
    statuses = [listener.parse(m).get("STATUS", "") for m in listener.messages]
    daemon.stop()
    assert any(
        re.search(r"hub.*(absent|missing|not (found|connected)|disconnected)", s, re.I)
        for s in statuses
    ), f"no status line reports the absent hub: {statuses!r}"


def test_ready_comes_after_the_missing_displays_are_known(start, listener, tmp_path):
    daemon, _ = start_without_hub(start, tmp_path)
    wait_ready(listener, daemon)
    at_ready = daemon.output()  # what the daemon had logged when it said READY=1
    daemon.stop()
    assert re.search(r"display.*(cannot open|not found|missing)", at_ready, re.I), at_ready
