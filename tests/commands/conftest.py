"""Helpers for the command tests: run `setup-companion` in-process, and one demo game."""

from __future__ import annotations

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
