"""The daemon's socket for the web companion: the game never waits for a web client.

A whole demo game (the real daemon on the simulated table, seeded) is played twice: once
alone, once with web clients attached (one reading, one that stops reading, one that goes
away and comes back). The game must come out the same, record for record."""

from __future__ import annotations

import base64
import io
import json
import socket
import threading

import pytest
from PIL import Image, ImageChops

from companion.daemon import publish
from companion.daemon.publish import Publisher
from companion.game.journal import Journal
from companion.sim.demo import Demo
from hardware.hub.sim import FaultModel
from tests.show.table import FamilyTable
from tests.web.harness import wait_until


def demo(path, **kw) -> Demo:
    return Demo(journal=path, faults=FaultModel.realistic(), seed=4, out=lambda _: None, **kw)


def attach(game: Demo, path) -> Publisher:
    devices = game.devices
    publisher = Publisher(path, clock=game.clock, presenter=devices.presenter)
    game.daemon.publish_to(publisher)
    game.devices.closers.append(publisher.close)
    return publisher


def game_of(folder) -> list[dict]:
    """The journal's records, each turn's tiles as a set: the order in which the readers
    first saw the tiles of one turn depends on how the sweeps fall on a busy machine (two
    runs of the demo alone differ there too), the game does not. Each record's checksum
    covers that order: the journal checks it on reading and leaves it out of the records."""
    records = Journal(folder / "journal.jsonl").records()
    for record in records:
        if "placed" in record:
            record["placed"] = sorted(record["placed"])
    return records


class Reader(threading.Thread):
    """A web client that reads everything."""

    def __init__(self, path) -> None:
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(path))
        self.messages: list[dict] = []
        self.start()

    def run(self) -> None:
        for line in self.sock.makefile("rb"):
            self.messages.append(json.loads(line))

    def states(self) -> list[dict]:
        return [m for m in self.messages if m["type"] == "state"]


def test_the_game_comes_out_the_same_with_web_clients_attached_stalled_and_returning(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(publish, "STALL_SECONDS", 1.0)
    alone = demo(tmp_path / "alone" / "journal.jsonl")
    result_alone = alone.run()

    watched = demo(tmp_path / "watched" / "journal.jsonl")
    path = tmp_path / "watched" / "companion.sock"
    publisher = attach(watched, path)
    reader = Reader(path)
    stalled = socket.socket(socket.AF_UNIX)
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    stalled.connect(str(path))  # and never reads
    leaving = Reader(path)
    result = {}
    player = threading.Thread(target=lambda: result.update(r=watched.run()))
    player.start()
    wait_until(lambda: leaving.messages, what="a first state")
    leaving.sock.shutdown(socket.SHUT_RDWR)  # the web companion crashed
    wait_until(lambda: any(s["phase"] == "playing" for s in reader.states()), what="the game")
    back = Reader(path)  # it came back mid-game: the whole state at once
    wait_until(lambda: back.states(), what="the state for a returning client")
    assert back.states()[0]["phase"] == "playing"
    player.join(120)
    assert not player.is_alive()

    assert result["r"].scores == result_alone.scores and result["r"].matches
    assert game_of(tmp_path / "watched") == game_of(tmp_path / "alone")
    last = reader.states()[-1]
    assert last["phase"] == "over"
    assert {s["side"]: s["score"] for s in last["seats"]} == result_alone.scores
    assert any(m["type"] == "frames" and set(m["frames"]) == {"N", "S"} for m in reader.messages)
    assert publisher.dropped_clients >= 2  # the one that left, and the one that stopped reading
    stalled.close()


def test_requests_are_answered_on_the_loop_and_bad_ones_refused_with_a_reason(tmp_path):
    game = demo(tmp_path / "journal.jsonl")
    try:
        path = tmp_path / "companion.sock"
        attach(game, path)
        client = Reader(path)
        for line in (
            b"not json\n",
            b'{"op": "fly", "id": 7}\n',
            b'{"op": "set", "id": 8, "key": "language", "value": "xx"}\n',
        ):
            client.sock.sendall(line)
        replies = lambda: [m for m in client.messages if m["type"] == "reply"]  # noqa: E731
        wait_until(lambda: len(replies()) >= 1, what="the answer to a line that is not JSON")
        wait_until(lambda: (game.sweep(1), len(replies()) >= 3)[1], what="the replies")
        bad, fly, lang = replies()
        assert bad["ok"] is False and "JSON" in bad["error"]
        assert fly == {
            "type": "reply",
            "id": 7,
            "op": "fly",
            "ok": False,
            "error": "the table does not take “fly” requests",
        }
        assert lang["ok"] is False and "language" in lang["error"]
        client.sock.sendall(b'{"op": "set", "id": 9, "key": "language", "value": "it"}\n')
        wait_until(lambda: (game.sweep(1), len(replies()) >= 4)[1], what="the setting")
        assert replies()[3]["ok"] and game.daemon.devices.presenter.screens.lang == "it"
        wait_until(
            lambda: (game.sweep(1), client.states()[-1]["settings"]["values"]["language"] == "it")[
                1
            ]
        )
    finally:
        game.devices.close()


@pytest.mark.parametrize("path_kind", ["stale file"])
def test_a_socket_left_by_a_killed_daemon_is_replaced(tmp_path, path_kind):
    path = tmp_path / "companion.sock"
    old = socket.socket(socket.AF_UNIX)
    old.bind(str(path))
    old.close()  # the file stays, as after a kill -9
    publisher = Publisher(path)
    try:
        client = socket.socket(socket.AF_UNIX)
        client.connect(str(path))
        client.close()
    finally:
        publisher.close()
    assert not path.exists()


def test_a_table_where_nothing_changes_publishes_nothing(tmp_path):
    """The daemon builds a new view every step; only a change may reach the socket."""
    game = demo(tmp_path / "journal.jsonl")
    try:
        path = tmp_path / "companion.sock"
        publisher = attach(game, path)
        client = Reader(path)
        wait_until(lambda: publisher.clients == 1, what="the client")
        game.sweep(20)  # the lobby on an empty table, the readers sweeping
        wait_until(lambda: client.states(), what="a first state")
        before = publisher.published
        game.sweep(50)  # five seconds of nothing happening
        assert publisher.published == before
        game.press("N")  # a join: one change, published
        game.sweep(5)
        wait_until(
            lambda: client.states()[-1]["lobby"]["joined"] == ["N"], what="the join, published"
        )
    finally:
        game.devices.close()


def frame_of(message: dict, side: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(message["frames"][side]))).convert("L")


