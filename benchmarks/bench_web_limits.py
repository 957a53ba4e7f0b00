"""The web companion under abuse (issue 23): the real server (`web --sim` beside `run --sim`)
with the open-file limit its systemd unit gives it, flooded as tests/web/test_limits.py
floods it, measured here rather than asserted there (a timing is this machine's).

- Streams held: 2000 event-stream attempts from one device, then from 40 devices (loopback
  addresses of their own); the server holds at most its caps and answers the rest at once.
- Resident memory at the stream cap (VmRSS of the web process with every stream held), and
  before the flood.
- A page for the family (another address) while the cap is full: `GET /`, wall clock.
- SIGTERM with every connection still open: to the process's exit, wall clock.
- Bodies of 200 MB on every POST route (announced and in chunks): the growth of the web
  process's peak memory (VmHWM).
"""

from __future__ import annotations

import shutil
import signal
import tempfile
import time
from pathlib import Path

from benchmarks.figure import Figure
from companion.web.server import STOP_SECONDS
from tests.web.flood import Flood
from tests.web.harness import DEADLINE, Table
from tests.web.test_limits import (
    ABUSERS,
    FAMILY,
    POST_ROUTES,
    get,
    peak_memory,
    post_big,
    session,
    unit_open_files,
)


def _status_kb(pid: int, key: str) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return float(line.split()[1])
    raise RuntimeError(f"no {key} for {pid}")


def _log_lines(table: Table) -> int:
    return len(table.web_log.read_text(errors="replace").splitlines())


def run() -> list[Figure]:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-limits-"))
    table = Table(folder)
    try:
        table.start_daemon()
        table.start_web(open_files=unit_open_files())
        pid = table.web.pid
        rss_before = _status_kb(pid, "VmRSS") / 1024
        lines_before = _log_lines(table)

        one = Flood(table.port, 2000).run()
        held_one = len(one.held)
        one.close()
        time.sleep(1.0)  # the server notices the closed streams before the next flood
        many = Flood(table.port, 2000, ABUSERS).run()
        held_many = len(many.held)
        rss_cap = _status_kb(pid, "VmRSS") / 1024
        started = time.perf_counter()
        status, _, _ = get(table, "/")
        page_ms = (time.perf_counter() - started) * 1e3
        assert status == 200
        log_lines = _log_lines(table) - lines_before

        started = time.perf_counter()
        table.web.send_signal(signal.SIGTERM)
        table.web.wait(DEADLINE)
        stop_s = time.perf_counter() - started
        many.close()

        table.start_web(open_files=unit_open_files())
        cookie, token = session(table)
        before = peak_memory(table.web.pid)
        for path in POST_ROUTES:
            post_big(table, path, False, cookie, token)
            post_big(table, path, True, cookie, token)
        body_growth = (peak_memory(table.web.pid) - before) / 2**20
    finally:
        table.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return [
        Figure("web limits: streams held, 2000 tried from one device", held_one, "streams", 8),
        Figure("web limits: streams held, 2000 tried from 40 devices", held_many, "streams", 64),
        Figure("web limits: web resident memory before the floods", rss_before, "MB"),
        Figure("web limits: web resident memory at the stream cap", rss_cap, "MB", 96.0),
        Figure(f"web limits: GET / from {FAMILY} at the stream cap", page_ms, "ms"),
        Figure("web limits: log lines written by the floods", log_lines, "lines", 20),
        Figure("web limits: SIGTERM -> exited, every stream open", stop_s, "s", STOP_SECONDS),
        Figure("web limits: peak memory growth, 200 MB bodies x 12", body_growth, "MB", 16.0),
    ]
