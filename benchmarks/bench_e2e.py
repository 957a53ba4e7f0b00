"""End to end on the simulated table, through the real link, daemon, presenter and buzzer.

- Tile put down -> live preview image ready: from the hub's `S` line written to the pty (the
  readers' sweep is not software time) to the active seat's new frame on its display, with
  the presenter drawing inside `Daemon.step` (`threaded=False`), in simulated time.
- Button pressed -> every screen updated and the tune started: the daemon as it runs on the
  Pi (`Daemon.serve` in its own thread, the presenter's and the buzzer's threads, the hub
  sweeping 10 times a second); from gpiozero's mock pin released (the end of a short press)
  to the last seat display redrawn and the buzzer's PWM pin sounding the first note.
- Idle: `setup-companion run` as a subprocess on a game in progress, nobody playing, the
  virtual hub sweeping 10 times a second in this process (so its CPU is not counted); CPU
  from /proc/<pid>/stat over 10 s and resident memory from /proc/<pid>/status.

Start to READY, engine scoring and hub-line parsing are measured by bench_startup,
bench_engine and bench_hub (`make bench` runs them all into one table).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bench_startup import REPO, _rss_mb
from benchmarks.figure import Figure, percentile
from companion.config import Config, GameConfig, PathsConfig
from companion.daemon import Daemon, Devices
from companion.game.journal import Journal, start_record
from companion.sim.clock import SimClock
from companion.sim.devices import SimDevices
from companion.sim.rig import SimRig
from engine import ALL_TILES, SQUARES, Board, Game, Tile
from hardware.hub.sim import FaultModel

PUTS = 200
PRESSES = 80
#: presses not counted: the first frames of each kind draw their texts' glyphs for the
#: first time (cached after), as the first minute of a game does on the Pi
WARM_UP = 5
IDLE_SECONDS = 10.0
TIMEOUT = 30.0
PLAYERS = ("S", "N")
#: software's share of a latency, p99, on this machine (a Pi Zero 2 W is about 10x slower)
LATENCY_TARGET_MS = 5.0
START = {"NW": "star-3", "NE": "heart-5", "SW": "club-7", "SE": "spade-9"}


def _start_board() -> Board:
    return Board({square: [Tile.parse(name)] for square, name in START.items()})


def _write_game(folder: Path) -> Config:
    """A state dir with a game of two just started, as if resumed after a restart."""
    config = Config(game=GameConfig(long_press=0.3), paths=PathsConfig(folder))
    Journal(config.paths.journal).append(start_record(Game(PLAYERS, board=_start_board())))
    return config


@dataclass
class _Rig:
    rig: SimRig
    devices: Devices
    daemon: Daemon
    pins: object


@contextmanager
def _table(folder: Path, *, threaded: bool, clock: SimClock | None = None) -> Iterator[_Rig]:
    config = _write_game(folder)
    with SimDevices(config, faults=FaultModel(), seed=1, clock=clock, threaded=threaded) as sim:
        for square, name in START.items():
            sim.rig.put(square, Tile.parse(name))
        yield _Rig(sim.rig, sim.devices, sim.daemon(), sim.pins)


# -- tile put down -> preview ------------------------------------------------------------------
def _put_to_preview(folder: Path) -> tuple[list[float], list[float], list[float]]:
    """From the line written: to the active seat's new frame shown, and to the end of the
    step (every display drawn); and the steps of sweeps that change nothing."""
    clock = SimClock()
    with _table(folder, threaded=False, clock=clock) as t:
        daemon, rig = t.daemon, t.rig
        while not daemon.devices.link.health.connected:
            daemon.step(0.1)
        for _ in range(5):
            clock.advance(0.1)
            rig.sweep()
            daemon.step(1.0)
        table = daemon.table
        assert table.game is not None and table.phase == "playing"
        display = daemon.devices.presenter.displays[table.game.active]
        shown: list[float] = []
        show = display.show

        def show_and_note(image):
            result = show(image)
            shown.append(time.perf_counter())
            return result

        display.show = show_and_note  # type: ignore[method-assign]
        free = [sq for sq in SQUARES if sq not in START]
        spare = [tile for tile in ALL_TILES if str(tile) not in START.values()]
        rng = random.Random(1)
        previews: list[float] = []
        steps: list[float] = []
        quiet: list[float] = []
        for _ in range(PUTS):
            square, tile = rng.choice(free), rng.choice(spare)
            rig.put(square, tile)
            shown.clear()
            clock.advance(0.1)
            started = time.perf_counter()
            rig.sweep()
            if daemon.step(1.0) is None:
                raise RuntimeError("the daemon did not get the sweep within 1 s")
            steps.append(time.perf_counter() - started)
            if table.tracker.placement != ((square, tile),) or len(shown) != 1:
                raise RuntimeError(f"the put of {tile} on {square} was not shown at once")
            previews.append(shown[0] - started)
            rig.lift(square)
            for _ in range(40):  # a placed tile leaves after 2 s unseen
                clock.advance(0.1)
                rig.sweep()
                started = time.perf_counter()
                daemon.step(1.0)
                elapsed = time.perf_counter() - started
                if not table.tracker.placement:
                    break
                quiet.append(elapsed)
            else:
                raise RuntimeError(f"{tile} lifted from {square} never left the placement")
    return previews, steps, quiet


# -- button pressed -> screens and tune --------------------------------------------------------
def _press_to_screens_and_tune(folder: Path) -> list[tuple[float, float, float]]:
    """Per press: seconds from the release to every display redrawn, to the first note, and
    spent waiting for the journal's fsync on the way (both come after it)."""
    with _table(folder, threaded=True) as t:
        stop = threading.Event()
        loop = threading.Thread(target=t.daemon.serve, args=(stop,), name="daemon", daemon=True)
        t.rig.hub.start(0.1)
        loop.start()
        try:
            return _presses(t)
        finally:
            stop.set()
            loop.join(TIMEOUT)
            t.rig.hub.stop()


