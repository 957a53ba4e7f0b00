"""`make flash` and `make diagrams` as a maker runs them: mpremote from the project's venv,
main.py copied last, the HELLO waited for; the diagrams drawn from the pin tables."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_flash_copies_the_firmware_then_main_then_waits_for_hello():
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(REPO), "flash", "HUB_PORT=/dev/ttyX"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = [
        line for line in done.stdout.splitlines() if "mpremote connect" in line or "hello" in line
    ]
    firmware = sorted(
        p.name for p in (REPO / "hardware/firmware").glob("*.py") if p.name != "main.py"
    )
    assert lines[0].startswith(".venv/bin/mpremote connect /dev/ttyX cp ")
    assert sorted(Path(w).name for w in lines[0].split()[4:-1]) == firmware
    assert lines[0].endswith(" :")
    assert lines[1] == ".venv/bin/mpremote connect /dev/ttyX cp hardware/firmware/main.py :main.py"
    assert lines[2] == ".venv/bin/mpremote connect /dev/ttyX reset"
    assert lines[3] == ".venv/bin/python -m hardware.hub.hello /dev/ttyX"


@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("matplotlib", "schemdraw")),
    reason="needs the diagrams extra (pip install -e '.[diagrams]')",
)
def test_the_diagrams_are_drawn(tmp_path):
    done = subprocess.run(
        [sys.executable, str(REPO / "docs/diagrams/draw.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    for name in ("wiring-pi", "wiring-hub", "buzzer", "board-map"):
        data = (tmp_path / f"{name}.png").read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, name
