"""Config, journal and tile registry files that are cut short, empty or not what they claim,
given to the real daemon process: it says clearly what is wrong, keeps the old data as it
was, and (but for a config it cannot trust) boots and tells systemd it is ready.

(The journal's reading rules at every byte of a torn write are tested on the `Table` in
tests/game; here it is the whole `setup-companion run`.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.game.journal import Journal, start_record, turn_record
from engine import Game
from tests.faults.harness import T, start_board
from tests.faults.process import dummy_config, run

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x80\x00\x00\x00@\x08\x00\x00\x00\x00"


def write_game(path: Path) -> bytes:
    """A journal of a game in progress: S laid the star-2 (2 points), N swapped."""
    game = Game(("S", "N"), board=start_board())
    journal = Journal(path)
    journal.append(start_record(game))
    placement = [("SW", T("star-2"))]
    journal.append(turn_record("S", placement, game.place(placement)))
    game.swap()
    journal.append(turn_record("N", ()))
    return path.read_bytes()


@pytest.fixture
def state(tmp_path) -> Path:
    folder = tmp_path / "state"
    folder.mkdir()
    return folder


def start(start_daemon, tmp_path: Path, state: Path, *extra: str):
    config = dummy_config(tmp_path, state)
    return start_daemon("--config", str(config), "--hub-port", str(tmp_path / "no-hub"), *extra)


RESUMED = "playing, S to move: S 2 N 0"


@pytest.mark.parametrize("keep", [1, 20, -1], ids=["one-byte", "half-a-record", "no-newline"])
def test_a_journal_cut_short_resumes_at_its_last_whole_record(start_daemon, tmp_path, state, keep):
    whole = write_game(state / "journal.jsonl")
    Journal(state / "journal.jsonl").append(turn_record("S", [("S1", T("star-3"))]))
    written = (state / "journal.jsonl").read_bytes()
    cut = len(whole) + (keep if keep > 0 else len(written) - len(whole) - 1)
    (state / "journal.jsonl").write_bytes(written[:cut])  # the power went mid-write
    daemon = start(start_daemon, tmp_path, state)
    assert RESUMED in daemon.ready()["STATUS"], daemon.output()
    assert daemon.stop() == 0
    assert "a power cut while writing" in daemon.output()
    assert (state / "journal.jsonl").read_bytes()[: len(whole)] == whole


def test_an_empty_journal_opens_a_lobby(start_daemon, tmp_path, state):
    (state / "journal.jsonl").write_bytes(b"")
    daemon = start(start_daemon, tmp_path, state)
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0
    assert "ERROR" not in daemon.output()
    assert (state / "journal.jsonl").read_bytes() == b""


def _not_a_journal(folder: Path) -> dict[str, bytes]:
    game = write_game(folder / "game.jsonl")
    lines = game.splitlines(keepends=True)
    future = json.loads(lines[0])
    future["v"] = 2
    illegal = json.loads(lines[1])
    illegal["placed"] = [["N1", "star-2"]]  # S may not lay on N's squares
    return {
        "a picture": PNG + bytes(range(256)),
        "a tile registry": b'{"04000000000001": "star-1"}\n',
        "a tile registry, no end of line": b'{"04000000000001": "star-1"}',
        "a later journal version": json.dumps(future).encode() + b"\n" + b"".join(lines[1:]),
        "a turn the rules refuse": lines[0] + json.dumps(illegal).encode() + b"\n" + lines[2],
        "a bad line in the middle": lines[0] + b'{"type": "tu\n' + b"".join(lines[1:]),
    }


@pytest.mark.parametrize(
    "what",
    [
        "a picture",
        "a tile registry",
        "a tile registry, no end of line",
        "a later journal version",
        "a turn the rules refuse",
        "a bad line in the middle",
    ],
)
def test_a_journal_that_is_not_one_is_set_aside_unchanged_and_a_lobby_opens(
    start_daemon, tmp_path, state, what
):
    content = _not_a_journal(tmp_path)[what]
    (state / "journal.jsonl").write_bytes(content)
    daemon = start(start_daemon, tmp_path, state)
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0
    log = daemon.output()
    assert "ERROR setup.table" in log and "journal" in log and "Traceback" not in log, log
    assert (state / "journal-damaged-1.jsonl").read_bytes() == content
    assert not (state / "journal.jsonl").exists()


BROKEN_CONFIGS = {
    "cut short": ('[game]\nlanguage = "fr"\n\n[seats.N\ncolour = "re', "line 4"),
    "a picture": (PNG, "cannot read it"),
    "JSON": ('{"game": {"language": "fr"}}\n', "line 1"),
    "a wrong value": ('[game]\nlanguage = "fr"\nlong_press = "long"\n', "line 3"),
}


@pytest.mark.parametrize("what", BROKEN_CONFIGS)
def test_a_broken_config_is_one_clear_sentence_and_nothing_is_touched(tmp_path, state, what):
    content, where = BROKEN_CONFIGS[what]
    config = tmp_path / "config.toml"
    config.write_bytes(content if isinstance(content, bytes) else content.encode())
    journal = write_game(state / "journal.jsonl")
    done = run("run", "--config", str(config), "--state-dir", str(state))
    assert done.returncode == 2, done.stderr
    message = done.stderr.strip().splitlines()
    assert len(message) == 1 and "Traceback" not in done.stderr, done.stderr
    assert message[0].startswith("setup-companion: the configuration is not valid")
    assert str(config) in message[0] and where in message[0]
    assert config.read_bytes() == (content if isinstance(content, bytes) else content.encode())
    assert (state / "journal.jsonl").read_bytes() == journal


def test_a_config_broken_after_a_good_start_runs_on_the_last_good_one(
    start_daemon, tmp_path, state
):
    config = dummy_config(tmp_path, state)
    good = config.read_bytes()
    daemon = start_daemon("--config", str(config), "--hub-port", str(tmp_path / "no-hub"))
    daemon.ready()
    assert daemon.stop() == 0
    assert (state / "config-last-good.toml").read_bytes() == good  # kept at a good start
    broken = good + b"\n[game]\nlong_press = 'long'\n"  # an edit gone wrong
    config.write_bytes(broken)
    daemon = start_daemon("--config", str(config), "--hub-port", str(tmp_path / "no-hub"))
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0
    log = daemon.output()
    assert "the configuration is not valid" in log and "line" in log
    assert "running with the last configuration that loaded" in log
    assert config.read_bytes() == broken  # the edit is left for its author to fix
    assert (state / "config-last-good.toml").read_bytes() == good
    # not even TOML: the state dir comes from systemd ($STATE_DIRECTORY) or --state-dir
    config.write_bytes(b"[game\n")
    daemon = start_daemon(
        "--config", str(config), "--state-dir", str(state), "--hub-port", str(tmp_path / "x")
    )
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0


def test_an_empty_config_is_the_default_configuration(start_daemon, tmp_path, state):
    config = tmp_path / "config.toml"
    config.write_bytes(b"")
    daemon = start_daemon(
        "--config", str(config), "--state-dir", str(state), "--hub-port", str(tmp_path / "x")
    )
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0
    assert config.read_bytes() == b""


BROKEN_REGISTRIES = {
    "cut short": b'{"04000000000001": "star-1", "0400',
    "empty": b"",
    "a list": b'["04000000000001", "star-1"]',
    "an unknown tile": b'{"04000000000001": "star-11"}',
}


@pytest.mark.parametrize("what", BROKEN_REGISTRIES)
def test_a_damaged_tile_registry_is_reported_kept_and_the_game_goes_on(
    start_daemon, tmp_path, state, what
):
    (state / "registry.json").write_bytes(BROKEN_REGISTRIES[what])
    write_game(state / "journal.jsonl")
    daemon = start(start_daemon, tmp_path, state)
    assert RESUMED in daemon.ready()["STATUS"], daemon.output()
    assert daemon.stop() == 0
    log = daemon.output()
    assert "ERROR setup.daemon: the tile registry" in log and "Traceback" not in log, log
    assert (state / "registry.json").read_bytes() == BROKEN_REGISTRIES[what]
