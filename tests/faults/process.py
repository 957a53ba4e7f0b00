"""`setup-companion` as a separate process, as systemd runs it: what it tells systemd
(READY=1, STATUS=...) over a notify socket of our own, and what it writes to its log."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 30.0  # generous: a loaded machine may take seconds to start Python


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion.cli", *args]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
    # gpiozero's mock pins: this machine has no GPIO, and the buttons and buzzer open as on
    # the Pi instead of logging that they are missing
    env.update(GPIOZERO_PIN_FACTORY="mock", GPIOZERO_MOCK_PIN_CLASS="mockpwmpin", **extra)
    return env


def dummy_config(folder: Path, state_dir: Path) -> Path:
    """A config whose four displays are luma dummies, with its state in `state_dir`."""
    path = folder / "config.toml"
    path.write_text(
        f'[paths]\nstate_dir = "{state_dir}"\n\n'
        + "".join(f'[seats.{side}]\ndisplay = {{ driver = "dummy" }}\n' for side in "NESW")
    )
    return path


class Daemon:
    """`setup-companion run ...` started now; `ready()` waits for READY=1, `stop()` ends it."""

    def __init__(self, *args: str, prefix: tuple[str, ...] = (), **env: str) -> None:
        """`prefix`: a command that runs the daemon (`unshare ...`); `env`: more variables."""
        self._dir = tempfile.mkdtemp(prefix="sdn-", dir="/tmp")  # AF_UNIX paths are short
        path = os.path.join(self._dir, "notify")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(path)
        self.log_path = Path(self._dir) / "daemon.log"
        self._log = self.log_path.open("wb")
        self.messages: list[dict[str, str]] = []
        self.process = subprocess.Popen(
            [*prefix, *command("run", *args)],
            env=environment(NOTIFY_SOCKET=path, **env),
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def ready(self) -> dict[str, str]:
        """The READY=1 message (with its STATUS); AssertionError if the daemon ended first."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            self.socket.settimeout(0.2)
            try:
                data = self.socket.recv(4096).decode()
            except TimeoutError:
                if self.process.poll() is not None:
                    break
                continue
            message = dict(line.split("=", 1) for line in data.split("\n") if "=" in line)
            self.messages.append(message)
            if message.get("READY") == "1":
                return message
        raise AssertionError(f"no READY=1; the daemon said:\n{self.output()}")

    def ended(self) -> int:
        """Waits for the daemon to end by itself (it could not start), reading what it told
        systemd on the way; its exit code."""
        code = self.process.wait(TIMEOUT)
        self.socket.settimeout(0)
        while True:
            try:
                data = self.socket.recv(4096).decode()
            except (BlockingIOError, TimeoutError):
                return code
            self.messages.append(dict(x.split("=", 1) for x in data.split("\n") if "=" in x))

    def statuses(self) -> list[str]:
        return [m["STATUS"] for m in self.messages if "STATUS" in m]

    def output(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self) -> int:
        """SIGTERM, as systemd stops it; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(TIMEOUT)
        finally:
            self.close()  # the log stays readable until `remove()`

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(TIMEOUT)
        self._log.close()
        self.socket.close()

    def remove(self) -> None:
        """Closes, and deletes the notify socket and the log."""
        self.close()
        shutil.rmtree(self._dir, ignore_errors=True)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`setup-companion ...` to its end (a command that is expected to stop by itself)."""
    return subprocess.run(
        command(*args),
        env=environment(),
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
