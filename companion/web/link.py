"""The web companion's end of the daemon's socket: the latest state and seat frames, kept
up to date, and requests with their replies. It reconnects by itself, for ever: the daemon
may restart (or not be running yet) and the pages say so meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.game.published import TableState

log = logging.getLogger("setup.web")

#: waits between tries to reach the daemon, growing to the last
RETRY = (0.1, 0.2, 0.5, 1.0, 2.0)
REPLY_SECONDS = 5.0


class DaemonGone(Exception):
    """The daemon cannot be reached (not running, restarting); the text says so."""


class DaemonLink:
    """Keeps a connection to the daemon at `path`; `version` counts what changed. `state`
    is the table as the daemon published it last, decoded into its values."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.state: TableState | None = None
        self.frames: dict[str, str] = {}
        self.connected = False
        self.version = 0
        self.listeners: list[Callable[[], None]] = []  # called after every change
        #: set at the next change, then replaced by a fresh one: a waiter holds no lock, so
        #: a stream closed while it waits (its task cancelled) leaves nothing half-released
        self._changed = asyncio.Event()
        self._writer: asyncio.StreamWriter | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._keep_connected())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def wait_change(self, seen: int, timeout: float) -> int:
        """Waits until `version` is past `seen` (or `timeout`); the version then."""
        if self.version == seen:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        return self.version

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Sends one request; its reply (`ok`, `error`, ...). DaemonGone if unreachable."""
        writer = self._writer
        if writer is None or not self.connected:
            raise DaemonGone("the table is not reachable just now (is the daemon running?)")
        number = next(self._ids)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        try:
            line = json.dumps({"op": op, "id": number, **fields}) + "\n"
            writer.write(line.encode("utf-8"))
            await writer.drain()
            return await asyncio.wait_for(future, REPLY_SECONDS)
        except (TimeoutError, ConnectionError, OSError):
            raise DaemonGone("the table did not answer: try again") from None
        finally:
            self._waiting.pop(number, None)

    async def _changed_now(self) -> None:
        self.version += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        for listener in self.listeners:
            listener()

    async def _keep_connected(self) -> None:
        tries = 0
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(str(self.path), limit=1 << 20)
            except OSError as exc:
                if tries == len(RETRY) or tries % 60 == 0 and tries:  # not while it starts
                    log.warning("cannot reach the daemon at %s: %s; trying again", self.path, exc)
                await asyncio.sleep(RETRY[min(tries, len(RETRY) - 1)])
                tries += 1
                continue
            tries = 0
            self._writer, self.connected = writer, True
            log.info("connected to the daemon at %s", self.path)
            try:
                await self._read(reader)
            except (ConnectionError, OSError, ValueError) as exc:
                log.warning("lost the daemon: %s", exc)
            finally:
                self._writer, self.connected = None, False
                writer.close()
                for future in self._waiting.values():
                    if not future.done():
                        future.set_exception(ConnectionError("the daemon went away"))
                await self._changed_now()
            await asyncio.sleep(RETRY[0])

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while True:
            line = await reader.readline()
            if not line:
                return
            message = json.loads(line)
            kind = message.get("type")
            if kind == "state":
                try:
                    self.state = TableState.from_json(message)
                except (KeyError, TypeError, ValueError) as exc:  # a daemon of another version
                    log.warning("a state from the daemon that cannot be read: %r", exc)
                    continue
                await self._changed_now()
            elif kind == "frames":
                self.frames = dict(message.get("frames") or {})
                await self._changed_now()
            elif kind == "reply":
                future = self._waiting.get(message.get("id"))
                if future is not None and not future.done():
                    future.set_result(message)
