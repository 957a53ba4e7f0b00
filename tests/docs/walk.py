"""A builder's walk through a page of docs/, by a program: every command it shows exists
(`make` targets and variables in the Makefile, `setup-companion` subcommands and flags in
the live argparse parser, Python modules, known programs), every repository file it names
exists, and every header pin it names is that pin on the board (docs/diagrams/wiring.toml).

`problems(page, text)` lists what is wrong with a page's text, one sentence each, starting
with the page and line; the tests walk the real pages, and feed it altered pages to show
that each kind of mistake is caught.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import functools
import importlib.util
import io
import re
import shlex
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.config import DEFAULT_COLOURS, HubConfig
from tests.docs.diagrams import REPO, WIRING

PICO, PI, HUB, TABLE = WIRING.pico, WIRING.pi, WIRING.hub, WIRING.table
MAKEFILES = (REPO / "Makefile", REPO / "systemd/install.mk")
#: programs a page may show besides ours: the system's and the Pi's own tools
PROGRAMS = frozenset(
    [
        "apt",
        "cat",
        "cd",
        "curl",
        "du",
        "git",
        "grep",
        "head",
        "hostname",
        "i2cdetect",
        "journalctl",
        "ls",
        "lsusb",
        "mpremote",
        "mpy-cross",
        "nano",
        "picocom",
        "ping",
        "reboot",
        "scp",
        "ssh",
        "systemctl",
        "systemd-analyze",
        "tail",
        "tar",
        "timeout",
        "udevadm",
        "which",
    ]
)
OURS = "setup-companion"


@dataclass(frozen=True)
class Line:
    """A line of a page: its number, its text, whether it is in a shell block, its paragraph."""

    number: int
    text: str
    shell: bool
    paragraph: int


def lines(text: str) -> Iterator[Line]:
    """The page's lines; a shell block's continued lines (a trailing backslash) as one."""
    fence = None
    paragraph = 0
    pending = ""
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.lstrip().startswith("```"):  # indented too: a block in a list item
            fence = None if fence is not None else raw.lstrip()[3:].strip()
            paragraph += 1
            continue
        shell = fence in ("sh", "bash", "shell")
        if shell and raw.rstrip().endswith("\\"):
            start = start or number
            pending += raw.rstrip()[:-1] + " "
            continue
        if pending:
            raw, number, pending, start = pending + raw, start, "", 0
        if fence is None and not raw.strip():
            paragraph += 1
        if fence is None or shell:
            yield Line(number, raw, shell, paragraph)


def without_comment(command: str) -> str:
    """A shell line without its trailing `# comment` (a # inside quotes or a word stays)."""
    quote = None
    for i, ch in enumerate(command):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or command[i - 1].isspace()):
            return command[:i].rstrip()
    return command


def simple_commands(command: str) -> list[list[str]]:
    """The simple commands of a shell line (split at &&, ||, ;, |), each as its words."""
    parts = re.split(r"\s*(?:&&|\|\||;|\|)\s*", without_comment(command))
    return [shlex.split(p) for p in parts if p.strip()]


# -- what exists --------------------------------------------------------------------------------
@functools.cache
def make_targets() -> frozenset[str]:
    targets = set()
    for path in MAKEFILES:
        text = path.read_text()
        for m in re.finditer(r"^\.PHONY:(.*)$", text, re.M):
            targets.update(m.group(1).split())
        targets.update(re.findall(r"^([a-z][\w-]*)\s*:(?!=)", text, re.M))
    return frozenset(targets)


@functools.cache
def make_variables() -> frozenset[str]:
    text = "\n".join(p.read_text() for p in MAKEFILES)
    return frozenset(re.findall(r"\$\((\w+)\)", text)) | frozenset(
        re.findall(r"^(\w+)\s*[?:]?=", text, re.M)
    )


