"""What every request meets before a page: the table's own names, a cap on its body, and
the headers every answer carries.

- The Host header must name this table: its host name, that name in `.local` (mDNS, what a
  phone finds), `localhost`, a name the config adds (`[web] names`), or the very address
  the request came in on. A page loaded under a foreign name (DNS rebinding: a site of the
  internet whose name is made to point at the table) gets nothing, not even a session.
- A request body is read up to `MAX_BODY` bytes: a longer one (announced, or sent in
  chunks) is refused with 413 without being read whole. The forms and the simulated
  table's actions are a few hundred bytes; a 200 MB body cost 408 MB before.
- Every answer says what the pages may do (`HEADERS`): their own scripts, styles and
  images only, never in a frame, no content sniffing, no referrer.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the longest request body read (the forms and the simulated table's actions are tiny)
MAX_BODY = 16_384
#: what the pages may load and do; `style-src-attr`: the players' colours are style
#: attributes (`--c: #d62728`), which cannot run anything
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; object-src 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = tuple(
    (k.encode(), v.encode())
    for k, v in (
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
        ("permissions-policy", "camera=(), microphone=(), geolocation=()"),
    )
)


@dataclass(frozen=True)
class TableNames:
    """The names this table answers to (lower case, without a final dot); `shown` is the
    one a person is told to use."""

    names: frozenset[str]
    shown: str = "localhost"

    @classmethod
    def of_this_machine(cls, extra: Iterable[str] = ()) -> TableNames:
        host = socket.gethostname().lower().rstrip(".")
        short = host.split(".")[0]
        found = {
            "localhost",
            host,
            short,
            f"{short}.local",
            *(n.lower().rstrip(".") for n in extra),
        }
        return cls(frozenset(n for n in found if n), f"{short}.local" if short else "localhost")

    def allows(self, host: str, local: str | None) -> bool:
        """Whether a request with this Host header, come in on the address `local`, is for
        this table."""
        name = _hostname(host)
        if name is None:
            return False
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return name in self.names
        if address.is_loopback:
            return True
        if local is None:
            return False
        try:
            here = ipaddress.ip_address(local.split("%")[0])
        except ValueError:
            return False
        return _plain(address) == _plain(here)


def _hostname(host: str) -> str | None:
    """The name or address of a Host header, without its port; None if it is not one."""
    host = host.strip().lower()
    if host.startswith("["):  # [v6]:port
        end = host.find("]")
        return host[1:end] if end > 0 else None
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    return name or None


def _plain(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress._BaseAddress:
    """An IPv4 address written as IPv6 (`::ffff:192.168.1.5`) as the IPv4 one."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class Edge:
    """The ASGI middleware of this module: names, body cap, headers."""

    def __init__(self, app: ASGIApp, names: TableNames, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.names = names
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *HEADERS]}
            await send(message)

        headers = Headers(scope=scope)
        server = scope.get("server")
        if not self.names.allows(headers.get("host", ""), server[0] if server else None):
            refused = PlainTextResponse(
                f"This table answers to its own names only: open http://{self.names.shown}/",
                status_code=421,
                headers={"connection": "close"},
            )
            await refused(scope, receive, send_with_headers)
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            too_long = PlainTextResponse(
                f"A request may carry {self.max_body} bytes at most.",
                status_code=413,
                headers={"connection": "close"},
            )
            await too_long(scope, receive, send_with_headers)
            return
        await self.app(scope, self._capped(receive), send_with_headers)

    def _capped(self, receive: Receive) -> Receive:
        """`receive`, refusing the body (413) as soon as it is longer than the cap."""
        taken = 0

        async def capped() -> Message:
            nonlocal taken
            message = await receive()
            if message["type"] == "http.request":
                taken += len(message.get("body", b""))
                if taken > self.max_body:
                    raise HTTPException(
                        413,
                        f"A request may carry {self.max_body} bytes at most.",
                        headers={"connection": "close"},
                    )
            return message

        return capped
