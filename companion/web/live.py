"""The live channel: the fragments every watcher gets, rendered once per change of the
daemon's state, and the event streams that carry them, within caps.

A stream holds a connection, a file and a task for as long as a page is open, so there are
at most `MAX_STREAMS` at once and `STREAMS_PER_CLIENT` from one address (a family's phones,
a TV and a few tabs fit many times over). One more is answered at once with 503 and a
sentence saying why (and the page says it too), never queued.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable

import jinja2
from sse_starlette.sse import EventSourceResponse
from starlette.responses import PlainTextResponse, Response
from starlette.types import Message, Receive, Scope, Send

from companion.web.link import DaemonLink
from companion.web.present import sim_context, table_context

log = logging.getLogger("setup.web")

#: live streams open at once, and from one address
MAX_STREAMS = 64
STREAMS_PER_CLIENT = 8
#: an idle live channel sends a comment this often, so proxies and phones keep it open
KEEPALIVE = 15.0
#: a watcher that takes no bytes for this long is dropped (its page reconnects by itself)
SEND_SECONDS = 10.0


#: what a page's stream carries: the table page and the simulated table's page share
#: theirs; the TV asks for its own fragment only
PAGE = ("table", "frames", "simtable")
TV = ("tv",)


class Live:
    """The fragments every watcher gets, each rendered at most once per change of the
    daemon's state (and only once a page that shows it asks)."""

    def __init__(self, link: DaemonLink, env: jinja2.Environment) -> None:
        self.link = link
        self.env = env
        self.version = -1
        self.fragments: dict[str, str] = {}
        #: this process's own mark on the versions it draws: a web companion started again
        #: counts from 0, and a page of the one before must not pass for up to date
        self.boot = secrets.token_hex(4)

    @property
    def drawn(self) -> str:
        """The state the fragments show, as a page keeps it for its stream (`since`)."""
        return f"{self.boot}.{self.version}"

    def drawn_at(self, since: str | None) -> int:
        """The version a page's stream says it was drawn at (`drawn`); -1 for a page of
        another process, or anything else (a hand-made request)."""
        boot, _, version = (since or "").partition(".")
        if boot != self.boot or not (version.isascii() and version.isdigit()):
            return -1
        return int(version[:12])

    def current(self, kinds: tuple[str, ...] = PAGE) -> dict[str, str]:
        """The fragments `kinds` (those that exist: "simtable" only while simulated)."""
        if self.version != self.link.version:
            self.version, self.fragments = self.link.version, {}
        for kind in kinds:
            if kind not in self.fragments:
                self.fragments[kind] = self._render(kind)
        return {kind: self.fragments[kind] for kind in kinds if self.fragments[kind]}

    def _render(self, kind: str) -> str:
        state = self.link.state if self.link.connected else None
        if kind == "frames":
            return json.dumps(self.link.frames if self.link.connected else {})
        if kind == "simtable":
            sim = sim_context(state)
            if sim is None:
                return ""
            return self.env.get_template("_simtable.html").render(t=table_context(state), s=sim)
        return self.env.get_template(f"_{kind}.html").render(t=table_context(state))


class Streams:
    """The live streams open now, counted in total and per address."""

    def __init__(self, total: int = MAX_STREAMS, per_client: int = STREAMS_PER_CLIENT) -> None:
        self.total = total
        self.per_client = per_client
        self.open: Counter[str] = Counter()

    def __len__(self) -> int:
        return sum(self.open.values())

    def refusal(self, address: str) -> str | None:
        """Why one more stream from `address` is refused now; None if it is not."""
        if self.open[address] >= self.per_client:
            return (
                f"This device has {self.per_client} live pages of the table open already: "
                "close one, then reload."
            )
        if len(self) >= self.total:
            return f"The table's live view is full ({self.total} pages are open): try again later."
        return None

    def response(
        self, address: str, events: Callable[[], AsyncIterator[dict[str, str]]]
    ) -> Response:
        """The stream of `events` for `address`, or the 503 that says why not."""
        why = self.refusal(address)
        if why is not None:
            return PlainTextResponse(
                why, status_code=503, headers={"retry-after": "30", "connection": "close"}
            )
        return _Counted(self, address, events())

    def _opened(self, address: str) -> None:
        self.open[address] += 1

    def _closed(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class _Counted(EventSourceResponse):
    """An event stream counted in `streams` while it runs, whichever way it ends."""

    def __init__(
        self, streams: Streams, address: str, events: AsyncIterator[dict[str, str]]
    ) -> None:
        # ping=0: the stream sends its own keep-alive comments (`KEEPALIVE`)
        super().__init__(events, ping=0, send_timeout=SEND_SECONDS)
        self.streams = streams
        self.address = address
        streams._opened(address)  # counted from now: the answer is on its way

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = ended = False

        async def sending(message: Message) -> None:
            nonlocal started, ended
            started = started or message["type"] == "http.response.start"
            ended = ended or not message.get("more_body", True)
            await send(message)

        try:
            await super().__call__(scope, receive, sending)
            if started and not ended:  # the server stops: end the answer, as HTTP wants
                with contextlib.suppress(Exception):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.streams._closed(self.address)
