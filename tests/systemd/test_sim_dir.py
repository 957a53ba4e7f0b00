"""`run --sim` keeps its state in a private directory of the user running it (never a fixed
/tmp path another local user could make first), and no journal is read through a link."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

import pytest

from companion.commands._common import CommandError, load
from companion.game.journal import Journal, start_record
from engine import Game
from tests.faults.process import Daemon
from tests.helpers import Rig


def sim_args() -> argparse.Namespace:
    return argparse.Namespace(config=None, state_dir=None, sim=True, hub_port=None)


@pytest.fixture
def runtime(tmp_path, monkeypatch) -> Path:
    """The user's runtime directory, as systemd-logind makes it (0700)."""
    folder = tmp_path / "run-user"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return folder


def test_the_sim_state_dir_is_the_users_own(runtime):
    state = load(sim_args()).paths.state_dir
    assert state == runtime / "setup-companion-sim"
    info = os.lstat(state)
    assert stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
    assert stat.S_IMODE(info.st_mode) == 0o700


def test_a_sim_state_dir_that_is_a_link_is_refused(runtime, tmp_path):
    elsewhere = tmp_path / "someone-elses"
    elsewhere.mkdir(mode=0o777)
    (runtime / "setup-companion-sim").symlink_to(elsewhere)
    with pytest.raises(CommandError, match="symbolic link"):
        load(sim_args())


def test_a_sim_state_dir_others_can_write_into_is_refused(runtime):
    (runtime / "setup-companion-sim").mkdir()
    os.chmod(runtime / "setup-companion-sim", 0o777)
    with pytest.raises(CommandError, match="not a directory of yours alone"):
        load(sim_args())


def test_a_journal_that_is_a_link_is_never_read_through(tmp_path):
    """Someone's file behind a `journal.jsonl` link: not resumed, not changed."""
    victim = tmp_path / "victim.jsonl"
    Journal(victim).append(start_record(Game(["S", "N"]), {}))
    before = victim.read_bytes()
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.jsonl").symlink_to(victim)
    rig = Rig(state)
    assert rig.table.phase == "lobby" and rig.table.game is None
    assert "symbolic link" in rig.table.startup_error
    assert victim.read_bytes() == before
    assert not (state / "journal.jsonl").exists()  # the link itself was moved aside


def test_run_sim_keeps_its_journal_in_the_users_runtime_dir(runtime):
    daemon = Daemon("--sim")
    try:
        assert "lobby" in daemon.ready()["STATUS"], daemon.output()
        assert daemon.stop() == 0
    finally:
        daemon.remove()
    assert (runtime / "setup-companion-sim").is_dir()
    assert stat.S_IMODE(os.stat(runtime / "setup-companion-sim").st_mode) == 0o700
