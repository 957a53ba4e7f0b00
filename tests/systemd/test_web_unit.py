"""The web companion's units: its own user, no device, the home network only, systemd's
verdict, and socket activation (systemd listens on port 80, the web companion serves it)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.request

from tests.systemd.test_unit import SYSTEMD, exposure, needs_analyze, read_unit, verify
from tests.web.harness import wait_until

SERVICE = SYSTEMD / "setup-companion-web.service"
SOCKET = SYSTEMD / "setup-companion-web.socket"


def keys(path, section: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, value in read_unit(path)[section]:
        out.setdefault(key, []).append(value)
    return out


def test_its_own_user_no_devices_and_no_capability():
    service = keys(SERVICE, "Service")
    assert (
        service["User"]
        == ["setup-companion-web"]
        != keys(SYSTEMD / "setup-companion.service", "Service")["User"]
    )
    assert service["SupplementaryGroups"] == ["setup-companion"]  # the socket and the games only
    assert service["PrivateDevices"] == ["yes"] and service["DevicePolicy"] == ["closed"]
    assert "DeviceAllow" not in service
    assert service["CapabilityBoundingSet"] == [""]
    assert service["IPAddressDeny"] == ["any"]
    assert "--socket /run/setup-companion/companion.sock" in service["ExecStart"][0]


def test_port_80_by_socket_activation():
    sock = keys(SOCKET, "Socket")
    assert sock["ListenStream"] == ["80"] and sock["Accept"] == ["no"]
    assert keys(SERVICE, "Unit")["Requires"] == ["setup-companion-web.socket"]


def test_the_socket_it_is_handed_answers_the_home_network_only():
    # systemd never applies the service's list to a socket passed in by activation: the
    # socket unit needs its own, the same
    sock, service = keys(SOCKET, "Socket"), keys(SERVICE, "Service")
    assert sock["IPAddressDeny"] == service["IPAddressDeny"] == ["any"]
    assert sock["IPAddressAllow"] == service["IPAddressAllow"]
    allowed = sock["IPAddressAllow"][0].split()
    assert "192.168.0.0/16" in allowed and "localhost" in allowed and "any" not in allowed


@needs_analyze
def test_exposure_is_two_or_lower():
    assert exposure(SERVICE) <= 2.0


@needs_analyze
def test_systemd_analyze_verify_is_clean(tmp_path):
    assert verify(tmp_path, SOCKET, SERVICE) == []


def test_the_web_companion_serves_the_socket_systemd_hands_it(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    os.set_inheritable(listener.fileno(), True)
    # as systemd does: the socket as fd 3, LISTEN_FDS=1 and LISTEN_PID the server's own pid
    argv = [sys.executable, "-m", "companion.cli", "web", "--state-dir", str(tmp_path),
            "--socket", str(tmp_path / "none.sock"), "--port", "1"]  # fmt: skip
    launcher = (
        f"import os; os.dup2({listener.fileno()}, 3); "
        "os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS='1'); "
        f"os.execv({sys.executable!r}, {argv!r})"
    )
    web = subprocess.Popen(
        [sys.executable, "-c", launcher], pass_fds=(listener.fileno(),), stderr=subprocess.PIPE
    )
    listener.close()  # only the web companion holds it now
    try:

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    return b"not reachable" in r.read()  # no daemon: it says so
            except OSError:
                return False

        served = wait_until(answers, what="the web companion on the passed socket")
    except AssertionError:
        served = False
    finally:
        web.terminate()
        _, err = web.communicate(timeout=10)
    assert served, err.decode(errors="replace")[-3000:]
