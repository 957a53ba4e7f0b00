"""What a person sees when a command meets a closed pipe or a path it cannot write: one
sentence or nothing, never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GAME = {"players": ["S", "N"], "turns": [{"swap": True}]}


def closed_pipe(*args: str, stdin: str = "") -> tuple[int, str]:
    """Runs `setup-companion ...` with its stdout a pipe nobody reads any more (`| head` once
    head has gone): the exit code and stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    process.stdout.close()  # before it writes anything: every write meets EPIPE
    _, err = process.communicate(stdin, timeout=60)
    return process.returncode, err


@pytest.mark.parametrize(
    "args",
    [("enroll", "--list", "--state-dir", "{tmp}"), ("game",), ("score",)],
    ids=["enroll-list", "game", "score"],
)
def test_a_closed_pipe_ends_the_command_quietly(args, tmp_path):
    lines = "".join(json.dumps(GAME) + "\n" for _ in range(2000))
    code, err = closed_pipe(*(a.format(tmp=tmp_path) for a in args), stdin=lines)
    assert err == ""
    assert code == 141  # as a shell tool killed by SIGPIPE


@pytest.mark.parametrize("option", ["--frames", "--journal"])
def test_demo_with_a_path_it_cannot_write_is_one_sentence(option, tmp_path):
    path = "/sys/kernel/setup-demo" + (".jsonl" if option == "--journal" else "")
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "demo", "--fast", option, path],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 2
    what = "the frames in" if option == "--frames" else "the journal"
    reason = "(Permission denied|Operation not permitted)"  # /sys: as a read-only card would
    assert re.fullmatch(f"setup-companion: cannot write {what} {path}: {reason}\n", done.stderr)