def test_the_seat_frames_on_the_page_follow_the_menu_shown_on_the_table(tmp_path):
    """While the settings menu is open, the page's seat displays show the menu as the panels
    do (before, they showed the table under it)."""
    table = FamilyTable(tmp_path / "state")
    try:
        path = tmp_path / "companion.sock"
        presenter = table.devices.presenter
        publisher = Publisher(path, clock=table.clock, presenter=presenter)
        table.daemon.publish_to(publisher)
        table.devices.closers.append(publisher.close)
        reader = Reader(path)

        def shows_the_panels() -> bool:
            table.sweep()
            frames = [m for m in reader.messages if m["type"] == "frames"]
            panel = table.image("S").convert("L")
            return (
                bool(frames)
                and ImageChops.difference(frame_of(frames[-1], "S"), panel).getbbox() is None
            )

        wait_until(shows_the_panels, what="the lobby's frames")
        table.press("E", long=True)  # the menu opens on every display
        assert table.daemon.menu is not None and "Settings" in table.texts("S")
        wait_until(shows_the_panels, what="the menu's frames")
        table.press("W")  # the next item: the frames follow
        wait_until(shows_the_panels, what="the next item's frames")
    finally:
        table.close()


def test_a_real_tables_frames_on_the_page_never_carry_the_pairing_pin(tmp_path):
    """The PIN is for the people at the table: its panels show it, the page's frames (which
    anyone on the home network may watch) never do. Only the simulated table's frames do,
    its displays being seen on its page alone (tests/web/test_pin_abuse.py)."""
    table = FamilyTable(tmp_path / "state")
    try:
        path = tmp_path / "companion.sock"
        publisher = Publisher(path, clock=table.clock, presenter=table.devices.presenter)
        table.daemon.publish_to(publisher)
        table.devices.closers.append(publisher.close)
        reader = Reader(path)
        wait_until(lambda: publisher.clients == 1, what="the client")
        reader.sock.sendall(b'{"op": "pin", "id": 1, "device": "192.168.1.20"}\n')
        replies = lambda: [m for m in reader.messages if m["type"] == "reply"]  # noqa: E731
        wait_until(lambda: (table.sweep(), replies())[1], what="the PIN shown")
        assert replies()[0]["ok"] and "pin" not in replies()[0]
        pin = table.daemon.requests.pairing.pin
        assert pin in table.texts("S")  # the panel shows it
        frames = lambda: [m for m in reader.messages if m["type"] == "frames"]  # noqa: E731
        wait_until(lambda: (table.sweep(), frames())[1], what="the seat frames")
        for message in frames():
            panel_like = ImageChops.difference(
                frame_of(message, "S"), table.image("S").convert("L")
            )
            assert panel_like.getbbox() is not None  # never the panel showing the PIN
        assert all(pin not in json.dumps(m) for m in reader.messages if m["type"] == "state")
    finally:
        table.close()
