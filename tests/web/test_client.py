"""The tests' own client of the daemon's socket (`tests.web.test_crash.Client`): a wait
for a state that runs out leaves it able to ask again, as `tests.web.play` needs when it
presses again after a refused press."""

from __future__ import annotations

import json
import socket
import threading

from tests.web.test_crash import Client


def test_a_wait_that_runs_out_leaves_the_client_asking(tmp_path):
    path = tmp_path / "daemon.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    asked = threading.Event()

    def daemon() -> None:  # says nothing until asked, then a state and the reply
        conn, _ = server.accept()
        with conn, conn.makefile("rb") as lines:
            request = json.loads(lines.readline())
            asked.set()
            state = {"type": "state", "phase": "playing"}
            reply = {"type": "reply", "id": request["id"], "ok": True}
            conn.sendall(json.dumps(state).encode() + b"\n" + json.dumps(reply).encode() + b"\n")
            conn.recv(1)  # until the client closes

    thread = threading.Thread(target=daemon, daemon=True)
    thread.start()
    hands = Client(path)
    try:
        assert hands.state_within(lambda s: True, 0.05) is None  # nothing came: it ran out
        assert hands.ask("press", seat="N") == {"type": "reply", "id": 1, "ok": True}
        assert asked.is_set() and hands.last == {"type": "state", "phase": "playing"}
    finally:
        hands.close()
        thread.join(10)
        server.close()
