"""`sudo setup-companion enroll` against the service's state dir: the registry it writes is
the service user's, with the state dir's group and modes, so the service can read it; and
a hub the daemon holds is said in one sentence instead of waiting for ever."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.board.registry import Registry
from companion.sim.rig import SimRig
from hardware.hub.link import HubLink

SERVICE_UID, SERVICE_GID = 64123, 64124  # no such user needed: os.chown takes numbers
CLI = [sys.executable, "-m", "companion.cli"]

root_only = pytest.mark.skipif(
    os.geteuid() != 0, reason="runs enroll as root against another user's state dir"
)


@pytest.fixture
def service_dir():
    """A state dir owned by the service's user and group, mode 0750, where that user can
    reach it (a test's tmp_path is under a root-only folder)."""
    top = Path(tempfile.mkdtemp(prefix="enroll-root-", dir="/tmp"))
    top.chmod(0o755)
    state = top / "state"
    state.mkdir(mode=0o750)
    state.chmod(0o750)
    os.chown(state, SERVICE_UID, SERVICE_GID)
    yield state
    subprocess.run(["rm", "-rf", str(top)], check=False)


def read_as(uid: int, gid: int, path: Path) -> subprocess.CompletedProcess:
    def become() -> None:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)

    # cat, not this Python: the test's interpreter may sit where that user cannot reach
    return subprocess.run(
        ["cat", str(path)],
        preexec_fn=become,
        capture_output=True,
        text=True,
        timeout=60,
    )


def enroll_as_root(state_dir: Path) -> None:
    """`sudo setup-companion enroll --sim` on the service's state dir, done."""
    done = subprocess.run(
        [*CLI, "enroll", "--sim", "--state-dir", str(state_dir)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr


@root_only
def test_enroll_as_root_writes_a_registry_the_service_user_reads(service_dir):
    enroll_as_root(service_dir)
    path = service_dir / "registry.json"
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (SERVICE_UID, SERVICE_GID)
    assert stat.S_IMODE(info.st_mode) == 0o640  # the dir's 0750 without the x bits
    leftovers = [p.name for p in service_dir.iterdir() if p.name != "registry.json"]
    assert leftovers == []
    read = read_as(SERVICE_UID, SERVICE_GID, path)
    assert read.returncode == 0, read.stderr
    assert len(json.loads(read.stdout)) == 50


@root_only
def test_a_root_registry_left_by_an_old_enroll_is_replaced_by_the_services(service_dir):
    path = service_dir / "registry.json"
    Registry(path).save()  # as root, 0600: what `sudo enroll` used to leave
    path.chmod(0o600)
    assert read_as(SERVICE_UID, SERVICE_GID, path).returncode != 0  # the bug
    enroll_as_root(service_dir)
    assert path.stat().st_uid == SERVICE_UID
    assert len(json.loads(read_as(SERVICE_UID, SERVICE_GID, path).stdout)) == 50


def test_enroll_says_in_one_sentence_when_the_daemon_holds_the_hub(tmp_path):
    with SimRig() as rig, HubLink(rig.port) as daemons_link:
        rig.sweep()
        daemons_link.read(2.0)  # the daemon's link has the port, exclusively
        done = subprocess.run(
            [*CLI, "enroll", "--state-dir", str(tmp_path), "--hub-port", rig.port],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    message = done.stderr.strip()
    assert "holds the reader hub" in message and "systemctl stop setup-companion" in message
    assert "settings" in message and "Traceback" not in message and len(message.splitlines()) == 1
    assert f"pid {os.getpid()}" in message
