"""The web companion: how fast a page follows the table, what it costs, what it costs the game.

- Table event -> page DOM updated: `run --sim` and `web --sim` as on a Pi, Debian's Chromium
  with the Table page open; a seat's button pressed in the lobby (join, leave) through the
  daemon's socket. From the moment the daemon's loop hands the changed view to its
  publisher (the state carries that wall-clock time) to the moment the page's DOM holds it
  (a MutationObserver in the page; both clocks are this machine's wall clock).
- The web process's resident memory with the page open, and after the Games page replayed
  a finished game and drew its chart.
- The daemon with the page open beside it, and without: its idle CPU (bench_e2e's idle
  measure, the web companion and a page open around it), and button -> every screen + tune
  (bench_e2e's presses, the daemon publishing to the web companion with a page open).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from benchmarks import bench_e2e
from benchmarks.bench_startup import _rss_mb
from benchmarks.figure import Figure, percentile
from tests.web.harness import CHROMIUM, CHROMIUM_ARGS, DEADLINE, Table, free_port, wait_until

EVENTS = 60
WARM_UP = 5
DOM_TARGET_MS = 100.0
RSS_TARGET_MB = 40.0

OBSERVE = """
() => {
  window.__latencies = [];
  let last = null;
  new MutationObserver(() => {
    const board = document.getElementById("board");
    const published = board && board.dataset.published;
    if (published && published !== last) {
      last = published;
      const now = (performance.timeOrigin + performance.now()) / 1000;
      window.__latencies.push(now - parseFloat(published));
    }
  }).observe(document.body, { childList: true, subtree: true });
}
"""


@contextlib.contextmanager
def _browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _ask(sock: socket.socket, file, op: str, **fields) -> None:
    file.write(json.dumps({"op": op, "id": 1, **fields}).encode() + b"\n")
    file.flush()


def _dom_latency(folder: Path) -> tuple[list[float], float, float]:
    """Seconds from the daemon's publish to the page's DOM, per event; web RSS (MB) with the
    page open, and after the Games page showed a finished game with its chart."""
    from companion.sim.demo import Demo
    from hardware.hub.sim import FaultModel

    Demo(journal=folder / "journal-1.jsonl", faults=FaultModel(), seed=1, out=lambda _: None).run()
    table = Table(folder)
    table.start_daemon()
    table.start_web()
    try:
        with _browser() as browser:
            page = browser.new_page()
            page.goto(table.url + "/")
            page.evaluate(OBSERVE)
            client = socket.socket(socket.AF_UNIX)
            client.connect(str(table.socket))
            file = client.makefile("rwb")
            drain = threading.Thread(target=lambda: [None for _ in file], daemon=True)
            drain.start()
            for n in range(WARM_UP + EVENTS):
                _ask(client, file, "press", seat="N")  # join, leave, join ...
                wait_until(
                    lambda n=n: page.evaluate("window.__latencies.length") > n,
                    DEADLINE,
                    "the page to follow a press",
                )
            latencies = page.evaluate("window.__latencies")[WARM_UP:]
            rss_watching = _rss_mb(table.web.pid)
            page.goto(table.url + "/games")
            page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth)")
            rss_games = _rss_mb(table.web.pid)
            client.close()
    finally:
        table.stop()
    return latencies, rss_watching, rss_games


@contextlib.contextmanager
def _page_open(folder: Path, socket_path: Path | None = None) -> Iterator[None]:
    """The web companion on the daemon of `folder`, with Chromium showing its Table page."""
    port = free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "web", "--state-dir", str(folder),
         "--socket", str(socket_path or folder / "companion.sock"), "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "WARNING"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        with _browser() as browser:
            page = browser.new_page()
            url = f"http://127.0.0.1:{port}/"
            wait_until(lambda: _loads(page, url), DEADLINE, "the web companion")
            page.wait_for_selector("#board")  # connected to the daemon, the table shown
            yield
    finally:
        web.terminate()
        web.wait(10)


def _loads(page, url: str) -> bool:
    try:
        return page.goto(url).ok
    except Exception:
        return False


def _presses_beside_a_page(folder: Path) -> list[tuple[float, float, float]]:
    """bench_e2e's presses, the daemon publishing to a web companion with a page open."""
    from companion.daemon.publish import Publisher

    with bench_e2e._table(folder, threaded=True) as t:
        path = folder / "companion.sock"
        publisher = Publisher(path, presenter=t.devices.presenter)
        t.daemon.publish_to(publisher)
        t.devices.closers.append(publisher.close)
        stop = threading.Event()
        loop = threading.Thread(target=t.daemon.serve, args=(stop,), name="daemon", daemon=True)
        t.rig.hub.start(0.1)
        loop.start()
        try:
            with _page_open(folder, path):
                wait_until(lambda: publisher.clients > 0, DEADLINE, "the web companion")
                return bench_e2e._presses(t)
        finally:
            stop.set()
            loop.join(bench_e2e.TIMEOUT)
            t.rig.hub.stop()


def run() -> list[Figure]:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    try:
        for part in ("dom", "idle", "idle-page", "press", "press-page"):
            (folder / part).mkdir()
        latencies, rss, rss_games = _dom_latency(folder / "dom")
        cpu_alone, _ = bench_e2e._idle(folder / "idle")
        cpu_page, _ = bench_e2e._idle(folder / "idle-page", beside=_page_open)
        alone = bench_e2e._press_to_screens_and_tune(folder / "press")
        beside = _presses_beside_a_page(folder / "press-page")
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    def ms(name: str, samples: list[float], p: int, target: float | None = None) -> Figure:
        return Figure(f"web: {name} p{p}", percentile(samples, p) * 1e3, "ms", target)

    def both(presses):
        return [max(s, t) for s, t, _ in presses]

    return [
        ms("table event -> page DOM updated", latencies, 50),
        ms("table event -> page DOM updated", latencies, 99, DOM_TARGET_MS),
        Figure("web: web companion resident memory, page open", rss, "MB", RSS_TARGET_MB),
        Figure(
            "web: web companion resident memory, after the Games page",
            rss_games,
            "MB",
            RSS_TARGET_MB,
        ),
        Figure("web: idle daemon CPU, no page", cpu_alone, "% core", 1.0),
        Figure("web: idle daemon CPU, page open", cpu_page, "% core", 1.0),
        ms("button -> every screen + tune, no page", both(alone), 50),
        ms("button -> every screen + tune, no page", both(alone), 99),
        ms("button -> every screen + tune, page open", both(beside), 50),
        ms("button -> every screen + tune, page open", both(beside), 99),
    ]
