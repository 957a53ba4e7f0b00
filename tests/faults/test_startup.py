"""A table never goes dark without saying why (issue 24): `setup-companion run` on a card
that cannot be written, with a broken configuration, or failing while it starts.

A read-only card is a real one: the state dir is bind-mounted read-only in a mount namespace
of the daemon's own (`unshare`), which goes away with it. A card that is full has its free
space measured by `statvfs`, which the test cannot shrink: its code is the same as the
read-only card's once found (`saving_problem`), and that finding is tested on its own.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.board.problems import Problem
from companion.cli import main
from companion.show.canvas import Canvas
from tests.faults.process import REPO, dummy_config
from tests.web.harness import wait_until

START = {"NW": "star-3", "NE": "heart-5", "SW": "club-7", "SE": "spade-9"}


def read_only(state: Path) -> tuple[str, ...]:
    """A command prefix: what follows runs with `state` read-only, in a mount namespace of
    its own (the mount ends with it)."""
    script = 'mount --bind -o ro "$0" "$0"; exec "$@"'
    return ("unshare", "--mount", "--propagation", "private", "sh", "-ec", script, str(state))


@pytest.fixture(scope="module")
def mounts(tmp_path_factory) -> None:
    """Whether this machine lets the tests mount (root, or user namespaces)."""
    folder = tmp_path_factory.mktemp("ro")
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is missing: no read-only card to start on")
    probe = subprocess.run(
        [*read_only(folder), "sh", "-c", "! touch $0/x 2>/dev/null", str(folder)],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a read-only folder here: {probe.stderr.strip()[-200:]}")


class Client:
    """The daemon's socket as the web companion uses it: states and frames in, requests out."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(path))
        self.messages: list[dict] = []
        self._ids = iter(range(1, 1_000_000))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.sock.makefile("rb"):
            self.messages.append(json.loads(line))

    def request(self, op: str, **fields) -> dict:
        number = next(self._ids)
        self.sock.sendall(json.dumps({"op": op, "id": number, **fields}).encode() + b"\n")
        reply = wait_until(
            lambda: next((m for m in self.messages if m.get("id") == number), None),
            what=f"the reply to {op}",
        )
        assert reply["ok"], reply
        return reply

    def state(self) -> dict:
        return next(m for m in reversed(self.messages) if m["type"] == "state")


def test_a_read_only_card_is_played_on_without_saving_and_every_display_says_so(
    start_daemon, tmp_path, mounts
):
    """Before: `cannot write in the state directory ...: Read-only file system`, exit 2,
    and under systemd the same every 2 s for ever, with nothing on the displays."""
    state, run = tmp_path / "card", tmp_path / "run"
    state.mkdir()
    run.mkdir()
    card = sorted(state.iterdir())
    daemon = start_daemon(
        "--sim", "--faults", "none", "--state-dir", str(state), "--log-level", "INFO",
        prefix=read_only(state), RUNTIME_DIRECTORY=str(run),
    )  # fmt: skip
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    client = Client(run / "companion.sock")
    for square, tile in START.items():
        client.request("put", square=square, tile=tile)
    for seat, long in (("S", False), ("N", False), ("S", True)):
        client.request("press", seat=seat, long=long)
    wait_until(lambda: client.state()["phase"] == "playing", what="the game to start")
    client.request("put", square="W2", tile="star-4")
    client.request("press", seat="S")
    wait_until(lambda: client.state()["last_turn"], what="S's turn to be scored")
    table = client.state()
    assert [(s["side"], s["score"], s["active"]) for s in table["seats"]] == [
        ("S", 2, False),
        ("N", 0, True),
    ]
    problems = [n["code"] for n in table["notices"] if n["kind"] == "problem"]
    assert problems == ["card-read-only"], table["notices"]
    assert daemon.stop() == 0
    log = daemon.output()
    assert "the table plays without saving games" in log, log
    assert "cannot write the journal" not in log and "Traceback" not in log, log
    assert sorted(state.iterdir()) == card  # nothing on the card, and no error tried to


def test_the_lock_of_a_read_only_card_holds_and_says_why(tmp_path, mounts):
    state = tmp_path / "card"
    state.mkdir()
    code = (
        "import sys; from companion.commands._lock import StateDirLock;"
        "lock = StateDirLock(sys.argv[1]); print(lock.unwritable)"
    )
    for lock_file in (False, True):  # no lock file yet (the state dir is locked), or one
        assert (state / "daemon.lock").exists() is lock_file
        done = subprocess.run(
            [*read_only(state), sys.executable, "-c", code, str(state)],
            capture_output=True, text=True, cwd=REPO,
        )  # fmt: skip
        assert done.stdout == "card-read-only\n", done.stderr
        (state / "daemon.lock").write_text("1\n")


def test_a_full_card_is_played_on_without_saving(tmp_path, monkeypatch):
    import os

    from companion.commands._startup import FULL_BELOW, saving_problem

    assert saving_problem(tmp_path, None) is None  # this machine's /tmp has room
    real = os.statvfs(tmp_path)
    free = FULL_BELOW // real.f_frsize - 1

    class Full:
        f_bavail, f_frsize = free, real.f_frsize

    monkeypatch.setattr(os, "statvfs", lambda path: Full)
    assert saving_problem(tmp_path, None) == "card-full"
    assert saving_problem(tmp_path, "card-read-only") == "card-read-only"


# -- stopped: every display says why ----------------------------------------------------------
@pytest.fixture
def shown(monkeypatch) -> list[dict]:
    """What the daemon drew on its displays when it stopped (the dummy panels' frames)."""
    from companion.show import stopped

    drawn: list[dict] = []
    real = stopped.show_stopped

    def spy(problem, displays, lang):
        frames = real(problem, displays, lang)
        drawn.append({"problem": problem, "frames": frames, "asked": sorted(displays)})
        return frames

    monkeypatch.setattr(stopped, "show_stopped", spy)
    return drawn


