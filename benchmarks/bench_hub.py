"""The hub link's speed: parsing, throughput over a real pty, and line-to-snapshot latency.

The hub sweeps every 100 ms, so the link needs 10 snapshots/s; the targets leave room for a
Raspberry Pi several times slower than a desktop, and for the rest of the daemon.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time

from benchmarks.figure import Figure, percentile
from hardware.hub.link import HubLink
from hardware.hub.protocol import parse_line
from hardware.hub.sim import FaultModel, SimTable, VirtualHub, tag_uid

PARSE_LINES = 20_000
LINK_LINES = 20_000
LATENCY_SAMPLES = 400
LATENCY_PERIOD = 0.005


def game_lines(count: int, seed: int = 1) -> list[bytes]:
    """S lines of a table mid-game: stacks, 7- and 10-byte tags, realistic reader faults."""
    rng = random.Random(seed)
    table = SimTable()
    for number in range(30):
        table.put(rng.randrange(12), tag_uid(number, rng.choice((7, 7, 10))))
    with VirtualHub(table, FaultModel.realistic(), seed=seed, buffer=0) as hub:
        lines = []
        for _ in range(count):
            lines.append(hub.sweep())
            if rng.random() < 0.05:  # tiles move now and then, so settling shows too
                uid = table.lift(rng.choice([r for r, s in enumerate(table.stacks) if s]))
                table.put(rng.randrange(12), uid)
        return lines


def bench_parse(lines: list[bytes]) -> list[Figure]:
    times = []
    clock = time.perf_counter
    started = clock()
    for raw in lines:
        t0 = clock()
        with contextlib.suppress(ValueError):  # corrupted lines are part of the diet
            parse_line(raw)
        times.append(clock() - t0)
    elapsed = clock() - started
    return [
        Figure("hub.parse_rate", len(lines) / elapsed, "lines/s", 5_000, higher=True),
        Figure("hub.parse_p99", percentile(times, 99) * 1e6, "us", 200),
    ]


def bench_link_rate(lines: list[bytes]) -> Figure:
    """Snapshots per second through pyserial, a real pty and the link, as fast as it goes."""
    table = SimTable()
    with VirtualHub(table, buffer=1 << 16) as hub, HubLink(hub.port) as link:
        while link.health.firmware is None:
            link.read(0.1)
        good = sum(1 for raw in lines if _is_snapshot(raw))

        def feed() -> None:
            for raw in lines:
                while not hub.write(raw):
                    time.sleep(0.0002)

        writer = threading.Thread(target=feed, daemon=True)
        started = time.perf_counter()
        writer.start()
        got = 0
        deadline = started + 20.0
        while got < good and time.perf_counter() < deadline:
            if link.read(0.5) is not None:
                got += 1
        elapsed = time.perf_counter() - started
        writer.join(timeout=5.0)
    return Figure("hub.link_rate", got / elapsed, "snapshots/s", 1_000, higher=True)


def bench_latency() -> list[Figure]:
    """From the hub writing a line to the pty to `read()` returning its snapshot."""
    table = SimTable()
    for number in range(12):
        table.put(number, tag_uid(number))
    latencies: list[float] = []
    with VirtualHub(table) as hub, HubLink(hub.port, clock=time.perf_counter) as link:
        while link.health.firmware is None:
            link.read(0.1)
        written: dict[int, float] = {}

        def sweep() -> None:
            for seq in range(LATENCY_SAMPLES):  # the hub numbers its sweeps from 0
                time.sleep(LATENCY_PERIOD)
                written[seq] = time.perf_counter()
                hub.sweep()

        sweeper = threading.Thread(target=sweep, daemon=True)
        sweeper.start()
        deadline = time.perf_counter() + 20.0
        while len(latencies) < LATENCY_SAMPLES and time.perf_counter() < deadline:
            snapshot = link.read(0.5)
            if snapshot is not None:
                latencies.append(time.perf_counter() - written[snapshot.seq])
        sweeper.join(timeout=5.0)
    return [
        Figure("hub.latency_p50", percentile(latencies, 50) * 1e3, "ms", 5),
        Figure("hub.latency_p99", percentile(latencies, 99) * 1e3, "ms", 20),
    ]


def _is_snapshot(raw: bytes) -> bool:
    try:
        return raw.startswith(b"S ") and parse_line(raw) is not None
    except ValueError:
        return False


def run() -> list[Figure]:
    lines = game_lines(max(PARSE_LINES, LINK_LINES))
    return [
        *bench_parse(lines[:PARSE_LINES]),
        bench_link_rate(lines[:LINK_LINES]),
        *bench_latency(),
    ]
