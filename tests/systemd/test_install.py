"""`make install` / `make uninstall`, staged under DESTDIR the way a packager would run them,
and what a first-time maker relies on after `sudo make install`: `setup-companion` on PATH,
I2C at 400 kHz in the boot config, a missing font named with its package.

The staged run creates the real virtual environment with the system Python, installs the
package into it (offline: no dependencies, the system's setuptools), and writes the unit,
the udev rule, the config and the config.txt block exactly where a live install would.
Each install costs seconds of CPU: the tests share the root installed (and upgraded) once,
and one more for the uninstall.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")
STOCK_BOOT = "# stock Raspberry Pi OS config\ndtparam=audio=on\n[all]\n"
OFFLINE = "SC_PIP_FLAGS=--no-deps --no-build-isolation --no-index"
LOCK = REPO / "requirements.lock"


def _can_build_offline() -> bool:
    if shutil.which("make") is None or not SYSTEM_PYTHON.exists():
        return False
    probe = "import ensurepip, setuptools, wheel"
    return subprocess.run([SYSTEM_PYTHON, "-c", probe], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(
    not _can_build_offline(),
    reason="needs make and /usr/bin/python3 with venv, setuptools and wheel (python3-wheel)",
)


def make(target: str, root: Path, *extra: str) -> str:
    done = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(REPO),
            target,
            f"DESTDIR={root}",
            OFFLINE,
            "SC_DEPS=no",  # offline: the locked dependencies are checked without installing
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


EDITED = 'language = "it"  # edited by the family\n'


@pytest.fixture(scope="module")
def staged(tmp_path_factory) -> dict:
    """One root installed, its config edited by the family, then installed again (upgrade);
    `fresh`: a copy of the root as the first install left it (for the uninstall test, which
    would otherwise pay a third install)."""
    root = tmp_path_factory.mktemp("root")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(STOCK_BOOT)
    config = root / "etc/setup-companion/config.toml"
    first = make("install", root)
    fresh = tmp_path_factory.mktemp("fresh") / "root"
    shutil.copytree(root, fresh, symlinks=True)  # the command's link names /opt, as it was
    first_config = config.read_text() if config.exists() else None
    config.write_text(EDITED)
    fonts = root / "usr/share/fonts/truetype/dejavu"  # the maker did as the first install said
    fonts.mkdir(parents=True)
    (fonts / "DejaVuSans.ttf").write_bytes(b"")
    second = make("install", root)
    return {
        "root": root,
        "first": first,
        "second": second,
        "first_config": first_config,
        "fresh": fresh,
    }


def test_installs_the_program_into_a_venv_under_opt(staged):
    root = staged["root"]
    venv = root / "opt/setup-companion/venv"
    assert (venv / "bin/setup-companion").stat().st_mode & 0o111
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    done = subprocess.run(
        [venv / "bin/python", "-c", "import companion.notify as n; print(n.__file__)"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(venv / "lib"))  # installed, not the source tree


def test_installs_unit_and_udev_rule_unchanged(staged):
    root = staged["root"]
    unit = root / "etc/systemd/system/setup-companion.service"
    rules = root / "etc/udev/rules.d/99-setup-hub.rules"
    assert unit.read_text() == (REPO / "systemd/setup-companion.service").read_text()
    retry = root / "etc/systemd/system/setup-companion-retry.timer"  # the unit's OnFailure=
    assert retry.read_text() == (REPO / "systemd/setup-companion-retry.timer").read_text()
    assert rules.read_text() == (REPO / "systemd/99-setup-hub.rules").read_text()
    assert unit.stat().st_mode & 0o777 == 0o644
    assert rules.stat().st_mode & 0o777 == 0o644


def test_boot_config_block_is_appended_once(staged):
    text = (staged["root"] / "boot/firmware/config.txt").read_text()
    assert text.startswith(STOCK_BOOT)
    assert text.count("# BEGIN setup-companion") == 1
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70\n" in text
    assert "reboot" in staged["first"] and "already there" in staged["second"]


def test_default_config_is_written_once_and_never_overwritten(staged):
    example = REPO / "docs/config.example.toml"
    if example.exists():
        assert staged["first_config"] == example.read_text()
        assert "wrote the default" in staged["first"]
        assert "kept your" in staged["second"]
    else:
        assert staged["first_config"] is None
        assert "docs/config.example.toml is missing" in staged["first"]
    assert (staged["root"] / "etc/setup-companion/config.toml").read_text() == EDITED


def test_uninstall_reverses_install_but_keeps_edited_config_and_games(staged):
    tmp_path = staged["fresh"]  # a first install into a root whose config.txt was stock
    assert (tmp_path / "boot/firmware/config.txt").read_text() != STOCK_BOOT  # the block is in
    config = tmp_path / "etc/setup-companion/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("# mine\n")
    games = tmp_path / "var/lib/setup-companion/games/1.jsonl"
    games.parent.mkdir(parents=True)
    games.write_text("{}\n")

    assert (tmp_path / "usr/local/bin/setup-companion").is_symlink()
    out = make("uninstall", tmp_path)
    assert not (tmp_path / "usr/local/bin/setup-companion").is_symlink()  # the command too
    assert not (tmp_path / "opt/setup-companion").exists()
    assert not (tmp_path / "etc/systemd/system/setup-companion.service").exists()
    assert not (tmp_path / "etc/systemd/system/setup-companion-retry.timer").exists()
    assert not (tmp_path / "etc/udev/rules.d/99-setup-hub.rules").exists()
    assert (tmp_path / "boot/firmware/config.txt").read_text() == STOCK_BOOT
    assert config.read_text() == "# mine\n" and "kept your edited" in out
    assert games.read_text() == "{}\n"

    make("uninstall", tmp_path, "PURGE=yes")
    assert not config.parent.exists()
    assert not games.exists()


# -- what a first-time maker relies on --------------------------------------------------------
def test_a_missing_dejavu_font_is_named_with_its_package(staged):
    assert "sudo apt install fonts-dejavu-core" in staged["first"]  # the staged root has none
    assert "fonts-dejavu-core" not in staged["second"]  # installed before the upgrade


def test_the_command_is_on_path_and_runs_from_the_venv(staged):
    root = staged["root"]
    link = root / "usr/local/bin/setup-companion"
    assert link.is_symlink()
    # the link names the live path: it is right on the Pi, where DESTDIR is /
    assert os.readlink(link) == "/opt/setup-companion/venv/bin/setup-companion"
    command = root / os.readlink(link).lstrip("/")
    done = subprocess.run([command, "--help"], capture_output=True, text=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "selftest" in done.stdout and "enroll" in done.stdout


def test_the_boot_config_sets_i2c_to_400_khz(staged):
    lines = (staged["root"] / "boot/firmware/config.txt").read_text().splitlines()
    assert "dtparam=i2c_arm_baudrate=400000" in lines
    assert lines.index("dtparam=i2c_arm=on") < lines.index("dtparam=i2c_arm_baudrate=400000")


# -- the lock ---------------------------------------------------------------------------------
def locked() -> dict[str, tuple[str, list[str]]]:
    """requirements.lock: name -> (version, hashes)."""
    found: dict[str, tuple[str, list[str]]] = {}
    name = None
    for raw in LOCK.read_text().splitlines():
        line = raw.strip().rstrip("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash="):
            assert name is not None, raw
            found[name][1].append(line.removeprefix("--hash="))
            continue
        pinned = re.fullmatch(r"([A-Za-z0-9._-]+)==([^\s;]+)(\s*;.*)?", line)
        assert pinned, f"not pinned: {raw!r}"
        name = pinned.group(1).lower().replace("_", "-").replace(".", "-")
        found[name] = (pinned.group(2), [])
    return found


def test_the_lock_pins_every_dependency_with_hashes():
    import tomllib

    lock = locked()
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    wanted = [re.match(r"[A-Za-z0-9._-]+", d).group(0) for d in project["project"]["dependencies"]]
    wanted += project["build-system"]["requires"][0].split(">")[:1]
    for name in wanted:
        assert name.lower().replace(".", "-") in lock, name
    for name, (_version, hashes) in lock.items():
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), name


def test_install_takes_the_dependencies_from_the_lock_and_resolves_nothing(tmp_path):
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(REPO), "install", f"DESTDIR={tmp_path}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    joined = done.stdout.replace("\\\n", " ")
    pips = [line for line in joined.splitlines() if "-m pip install" in line]
    assert len(pips) == 2, pips
    deps, package = pips
    assert "--require-hashes" in deps and "--no-deps" in deps and "-r requirements.lock" in deps
    assert "--no-deps" in package and "--no-build-isolation" in package


def test_make_lock_makes_the_lock_with_a_well_kept_tool():
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(REPO), "lock"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "uv pip compile" in done.stdout and "--generate-hashes" in done.stdout
    assert "-o requirements.lock" in done.stdout and "--universal" in done.stdout


def test_installs_the_web_companions_units_with_the_port(staged):
    units = staged["root"] / "etc/systemd/system"
    repo = REPO / "systemd"
    service = "setup-companion-web.service"
    assert (units / service).read_text() == (repo / service).read_text()
    assert "ListenStream=80\n" in (units / "setup-companion-web.socket").read_text()
