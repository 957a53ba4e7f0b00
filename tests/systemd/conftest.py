"""The systemd side of sd_notify for the tests: a real AF_UNIX datagram socket that we bind."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterator

import pytest


class NotifyListener:
    """Receives notify datagrams the way systemd does (with the sender's credentials)."""

    def __init__(self, *, abstract: bool = False) -> None:
        self._dir = tempfile.mkdtemp(prefix="sdn-", dir="/tmp")  # short: AF_UNIX paths <= 107
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        if abstract:
            name = f"setup-companion-test-{os.getpid()}-{os.path.basename(self._dir)}"
            self.socket.bind("\0" + name)
            self.env_value = "@" + name
        else:
            self.path = os.path.join(self._dir, "notify")
            self.socket.bind(self.path)
            self.env_value = self.path
        self.messages: list[str] = []
        self.senders: list[int] = []

    def receive(self, timeout: float) -> str | None:
        """The next datagram's text, or None if none came within timeout seconds."""
        self.socket.settimeout(timeout)
        try:
            data, ancdata, _flags, _addr = self.socket.recvmsg(4096, socket.CMSG_SPACE(12))
        except TimeoutError:
            return None
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                self.senders.append(int.from_bytes(payload[:4], "little"))
        text = data.decode()
        self.messages.append(text)
        return text

    def wait_for(
        self, predicate: Callable[[str], bool], timeout: float, alive: Callable[[], bool] = bool
    ) -> str:
        """Receives until a message satisfies predicate; fails after timeout seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(min(0.5, max(0.01, deadline - time.monotonic())))
            if message is not None and predicate(message):
                return message
            if message is None and not alive():
                break
        raise AssertionError(f"no matching notify message; got {self.messages!r}")

    @staticmethod
    def parse(message: str) -> dict[str, str]:
        """The KEY=value assignments of one datagram."""
        return dict(line.split("=", 1) for line in message.split("\n") if line)

    def close(self) -> None:
        self.socket.close()
        shutil.rmtree(self._dir, ignore_errors=True)


@pytest.fixture
def listener() -> Iterator[NotifyListener]:
    sock = NotifyListener()
    yield sock
    sock.close()


@pytest.fixture
def abstract_listener() -> Iterator[NotifyListener]:
    sock = NotifyListener(abstract=True)
    yield sock
    sock.close()