@functools.cache
def tracked() -> tuple[str, ...]:
    """The repository's files: git's list, or (a copy without .git, as `git archive` makes
    for the Pi) every file but what .gitignore leaves out."""
    done = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True)
    if done.returncode == 0 and done.stdout:
        return tuple(done.stdout.split())
    ignored = [
        line.strip().strip("/")
        for line in (REPO / ".gitignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def kept(path: Path) -> bool:
        parts = path.relative_to(REPO).parts
        return parts[0] != ".git" and not any(
            fnmatch.fnmatch(part, pattern) or "/".join(parts).startswith(pattern + "/")
            for part in parts
            for pattern in ignored
        )

    return tuple(str(p.relative_to(REPO)) for p in REPO.rglob("*") if p.is_file() and kept(p))


@functools.cache
def top_level() -> frozenset[str]:
    return frozenset(path.split("/")[0] for path in tracked())


def subparsers() -> dict[str, argparse.ArgumentParser]:
    """`setup-companion`'s subcommands as the live command line builds them (they may move)."""
    from companion.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@functools.cache
def _subparsers() -> dict[str, argparse.ArgumentParser]:
    return subparsers()


def parse_error(parser: argparse.ArgumentParser, words: list[str]) -> str | None:
    """argparse's own complaint about these words, or None if it takes them."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            parser.parse_args(words)
        except SystemExit as exc:
            if exc.code:
                return err.getvalue().strip().splitlines()[-1]
    return None


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


# -- the checks -------------------------------------------------------------------------------
def check_ours(words: list[str]) -> list[str]:
    """`setup-companion SUB ...`: the subcommand and what follows it, by the live parser. A
    placeholder (`...`, `FILE`) leaves only the flags to check."""
    if not words:
        return []  # the command's name in a sentence
    commands = _subparsers()
    sub, rest = words[0], words[1:]
    if sub in ("...", "…"):
        return []
    if sub not in commands:
        return [f"`setup-companion {sub}`: no such subcommand (there are {', '.join(commands)})"]
    parser = commands[sub]
    if any(w in ("...", "…") or w.isupper() for w in rest):
        unknown = [w for w in rest if w.startswith("-") and w.split("=")[0] not in options(parser)]
        return [f"`setup-companion {sub}` has no option {w}" for w in unknown]
    error = parse_error(parser, rest)
    if error and "the following arguments are required" not in error:
        return [f"`setup-companion {' '.join(words)}`: {error}"]
    return []


def check_make(words: list[str]) -> list[str]:
    found = []
    words = list(words)
    while words and words[0].startswith("-"):
        flag = words.pop(0)
        if flag in ("-C", "-f"):
            words.pop(0) if words else None
    for word in words:
        if "=" in word:
            name = word.split("=")[0]
            if name not in make_variables():
                found.append(f"`make {word}`: the Makefile has no variable {name}")
        elif word not in make_targets():
            found.append(f"`make {word}`: the Makefile has no target {word}")
    return found


def check_python(words: list[str]) -> list[str]:
    if len(words) >= 2 and words[0] == "-m":
        module = words[1]
        if module == "companion.cli":
            return check_ours(words[2:])
        if importlib.util.find_spec(module) is None:
            return [f"`python -m {module}`: no such module"]
    return []


def program(words: list[str]) -> list[str]:
    """The words after `sudo`, `sudo -u USER`, `VAR=value` and `timeout N`."""
    while words:
        if words[0] == "sudo":
            words = words[1:]
            while words and words[0].startswith("-"):
                words = words[2:] if words[0] in ("-u", "-g") else words[1:]
        elif re.fullmatch(r"[A-Z_]+=\S*", words[0]):
            words = words[1:]
        elif words[0] == "timeout" and len(words) > 1:
            words = words[2:]
        else:
            break
    return words


def check_command(words: list[str], *, strict: bool) -> list[str]:
    """One simple command. `strict`: a shell block's, whose program must be known."""
    words = program(words)
    if not words:
        return []
    name, rest = words[0], words[1:]
    base = name.rsplit("/", 1)[-1]
    if base == OURS:
        return check_ours(rest)
    if base == "make":
        return check_make(rest)
    if base in ("python", "python3"):
        return check_python(rest)
    if name.startswith(("./", ".venv/", "/")) and base not in PROGRAMS:
        return [f"`{name}`: not a program this project or the system provides"]
    if strict and base not in PROGRAMS:
        return [f"`{' '.join(words)}`: unknown program {name}"]
    return []


def repo_paths(words: list[str]) -> Iterator[str]:
    """The words that name a file or folder of this repository."""
    for word in words:
        word = word.split("=", 1)[-1].rstrip(":,")
        first = word.split("/")[0]
        if first in top_level() and ("/" in word or first == word) and not word.startswith("/"):
            yield word


def check_paths(words: list[str], base: Path = REPO) -> list[str]:
    return [
        f"{w}: no such file in the repository" for w in repo_paths(words) if not (base / w).exists()
    ]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def check_link(page: Path, target: str) -> list[str]:
    if re.match(r"[a-z]+:", target):
        return []
    path, _, anchor = target.partition("#")
    resolved = (page.parent / path).resolve() if path else page
    if not resolved.exists():
        return [f"link {target}: no such file"]
    if anchor and resolved.suffix == ".md":
        headings = re.findall(r"^#+ (.*)$", resolved.read_text(), re.M)
        if anchor not in {slug(h) for h in headings}:
            return [f"link {target}: {path} has no heading #{anchor}"]
    return []


# -- pins -------------------------------------------------------------------------------------
def pin_list(cell: str) -> list[int] | None:
    """ "24", "4-17", "3, 8, 13" -> the pin numbers; None for a cell that is no pin list."""
    cell = cell.strip()
    if m := re.fullmatch(r"(\d+)-(\d+)", cell):
        return list(range(int(m.group(1)), int(m.group(2)) + 1))
    if re.fullmatch(r"\d+(, \d+)*", cell):
        return [int(n) for n in cell.split(", ")]
    return None


def gpio_list(cell: str, prefix: str) -> list[str]:
    """ "GP2-GP13" -> GP2 ... GP13; "GP18 (SPI0 SCK)" -> [GP18]."""
    if m := re.match(rf"{prefix}(\d+)-{prefix}(\d+)", cell):
        return [f"{prefix}{n}" for n in range(int(m.group(1)), int(m.group(2)) + 1)]
    if m := re.match(rf"({prefix}\d+)", cell):
        return [m.group(1)]
    return []


def numbers_of(names: list[str], header) -> list[int]:
    return [header.number(n) for n in names if header.numbers(n)]


def row_problems(header, prefix: str, cells: list[str]) -> list[str]:
    """A row of a `<board> pin | GPIO | connects to` table."""
    pins = pin_list(cells[0])
    if pins is None:
        return []
    name_cell = cells[1]
    found = []
    names = gpio_list(name_cell, prefix)
    function = re.search(r"\(([^)]*)\)", name_cell)
    if names:
        if numbers_of(names, header) != pins:
            return [f"pins {cells[0]} are not {name_cell} on the {header.title}"]
        if function and not re.search(r"\d V", function.group(1)):
            for name in names:
                functions = header.pin(header.number(name)).functions
                if function.group(1) not in functions:
                    found.append(f"{name} cannot be {function.group(1)} ({', '.join(functions)})")
    else:
        power = re.match(r"(GND|VBUS|VSYS|3\.3 V|5 V|3V3|5V)", name_cell)
        if not power:
            return [f"{name_cell!r}: not a pin of the {header.title}"]
        for number in pins:
            pin = header.pin(number)
            ground = power.group(1) == "GND" and pin.kind == "ground"
            if not (ground or header.is_named(number, power.group(1))):
                found.append(
                    f"pin {number} of the {header.title} is {pin.name}, not {power.group(1)}"
                )
    return found + connection_problems(header, names, cells[2] if len(cells) > 2 else "")


def connection_problems(header, names: list[str], what: str) -> list[str]:
    """What a row says a pin connects to, against the wiring's connections."""
    if header is PICO:
        roles = {"`SCK`": HUB.sck, "`MOSI`": HUB.mosi, "MISO": HUB.miso, "`RST`": HUB.reset}
        if "chip-select" in what:
            wanted = [r.cs for r in HUB.readers]
            return [] if names == wanted else [f"the chip-selects are {', '.join(wanted)}"]
    else:
        roles = {"SDA": TABLE.sda, "SCL": TABLE.scl, "NPN": TABLE.buzzer}
        if m := re.search(r"seat ([NESW])", what):
            wanted = TABLE.seat(m.group(1)).button
            return [] if names == [wanted] else [f"seat {m.group(1)}'s button is on {wanted}"]
    for word, wanted in roles.items():
        if word in what and names and names != [wanted]:
            return [f"{word.strip('`')} is on {wanted}, not {', '.join(names)}"]
    return []


def reader_row(cells: list[str]) -> list[str]:
    """| reader | default square | chip-select | Pico pin | buffer chip / gate |"""
    n = int(cells[0])
    link = HUB.readers[n]
    wanted = [
        HubConfig().readers[n],
        link.cs,
        str(PICO.number(link.cs)),
        f"{link.chip} gate {link.gate}",
    ]
    return [] if cells[1:5] == wanted else [f"reader {n} is {' | '.join(wanted)}"]


def buffer_row(cells: list[str]) -> list[str]:
    """| 74LVC125A pin | gate 1 | ... |: the OE, A and Y rows."""
    which = re.match(r"`(OE|A|Y)`", cells[0])
    if not which:
        return []
    wanted = [str(getattr(g, which.group(1).lower())) for g in WIRING.buffer.gates]
    return [] if cells[1:5] == wanted else [f"{which.group(1)} is on pins {', '.join(wanted)}"]


PROSE_PIN = re.compile(
    r"(?P<name>GPIO\d+|GP\d+|3\.3 V|5 V|VBUS)[^.;()\n]{0,12}?\((?:header |Pico |Pi )?pin (?P<pin>\d+)\)"
)
GPIO_WORD = re.compile(r"\b(?P<name>GPIO\d+|GP\d+)\b(?:(?:\.\.|-)(?P<last>GP\d+))?")
SIDE_CHANNEL = re.compile(
    r"\b(?P<side>[NESW]) \((?:multiplexer )?channel (?P<channel>\d), (?P<gpio>GPIO\d+)\)"
)
DISPLAY_CHANNEL = re.compile(r"display (?P<side>[NESW]) on channel (?P<channel>\d)")
SEAT_COLOUR = re.compile(r"\b(?P<side>[NESW]) \((?P<colour>red|purple|yellow|green)\)")


def prose_pin_problems(text: str) -> list[str]:
    """Pins named in a sentence: a GPIO the wiring uses, `NAME (pin N)` on its board, a side's
    multiplexer channel and button, a seat's colour."""
    found = []
    used = {
        *(r.cs for r in HUB.readers), HUB.sck, HUB.mosi, HUB.miso, HUB.reset,
        TABLE.sda, TABLE.scl, TABLE.buzzer, *(s.button for s in TABLE.seats),
    }  # fmt: skip
    for m in GPIO_WORD.finditer(text):
        for name in filter(None, (m.group("name"), m.group("last"))):
            if name not in used:
                found.append(f"{name}: not a pin of the wiring")
    for m in PROSE_PIN.finditer(text):
        name, number = m.group("name"), int(m.group("pin"))
        header = PICO if name.startswith("GP") and not name.startswith("GPIO") else PI
        header = PICO if name == "VBUS" else header
        if not header.is_named(number, name):
            found.append(
                f"pin {number} of the {header.title} is {header.pin(number).name}, not {name}"
            )
    for m in SIDE_CHANNEL.finditer(text):
        seat = TABLE.seat(m.group("side"))
        if (int(m.group("channel")), m.group("gpio")) != (seat.channel, seat.button):
            found.append(f"seat {seat.side} is on channel {seat.channel}, {seat.button}")
    for m in DISPLAY_CHANNEL.finditer(text):
        seat = TABLE.seat(m.group("side"))
        if int(m.group("channel")) != seat.channel:
            found.append(f"display {seat.side} is on channel {seat.channel}")
    for m in SEAT_COLOUR.finditer(text):
        if DEFAULT_COLOURS[m.group("side")] != m.group("colour"):
            found.append(f"seat {m.group('side')} is {DEFAULT_COLOURS[m.group('side')]}")
    return found


def tables(text: str) -> Iterator[tuple[int, list[str], list[str]]]:
    """Each row of each table: its line number, the table's header cells, the row's cells."""
    head: list[str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            head = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = cells
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            yield number, head, cells


def table_problems(text: str) -> Iterator[tuple[int, str]]:
    for number, head, cells in tables(text):
        if head[:2] == ["Pico pin", "GPIO"]:
            found = row_problems(PICO, "GP", cells)
        elif head[:2] == ["Pi pin", "GPIO"]:
            found = row_problems(PI, "GPIO", cells)
        elif head[:4] == ["reader", "default square", "chip-select", "Pico pin"]:
            found = reader_row(cells)
        elif head[0] == f"{WIRING.buffer.part} pin":
            found = buffer_row(cells)
        else:
            continue
        yield from ((number, p) for p in found)


# -- a page -----------------------------------------------------------------------------------
INLINE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
COMMAND_START = re.compile(
    rf"(?:sudo (?:-u \S+ )?)?(?:{OURS}|make|\.venv/bin/\S+|/usr/local/bin/{OURS}|python3? -m)(?: |$)"
)


def problems(page: Path, text: str | None = None) -> list[str]:
    """Everything wrong on the page (its text, or the file's)."""
    text = page.read_text() if text is None else text
    name = page.relative_to(REPO) if page.is_relative_to(REPO) else page
    found: list[tuple[int, str]] = []
    last_sub = None  # the setup-companion subcommand last named: a bare --flag is its
    for line in lines(text):
        said: list[str] = []
        commands = []
        if line.shell:
            commands = [(words, True) for words in simple_commands(line.text)]
        else:
            for span in INLINE.findall(line.text):
                if COMMAND_START.match(span):
                    commands += [(words, False) for words in simple_commands(span)]
                elif span.startswith("--") and last_sub:
                    said += check_ours([last_sub, *shlex.split(span)])
                elif re.fullmatch(r"[\w-]+\.py", span) and not any(
                    p.endswith("/" + span) or p == span for p in tracked()
                ):
                    said.append(f"{span}: no such file in the repository")
                else:
                    said += check_paths(shlex.split(span) if " " in span else [span])
            for target in LINK.findall(line.text):
                said += check_link(page, target)
            said += prose_pin_problems(line.text)
        for words, strict in commands:
            said += check_command(words, strict=strict)
            said += check_paths(words)
            rest = program(words)
            if rest and rest[0].rsplit("/", 1)[-1] == OURS and len(rest) > 1:
                last_sub = rest[1]
        found += [(line.number, s) for s in said]
    found += list(table_problems(text))
    return [f"{name}:{n}: {s}" for n, s in sorted(found)]
