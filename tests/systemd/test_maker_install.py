"""What a first-time maker relies on after `sudo make install`: `setup-companion` on PATH,
and I2C at 400 kHz in the boot config. A staged install (DESTDIR), as in test_install."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.systemd.test_install import STOCK_BOOT, make, pytestmark  # noqa: F401 (skip rule)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("maker")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(STOCK_BOOT)
    return root, make("install", root)


@pytest.fixture(scope="module")
def root(installed) -> Path:
    return installed[0]


def test_a_missing_dejavu_font_is_named_with_its_package(installed, tmp_path):
    assert "sudo apt install fonts-dejavu-core" in installed[1]  # the staged root has no fonts
    fonts = tmp_path / "usr/share/fonts/truetype/dejavu"
    fonts.mkdir(parents=True)
    (fonts / "DejaVuSans.ttf").write_bytes(b"")
    (tmp_path / "boot/firmware").mkdir(parents=True)
    (tmp_path / "boot/firmware/config.txt").write_text(STOCK_BOOT)
    assert "fonts-dejavu-core" not in make("install", tmp_path)


def test_the_command_is_on_path_and_runs_from_the_venv(root):
    link = root / "usr/local/bin/setup-companion"
    assert link.is_symlink()
    # the link names the live path: it is right on the Pi, where DESTDIR is /
    assert os.readlink(link) == "/opt/setup-companion/venv/bin/setup-companion"
    staged = root / os.readlink(link).lstrip("/")
    done = subprocess.run([staged, "--help"], capture_output=True, text=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "selftest" in done.stdout and "enroll" in done.stdout


def test_the_boot_config_sets_i2c_to_400_khz(root):
    lines = (root / "boot/firmware/config.txt").read_text().splitlines()
    assert "dtparam=i2c_arm_baudrate=400000" in lines
    assert lines.index("dtparam=i2c_arm=on") < lines.index("dtparam=i2c_arm_baudrate=400000")


def test_uninstall_removes_the_command(root):
    make("uninstall", root)
    assert not (root / "usr/local/bin/setup-companion").is_symlink()
