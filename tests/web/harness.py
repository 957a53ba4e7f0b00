"""The web companion as a person meets it: the real daemon (`run --sim`) and the real web
companion (`web --sim`) as two processes, and Debian's Chromium (the tests, the benchmark
and the screenshots share this)."""

from __future__ import annotations

import os
import re
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("SETUP_CHROMIUM", "/usr/bin/chromium")
#: the flags this machine's closed network needs (no background connections to refuse)
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: a hang guard, never a measure: every wait is on a condition, and this is only how long a
#: wait may take before the test says it hung. Generous, because CI machines are shared and
#: busy (30 s ran out on two cores at load 12 while nothing hung)
DEADLINE = 120.0
#: one try of a poll (the next try asks again, within `DEADLINE`)
ATTEMPT = 10.0


def wait_until(
    condition: Callable[[], object], seconds: float = DEADLINE, what: str = ""
) -> object:
    end = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or condition}")
        time.sleep(0.05)


def new_context(browser: Any, **options: Any) -> Any:
    """A Playwright browser context whose every wait (locators, navigation, wait_for_*)
    is guarded by `DEADLINE`, not Playwright's own 30 s."""
    context = browser.new_context(**options)
    context.set_default_timeout(DEADLINE * 1000)
    context.set_default_navigation_timeout(DEADLINE * 1000)
    return context


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Table:
    """`run --sim` and `web --sim` on one state dir; the daemon's log is kept for reading
    what its (simulated, unseen) displays show."""

    def __init__(
        self, state_dir: Path, faults: str = "none", web_args: list[str] | None = None
    ) -> None:
        self.state_dir = state_dir
        self.socket = state_dir / "companion.sock"
        self.daemon_log = state_dir / "daemon.log"
        self.web_log = state_dir / "web.log"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.faults = faults
        self.web_args = web_args or []
        self.daemon: subprocess.Popen | None = None
        self.web: subprocess.Popen | None = None

    def start_daemon(self) -> None:
        log = self.daemon_log.open("ab")
        self.daemon = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--sim", "--faults", self.faults,
             "--state-dir", str(self.state_dir), "--log-level", "INFO"],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_until(self.socket.exists, what="the daemon's socket")

    def start_web(self, open_files: int | None = None) -> None:
        """`web --sim`; `open_files`: its open-file limit (as systemd's LimitNOFILE sets)."""
        log = self.web_log.open("ab")

        def limit() -> None:
            if open_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

        self.web = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "web", "--sim", "--state-dir",
             str(self.state_dir), "--host", "127.0.0.1", "--port", str(self.port),
             *self.web_args],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=limit,
        )  # fmt: skip
        wait_until(self._serving, what="the web companion")

    def _serving(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/sim", timeout=ATTEMPT) as r:
                return r.status == 200
        except OSError:
            return False

    def pin(self) -> str:
        """The last PIN the (simulated) displays show, as the daemon's log says."""
        found = re.findall(r"the displays show the PIN (\d+)", self.daemon_log.read_text())
        assert found, "no PIN was shown"
        return found[-1]

    def stop(self) -> None:
        for proc in (self.web, self.daemon):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
