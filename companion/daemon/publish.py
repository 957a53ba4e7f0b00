"""The daemon's local socket: what the table shows, published for the web companion, and the
few requests it may make.

The game daemon never listens on the network. It serves a Unix socket in its runtime directory
(`socket_path`), one JSON object per line each way:

- daemon -> web: `{"type": "state", ...}`, the whole table at every change: the
  `companion.game.published.TableState` the daemon hands over, as its `to_json()`;
  `{"type": "frames", "frames": {side: base64 PNG}}`, the seat displays as they are now;
  `{"type": "reply", "id": ..., "ok": ..., ...}`, the answer to one request.
- web -> daemon: `{"op": ..., "id": ..., ...}`; the ops are the `handlers` of the `Publisher`
  (settings and pairing, from `companion.daemon.requests`; table actions only with `--sim`).

The daemon's loop hands over the finished state (`publish`: a comparison and a reference, and
nothing of the daemon is read from here). A request is put into the daemon's inbox as a
`WebRequest` event (`on_request`) and answered on the loop's own thread (`answer`), so a
request acts like a button press. Encoding, the seat frames and every socket write happen on the publisher's thread,
non-blocking: each client has a bounded queue (a client that stops reading loses its oldest
messages, each state being whole, and is dropped once it has made no progress for
`STALL_SECONDS`). A web companion that crashes only closes its end: the game never waits for
it, and it reconnects and gets the whole state at once.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import io
import itertools
import json
import logging
import os
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.daemon.events import WebRequest
from companion.game.published import TableState
from companion.show.presenter import Presenter
from companion.show.screens import Shown

log = logging.getLogger("setup.publish")

SOCKET_NAME = "companion.sock"
#: messages waiting for one client before the oldest is dropped
QUEUE_LENGTH = 16
#: a client with messages waiting that takes none of them for this long is dropped
STALL_SECONDS = 10.0
#: the longest request line a client may send
MAX_LINE = 16_384
#: most clients at once (a family's phones and a TV, with room to spare)
MAX_CLIENTS = 16

#: answers one request (its fields, the daemon's time) with the reply's fields, or raises
#: RequestError; it runs on the daemon's loop
Handler = Callable[[Mapping[str, Any], float], Mapping[str, Any] | None]


class RequestError(Exception):
    """A request refused; the text is one sentence for the person who asked."""


def socket_path(config: Config) -> Path:
    """The daemon's socket: in systemd's runtime directory when there is one, else next to
    the journal (a PC, `--sim`)."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return Path(runtime or config.paths.state_dir) / SOCKET_NAME


# -- what is published -----------------------------------------------------------------------
def frame_png(image: Any) -> str:
    """A seat frame (a 1-bit PIL image) as base64 PNG: a few hundred bytes."""
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return base64.b64encode(out.getvalue()).decode("ascii")


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


# -- the socket --------------------------------------------------------------------------------
@dataclass(eq=False)
class _Client:
    sock: socket.socket
    number: int
    waiting: deque[bytes] = field(default_factory=lambda: deque(maxlen=QUEUE_LENGTH))
    out: memoryview | None = None  # the part of the current message not yet written
    progress: float = 0.0  # when it last took bytes (or had nothing waiting)
    inbox: bytearray = field(default_factory=bytearray)
    dropped: int = 0  # messages lost because it did not read

    def push(self, message: bytes) -> None:
        if len(self.waiting) == self.waiting.maxlen:
            self.dropped += 1
        self.waiting.append(message)

    @property
    def busy(self) -> bool:
        return self.out is not None or bool(self.waiting)


@dataclass(frozen=True)
class _Change:
    """What the loop handed over: everything the publisher's thread encodes."""

    state: TableState  # `published`: when the loop handed it over (for `make bench`)
    #: what the displays show when it is not the view: the settings menu, the enrolment
    shown: Shown | None
    now: float


