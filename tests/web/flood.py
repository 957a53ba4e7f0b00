"""Many connections at once against the real web companion, as one abusive device (or a
few) of the home network would open them: each from a loopback address of its own choice
(all of 127.0.0.0/8 is this machine's), each asking for one request, with what the server
answered. Shared by the abuse tests and `make bench`."""

from __future__ import annotations

import contextlib
import resource
import selectors
import socket
import time
from dataclasses import dataclass, field

from tests.web.harness import DEADLINE

#: connection attempts in flight at once (the server's listen queue is short on purpose)
IN_FLIGHT = 128


@dataclass(eq=False)
class Attempt:
    source: str
    sock: socket.socket
    request: bytes
    received: bytes = b""
    outcome: str = ""  # "200", "503", ... (the status), "closed" (no answer), "" (waiting)
    sent: bool = False

    @property
    def body(self) -> str:
        return self.received.partition(b"\r\n\r\n")[2].decode(errors="replace")


@dataclass
class Flood:
    """`count` requests of `path` to `port`, from `sources` in turn; the answered streams
    stay open (`held`) until `close`."""

    port: int
    count: int
    sources: tuple[str, ...] = ("127.0.0.1",)
    path: str = "/events"
    attempts: list[Attempt] = field(default_factory=list)
    _selector: selectors.BaseSelector = field(default_factory=selectors.DefaultSelector)

    def run(self) -> Flood:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < self.count + 200:  # this test process holds them all
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, self.count + 1000), hard))
        selector = self._selector
        waiting = 0
        started = 0
        end = time.monotonic() + DEADLINE
        while started < self.count or waiting:
            while started < self.count and waiting < IN_FLIGHT:
                self._start(selector, self.sources[started % len(self.sources)])
                started += 1
                waiting += 1
            for key, _ in selector.select(0.5):
                attempt: Attempt = key.data
                if self._step(attempt):
                    selector.unregister(attempt.sock)
                    waiting -= 1
            if time.monotonic() > end:
                raise AssertionError(f"{waiting} connections neither answered nor closed")
        selector.close()
        return self

    def _start(self, selector: selectors.BaseSelector, source: str) -> None:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", self.port))
        request = f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode()
        attempt = Attempt(source, sock, request)
        self.attempts.append(attempt)
        selector.register(sock, selectors.EVENT_WRITE, attempt)

    def _step(self, attempt: Attempt) -> bool:
        """One event on `attempt`'s socket; True once its outcome is known."""
        sock = attempt.sock
        try:
            if not attempt.sent:
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    raise OSError(error, "connect failed")
                sock.send(attempt.request)
                attempt.sent = True
                self._selector.modify(sock, selectors.EVENT_READ, attempt)
                return False
            data = sock.recv(65536)
        except BlockingIOError:
            return False
        except OSError:
            attempt.outcome = attempt.outcome or "closed"
            sock.close()
            return True
        if not data:
            if not attempt.outcome:
                attempt.outcome = "closed"
            sock.close()
            return True
        attempt.received += data
        head, found, _ = attempt.received.partition(b"\r\n\r\n")
        if found and not attempt.outcome:
            attempt.outcome = head.split(b" ", 2)[1].decode()
        if attempt.outcome == "200":
            return b"event:" in attempt.received  # a stream that has begun: held open
        return False  # a refusal: read it to its end (the server closes)

    @property
    def held(self) -> list[Attempt]:
        return [a for a in self.attempts if a.outcome == "200"]

    def outcomes(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for attempt in self.attempts:
            counts[attempt.outcome] = counts.get(attempt.outcome, 0) + 1
        return counts

    def close(self) -> None:
        for attempt in self.attempts:
            with contextlib.suppress(OSError):
                attempt.sock.close()