class _TimedFsync:
    """The `os` the journal sees, timing its fsync: the wait for the card is storage time,
    like the reader sweep and the display transfer, not the software's share."""

    def __init__(self) -> None:
        self.waited = 0.0

    def __getattr__(self, name: str):
        return getattr(os, name)

    def fsync(self, fd: int) -> None:
        started = time.perf_counter()
        os.fsync(fd)
        self.waited += time.perf_counter() - started


def _presses(t: _Rig) -> list[tuple[float, float, float]]:
    import companion.game.journal

    fsync = _TimedFsync()
    companion.game.journal.os = fsync  # type: ignore[attr-defined]
    try:
        return _timed_presses(t, fsync)
    finally:
        companion.game.journal.os = os  # type: ignore[attr-defined]


def _timed_presses(t: _Rig, fsync: _TimedFsync) -> list[tuple[float, float, float]]:
    daemon, devices = t.daemon, t.devices
    drawn: dict[str, float] = {}
    lock = threading.Lock()
    done = threading.Event()
    displays = devices.presenter.displays
    buzzer_pin = t.pins.pin(daemon.config.sound.buzzer_pin)

    def watch(side: str, show):
        def show_and_note(image):
            result = show(image)
            with lock:
                drawn[side] = time.monotonic()
                if len(drawn) == len(displays):
                    done.set()
            return result

        return show_and_note

    for side, display in displays.items():
        display.show = watch(side, display.show)  # type: ignore[method-assign]
    deadline = time.monotonic() + TIMEOUT
    while not daemon.table.tracker.ready:
        if time.monotonic() > deadline:
            raise RuntimeError("the daemon never got ready")
        time.sleep(0.05)
    rng = random.Random(2)
    latencies = []
    for _ in range(WARM_UP + PRESSES):
        game = daemon.table.game
        assert game is not None
        moves = len(game.moves)
        button = t.pins.pin(daemon.config.seats[game.active].button_pin)
        button.drive_low()
        time.sleep(0.05)  # a finger on the button, longer than the bounce
        with lock:
            drawn.clear()
            done.clear()
        buzzer_pin.clear_states()  # its states' times count from then
        fsync.waited = 0.0
        base = released = time.monotonic()  # a hair after it: the figure errs high
        button.drive_high()  # a short press ends the turn: a swap, the next player's chime
        if not done.wait(5.0):
            raise RuntimeError("not every display was redrawn within 5 s of the press")
        tune = _first_note(buzzer_pin, base, timeout=5.0)
        if len(game.moves) != moves + 1:
            raise RuntimeError("the press did not end the turn")
        latencies.append((max(drawn.values()) - released, tune - released, fsync.waited))
        devices.sounds.wait(5.0)
        time.sleep(rng.uniform(0.0, 0.1))  # any moment of the hub's sweep period
    return latencies[WARM_UP:]


def _first_note(pin, base: float, timeout: float) -> float:
    """When the PWM pin first showed a sounding note after `clear_states` at `base`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at = base
        for state in list(pin.states)[1:]:
            at += state.timestamp
            if state.state > 0:
                return at
        time.sleep(0.001)
    raise RuntimeError("the buzzer did not start a tune")


class _Steal:
    """The share of this machine's CPU time its hypervisor took (steal, /proc/stat)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.ticks = self._ticks()

    @staticmethod
    def _ticks() -> int:
        try:
            fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
            return int(fields[8])
        except (OSError, IndexError, ValueError):
            return 0

    def percent(self) -> float:
        hz = os.sysconf("SC_CLK_TCK")
        wall = (time.monotonic() - self.started) * (os.cpu_count() or 1)
        return 100.0 * (self._ticks() - self.ticks) / hz / max(wall, 1e-9)