def cannot_start(text: str) -> bytes:
    """The frame that says the table cannot start because of `text` (drawn independently)."""
    canvas = Canvas()
    canvas.title("Cannot start")
    canvas.block((2, 16, canvas.width - 1, canvas.height), text, (12, 11, 10))
    return canvas.image.tobytes()


def test_a_broken_config_is_said_on_every_display_and_to_systemd(
    start_daemon, tmp_path, shown, capsys
):
    """Before: one sentence on stderr and exit 2, every 2 s for ever, the displays dark."""
    state = tmp_path / "state"
    config = dummy_config(tmp_path, state)
    config.write_text(config.read_text() + "\n[game]\nlong_press = 'long'\n")
    code = main(["run", "--config", str(config), "--hub-port", str(tmp_path / "no-hub")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the configuration is not valid" in err[0], err
    assert [d["problem"] for d in shown] == [Problem("config-broken")]
    assert shown[0]["asked"] == ["E", "N", "S", "W"] == sorted(shown[0]["frames"])
    text = "The configuration file has an error: fix it to start the table"
    assert {side: f.tobytes() for side, f in shown[0]["frames"].items()} == {
        side: cannot_start(text) for side in "NESW"
    }
    # the real process tells systemd too, and ends for the restart policy to try again
    daemon = start_daemon("--config", str(config), "--hub-port", str(tmp_path / "no-hub"))
    assert daemon.ended() == 2
    assert any(
        s.startswith("cannot start: the configuration is not valid") for s in daemon.statuses()
    )
    assert "Traceback" not in daemon.output()


def test_a_failure_while_starting_is_said_on_every_display(tmp_path, shown, monkeypatch, capsys):
    """A bug (here: the table cannot be built) stops the start: before, a traceback and exit
    1 every 2 s; now one sentence, exit 2, and the displays say the table could not start."""
    import companion.daemon

    def broken(*args, **kwargs):
        raise RuntimeError("the table cannot be built")

    monkeypatch.setattr(companion.daemon, "Daemon", broken)
    config = dummy_config(tmp_path, tmp_path / "state")
    code = main(["run", "--config", str(config), "--hub-port", str(tmp_path / "no-hub")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["setup-companion: the daemon failed while starting: the table cannot be built"]
    assert [d["problem"] for d in shown] == [Problem("start-failed")]
    text = "The table could not start: restart it, or see the log"
    assert {side: f.tobytes() for side, f in shown[0]["frames"].items()} == {
        side: cannot_start(text) for side in "NESW"
    }
    # the state dir's lock went with it: the next start is not refused as "in use"
    from companion.commands._lock import StateDirLock

    StateDirLock(tmp_path / "state").release()


# -- a card not saved, in-process: the journal and what the displays show --------------------
def test_an_unsaved_journal_reads_the_card_and_never_writes_it(tmp_path):
    from companion.game.journal import Journal
    from tests.game.test_journal import records

    saved = Journal(tmp_path / "journal.jsonl")
    for record in records()[:3]:
        saved.append(record)
    card = saved.path.read_bytes()
    journal = Journal(saved.path, unsaved="card-read-only")
    assert journal.records() == records()[:3] and not journal.saving
    for record in records()[3:]:
        journal.append(record)
    assert journal.tend(1e9) is None and journal.writable
    assert journal.cut(2) is None and journal.archive() is None
    assert saved.path.read_bytes() == card and sorted(tmp_path.iterdir()) == [saved.path]


def test_every_display_says_the_games_are_not_saved_between_the_games_screens(tmp_path):
    """A standing problem shows STANDING_SHOWN seconds in every STANDING_EVERY on every
    display, after any other notice, and the game's own screen the rest of the time."""
    from companion.game.journal import Journal
    from companion.game.table import Table
    from companion.show.i18n import Catalogue
    from companion.show.screens import STANDING_EVERY, STANDING_SHOWN, Screens
    from companion.show.screens.notice import draw_notice
    from tests.helpers import Rig

    rig = Rig(tmp_path)
    rig.journal = Journal(rig.config.paths.journal, unsaved="card-read-only")
    rig.table = Table(rig.config, rig.registry, rig.journal, now=rig.now)
    rig.setup({"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-1"], "SE": ["diamond-9"]})
    rig.sweep(5)
    rig.start("S", "N")
    rig.put("W2", "star-4")
    rig.sweep(5)
    rig.press("S")
    assert rig.table.game.scores == {"S": 2, "N": 0}
    assert not rig.config.paths.journal.exists()  # played, never written
    view = rig.view()
    assert Problem("card-read-only") in view.notices
    notice = Canvas()
    draw_notice(notice, Problem("card-read-only"), Catalogue.load("en"))
    screens = Screens("en")
    start = (rig.now // STANDING_EVERY + 1) * STANDING_EVERY  # the start of a showing
    for at, shows in ((0.0, True), (STANDING_SHOWN - 0.1, True), (STANDING_SHOWN, False),
                      (STANDING_EVERY - 0.1, False), (STANDING_EVERY, True)):  # fmt: skip
        for side in "NESW":
            frame = screens.frame(view, side, start + at).tobytes()
            assert (frame == notice.image.tobytes()) is shows, (side, at)
    assert screens.next_change(view, start + 1.0) == start + STANDING_SHOWN
    assert screens.next_change(view, start + STANDING_SHOWN) == start + STANDING_EVERY