class Publisher:
    """The daemon's end of the socket at `path`; `handlers` answer the clients' requests;
    the seat frames are drawn as `presenter` draws its panels (None: no frames)."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_request: Callable[[WebRequest], None] | None = None,
        presenter: Presenter | None = None,
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        #: where each request goes: the daemon's inbox (it wakes the loop)
        self.on_request = on_request
        self.presenter = presenter
        self.handlers: dict[str, Handler] = {}
        self.published = 0  # states encoded
        self.dropped_clients = 0
        self._clients: dict[int, _Client] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._change: _Change | None = None
        self._last: tuple[TableState, Shown | None] | None = None
        self._dirty = True
        self._state: bytes | None = None
        self._frames: dict[str, str] = {}
        self._frames_line: bytes | None = None
        self._frames_due: float | None = None
        self._last_change: _Change | None = None
        self._replies: deque[tuple[int, bytes]] = deque()
        self._closed = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_socket() or self.path.exists():
            self.path.unlink()  # a socket left by a daemon that was killed
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(self.path))
        os.chmod(self.path, 0o660)  # the web companion's user is in the daemon's group
        self._server.listen(8)
        self._server.setblocking(False)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._server, selectors.EVENT_READ, None)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread = threading.Thread(target=self._run, name="publisher", daemon=True)
        self._thread.start()
        log.info("web companion socket at %s", self.path)

    def __repr__(self) -> str:
        return f"<Publisher {self.path} clients={len(self._clients)}>"

    @property
    def clients(self) -> int:
        return len(self._clients)

    # -- the daemon's loop ----------------------------------------------------------------
    def publish(self, state: TableState, shown: Shown | None, now: float) -> None:
        """Hands the table's `state` to the publisher's thread if it or what the displays
        show changed (`shown`: what they show instead of the view, the menu or the
        enrolment, for the seat frames). With no client connected this is one test."""
        if not self._clients:
            self._dirty = True  # whoever connects gets the state as it is then
            return
        if not self._dirty and self._last == (state, shown):
            return
        self._last, self._dirty = (state, shown), False
        change = _Change(dataclasses.replace(state, published=time.time()), shown, now)
        with self._lock:
            self._change = change
        self._wake()

    def answer(self, request: WebRequest) -> None:
        """Answers one request with its handler, on the daemon's loop thread."""
        op = request.op
        reply: dict[str, Any] = {"type": "reply", "id": request.fields.get("id"), "op": op}
        handler = self.handlers.get(op) if isinstance(op, str) else None
        if handler is None:
            reply.update(ok=False, error=f"the table does not take {_named(op)} requests")
        else:
            try:
                reply.update(handler(request.fields, request.at) or {})
                reply["ok"] = True
            except RequestError as exc:
                reply.update(ok=False, error=str(exc))
            except Exception:  # a handler's bug: the client is told, the game goes on
                log.exception("the %s request failed", op)
                reply.update(ok=False, error=f"the table could not do {_named(op)}")
            self._dirty = True
        with self._lock:
            self._replies.append((request.client, encode(reply)))
        self._wake()

    def close(self) -> None:
        self._closed = True
        self._wake()
        self._thread.join(timeout=5)
        for client in list(self._clients.values()):
            self._drop(client, None)
        for sock in (self._server, self._wake_r, self._wake_w):
            sock.close()
        self._selector.close()
        with contextlib.suppress(OSError):
            self.path.unlink()

    # -- the publisher's thread -----------------------------------------------------------
    def _wake(self) -> None:
        # a full buffer: it is awake already; closed: it is stopping
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")

    def _run(self) -> None:
        while not self._closed:
            try:
                self._turn()
            except Exception:  # never take the daemon down with us
                log.exception("the publisher failed; going on")
                time.sleep(0.1)

    def _turn(self) -> None:
        timeout = 1.0
        if self._frames_due is not None:
            timeout = max(0.0, min(timeout, self._frames_due - self.clock()))
        for key, mask in self._selector.select(timeout):
            if key.fileobj is self._server:
                self._accept()
            elif key.fileobj is self._wake_r:
                try:
                    while self._wake_r.recv(4096):
                        pass
                except BlockingIOError:
                    pass
            else:
                client = key.data
                if mask & selectors.EVENT_READ:
                    self._read(client)
                if mask & selectors.EVENT_WRITE and client.number in self._clients:
                    self._write(client)
        with self._lock:
            change, self._change = self._change, None
            replies, self._replies = self._replies, deque()
        if change is not None:
            self._encode(change)
        elif self._frames_due is not None and self.clock() >= self._frames_due:
            self._render_frames(self._last_change, self.clock())
        for number, line in replies:
            client = self._clients.get(number)
            if client is not None:
                client.push(line)
        now = time.monotonic()
        for client in list(self._clients.values()):
            if client.busy:
                self._write(client)
            if client.number in self._clients and client.busy:
                if now - client.progress > STALL_SECONDS:
                    log.warning("web client %d stopped reading: dropped", client.number)
                    self._drop(client, None)
            else:
                client.progress = now

    def _encode(self, change: _Change) -> None:
        self._last_change = change
        self._state = encode({"type": "state", **change.state.to_json()})
        self.published += 1
        for client in self._clients.values():
            client.push(self._state)
        self._render_frames(change, self.clock())

    def _render_frames(self, change: _Change | None, now: float) -> None:
        self._frames_due = None
        if change is None or self.presenter is None:
            return
        screens = self.presenter.screens  # in the language the panels speak now
        shown = change.state.view if change.shown is None else change.shown
        frames = {}
        for side in self.presenter.displays:
            try:
                frames[side] = frame_png(screens.frame(shown, side, now))
            except Exception:
                log.exception("cannot draw the frame of %s for the web", side)
        self._frames_due = screens.next_change(shown, now)
        if frames == self._frames and self._frames_line is not None:
            return
        self._frames = frames
        self._frames_line = encode({"type": "frames", "frames": frames})
        for client in self._clients.values():
            client.push(self._frames_line)

    def _accept(self) -> None:
        try:
            sock, _ = self._server.accept()
        except (BlockingIOError, OSError):
            return
        if len(self._clients) >= MAX_CLIENTS:
            log.warning("a web client refused: %d are connected already", MAX_CLIENTS)
            sock.close()
            return
        sock.setblocking(False)
        client = _Client(sock, next(self._numbers), progress=time.monotonic())
        self._clients[client.number] = client
        self._selector.register(sock, selectors.EVENT_READ, client)
        self._dirty = True  # the loop hands over a fresh state at its next step
        if self._state is not None:
            client.push(self._state)
        if self._frames_line is not None:
            client.push(self._frames_line)
        # the loop is not woken for it: its next step (a sweep, at most LOOP_WAIT away)
        # hands over the state, and a connection never moves the game's timing
        log.info("web client %d connected", client.number)

    def _read(self, client: _Client) -> None:
        try:
            data = client.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError as exc:
            return self._drop(client, exc)
        if not data:
            return self._drop(client, None)
        client.inbox += data
        *lines, rest = bytes(client.inbox).split(b"\n")
        if len(rest) > MAX_LINE:
            return self._drop(client, ValueError("a request line is too long"))
        client.inbox = bytearray(rest)
        for line in lines:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("not an object")
            except ValueError:
                client.push(encode({"type": "reply", "ok": False, "error": "not a JSON object"}))
                continue
            if self.on_request is None:
                client.push(encode({"type": "reply", "ok": False, "error": "not served yet"}))
                continue
            self.on_request(WebRequest(client.number, request, self.clock()))

    def _write(self, client: _Client) -> None:
        sock = client.sock
        while True:
            if client.out is None:
                if not client.waiting:
                    break
                client.out = memoryview(client.waiting.popleft())
            try:
                sent = sock.send(client.out)
            except BlockingIOError:
                break
            except OSError as exc:
                return self._drop(client, exc)
            client.progress = time.monotonic()
            client.out = client.out[sent:] if sent < len(client.out) else None
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if client.busy else 0)
        with contextlib.suppress(KeyError, ValueError):
            self._selector.modify(sock, events, client)

    def _drop(self, client: _Client, reason: BaseException | None) -> None:
        if self._clients.pop(client.number, None) is None:
            return
        self.dropped_clients += 1
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(client.sock)
        client.sock.close()
        log.info("web client %d gone%s", client.number, f": {reason}" if reason else "")


def _named(op: object) -> str:
    """A request's name as a person reads it, in quotes, whatever a client sent (never a
    Python repr: it may reach a page)."""
    text = op if isinstance(op, str) else json.dumps(op, ensure_ascii=True)
    text = "".join(c for c in text if c.isprintable())[:40]
    return f"“{text}”"
