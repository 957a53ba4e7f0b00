"""A first-time builder's walk through docs/install.md, docs/hardware.md and docs/firmware.md,
by a program (tests/docs/walk.py): every command shown exists, every file named exists,
every pin named is that pin on the board. Then what the pages show our code printing is
what it prints, and the checks catch each kind of mistake they are for."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.config import DEFAULT_I2C_PORTS, parse_config
from hardware.display import DisplaySettings, describe
from tests.docs.diagrams import REPO
from tests.docs.walk import problems, top_level

PAGES = ("docs/install.md", "docs/hardware.md", "docs/firmware.md")
INSTALL = REPO / "docs/install.md"


@pytest.mark.parametrize("page", PAGES)
def test_the_page_names_only_commands_files_and_pins_that_exist(page):
    assert problems(REPO / page) == []


def blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced block of a page: its language ("" for output) and its text."""
    return [
        (lang, body) for lang, body in re.findall(r"^ *```(\w*)\n(.*?)^ *```$", text, re.M | re.S)
    ]


def output_after(command: str, page: Path = INSTALL) -> list[str]:
    """The lines of the output block that follows the shell block ending with `command`."""
    found = blocks(page.read_text())
    for i, (lang, body) in enumerate(found):
        if lang == "sh" and body.strip().splitlines()[-1].split("#")[0].strip() == command:
            lang_next, shown = found[i + 1]
            assert lang_next == "", f"no output block after {command}"
            return shown.rstrip("\n").splitlines()
    raise AssertionError(f"{page.name} shows no `{command}`")


@pytest.mark.parametrize("page", PAGES)
def test_every_config_the_pages_show_is_one_the_daemon_accepts(page):
    shown = [body for lang, body in blocks((REPO / page).read_text()) if lang == "toml"]
    for body in shown:
        parse_config(body)  # a ConfigError names the line


def test_the_sh1106_setting_is_shown_as_the_daemon_reads_it():
    body = next(b for lang, b in blocks(INSTALL.read_text()) if lang == "toml" and "sh1106" in b)
    assert parse_config(body).seats["N"].display.driver == "sh1106"


