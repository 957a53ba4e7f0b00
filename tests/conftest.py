"""gpiozero's own test doubles for the buzzer and the buttons; Hypothesis blind to the
machine's speed; the tests' files in memory."""

from __future__ import annotations

import os
import tempfile
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import HealthCheck, settings

# Hypothesis times each example (`deadline`) and the drawing of inputs (`too_slow`): on a
# shared, busy machine both fail tests whose code is right (the view round trip and the hub
# snapshot round trip did, at 1 s of drawing). What a property finds must not depend on how
# fast the machine was that day; every other health check (data too large, a filter that
# rejects most inputs) still applies.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


#: where the tests' temporary files go when TMPDIR does not say: a RAM disk where there is one
MEMORY = "/dev/shm"


def pytest_configure(config: pytest.Config) -> None:
    """Every journal append, settings save and archive is fsynced (the card must keep it):
    on a disk, each fsync waits for the disk, and the suite makes tens of thousands (the
    journal's torn-write tests alone waited 13 s for them). In a RAM disk the same calls run
    and return at once; no test can see a disk's durability anyway (a power cut is a cut
    file). Set before xdist starts its workers, so that they, pytest's tmp_path and every
    daemon or web companion the tests start inherit it; an explicit TMPDIR is kept."""
    if hasattr(config, "workerinput") or "TMPDIR" in os.environ:
        return
    if os.path.isdir(MEMORY) and os.access(MEMORY, os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = MEMORY
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


class RecordingPWMPin(MockPWMPin):
    """gpiozero's MockPWMPin, also keeping the frequencies it was set to (its `states` keep
    only the duty cycle): (time since the previous change, Hz or None)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies: list[tuple[float, float | None]] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append((time.monotonic(), value))


@pytest.fixture
def pwm_factory():
    factory = MockFactory(pin_class=RecordingPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def pin_factory():
    factory = MockFactory()
    yield factory
    factory.reset()


# The modules that take longest, longest first (wall time with two busy loops on two cores):
# `make test` hands whole modules to its workers in this order (--no-loadscope-reorder; by
# default xdist orders them by how many tests they hold, which put the one-test power-cut
# module, two minutes on a loaded machine, last: the suite's tail). The rest keep their order.
FIRST = (
    "tests/faults/test_files.py",
    "tests/systemd/test_install.py",
    "tests/web/test_pages.py",
    "tests/faults/test_power_cut.py",
    "tests/commands/test_filters.py",
    "tests/hub/test_link_fuzz.py",
    "tests/e2e/test_games.py",
    "tests/web/test_limits.py",
    "tests/game/test_journal.py",
    "tests/web/test_correct.py",
    "tests/engine/test_properties.py",
    "tests/e2e/test_soak.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {module: place for place, module in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))
