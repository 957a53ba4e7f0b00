"""How the web companion is served: uvicorn, with limits that hold whatever one device of
the home network does.

- Connections: `GuardedH11` (uvicorn's own h11 protocol) closes a connection at once when
  `MAX_CONNECTIONS` are open, or `CONNECTIONS_PER_CLIENT` from its address, or when its
  request has not come whole within `HEAD_SECONDS`. With `BACKLOG` (how many connections
  one wake-up accepts) that bounds the open files far below the unit's `LimitNOFILE`
  (`OPEN_FILES`), so accepting never runs out of them. Without these, 1100 event streams
  from one phone used up the 1024 files and no page answered any more.
- If accepting fails all the same (out of files, out of memory), a line through a
  `LogLimiter` (once, then once a minute) instead of asyncio's traceback per try: 60,787
  such lines were seen in 15 s, and the flood kept the loop from ever seeing SIGTERM.
- Stopping: SIGTERM or SIGINT stop it within `STOP_SECONDS`: live streams get
  `GRACE_SECONDS` to end, then they are cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from hardware.log_limit import LogLimiter

log = logging.getLogger("setup.web")

#: connections open at once, and from one address (a phone opens a few per page)
MAX_CONNECTIONS = 160
CONNECTIONS_PER_CLIENT = 24
#: a connection whose request has not come whole this long after it opened is closed
HEAD_SECONDS = 10.0
#: connections taken in by one wake-up of the loop (and the listen queue when not systemd's)
BACKLOG = 64
#: the open files the unit allows (systemd/setup-companion-web.service, LimitNOFILE): the
#: connections, one wake-up's worth accepted, and room for the process's own files
OPEN_FILES = 512
#: after SIGTERM, how long live streams may take to end before they are cut
GRACE_SECONDS = 0.4
#: what SIGTERM costs at most: the loop's tick (0.1 s), uvicorn's pause after asking every
#: connection to close (0.1 s), the grace, and the lifespan's end
STOP_SECONDS = 1.0

_limits = LogLimiter(log)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol that refuses a connection over the limits by closing it at
    once, before it costs more than its file for a moment."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if len(self.connections) > MAX_CONNECTIONS:
            _limits.log(
                logging.WARNING,
                "connections",
                "%d connections open: one more was closed",
                MAX_CONNECTIONS,
            )
            transport.close()
            return
        mine = sum(1 for c in self.connections if c.client and c.client[0] == address)
        if mine > CONNECTIONS_PER_CLIENT:
            _limits.log(
                logging.WARNING,
                f"client {address}",
                "%s has %d connections open: one more was closed",
                address,
                CONNECTIONS_PER_CLIENT,
            )
            transport.close()
            return
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _head_late(self) -> None:
        if self.cycle is None and not self.transport.is_closing():  # no request came whole
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
        super().connection_lost(exc)


def _loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """asyncio's errors, with the accept error that repeats many times a second limited."""
    if "accept" in context.get("message", ""):
        _limits.log(
            logging.ERROR,
            "accept",
            "cannot take a connection in: %s",
            context.get("exception") or context["message"],
        )
        return
    loop.default_exception_handler(context)


def listening(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port` (IPv6 if `host` is one), as uvicorn would bind."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def serve(app: Any, sock: socket.socket, log_level: str = "info") -> None:
    """Serves `app` on the listening `sock` until SIGTERM or SIGINT."""
    config = uvicorn.Config(
        app,
        http=GuardedH11,
        backlog=BACKLOG,
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=GRACE_SECONDS,  # type: ignore[arg-type]  # a float works
        ws="none",
        lifespan="on",
    )
    server = uvicorn.Server(config)

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(_loop_errors)
        await server.serve(sockets=[sock])

    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises Ctrl-C again once stopped
        asyncio.run(main())
