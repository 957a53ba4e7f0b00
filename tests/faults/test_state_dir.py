"""One daemon per state dir, and a state dir it cannot write refused at start: the real
`setup-companion run` process, as systemd starts it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands._lock import StateDirError, StateDirLock
from tests.faults.process import dummy_config, run


def test_a_second_daemon_on_the_same_state_dir_refuses_naming_the_first(start_daemon, tmp_path):
    state = tmp_path / "state"
    config = str(dummy_config(tmp_path, state))
    first = start_daemon("--config", config, "--hub-port", str(tmp_path / "no-hub"))
    first.ready()
    second = run("run", "--config", config, "--hub-port", str(tmp_path / "no-hub"))
    assert second.returncode == 2, second.stderr
    lines = second.stderr.strip().splitlines()
    assert lines == [
        f"setup-companion: the state directory {state} is in use by another daemon"
        f" (process {first.process.pid}, setup-companion run); stop it first,"
        " or give this one its own --state-dir"
    ], second.stderr
    assert first.process.poll() is None  # the first one plays on
    assert first.stop() == 0
    # once it has ended, the next one starts
    third = start_daemon("--config", config, "--hub-port", str(tmp_path / "no-hub"))
    assert third.ready()
    assert third.stop() == 0


def test_the_lock_goes_with_its_holder(tmp_path):
    held = StateDirLock(tmp_path)
    with pytest.raises(StateDirError, match=r"in use by another daemon \(process \d+"):
        StateDirLock(tmp_path)  # another descriptor: flock tells them apart even in one process
    held.release()
    StateDirLock(tmp_path).release()


def test_a_state_dir_that_cannot_be_written_is_refused_before_ready(tmp_path):
    # /sys refuses new files even to root (chmod does not stop root; a read-only card
    # refuses them the same way, with "Read-only file system")
    config = dummy_config(tmp_path, Path("/sys/kernel"))
    result = run("run", "--config", str(config), "--hub-port", str(tmp_path / "no-hub"))
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "setup-companion: cannot write in the state directory /sys/kernel: Permission denied"
    ), result.stderr
    assert "ready" not in result.stderr
