"""Limits that hold under abuse, against the real web companion (uvicorn, a real process, real
sockets) with the open-file limit its systemd unit gives it: thousands of event streams, a
SIGTERM under that load, streams closed by the hundred, 200 MB bodies on every POST route."""

from __future__ import annotations

import http.client
import re
import signal
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from companion.web.edge import MAX_BODY
from companion.web.live import MAX_STREAMS, STREAMS_PER_CLIENT
from tests.systemd.test_unit import SYSTEMD, read_unit
from tests.web.flood import Flood
from tests.web.harness import DEADLINE, Table, free_port, wait_until
from tests.web.test_crash import Client

#: devices of the home network, as loopback addresses (all of 127/8 is this machine)
FAMILY = "127.0.0.2"
ABUSERS = tuple(f"127.0.1.{n}" for n in range(1, 41))


def unit_open_files() -> int:
    found = [v for k, v in read_unit(SYSTEMD / "setup-companion-web.service")["Service"]
             if k == "LimitNOFILE"]  # fmt: skip
    assert len(found) == 1, "the web unit must set its open-file limit"
    return int(found[0])


@pytest.fixture
def guarded(tmp_path):
    """The table, its web companion under the unit's open-file limit."""
    table = Table(tmp_path)
    table.start_daemon()
    table.start_web(open_files=unit_open_files())
    yield table
    table.stop()


def get(table: Table, path: str, source: str = FAMILY, **headers: str):
    """One request from `source`; (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=DEADLINE,
                                            source_address=(source, 0))  # fmt: skip
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = b"" if path == "/events" and response.status == 200 else response.read()
        return response.status, dict(response.getheaders()), body.decode(errors="replace")
    finally:
        connection.close()


def log_of(table: Table) -> str:
    return table.web_log.read_text(errors="replace")


def test_2000_streams_from_one_device_leave_the_table_to_the_family_and_sigterm_stops_it(
    guarded,
):
    flood = Flood(guarded.port, 2000).run()
    try:
        outcomes = flood.outcomes()
        assert set(outcomes) <= {"200", "503", "closed"}, outcomes
        assert len(flood.held) == STREAMS_PER_CLIENT, outcomes
        refused = [a for a in flood.attempts if a.outcome == "503"]
        assert refused, outcomes
        assert all("live pages of the table open already" in a.body for a in refused)
        family = Flood(guarded.port, 1, (FAMILY,)).run()  # the family's phone: its stream
        assert len(family.held) == 1
        status, _, body = get(guarded, "/")
        assert status == 200 and 'id="board"' in body
        log = log_of(guarded)
        assert "Traceback" not in log and "accept" not in log
        assert len(log.splitlines()) < 20, log[-3000:]  # a line per kind of refusal, not per try

        guarded.web.send_signal(signal.SIGTERM)  # with every connection still open
        guarded.web.wait(DEADLINE)  # (the time it takes is `make bench`'s: web_stop)
        family.close()
    finally:
        flood.close()
    log = log_of(guarded)
    assert "Traceback" not in log and "without completing response" not in log, log[-3000:]


def test_streams_are_capped_in_total_with_a_clear_answer_and_come_back(guarded):
    flood = Flood(guarded.port, 2000, ABUSERS).run()
    try:
        assert len(flood.held) == MAX_STREAMS, flood.outcomes()
        per_device = {s: sum(a.source == s for a in flood.held) for s in ABUSERS}
        assert max(per_device.values()) <= STREAMS_PER_CLIENT
        status, headers, body = get(guarded, "/events")
        assert status == 503 and "live view is full" in body and headers["retry-after"]
        status, _, body = get(guarded, "/")
        assert status == 200 and 'id="board"' in body
    finally:
        flood.close()
    wait_until(lambda: get(guarded, "/events")[0] == 200, what="a stream once others closed")
    assert "Traceback" not in log_of(guarded)


def every_stream(table: Table) -> Flood | None:
    """`MAX_STREAMS` streams, all held; None (and none held) while the server still counts
    some that closed a moment ago."""
    flood = Flood(table.port, MAX_STREAMS, ABUSERS[:8]).run()
    if len(flood.held) == MAX_STREAMS:
        return flood
    flood.close()
    return None


def test_streams_closed_by_the_hundred_log_no_traceback(guarded):
    hands = Client(guarded.socket)
    try:
        for _ in range(6):
            flood = wait_until(lambda: every_stream(guarded), what="every stream")
            hands.ask("put", square="NW", tile="star-1")  # every stream is sent the change
            hands.ask("lift", square="NW")
            for attempt in flood.held:  # gone at once, as a phone dropping off the Wi-Fi
                attempt.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                        struct.pack("ii", 1, 0))  # fmt: skip
            flood.close()
    finally:
        hands.close()
    guarded.web.send_signal(signal.SIGTERM)
    guarded.web.wait(DEADLINE)
    log = log_of(guarded)
    assert "Traceback" not in log and "RuntimeError" not in log, log[-3000:]


POST_ROUTES = ("/settings", "/sim/put", "/sim/lift", "/sim/press", "/sim/cable", "/sim/faults")
BIG = 200 * 1024 * 1024


def peak_memory(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in bytes."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def session(table: Table) -> tuple[str, str]:
    """A session cookie and its CSRF token, as any device of the home network gets them."""
    status, headers, body = get(table, "/sim")
    assert status == 200
    cookie = headers["set-cookie"].split(";")[0]
    token = re.search(r'name="csrf" content="([^"]+)"', body)
    assert token
    return cookie, token.group(1)


def post_big(table: Table, path: str, chunked: bool, cookie: str, token: str) -> str:
    """A 200 MB body to `path`, announced or in chunks, as curl sends a big one (it asks
    `Expect: 100-continue` and sends the body once the server says go on); the status the
    server answered with ("read whole: ..." after the whole body), or "reset" if it closed
    before its answer could be read."""
    sock = socket.create_connection(("127.0.0.1", table.port), timeout=DEADLINE,
                                    source_address=(FAMILY, 0))  # fmt: skip
    reader = sock.makefile("rb")
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {BIG}"
    kind = "application/x-www-form-urlencoded" if path == "/settings" else "application/json"
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{table.port}\r\n"
            f"Content-Type: {kind}\r\nExpect: 100-continue\r\n{length}\r\n"
            f"Cookie: {cookie}\r\nX-CSRF-Token: {token}\r\n\r\n")  # fmt: skip
    chunk = b"x" * 65536
    try:
        sock.sendall(head.encode())
        status = reader.readline().split(b" ", 2)[1].decode()
        if status != "100":
            return status  # refused before the body was sent
        while reader.readline() not in (b"\r\n", b""):
            pass
        for _ in range(BIG // len(chunk)):
            sock.sendall(b"10000\r\n" + chunk + b"\r\n" if chunked else chunk)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
        return "read whole: " + reader.readline().split(b" ", 2)[1].decode()
    except (OSError, IndexError):  # it stopped reading and closed the connection
        return "reset"
    finally:
        reader.close()
        sock.close()


def test_a_200_mb_body_on_every_post_route_is_refused_unread(guarded):
    cookie, token = session(guarded)  # what any device of the home network may have
    before = peak_memory(guarded.web.pid)
    for path in POST_ROUTES:
        assert post_big(guarded, path, False, cookie, token) == "413", path
        assert post_big(guarded, path, True, cookie, token) in ("413", "reset"), path  # cut
    grown = peak_memory(guarded.web.pid) - before
    assert grown < 16 * 1024 * 1024, f"the peak memory grew {grown / 2**20:.0f} MB"
    status, _, _ = get(guarded, "/settings")
    assert status == 200  # still serving
    assert MAX_BODY < 65536


def listening_on(port: int) -> set[str]:
    """The addresses this machine listens on at `port` (IPv4, from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, _, hex_port = local.partition(":")
        if state == "0A" and int(hex_port, 16) == port:  # LISTEN
            found.add(socket.inet_ntoa(struct.pack("<I", int(address, 16))))
    return found


@pytest.mark.parametrize(
    ("args", "bound", "said"),
    [
        ([], "127.0.0.1", "http://127.0.0.1:{port}/ (this machine only)"),
        (["--host", "0.0.0.0"], "0.0.0.0", "port {port} of every address of this machine"),
    ],
)
def test_web_binds_what_it_prints_the_loopback_by_default(tmp_path, args, bound, said):
    port = free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "web", "--sim", "--state-dir", str(tmp_path),
         "--port", str(port), *args],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        printed = web.stdout.readline()
        assert said.format(port=port) in printed
        assert listening_on(port) == {bound}
    finally:
        web.terminate()
        web.wait(DEADLINE)