# -- what the pages show our code printing -----------------------------------------------------
def without_if(text: str) -> str:
    """The text without its `$(if ...)` calls (balanced parentheses)."""
    while (start := text.find("$(if ")) >= 0:
        depth, end = 0, start + 1
        for end in range(start + 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[:start] + text[end + 1 :]
    return text


def make_echoes() -> list[re.Pattern[str]]:
    """The lines `make install` echoes, its variables filled in, $(hostname) any name."""
    text = (REPO / "systemd/install.mk").read_text()
    values = dict(re.findall(r"^(\w+)\s*[?:]?=\s*(.*?)\s*$", text, re.M))
    values["SC_BOOTCONFIG"] = "/boot/firmware/config.txt"  # Bookworm's, as the page says

    def filled(value: str) -> str:  # SC_VENV := $(SC_PREFIX)/venv
        return re.sub(r"\$\((\w+)\)", lambda m: filled(values.get(m.group(1), "")), value)

    values = {name: filled(value) for name, value in values.items()}
    patterns = []
    for echo in re.findall(r'echo "((?:[^"\\]|\\.)*)"', text):
        echo = without_if(echo)  # the port, only when it is not 80
        parts = re.split(r"(\$\(\w+\)|\$\$\(hostname\))", echo)
        regex = "".join(
            r"[\w-]+" if p == "$$(hostname)"
            else re.escape(values[p[2:-1]]) if p[2:-1] in values
            else ".*" if p.startswith("$(")
            else re.escape(p)
            for p in parts
        )  # fmt: skip
        patterns.append(re.compile(regex))
    return patterns


def test_make_install_prints_what_the_page_shows():
    shown = output_after("sudo make install")
    echoes = make_echoes()
    for line in shown:
        assert any(p.fullmatch(line) for p in echoes), line
    assert shown[-1].startswith("installed. Check it with:")


def test_the_web_companion_line_is_the_one_make_install_prints():
    line = output_after("sudo make install", INSTALL)  # the first: web off
    assert any("web companion off" in x for x in line)
    shown = [b for lang, b in blocks(INSTALL.read_text()) if lang == "" and "web companion:" in b]
    assert shown, "the web step shows its check"
    address = shown[0].strip()
    assert any(p.fullmatch(address) for p in make_echoes())
    assert address == "web companion: http://setup-table.local/"


def test_the_page_uses_one_host_name_throughout():
    text = INSTALL.read_text()
    names = set(re.findall(r"([\w-]+)\.local\b", text))
    assert names == {"setup-table"}
    assert "`setup-table`" in text


def test_the_sections_are_numbered_once_in_order():
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", INSTALL.read_text(), re.M)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_numbered_step_ends_with_a_check():
    text = INSTALL.read_text()
    steps = re.split(r"^## ", text, flags=re.M)
    for step in steps:
        if re.match(r"\d+\. ", step) and not step.startswith("10. Is it running"):
            assert "**Check**" in step, step.splitlines()[0]


def test_the_copy_to_the_pi_never_sends_a_venv():
    text = INSTALL.read_text()
    assert "scp -r" not in text
    shown = output_after("ls setup-companion")
    names = {name for line in shown for name in line.split()}
    assert names == {n for n in top_level() if not n.startswith(".")}
    assert ".venv" not in names


def test_which_shows_the_link_make_install_makes():
    text = (REPO / "systemd/install.mk").read_text()
    link = re.search(r"^SC_BIN\s*:=\s*(\S+)", text, re.M).group(1)
    assert output_after("systemctl is-enabled setup-companion") == [link, "enabled"]


def test_make_flash_ends_with_the_hello_line_of_the_page(monkeypatch, capsys):
    from hardware.hub import hello

    firmware = (REPO / "hardware/firmware/config.py").read_text()
    version = re.search(r'^FIRMWARE_VERSION = "(.*?)"', firmware, re.M).group(1)
    monkeypatch.setattr(hello, "wait_for_hello", lambda port, seconds: version)
    assert hello.main(["/dev/setup-hub"]) == 0
    printed = capsys.readouterr().out.strip()
    shown = [b.strip() for lang, b in blocks(INSTALL.read_text()) if "says HELLO" in b]
    assert shown and all(line == printed for line in shown)


def run(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_selftest_of_a_good_build_prints_what_the_page_shows():
    """On the simulated table, whose displays and buzzer say they are in memory."""
    printed = run("selftest", "--sim", "--config", "/dev/null")
    real = describe(DisplaySettings("ssd1306", i2c_port=DEFAULT_I2C_PORTS["W"]))
    sim = describe(DisplaySettings("dummy"))
    as_on_a_pi = [
        line.replace(sim, real)
        .replace("(in memory: nothing to look at)", "(look at it)")
        .replace("(simulated: nothing to hear)", "(listen for it)")
        for line in printed
    ]
    shown = output_after("sudo -u setup-companion setup-companion selftest")
    assert shown == as_on_a_pi[-len(shown) :]


def test_enroll_prints_what_the_page_shows(tmp_path):
    state = str(tmp_path)
    printed = run("enroll", "--sim", "--config", "/dev/null", "--state-dir", state)
    listing = run("enroll", "--list", "--config", "/dev/null", "--state-dir", state)
    shown = output_after("sudo setup-companion enroll")

    def plain(line: str) -> str:
        line = line.replace(state, "/var/lib/setup-companion")
        return re.sub(r"tag [0-9A-F]{8,20}", "tag UID", line)

    printed = [plain(line) for line in printed]
    for line in shown:
        assert line == "..." or plain(line) in printed, line
    assert output_after("sudo setup-companion enroll --list | tail -1") == listing[-1:]


def test_the_status_line_is_the_daemons():
    from companion.daemon import describe as status

    lobby = SimpleNamespace(phase="lobby", lobby=SimpleNamespace(joined=()))
    shown = output_after("systemctl status setup-companion")
    assert f'     Status: "{status(lobby)}"' in shown
    unit = (REPO / "systemd/setup-companion.service").read_text()
    title = re.search(r"^Description=(.*)$", unit, re.M).group(1)
    assert shown[0] == f"● setup-companion.service - {title}"


# -- the walk catches what it is for ----------------------------------------------------------
MISTAKES = [
    (
        "docs/hardware.md",
        "| 0 | N1 | GP2 | 4 |",
        "| 0 | N1 | GP2 | 3 |",
        "reader 0 is N1 | GP2 | 4",
    ),
    (
        "docs/hardware.md",
        "| 24 | GP18 (SPI0 SCK) |",
        "| 23 | GP18 (SPI0 SCK) |",
        "pins 23 are not GP18",
    ),
    (
        "docs/hardware.md",
        "| 25 | GP19 (SPI0 TX) |",
        "| 25 | GP19 (SPI0 RX) |",
        "GP19 cannot be SPI0 RX",
    ),
    (
        "docs/hardware.md",
        "| 29 | GPIO5 | button of seat N (red)",
        "| 31 | GPIO6 | button of seat N (red)",
        "seat N's button is on GPIO5",
    ),
    ("docs/hardware.md", "| 3 | 6 | 8 | 11 |", "| 3 | 6 | 9 | 11 |", "Y is on pins 3, 6, 8, 11"),
    (
        "docs/hardware.md",
        "`--button-timeout 30`",
        "`--button-timout 30`",
        "unrecognized arguments: --button-timout",
    ),
    ("docs/install.md", "\nmake flash\n", "\nmake flahs\n", "no target flahs"),
    (
        "docs/install.md",
        "enroll --list | tail",
        "enroll --lst | tail",
        "unrecognized arguments: --lst",
    ),
    (
        "docs/install.md",
        "sudo setup-companion enroll\n",
        "sudo setup-companion enrol\n",
        "no such subcommand",
    ),
    ("docs/install.md", "PURGE=yes", "PURGED=yes", "no variable PURGED"),
    (
        "docs/install.md",
        "(multiplexer channel 0, GPIO5)",
        "(multiplexer channel 0, GPIO6)",
        "seat N is on",
    ),
    (
        "docs/install.md",
        "(../systemd/config.txt)",
        "(../systemd/boot.txt)",
        "link ../systemd/boot.txt",
    ),
    (
        "docs/install.md",
        "hardware.md#testing-a-build",
        "hardware.md#testing",
        "has no heading #testing",
    ),
    (
        "docs/firmware.md",
        "hardware/firmware/mfrc522.py",
        "hardware/firmware/mfrc552.py",
        "no such file",
    ),
    ("docs/firmware.md", "picocom -b", "picocon -b", "unknown program picocon"),
]


@pytest.mark.parametrize(("page", "right", "wrong", "said"), MISTAKES, ids=[m[2] for m in MISTAKES])
def test_a_mistake_on_a_page_is_caught(page, right, wrong, said):
    text = (REPO / page).read_text()
    assert right in text
    found = problems(REPO / page, text.replace(right, wrong, 1))
    assert any(said in p for p in found), found
