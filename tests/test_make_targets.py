"""`make flash` and `make diagrams` as a maker runs them: mpremote from the project's venv,
main.py copied last, the HELLO waited for. (The diagrams: tests/docs/test_diagrams.py.)"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def flash_commands(*settings: str) -> list[str]:
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(REPO), "flash", "HUB_PORT=/dev/ttyX"]
        + list(settings),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [
        line for line in done.stdout.splitlines() if "mpremote connect" in line or "hello" in line
    ]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_flash_installs_usb_device_copies_the_firmware_then_main_then_waits_for_hello():
    lines = flash_commands("HUB_RULE=")  # no udev rule yet: a PC, or a Pi before make install
    mpremote = ".venv/bin/mpremote connect /dev/ttyX resume"  # resume: no soft reset first
    firmware = sorted(
        p.name for p in (REPO / "hardware/firmware").glob("*.py") if p.name != "main.py"
    )
    assert lines[0] == f"{mpremote} mip install usb-device"  # main.py's USB name needs it
    assert lines[1].startswith(f"{mpremote} cp ")
    assert sorted(Path(w).name for w in lines[1].split()[5:-1]) == firmware
    assert lines[1].endswith(" :")
    assert lines[2] == f"{mpremote} cp hardware/firmware/main.py :main.py"
    assert lines[3] == f"{mpremote} reset"
    assert lines[4] == ".venv/bin/python -m hardware.hub.hello /dev/ttyX"
    assert len(lines) == 5


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(("uid", "sudo"), [("1000", "sudo "), ("0", "")])
def test_with_the_udev_rule_in_flash_goes_through_sudo_and_checks_setup_hub(uid, sudo):
    lines = flash_commands("HUB_RULE=/etc/udev/rules.d/99-setup-hub.rules", f"MY_UID={uid}")
    assert len(lines) == 5
    # the port is the service user's alone: a maker needs sudo, root does not
    assert all(line.startswith(sudo + ".venv/bin/") for line in lines)
    # a HELLO on /dev/setup-hub: the rule found the hub by its USB name
    assert lines[-1] == sudo + ".venv/bin/python -m hardware.hub.hello /dev/setup-hub"


class Play:
    """`make play` as a person runs it, until Ctrl-C.

    A terminal's Ctrl-C comes to a shell that may trap it; a suite started in the
    background (`make test &`, a CI job) hands its children SIGINT ignored, which a shell
    cannot trap: the recipe's trap never sent SIGTERM, and a web companion still starting
    missed the SIGINT and served on (seen under load). `env --default-signal=INT` gives
    `make play` the terminal's SIGINT back."""

    def __init__(self, state: Path, *settings: str) -> None:
        import os
        import sys

        from tests.web.harness import free_port

        self.port = free_port()
        self.socket = state / "companion.sock"
        self.proc = subprocess.Popen(
            ["env", "--default-signal=INT", "make", "--no-print-directory", "-C", str(REPO),
             "play", f"PLAY_DIR={state}", f"PLAY_PORT={self.port}",
             f"VENV={Path(sys.executable).parent.parent}", *settings],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "MAKEFLAGS": "", "PYTHONFAULTHANDLER": "1"},
        )  # fmt: skip

    def phase(self) -> str:
        from tests.web.harness import wait_until
        from tests.web.test_crash import Client

        wait_until(self.socket.exists, what="make play's daemon")
        hands = Client(self.socket)
        try:
            return hands.state()["phase"]
        finally:
            hands.close()

    def stop(self) -> None:
        import os
        import signal

        os.killpg(self.proc.pid, signal.SIGINT)  # Ctrl-C
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"make play did not stop on Ctrl-C; where it waited:\n{self.hung()}")

    def hung(self) -> str:
        """Every thread's stack of what still runs (faulthandler, on SIGABRT), then gone."""
        import os
        import signal
        import time

        still = subprocess.run(
            ["pgrep", "-g", str(self.proc.pid), "-f", "setup-companion"],
            capture_output=True, text=True,
        ).stdout.split()  # fmt: skip
        masks = []
        for pid in still:  # which signals each still catches, ignores, has pending
            with open(f"/proc/{pid}/status") as status:
                sig = [ln.strip() for ln in status if ln.startswith(("Sig", "ShdPnd", "Name"))]
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                masks.append(f"{pid} {cmdline.read()[:120]!r}: {'; '.join(sig)}")
        for pid in still:
            os.kill(int(pid), signal.SIGABRT)
        time.sleep(1)
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        assert self.proc.stdout is not None
        said = self.proc.stdout.read().decode(errors="replace")[-8000:]
        return "\n".join(masks) + "\n" + said


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_play_starts_a_fresh_table_unless_asked_to_resume(tmp_path):
    from tests.web.play import Played
    from tests.web.test_crash import Client

    state = tmp_path / "play"
    play = Play(state)
    try:
        assert play.phase() == "lobby"
        hands = Client(play.socket)
        Played(hands).start()  # a game begins
        hands.close()
    finally:
        play.stop()
    again = Play(state, "RESUME=1")
    try:
        assert again.phase() == "playing"  # asked to resume: the game goes on
    finally:
        again.stop()
    fresh = Play(state)
    try:
        assert fresh.phase() == "lobby"  # not asked: a fresh table, the old game gone
        assert not list(state.glob("journal-*.jsonl"))
    finally:
        fresh.stop()
