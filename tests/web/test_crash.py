"""A web companion that crashes never touches the game; each side outlives the other."""

from __future__ import annotations

import json
import select
import signal
import socket
import time
import urllib.error
import urllib.request

from tests.web.harness import DEADLINE, wait_until


class Client:
    """A plain client of the daemon's socket (what the web companion is to the daemon).

    Lines are read through its own buffer with `select`, not a socket timeout: a socket
    file that timed out refuses every read after (`OSError: cannot read from timed out
    object`), so a `state_within` that ran out once broke the next `ask` (seen under load).
    """

    def __init__(self, path) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(path))
        self._read = b""
        self.ids = 0
        self.last: dict | None = None

    def _message(self, seconds: float = DEADLINE, waited: bool = False) -> dict | None:
        """The next message. None if none came whole within `seconds` and the wait is
        `waited` for; else that is a hang, which fails the test instead of the suite."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self._read:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                if not waited:
                    raise TimeoutError(f"the daemon said nothing whole for {seconds:.0f} s")
                return None
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the daemon closed its socket")
            self._read += chunk
        line, self._read = self._read.split(b"\n", 1)
        return json.loads(line)

    def ask(self, op: str, **fields) -> dict:
        self.ids += 1
        self.sock.sendall(json.dumps({"op": op, "id": self.ids, **fields}).encode() + b"\n")
        while True:
            message = self._message()
            assert message is not None
            if message["type"] == "state":
                self.last = message
            if message["type"] == "reply" and message["id"] == self.ids:
                assert message["ok"], message
                return message

    def state(self, condition=lambda s: True) -> dict:
        """The first state from now on (or the last one read) that meets `condition`."""
        if self.last is not None and condition(self.last):
            return self.last
        while True:
            message = self._message()
            assert message is not None
            if message["type"] == "state":
                self.last = message
                if condition(message):
                    return message

    def state_within(self, condition, seconds: float) -> dict | None:
        """As `state`, but None once `seconds` pass with no state that meets `condition`
        (the client can go on asking)."""
        if self.last is not None and condition(self.last):
            return self.last
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = self._message(left, waited=True)
            if message is None:
                return None
            if message["type"] == "state":
                self.last = message
                if condition(message):
                    return message
        return None

    def close(self) -> None:
        self.sock.close()


def page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=DEADLINE) as r:
        return r.read().decode()


def test_a_web_crash_leaves_the_game_untouched_and_both_sides_come_back(table):
    hands = Client(table.socket)
    for square, tile in (("NW", "star-1"), ("NE", "heart-5"), ("SW", "club-9"), ("SE", "spade-7")):
        hands.ask("put", square=square, tile=tile)
    hands.state(lambda s: len(s["board"]) == 4)
    hands.ask("press", seat="N")
    hands.state(lambda s: s["lobby"] and s["lobby"]["joined"] == ["N"])
    hands.ask("press", seat="S")
    hands.state(lambda s: s["lobby"] and len(s["lobby"]["joined"]) == 2)
    hands.ask("press", seat="N", long=True)
    hands.state(lambda s: s["phase"] == "playing")
    hands.ask("put", square="SW", tile="star-2")  # on the club-9, next to the star-1
    hands.state(lambda s: s["placement"] == [["SW", "star-2"]])
    hands.ask("press", seat="N")
    before = hands.state(lambda s: s["seats"] and s["seats"][0]["score"] == 2)
    wait_until(lambda: 'data-score="2"' in page(table.url + "/"), what="the page")
    journal = (table.state_dir / "journal.jsonl").read_bytes()

    table.web.send_signal(signal.SIGKILL)  # the web companion crashes mid-game
    table.web.wait(10)
    hands.ask("put", square="NE", tile="star-3")  # the table plays on meanwhile
    after = hands.state(lambda s: s["placement"] == [["NE", "star-3"]])
    assert table.daemon.poll() is None
    assert [s["score"] for s in after["seats"]] == [s["score"] for s in before["seats"]]
    assert (table.state_dir / "journal.jsonl").read_bytes() == journal

    table.start_web()  # back: the whole table at once, with the placement laid meanwhile
    wait_until(lambda: 'data-tile="star-3"' in page(table.url + "/"), what="the state again")

    hands.close()
    table.daemon.terminate()  # the daemon restarts (an update): the page says so, then follows
    table.daemon.wait(10)
    wait_until(lambda: "not reachable" in page(table.url + "/"), what="the page saying so")
    table.start_daemon()
    wait_until(lambda: 'data-score="2"' in page(table.url + "/"), what="the web reconnecting")


def test_watching_needs_the_pin_when_the_config_says_so(tmp_path):
    from tests.web.harness import Table

    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\nstate_dir = "{tmp_path}"\n\n[web]\nwatch_needs_pin = true\n')
    table = Table(tmp_path, web_args=["--config", str(config)])
    table.start_daemon()
    table.start_web()
    try:
        for path in ("/", "/games", "/events"):
            request = urllib.request.Request(table.url + path)
            opener = urllib.request.build_opener(NoRedirect)
            try:
                opener.open(request, timeout=DEADLINE)
                raise AssertionError(f"{path} was shown without the PIN")
            except urllib.error.HTTPError as exc:
                assert exc.code in (303, 403), (path, exc.code)
        assert "Pair this browser" in page(table.url + "/settings")
    finally:
        table.stop()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
