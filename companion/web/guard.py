"""Who may change the table from a browser: a session cookie, pairing by the table's PIN,
and a token against cross-site forgery on every change.

Each browser gets a random session (a signed cookie, SameSite=Strict, HttpOnly). Every page
carries the session's CSRF token (an HMAC of the session), which every form and every
`fetch` sends back; a change whose token is missing or wrong, or whose Origin is another
site, is refused. Pairing (the PIN the table shows, checked by the daemon) marks the session
as paired for `PAIRED_SECONDS`; only paired sessions change settings.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from urllib.parse import urlsplit

COOKIE = "sc_session"
PAIRED_SECONDS = 12 * 3600.0


class Guard:
    def __init__(self, secret: bytes | None = None, clock=time.monotonic) -> None:
        self.secret = secret or secrets.token_bytes(32)
        self.clock = clock
        self._paired: dict[str, float] = {}

    def _sign(self, what: str) -> str:
        return hmac.new(self.secret, what.encode(), hashlib.sha256).hexdigest()[:32]

    def new_session(self) -> tuple[str, str]:
        """A new session id and its cookie value."""
        sid = secrets.token_urlsafe(18)
        return sid, f"{sid}.{self._sign('session:' + sid)}"

    def session(self, cookie: str | None) -> str | None:
        """The session id of a cookie, if its signature holds."""
        if not cookie or "." not in cookie:
            return None
        sid, mac = cookie.rsplit(".", 1)
        return sid if hmac.compare_digest(mac, self._sign("session:" + sid)) else None

    def csrf(self, sid: str) -> str:
        return self._sign("csrf:" + sid)

    def allowed(self, sid: str | None, token: str | None, origin: str | None, host: str) -> bool:
        """A change request from this session, with this token, from this origin."""
        if sid is None or not token or not hmac.compare_digest(token, self.csrf(sid)):
            return False
        if origin and origin != "null":
            return urlsplit(origin).netloc == host
        return True

    def pair(self, sid: str) -> None:
        self._paired[sid] = self.clock() + PAIRED_SECONDS

    def paired(self, sid: str | None) -> bool:
        return sid is not None and self._paired.get(sid, 0.0) > self.clock()
