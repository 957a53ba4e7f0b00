"""Start-up: from exec to READY=1, as systemd sees it, for `setup-companion run --sim`.

Each run starts the daemon the way systemd does (NOTIFY_SOCKET, WATCHDOG_USEC) and times
until its READY=1 datagram arrives on a socket we bind, then stops it with SIGTERM and
times that too (it must stay well inside the unit's TimeoutStopSec=10). The bare
interpreter's start is measured as well, to show how much of the time is Python's own.
"""

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

from benchmarks.figure import Figure, percentile

RUNS = 8
TIMEOUT = 30.0
REPO = Path(__file__).resolve().parents[1]


def _command(state_dir: str) -> list[str]:
    script = Path(sys.executable).with_name("setup-companion")
    head = [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]
    return [*head, "run", "--sim", "--state-dir", state_dir]


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _one_start(workdir: str, run: int) -> tuple[float, float, float]:
    """Seconds to READY=1, MB resident at READY, seconds from SIGTERM to exit."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = os.path.join(workdir, f"notify-{run}")
    listener.bind(path)
    listener.settimeout(TIMEOUT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
    env.update(NOTIFY_SOCKET=path, WATCHDOG_USEC="10000000")
    state = os.path.join(workdir, f"state-{run}")
    started = time.perf_counter()
    daemon = subprocess.Popen(
        _command(state),
        env=env,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = started + TIMEOUT
        while True:
            try:
                message = listener.recv(4096).decode()
            except TimeoutError:
                raise RuntimeError("no READY=1 within 30 s") from None
            if "READY=1" in message.split("\n"):
                ready = time.perf_counter() - started
                break
            if time.perf_counter() > deadline:
                raise RuntimeError("no READY=1 within 30 s")
        rss = _rss_mb(daemon.pid)
        stopping = time.perf_counter()
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(TIMEOUT)
        stopped = time.perf_counter() - stopping
    except Exception:
        daemon.kill()
        _, err = daemon.communicate(timeout=TIMEOUT)
        raise RuntimeError(f"daemon failed: {err.decode(errors='replace')[-2000:]}") from None
    finally:
        listener.close()
    if daemon.returncode != 0:
        raise RuntimeError(f"daemon exited with {daemon.returncode} on SIGTERM")
    return ready, rss, stopped


def _bare_python() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def run() -> list[Figure]:
    if not (REPO / "companion/commands/run.py").exists():
        raise RuntimeError("companion/commands/run.py (the daemon) does not exist yet")
    workdir = tempfile.mkdtemp(prefix="bench-startup-", dir="/tmp")
    try:
        _one_start(workdir, -1)  # warm the page cache and the bytecode
        samples = [_one_start(workdir, run) for run in range(RUNS)]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    ready = [s[0] for s in samples]
    bare = [_bare_python() for _ in range(RUNS)]
    return [
        Figure("startup: exec -> READY=1, median", percentile(ready, 50), "s", 0.5),
        Figure("startup: exec -> READY=1, p90", percentile(ready, 90), "s"),
        Figure("startup: bare python -c pass, median", percentile(bare, 50), "s"),
        Figure("startup: resident memory at READY", percentile([s[1] for s in samples], 50), "MB"),
        Figure("startup: SIGTERM -> exit, max", max(s[2] for s in samples), "s", 10.0),
    ]
