"""The service unit: the keys the issue requires, its traps, and systemd's own verdict on it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD / "setup-companion.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def read_unit(path: Path = UNIT) -> dict[str, list[tuple[str, str]]]:
    """Sections -> (key, value) in file order; keys repeat (DeviceAllow=) as in systemd."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
            continue
        key, _, value = line.partition("=")
        assert current is not None, f"assignment outside a section: {raw!r}"
        current.append((key.strip(), value.strip()))
    return sections


def values(section: str, key: str) -> list[str]:
    return [v for k, v in read_unit()[section] if k == key]


def one(section: str, key: str) -> str:
    found = values(section, key)
    assert len(found) == 1, f"{key}= should be set once in [{section}], found {found}"
    return found[0]


def words(section: str, key: str) -> set[str]:
    return {w for v in values(section, key) for w in v.split()}


def test_type_notify_with_watchdog_and_restart():
    assert one("Service", "Type") == "notify"
    assert one("Service", "NotifyAccess") == "main"
    assert one("Service", "Restart") == "on-failure"
    watchdog = one("Service", "WatchdogSec")
    assert re.fullmatch(r"\d+", watchdog) and 2 <= int(watchdog) <= 60
    assert one("Install", "WantedBy") == "multi-user.target"


def test_runs_the_daemon_with_the_installed_config():
    assert one("Service", "ExecStart") == (
        "/opt/setup-companion/venv/bin/setup-companion run "
        "--config /etc/setup-companion/config.toml"
    )


def test_does_not_wait_for_the_network():
    ordering = words("Unit", "After") | words("Unit", "Wants") | words("Unit", "Requires")
    assert not {u for u in ordering if u.startswith("network")}


def test_dedicated_user_in_the_hardware_groups():
    assert one("Service", "User") not in ("", "root", "0")
    assert words("Service", "SupplementaryGroups") >= {"dialout", "i2c", "spi", "gpio"}


def test_only_the_state_and_runtime_directories_are_writable():
    assert one("Service", "ProtectSystem") == "strict"
    assert one("Service", "StateDirectory") == "setup-companion"
    runtime = one("Service", "RuntimeDirectory")
    # lgpio writes its notification pipes into the working directory.
    assert one("Service", "WorkingDirectory") in (f"/run/{runtime}", f"%t/{runtime}")
    assert not values("Service", "ReadWritePaths")


def test_no_network():
    assert one("Service", "PrivateNetwork") == "yes"
    assert one("Service", "IPAddressDeny") == "any"
    assert words("Service", "RestrictAddressFamilies") == {"AF_UNIX"}


def test_system_call_filter():
    filters = values("Service", "SystemCallFilter")
    assert "@system-service" in filters
    assert any(f.startswith("~") and "@privileged" in f for f in filters)
    assert one("Service", "SystemCallArchitectures") == "native"


def test_exactly_the_devices_it_needs():
    allowed = set(values("Service", "DeviceAllow"))
    assert allowed == {
        "char-ttyACM rw",  # the hub: a Pico's USB CDC serial port
        "char-i2c rw",  # the displays, directly or behind the i2c-mux
        "char-spi rw",  # displays wired to SPI (spidev registers as "spi")
        "char-gpiochip rw",  # buttons, buzzer and display reset through lgpio
        "char-alsa rw",  # the optional spoken announcements
    }
    assert one("Service", "DevicePolicy") == "closed"


def test_device_traps_are_avoided():
    # PrivateDevices=yes gives a /dev without the hub, the I2C buses and the GPIO chips.
    assert values("Service", "PrivateDevices") in ([], ["no"])
    # ProtectClock=yes turns on a device allow list: fine only with our devices listed.
    if values("Service", "ProtectClock") == ["yes"]:
        assert values("Service", "DeviceAllow")
    # ProcSubset=pid hides /proc/device-tree and /proc/cpuinfo, where gpiozero finds the Pi.
    assert values("Service", "ProcSubset") in ([], ["all"])


def test_device_groups_are_loaded_before_the_service_starts():
    # DeviceAllow=char-X only resolves groups whose driver is loaded at start: a hub plugged
    # in after boot would otherwise never be reachable.
    wants = words("Unit", "Wants")
    after = words("Unit", "After")
    for module in ("cdc_acm", "i2c_dev", "spidev", "snd"):
        assert f"modprobe@{module}.service" in wants
        assert f"modprobe@{module}.service" in after


def exposure(unit: Path) -> float:
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout + done.stderr)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


@needs_analyze
def test_exposure_is_at_most_0_7():
    assert exposure(UNIT) <= 0.7


def size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([KMG]?)", text).groups()
    return int(number) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[unit]


def test_memory_and_tasks_are_limited_for_a_512_mb_pi():
    # a Pi Zero 2 W has 512 MB: a runaway is stopped well before the Pi itself is starved
    assert size(one("Service", "MemoryMax")) <= 256 << 20
    assert size(one("Service", "MemoryHigh")) < size(one("Service", "MemoryMax"))
    assert one("Service", "MemorySwapMax") == "0"
    assert 16 <= int(one("Service", "TasksMax")) <= 64


