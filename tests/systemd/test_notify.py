"""companion.notify against real AF_UNIX datagram sockets, path and abstract."""

from __future__ import annotations

import logging
import os
import socket

import pytest

from companion.notify import Notifier, socket_address, watchdog_interval_from_env

WAIT = 5.0  # generous: a datagram to a local socket arrives at once or not at all


def env(listener, **extra: str) -> dict[str, str]:
    return {"NOTIFY_SOCKET": listener.env_value, **extra}


def test_ready_status_watchdog_stopping_arrive_as_sent(listener):
    with Notifier.from_env(env(listener)) as notifier:
        assert notifier.enabled
        assert notifier.ready() is True
        assert notifier.ready("hub connected, 4 displays") is True
        assert notifier.status("game 3: red leads") is True
        assert notifier.watchdog() is True
        assert notifier.stopping() is True
    got = [listener.receive(WAIT) for _ in range(5)]
    assert got == [
        "READY=1",
        "READY=1\nSTATUS=hub connected, 4 displays",
        "STATUS=game 3: red leads",
        "WATCHDOG=1",
        "STOPPING=1",
    ]


def test_datagrams_carry_our_pid_as_systemd_checks_with_notify_access_main(listener):
    with Notifier.from_env(env(listener)) as notifier:
        notifier.watchdog()
    assert listener.receive(WAIT) == "WATCHDOG=1"
    assert listener.senders == [os.getpid()]


def test_abstract_socket_name_with_at_sign(abstract_listener):
    assert abstract_listener.env_value.startswith("@")
    with Notifier.from_env(env(abstract_listener)) as notifier:
        assert notifier.ready("up") is True
    assert abstract_listener.parse(abstract_listener.receive(WAIT)) == {
        "READY": "1",
        "STATUS": "up",
    }


def test_socket_address_turns_at_into_nul():
    assert socket_address("@foo/bar") == b"\0foo/bar"
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"


def test_a_newline_in_a_status_cannot_forge_another_assignment(listener):
    with Notifier.from_env(env(listener)) as notifier:
        notifier.status("hub lost\nREADY=1\nWATCHDOG=trigger")
    message = listener.receive(WAIT)
    assert message == "STATUS=hub lost READY=1 WATCHDOG=trigger"
    assert list(listener.parse(message)) == ["STATUS"]


def test_without_notify_socket_everything_is_a_quiet_no_op(listener):
    notifier = Notifier.from_env({"WATCHDOG_USEC": "10000000"})
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    notifier.close()
    assert listener.receive(0.2) is None


def test_default_environment_is_os_environ(listener, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", listener.env_value)
    monkeypatch.setenv("WATCHDOG_USEC", "3000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    with Notifier.from_env() as notifier:
        assert notifier.watchdog_interval == pytest.approx(1.5)
        notifier.ready()
    assert listener.receive(WAIT) == "READY=1"


def test_unsupported_socket_kind_disables_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="companion.notify"):
        notifier = Notifier.from_env({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert "vsock:2:1234" in caplog.text


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"WATCHDOG_USEC": "10000000"}, 5.0),
        ({"WATCHDOG_USEC": "300000"}, 0.15),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "OWN"}, 5.0),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "OTHER"}, None),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "x"}, None),
        ({"WATCHDOG_USEC": "ten"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_usec_for_this_process(environ, expected):
    pid = os.getpid()
    pids = {"OWN": str(pid), "OTHER": str(pid + 1)}
    environ = {k: pids.get(v, v) for k, v in environ.items()}
    assert watchdog_interval_from_env(environ, pid) == expected
    notifier = Notifier.from_env({"NOTIFY_SOCKET": "@unused-by-this-test", **environ})
    assert notifier.watchdog_interval == expected
    notifier.close()


def test_lost_listener_never_raises_and_logs_once_until_it_is_back(listener, caplog):
    notifier = Notifier.from_env(env(listener))
    listener.socket.close()
    os.unlink(listener.path)
    with caplog.at_level(logging.INFO, logger="companion.notify"):
        assert [notifier.watchdog() for _ in range(3)] == [False, False, False]
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1
        assert listener.path in warnings[0].getMessage()

        back = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        back.bind(listener.path)
        try:
            assert notifier.watchdog() is True
            back.settimeout(WAIT)
            assert back.recv(64) == b"WATCHDOG=1"
        finally:
            back.close()
    assert "works again" in caplog.records[-1].getMessage()
    notifier.close()


def test_close_is_idempotent_and_later_calls_send_nothing(listener):
    notifier = Notifier.from_env(env(listener))
    notifier.close()
    notifier.close()
    assert not notifier.enabled
    assert notifier.ready() is False
    assert listener.receive(0.2) is None


def test_repr_names_the_socket_and_interval(listener):
    with Notifier.from_env(env(listener, WATCHDOG_USEC="4000000")) as notifier:
        assert repr(notifier) == f"<Notifier {listener.path!r} watchdog_interval=2.0>"
    assert repr(Notifier.from_env({})) == "<Notifier off watchdog_interval=None>"
