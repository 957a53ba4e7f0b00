"""Helpers for the command tests: run `setup-companion` in-process, and one demo game."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Runs `setup-companion ARGV...` through `companion.cli.main`: (exit code, out, err)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="session")
def demo_game(tmp_path_factory: pytest.TempPathFactory):
    """A whole game played by the demo's bots through the real daemon, and its journal."""
    from companion.sim.demo import Demo

    journal = tmp_path_factory.mktemp("demo") / "j.jsonl"
    result = Demo(seed=1, fast=True, journal=journal, out=lambda line: None).run()
    assert result.matches
    return Path(journal), result


@pytest.fixture(scope="session")
def utf8_locale(tmp_path_factory) -> dict[str, str]:
    """en_GB.UTF-8, Raspberry Pi OS's default, built for the test: under it Python decodes
    stdin strictly (C.UTF-8 would give it surrogateescape and hide the bug)."""
    localedef = shutil.which("localedef")
    if localedef is None:
        pytest.skip("localedef is not installed (.ci/run installs Debian's locales)")
    folder = tmp_path_factory.mktemp("locale")
    done = subprocess.run(
        [localedef, "-i", "en_GB", "-f", "UTF-8", str(folder / "en_GB.UTF-8")],
        capture_output=True,
        text=True,
    )
    if not (folder / "en_GB.UTF-8").exists():
        pytest.skip(f"localedef could not build en_GB.UTF-8: {done.stderr.strip()}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO"))}
    env.pop("PYTHONUTF8", None)
    env.update(LOCPATH=str(folder), LC_ALL="en_GB.UTF-8", LANG="en_GB.UTF-8")
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.stdin.encoding, sys.stdin.errors)"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert probe.stdout.split() == ["utf-8", "strict"], probe
    return env


def c_utf8_locale() -> dict[str, str]:
    """C.UTF-8, which Python's stdio treats with surrogateescape (a lone surrogate went out
    as a raw, invalid byte there)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO", "LOC"))}
    env.pop("PYTHONUTF8", None)
    env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8")
    return env