def test_the_services_log_is_rate_limited():
    assert re.fullmatch(r"\d+s", one("Service", "LogRateLimitIntervalSec"))
    assert 50 <= int(one("Service", "LogRateLimitBurst")) <= 1000


RETRY = SYSTEMD / "setup-companion-retry.timer"


def seconds(text: str) -> float:
    """A systemd time span as seconds: "3", "120s", "5min", "1h 30s"."""
    units = {"": 1, "s": 1, "sec": 1, "min": 60, "m": 60, "h": 3600, "hr": 3600}
    parts = re.findall(r"(\d+)\s*([a-z]*)", text)
    assert parts and "".join(n + u for n, u in parts) == text.replace(" ", ""), text
    return sum(int(n) * units[u] for n, u in parts)


def restart_policy() -> dict[str, float]:
    timer = {k: v for k, v in read_unit(RETRY)["Timer"]}
    return {
        "restart": seconds(one("Service", "RestartSec")),
        "interval": seconds(one("Unit", "StartLimitIntervalSec")),
        "burst": int(one("Unit", "StartLimitBurst")),
        "retry": seconds(timer["OnActiveSec"]),
    }


def starts(policy: dict[str, float], fails_after: float, hours: float = 1.0) -> list[float]:
    """When systemd 252 starts a service that fails `fails_after` s after each start, as its
    manual says: Restart=on-failure restarts it RestartSec later; a start is refused once
    StartLimitBurst starts happened in the StartLimitIntervalSec since the first of them
    (the unit fails for good: start-limit-hit), and OnFailure= then starts the retry timer,
    which starts the service OnActiveSec later (a manual start, under the same limit)."""
    times: list[float] = []
    window, count, at = -1e9, 0, 0.0
    while at < hours * 3600:
        if not policy["interval"] or at - window > policy["interval"]:
            window, count = at, 0  # systemd's ratelimit_below(): a new window (0: no limit)
        if count < policy["burst"]:
            count += 1
            times.append(at)
            at += fails_after + policy["restart"]
        else:
            at += policy["retry"]  # refused: failed, OnFailure= starts the timer
    return times


def test_restart_policy_is_a_bounded_burst_then_a_slow_retry_on_systemd_252():
    """Before: StartLimitIntervalSec=0 and RestartSec=2 (RestartSteps= is unknown to 252),
    so a daemon that cannot start (a read-only card, a broken config) was started every
    2 s, 1,200 times an hour, for ever."""
    policy = restart_policy()
    # the retry timer is what OnFailure= starts, and it starts this very service, once
    assert one("Unit", "OnFailure") == RETRY.name
    timer = dict(read_unit(RETRY)["Timer"])
    assert timer["Unit"] == UNIT.name and timer["RemainAfterElapse"] == "no"
    assert "Install" not in read_unit(RETRY)  # never started but by OnFailure=
    assert not values("Service", "RestartSteps") and not values("Service", "RestartMaxDelaySec")
    assert 2 <= policy["restart"] <= 10 and 3 <= policy["burst"] <= 10
    # the retry starts after the burst's window: it is never refused as part of that burst
    assert policy["retry"] > policy["interval"]
    for fails_after in (0.5, 3.0, 8.0):  # exit at once, a slow Python start, a late failure
        times = starts(policy, fails_after)
        burst = int(policy["burst"])
        assert times[:burst] == [n * (fails_after + policy["restart"]) for n in range(burst)]
        assert times[burst] - times[burst - 1] >= policy["retry"]  # then it waits
        assert len(times) <= 80  # an hour: not 1,200 starts
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert max(gaps) <= 10 * 60  # and it never stops trying


def test_the_policy_model_can_fail():
    # the old values in the same model: a start every 2.5 s, the whole hour long
    old = {"restart": 2, "interval": 0, "burst": 5, "retry": 0}
    assert len(starts(old, 0.5)) > 1000


def test_the_system_bus_is_unreachable():
    hidden = words("Service", "InaccessiblePaths")
    assert "-/run/dbus/system_bus_socket" in hidden


@needs_analyze
def test_exposure_check_can_fail(tmp_path):
    # The same measurement on an unhardened copy must come out high, or the check proves nothing.
    bare = tmp_path / "setup-companion.service"
    bare.write_text(
        "[Service]\nType=notify\nExecStart=/opt/setup-companion/venv/bin/setup-companion run\n"
    )
    assert exposure(bare) > 5.0


def verify(folder: Path, *units: Path) -> list[str]:
    """What `systemd-analyze verify` says of copies of `units` in `folder` (which must pass):
    ExecStart's program exists only once installed, so the copies run /bin/true."""
    copies = []
    for unit in units:
        copy = folder / unit.name
        copy.write_text(
            unit.read_text().replace(
                "ExecStart=/opt/setup-companion/venv/bin/setup-companion", "ExecStart=/bin/true"
            )
        )
        copies.append(str(copy))
    done = subprocess.run(
        [ANALYZE, "verify", "--man=no", *copies], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stderr.strip().splitlines()


@needs_analyze
def test_systemd_analyze_verify_is_clean(tmp_path):
    """Both units, with nothing systemd (252 on Bookworm, and later) does not know: before,
    252 warned of RestartSteps= and RestartMaxDelaySec=, the backoff it ignored."""
    assert verify(tmp_path, UNIT, RETRY) == []
