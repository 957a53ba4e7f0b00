"""Config, journal and tile registry files that are cut short, empty or not what they claim,
given to the real daemon process: it says clearly what is wrong, keeps the old data as it
was, and (but for a config it cannot trust) boots and tells systemd it is ready.

(The journal's reading rules at every byte of a torn write are tested on the `Table` in
tests/game; here it is the whole `setup-companion run`.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.game.journal import Journal, start_record, turn_record
from engine import Game
from tests.faults import fuzz
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


CUTS = {  # how much of the pair of copies reached the card, by the length of one copy
    "one-byte": (lambda copy: 1, False),
    "half-a-copy": (lambda copy: copy // 2, False),
    "no-newline": (lambda copy: copy - 1, False),
    "first-copy-whole": (lambda copy: copy, True),
    "all-but-newline": (lambda copy: 2 * copy - 1, True),
}


@pytest.mark.parametrize("cut", CUTS)
def test_a_journal_cut_short_resumes_at_its_last_whole_record(start_daemon, tmp_path, state, cut):
    """The power went while S's next turn was written (both copies in one write): without
    its first copy's newline it was not written, with it it was (the second copy is cut
    short, and written again whole)."""
    whole = write_game(state / "journal.jsonl")
    Journal(state / "journal.jsonl").append(turn_record("S", [("S1", T("star-3"))]))
    written = (state / "journal.jsonl").read_bytes()
    size, kept = CUTS[cut]
    on_card = written[: len(whole) + size((len(written) - len(whole)) // 2)]
    (state / "journal.jsonl").write_bytes(on_card)  # the power went mid-write
    daemon = start(start_daemon, tmp_path, state)
    status = "playing, N to move: S 5 N 0" if kept else RESUMED
    assert status in daemon.ready()["STATUS"], daemon.output()
    assert daemon.stop() == 0
    assert "a power cut while writing" in daemon.output()
    if kept:
        assert (state / "journal.jsonl").read_bytes() == written  # both copies again
    else:
        assert (state / "journal.jsonl").read_bytes() == on_card  # cut at the next append


def test_an_empty_journal_opens_a_lobby(start_daemon, tmp_path, state):
    (state / "journal.jsonl").write_bytes(b"")
    daemon = start(start_daemon, tmp_path, state)
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0
    assert "ERROR" not in daemon.output()
    assert (state / "journal.jsonl").read_bytes() == b""


def _not_a_journal(folder: Path) -> dict[str, bytes]:
    from companion.game.journal import encode

    game = write_game(folder / "game.jsonl")
    lines = game.splitlines(keepends=True)  # each record twice
    start, first_turn = Journal(folder / "game.jsonl").records()[:2]
    future = encode({**start, "v": 2}, 1)
    illegal = encode({**first_turn, "placed": [["N1", "star-2"]]}, 2)  # not S's square
    return {
        "a picture": PNG + bytes(range(256)),
        "a tile registry": b'{"04000000000001": "star-1"}\n',
        "a tile registry, no end of line": b'{"04000000000001": "star-1"}',
        "a later journal version": future * 2 + b"".join(lines[2:]),
        "a turn the rules refuse": b"".join(lines[:2]) + illegal * 2 + b"".join(lines[4:]),
        "a bad line in the middle": b"".join(lines[:2])
        + b'{"type": "tu\n' * 2
        + b"".join(lines[4:]),
    }


LOBBY = "lobby: press to join"
START = "playing, S to move: S 0 N 0"


@pytest.mark.parametrize(
    "what, status",
    [
        ("a picture", LOBBY),
        ("a tile registry", LOBBY),
        ("a tile registry, no end of line", LOBBY),
        ("a later journal version", LOBBY),
        # damaged after its start record: the records before the damage are resumed
        ("a turn the rules refuse", START),
        ("a bad line in the middle", START),
    ],
)
def test_a_journal_that_is_not_one_is_set_aside_unchanged_and_what_was_good_resumed(
    start_daemon, tmp_path, state, what, status
):
    content = _not_a_journal(tmp_path)[what]
    (state / "journal.jsonl").write_bytes(content)
    daemon = start(start_daemon, tmp_path, state)
    assert daemon.ready()["STATUS"].endswith(status), daemon.output()
    assert daemon.stop() == 0
    log = daemon.output()
    assert "ERROR setup.table" in log and "journal" in log and "Traceback" not in log, log
    assert (state / "journal-damaged-1.jsonl").read_bytes() == content
    if status == LOBBY:
        assert not (state / "journal.jsonl").exists()
    else:
        assert "line 3" in log  # the second record's first copy
        assert (state / "journal.jsonl").read_bytes() == b"".join(content.splitlines(True)[:2])


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


# -- every file behind one boundary: fuzzed, and nested deep ------------------------------
# Seeded, so the same mutations every run. With the boundary taken out (`guard` letting every
# exception through) the config's first escape is mutation 2 and the registry's first
# RecursionError mutation 26, one in every 136 after it: a thousand each finds both kinds
# many times over, at a third of the time 3,000 took.
FUZZ = {"config": 1000, "registry": 1000, "journal": 1000}


@pytest.mark.parametrize("kind", FUZZ)
def test_thousands_of_mutations_of_each_file_never_crash_its_reader(tmp_path, monkeypatch, kind):
    """Seeded mutations (bits, bytes, slices, cuts, nesting, values of the wrong kind) read by
    the very code the daemon reads each file with: each is either read or "damaged"."""
    import logging
    import os

    monkeypatch.setattr(os, "fsync", lambda fd: None)  # the card's time is not tested here
    monkeypatch.chdir(tmp_path)  # whatever a mutated file names, nothing lands in the checkout
    logging.disable(logging.CRITICAL)
    try:
        crashes = getattr(fuzz, f"{kind}_crashes")(tmp_path / kind, FUZZ[kind], seed=17)
    finally:
        logging.disable(logging.NOTSET)
    assert crashes == {}, crashes


def _nested_journal(folder: Path) -> bytes:
    return write_game(folder / "game.jsonl") + b"[" * 100_000 + b"\n"


NESTED = {
    "journal": ("journal.jsonl", _nested_journal),
    "registry": ("registry.json", lambda folder: b'{"a":' * 50_000 + b"1" + b"}" * 50_000),
}


@pytest.mark.parametrize("kind", NESTED)
def test_a_file_nested_deep_is_damaged_and_the_daemon_boots(start_daemon, tmp_path, state, kind):
    name, make = NESTED[kind]
    content = make(tmp_path)
    if kind == "registry":
        write_game(state / "journal.jsonl")
    (state / name).write_bytes(content)
    daemon = start(start_daemon, tmp_path, state)
    status = daemon.ready()["STATUS"]
    assert daemon.stop() == 0
    log = daemon.output()
    assert "Traceback" not in log and "nested too deeply" in log, log
    if kind == "journal":  # the whole records before the nested line are resumed
        assert RESUMED in status, log
        assert (state / "journal-damaged-1.jsonl").read_bytes() == content
    else:
        assert RESUMED in status, log
        assert (state / name).read_bytes() == content


NESTED_CONFIG = b"[game]\nlanguage = " + b"[" * 3000 + b"]" * 3000 + b"\n"


def test_a_config_nested_deep_is_one_sentence_or_runs_on_the_last_good_copy(
    start_daemon, tmp_path, state
):
    config = tmp_path / "config.toml"
    config.write_bytes(NESTED_CONFIG)
    done = run("run", "--config", str(config), "--state-dir", str(state))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "nested too deeply" in done.stderr, done.stderr
    good = dummy_config(tmp_path, state).read_bytes()
    (state / "config-last-good.toml").write_bytes(good)
    config.write_bytes(NESTED_CONFIG)
    daemon = start_daemon(
        "--config", str(config), "--state-dir", str(state), "--hub-port", str(tmp_path / "x")
    )
    assert daemon.ready()["STATUS"].endswith("lobby: press to join"), daemon.output()
    assert daemon.stop() == 0
    assert "Traceback" not in daemon.output()
    assert "running with the last configuration that loaded" in daemon.output()


def test_fuzzed_files_given_to_the_real_daemon_never_stop_it(start_daemon, tmp_path, state):
    """A few of the in-process mutations, to the whole `setup-companion run`: it boots."""
    import random

    rng = random.Random(5)
    journal = write_game(tmp_path / "base.jsonl")
    registry_file = tmp_path / "registry.json"
    from tests.helpers import registry

    registry(registry_file).save()
    tiles = registry_file.read_bytes()
    for n in range(3):
        for old in state.iterdir():
            old.unlink()
        (state / "journal.jsonl").write_bytes(fuzz.mutate(journal, rng))
        (state / "registry.json").write_bytes(fuzz.mutate(tiles, rng))
        (state / "config-last-good.toml").write_bytes(dummy_config(tmp_path, state).read_bytes())
        config = tmp_path / "config.toml"
        config.write_bytes(fuzz.mutate(config.read_bytes(), rng))
        daemon = start_daemon(
            "--config", str(config), "--state-dir", str(state), "--hub-port", str(tmp_path / "x")
        )
        daemon.ready()
        assert daemon.stop() == 0, n
        assert "Traceback" not in daemon.output(), daemon.output()


def test_a_state_dir_the_daemon_cannot_read_is_one_sentence_exit_2():
    """Another user's state dir (0700). Root reads everything, so as root the dir is
    `nobody`'s and the daemon runs without the capabilities that pass over permissions
    (setpriv): still root, so it reads the project wherever it lies (a clone in a 0700
    temporary dir is nobody's to read); otherwise the dir is made unreadable to us."""
    import os
    import shutil
    import subprocess
    import tempfile

    from tests.faults.process import REPO, command, environment

    folder = Path(tempfile.mkdtemp(prefix="sdn-", dir="/tmp"))  # pytest's is root's alone
    os.chmod(folder, 0o755)
    state = folder / "state"
    state.mkdir(mode=0o700)
    config = folder / "config.toml"
    config.write_text("")
    os.chmod(config, 0o644)
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: no user to meet another's dir")
        os.chown(state, 65534, 65534)  # nobody's
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    else:
        os.chmod(state, 0)
    try:
        done = subprocess.run(
            [*prefix, *command("run", "--config", str(config), "--state-dir", str(state))],
            env=environment(),
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.chmod(state, 0o700)
        shutil.rmtree(folder)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"setup-companion: cannot use the state directory {state}")


def test_one_flipped_bit_in_the_start_record_costs_nothing(start_daemon, tmp_path, state):
    """Before, one flipped bit in the start record set the whole game aside: the displays
    said the saved game was damaged, the log "3 record(s) lost, 0 resumed", and a lobby
    opened. Each record is on the card twice now: the daemon resumes the game whole and
    `setup-companion replay` prints the same game, from the same damaged file."""
    whole = write_game(state / "journal.jsonl")
    damaged = bytearray(whole)
    damaged[40] ^= 0x04  # in the start record's first copy
    (state / "journal.jsonl").write_bytes(bytes(damaged))
    shown = run("replay", str(state / "journal.jsonl"))
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr == (
        "setup-companion: warning: the journal has a damaged copy of a record "
        "(the record was read from its other copy)\n"
    )
    assert shown.stdout.splitlines()[-1] == "not finished: S to move; standing 1. S 2, 2. N 0"
    daemon = start(start_daemon, tmp_path, state)
    assert RESUMED in daemon.ready()["STATUS"], daemon.output()
    assert daemon.stop() == 0
    log = daemon.output()
    assert "damaged copy of a record" in log and "lost" not in log, log
    assert (state / "journal.jsonl").read_bytes() == whole  # both copies again
    assert not list(state.glob("journal-damaged*"))