# -- idle --------------------------------------------------------------------------------------
def _idle(folder: Path, beside=None) -> tuple[float, float]:
    """CPU % of one core and resident MB of `setup-companion run`, nobody playing; `beside`
    (a context manager factory taking the state dir) runs around the measure (bench_web:
    the web companion with a page open)."""
    config = _write_game(folder)
    rig = SimRig(FaultModel.realistic(), seed=3)
    rig.registry.save(config.paths.registry)
    for square, name in START.items():
        rig.put(square, Tile.parse(name))
    toml = folder / "config.toml"
    toml.write_text(
        f'[paths]\nstate_dir = "{folder}"\n\n'
        + "".join(f'[seats.{side}]\ndisplay = {{ driver = "dummy" }}\n' for side in "NESW")
    )
    notify = folder / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(TIMEOUT)
    script = Path(sys.executable).with_name("setup-companion")
    head = [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
    # gpiozero's mock pins (with PWM, so the buzzer is there too): buttons and buzzer idle as
    # on the Pi, with the threads they have there
    env.update(
        NOTIFY_SOCKET=str(notify),
        WATCHDOG_USEC="10000000",
        GPIOZERO_PIN_FACTORY="mock",
        GPIOZERO_MOCK_PIN_CLASS="mockpwmpin",
    )
    rig.hub.start(0.1)
    daemon = subprocess.Popen(
        [*head, "run", "--config", str(toml), "--hub-port", rig.port, "--log-level", "WARNING"],
        env=env,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        while "READY=1" not in listener.recv(4096).decode().split("\n"):
            pass
        with beside(folder) if beside else contextlib.nullcontext():
            time.sleep(1.0)  # past the first frames and the link's first second
            before, started = _cpu_seconds(daemon.pid), time.monotonic()
            time.sleep(IDLE_SECONDS)
            cpu = (_cpu_seconds(daemon.pid) - before) / (time.monotonic() - started)
            rss = _rss_mb(daemon.pid)
        if daemon.poll() is not None:
            raise RuntimeError("the daemon stopped")
    except Exception:
        daemon.kill()
        _, err = daemon.communicate(timeout=TIMEOUT)
        raise RuntimeError(f"idle daemon failed: {err.decode(errors='replace')[-2000:]}") from None
    finally:
        listener.close()
        rig.close()
    daemon.send_signal(signal.SIGTERM)
    _, err = daemon.communicate(timeout=TIMEOUT)
    if daemon.returncode != 0:
        raise RuntimeError(f"idle daemon exited with {daemon.returncode}: {err.decode()[-2000:]}")
    return 100 * cpu, rss


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run() -> list[Figure]:
    folder = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    try:
        for part in ("put", "press", "idle"):
            (folder / part).mkdir()
        previews, steps, quiet = _put_to_preview(folder / "put")
        stolen = _Steal()
        presses = _press_to_screens_and_tune(folder / "press")
        steal = stolen.percent()
        cpu, rss = _idle(folder / "idle")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    screens = [s for s, _, _ in presses]
    tunes = [t for _, t, _ in presses]
    both = [max(s, t) for s, t, _ in presses]
    fsyncs = [f for _, _, f in presses]
    software = [max(s, t) - f for s, t, f in presses]

    def ms(name: str, samples: list[float], p: int, target: float | None = None) -> Figure:
        return Figure(f"e2e: {name} p{p}", percentile(samples, p) * 1e3, "ms", target)

    return [
        ms("tile put -> preview image", previews, 50),
        ms("tile put -> preview image", previews, 99, LATENCY_TARGET_MS),
        ms("tile put -> step done (all displays)", steps, 99),
        ms("sweep changing nothing, step", quiet, 50),
        ms("sweep changing nothing, step", quiet, 99),
        ms("button -> tune started", tunes, 50),
        ms("button -> tune started", tunes, 99),
        ms("button -> every screen redrawn", screens, 50),
        ms("button -> every screen redrawn", screens, 99),
        ms("button -> every screen + tune", both, 50),
        ms("button -> every screen + tune", both, 99),
        ms("  of which the journal's fsync (storage)", fsyncs, 99),
        ms("button -> every screen + tune, software share", software, 50),
        ms("button -> every screen + tune, software share", software, 99, LATENCY_TARGET_MS),
        # A virtual machine's host may take the CPU away mid-measure: a press run with
        # more than ~1 % stolen shows the host's pauses in its p99, not the software's.
        Figure("e2e: CPU taken by the VM host during the presses", steal, "%"),
        Figure("e2e: idle daemon CPU (hub 10 sweeps/s)", cpu, "% core", 1.0),
        Figure("e2e: idle daemon resident memory", rss, "MB", 40.0),
    ]
