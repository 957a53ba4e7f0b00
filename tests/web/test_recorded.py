"""The Table page drawn from recorded states alone: the real web companion, fed the state
lines a daemon published (recorded from the socket during a demo game, in
`recorded-states.jsonl`) by a stand-in socket, and read in the real Chromium. No daemon, no
simulated table: what the page shows comes from the published values, and a notice says on
the page what the seat displays say."""

from __future__ import annotations

import dataclasses
import json
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.game.published import TableState
from companion.game.view import UndoHint
from companion.show.palette import css
from companion.show.screens import Screens
from engine.geometry import owner
from tests.web.harness import ATTEMPT, free_port, wait_until

RECORDED = Path(__file__).with_name("recorded-states.jsonl")
LINES = RECORDED.read_bytes().splitlines(keepends=True)


class RecordedDaemon:
    """A socket where the daemon's would be, sending the one state line it is given to every
    client (and again to one that connects later), and nothing else."""

    def __init__(self, path: Path) -> None:
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(str(path))
        self.server.listen(4)
        self.clients: list[socket.socket] = []
        self.line = b""
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            with self.lock:
                self.clients.append(client)
                if self.line:
                    client.sendall(self.line)

    def send(self, line: bytes) -> None:
        with self.lock:
            self.line = line
            for client in self.clients:
                client.sendall(line)

    def close(self) -> None:
        self.server.close()
        for client in self.clients:
            client.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory, module_page) -> Iterator[tuple[RecordedDaemon, object]]:
    folder = tmp_path_factory.mktemp("recorded")
    daemon = RecordedDaemon(folder / "companion.sock")
    port = free_port()
    log = (folder / "web.log").open("ab")
    web = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "web", "--socket", str(folder / "companion.sock"),
         "--state-dir", str(folder), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"

    def serving() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=ATTEMPT) as reply:
                return reply.status == 200
        except OSError:
            return False

    page, broken = module_page
    try:
        wait_until(serving, what="the web companion")
        wait_until(lambda: daemon.clients, what="the web companion at the socket")
        page.goto(url)
        yield daemon, page
        assert not broken, broken  # the page kept to its own Content Security Policy
    finally:
        web.terminate()
        web.wait(10)
        daemon.close()


def shown(page, line: bytes, daemon: RecordedDaemon) -> TableState:
    """Sends one recorded line and waits until the page draws it; its values."""
    state = TableState.from_json(json.loads(line))
    daemon.send(line)
    page.wait_for_selector(f'#board[data-published="{state.published}"]')
    return state


@pytest.mark.parametrize("number", range(len(LINES)))
def test_the_page_draws_a_recorded_state_from_its_values(site, number):
    daemon, page = site
    state = shown(page, LINES[number], daemon)
    view = state.view
    for seat in view.seats:
        row = page.locator(f'#players tr[data-side="{seat.side}"]')
        assert row.locator(".score").inner_text() == str(seat.score)
        assert ("active" in (row.get_attribute("class") or "")) == seat.active
    board = dict(view.board)
    placed = {square for square, _ in view.placement}
    players = {seat.side for seat in view.seats}
    for square, stack in board.items():
        cell = page.locator(f'[data-sq="{square}"]')
        assert cell.get_attribute("data-height") == str(len(stack))
        assert cell.locator("[data-tile]").get_attribute("data-tile") == str(stack[-1])
    for cell in page.locator("[data-sq]").all():
        square = cell.get_attribute("data-sq")
        classes = (cell.get_attribute("class") or "").split()
        assert ("placed" in classes) == (square in placed), square
        side = owner(square)
        assert ("owned" in classes) == (side in players), square
        if side in players:  # the owner's colour, from the one palette
            assert f"--owner: {css(view.colour(side))}" in cell.get_attribute("style")
    if view.phase == "over":
        assert page.locator("#over .ranking li").count() == len(view.result.ranking)


@pytest.mark.parametrize(
    "number",
    [
        n
        for n, line in enumerate(LINES)
        if any(k["kind"] != "undo-hint" for k in json.loads(line)["notices"])
    ],
)
def test_a_notice_says_on_the_page_what_the_seat_displays_say(site, number):
    daemon, page = site
    state = shown(page, LINES[number], daemon)
    items = [li.inner_text() for li in page.locator("#problems li").all()]
    notices = [n for n in state.view.notices if not isinstance(n, UndoHint)]
    assert len(items) == len(notices)
    screens = Screens(state.language)
    for notice, item in zip(notices, items):
        side = getattr(notice, "side", state.view.seats[0].side)  # on whose display it shows
        alone = dataclasses.replace(state.view, notices=(notice,), alerts=())
        canvas = screens.canvas(alone, side)
        assert not canvas.overflow
        title, *body = [text for text, _, _ in canvas.texts]
        said = " ".join(body)  # the display's lines, wrapped at spaces
        # the page lists a board problem by its words alone, the others under their title
        assert item.endswith(said) and (item == said or item.startswith(title)), (item, said)