def test_a_page_refused_a_stream_says_why_in_the_browser(guarded, page):
    flood = Flood(guarded.port, STREAMS_PER_CLIENT).run()  # this device's streams, all taken
    try:
        assert len(flood.held) == STREAMS_PER_CLIENT
        page.goto(guarded.url + "/")
        problem = page.locator("#live-problem")
        problem.wait_for()
        assert "live pages of the table open already" in problem.inner_text()
    finally:
        flood.close()


def test_a_foreign_host_gets_nothing_not_even_a_pin_on_the_table(guarded):
    # DNS rebinding: a site's own name made to point at the table; its Origin matches
    for path in ("/", "/settings", "/events", "/static/style.css"):
        status, headers, body = get(guarded, path, Host=f"evil.example:{guarded.port}")
        assert status == 421 and "set-cookie" not in headers, path
        assert "its own names only" in body
    connection = http.client.HTTPConnection("127.0.0.1", guarded.port, timeout=DEADLINE)
    connection.request(
        "POST",
        "/settings",
        body="action=pin",
        headers={
            "Host": f"evil.example:{guarded.port}",
            "Origin": f"http://evil.example:{guarded.port}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert connection.getresponse().status == 421
    connection.close()
    assert "asked to pair" not in guarded.daemon_log.read_text()
    name = socket.gethostname().split(".")[0]
    for host in (f"{name}.local", f"{name}.local.", name, "localhost", f"[::1]:{guarded.port}"):
        assert get(guarded, "/", Host=host)[0] == 200, host
    assert get(guarded, "/", Host="192.0.2.7")[0] == 421  # an address that is not this one


SECURITY_HEADERS = {
    "content-security-policy": "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def test_every_answer_carries_the_security_headers(guarded):
    answers = {path: get(guarded, path)[1] for path in
               ("/", "/games", "/settings", "/sim", "/static/style.css", "/static/live.js",
                "/qr.svg", "/events", "/nowhere")}  # fmt: skip
    answers["421"] = get(guarded, "/", Host="evil.example")[1]
    for path, headers in answers.items():
        for name, value in SECURITY_HEADERS.items():
            assert value in headers.get(name, ""), (path, name)
