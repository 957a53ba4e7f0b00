"""Seeded mutations of the daemon's files, and the real code that reads each kind.

`mutate(data, rng)` returns the bytes of one mutation: a flipped bit, a random byte, a
slice removed, repeated or replaced by random bytes, the file cut short, or a value nested
hundreds to a hundred thousand levels deep. Each `*_crashes` function feeds mutations of one
kind of file to the code the daemon reads it with and returns what escaped it: anything but
the reader's own "this file is damaged" error is a crash (at start-up: exit 1, no READY,
and a restart loop under systemd).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def nested(rng: random.Random) -> bytes:
    depth = rng.choice((200, 1_000, 3_000, 20_000, 100_000))
    return rng.choice((b"[", b'{"a":', b'[{"a":')) * depth


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    at = rng.randrange(len(data) + 1)
    kind = rng.randrange(8)
    if kind == 0 and data:  # one bit
        at = min(at, len(data) - 1)
        data[at] ^= 1 << rng.randrange(8)
    elif kind == 1 and data:  # one byte
        at = min(at, len(data) - 1)
        data[at] = rng.randrange(256)
    elif kind == 2:  # a slice gone
        del data[at : at + rng.randrange(1, 40)]
    elif kind == 3:  # a slice twice
        data[at:at] = data[at : at + rng.randrange(1, 80)]
    elif kind == 4:  # random bytes
        data[at : at + rng.randrange(0, 8)] = rng.randbytes(rng.randrange(1, 16))
    elif kind == 5:  # cut short
        del data[at:]
    elif kind == 6:  # nested deep, in place of a value or anywhere
        data[at:at] = nested(rng)
    else:  # a value replaced by a list or an object
        data[at : at + rng.randrange(1, 6)] = rng.choice((b"[]", b"{}", b"[1]", b'{"x":1}', b"5"))
    return bytes(data)


def _run(
    base: bytes, count: int, seed: int, write: Callable[[bytes], None], read: Callable[[], object]
) -> dict[str, int]:
    """`count` mutations of `base`; returns the name of each escaped exception -> how often."""
    rng = random.Random(seed)
    crashes: dict[str, int] = {}
    for _ in range(count):
        write(mutate(base, rng))
        try:
            read()
        except Exception as exc:  # the very thing counted
            name = type(exc).__name__
            crashes[name] = crashes.get(name, 0) + 1
    return crashes


# -- the three kinds of file, read as the daemon reads them ----------------------------------
def good_config(state: Path) -> bytes:
    text = (REPO / "docs" / "config.example.toml").read_text()
    return text.replace('state_dir = "/var/lib/setup-companion"', f'state_dir = "{state}"').encode()


def config_crashes(folder: Path, count: int, seed: int) -> dict[str, int]:
    """The daemon's start: `--config FILE`, a last good copy in its state dir."""
    from companion.commands._common import LAST_GOOD, CommandError, load_keeping_last_good

    state = folder / "state"
    state.mkdir(parents=True, exist_ok=True)
    base = good_config(state)
    (state / LAST_GOOD).write_bytes(base)
    path = folder / "config.toml"
    args = argparse.Namespace(config=str(path), state_dir=None, sim=False, hub_port=None)

    def read() -> None:
        with contextlib.suppress(CommandError):  # one sentence, exit 2: fine
            load_keeping_last_good(args)
        (state / LAST_GOOD).write_bytes(base)  # a mutation that loaded becomes the copy

    return _run(base, count, seed, path.write_bytes, read)


def registry_crashes(folder: Path, count: int, seed: int) -> dict[str, int]:
    from companion.config import Config, PathsConfig
    from companion.daemon import load_registry
    from tests.helpers import registry

    folder.mkdir(parents=True, exist_ok=True)
    config = Config(paths=PathsConfig(folder))
    registry(config.paths.registry).save()
    base = config.paths.registry.read_bytes()
    return _run(base, count, seed, config.paths.registry.write_bytes, lambda: load_registry(config))


def journal_bytes(folder: Path) -> bytes:
    from companion.game.journal import Journal
    from tests.game.test_journal import records

    journal = Journal(folder / "base.jsonl")
    for record in records():
        journal.append(record)
    data = journal.path.read_bytes()
    journal.path.unlink()
    return data


def journal_crashes(folder: Path, count: int, seed: int, base: bytes | None = None) -> dict:
    """The daemon's `Table` resuming from the journal."""
    from companion.config import Config, PathsConfig
    from companion.game.journal import Journal
    from companion.game.table import Table
    from tests.helpers import registry

    folder.mkdir(parents=True, exist_ok=True)
    base = base if base is not None else journal_bytes(folder)
    config = Config(paths=PathsConfig(folder))
    tiles = registry()

    def write(data: bytes) -> None:
        shutil.rmtree(folder)
        folder.mkdir()
        config.paths.journal.write_bytes(data)

    return _run(
        base, count, seed, write, lambda: Table(config, tiles, Journal(config.paths.journal), now=0)
    )
