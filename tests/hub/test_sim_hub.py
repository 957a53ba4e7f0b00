"""The virtual hub on its pty: commands, cable, lock-step and free-running sweeps, records."""

from __future__ import annotations

import os
import time

import pytest
import serial

from hardware.hub.protocol import (
    COLLISION,
    MAX_LINE,
    Heartbeat,
    Hello,
    HubError,
    ProtocolError,
    SelfTest,
    format_command,
    parse_line,
)
from hardware.hub.sim import FaultModel, SimTable, VirtualHub, tag_uid
from hardware.hub.snapshot import EMPTY, ReaderReading, Snapshot
from tests.hub.conftest import WAIT


def open_port(hub: VirtualHub) -> serial.Serial:
    return serial.Serial(hub.port, 115200, timeout=WAIT)


def answer(port: serial.Serial, command: bytes) -> object:
    port.write(command)
    return parse_line(port.readline())


def test_the_hub_answers_its_commands_on_the_pty(table: SimTable) -> None:
    with VirtualHub(table, FaultModel(faulty_readers={4}), firmware="sim-7") as hub:
        with open_port(hub) as port:
            assert answer(port, b"VERSION\n") == Hello(2, "sim-7", 12)
            test = answer(port, format_command("SELFTEST"))
            assert isinstance(test, SelfTest)
            assert test.faulty_readers == (4,)
            assert test.readers[0] == "92"
            assert answer(port, b"REBOOT\n") == HubError("unknown command")
            assert answer(port, b"VERSION*0000\n") == HubError("bad command")
        assert list(hub.commands)[:3] == ["VERSION", "SELFTEST", "REBOOT"]


def test_lock_step_sweeps_carry_the_truth_and_are_recorded(table: SimTable) -> None:
    table.put(1, tag_uid(1))
    with VirtualHub(table) as hub, open_port(hub) as port:
        sent = [hub.sweep() for _ in range(3)]
        got = [port.readline() for _ in range(3)]
        assert got == sent
        assert [parse_line(line).seq for line in got] == [0, 1, 2]
        record = hub.records[-1]
        assert record.seq == 2 and record.truth == table.stacks == hub.truth()
        assert record.reported[1] == ReaderReading("ok", (tag_uid(1),))
        assert record.line == sent[-1]
        assert record.delivered and not record.corrupted


def test_heartbeat_names_the_last_sweep(table: SimTable) -> None:
    with VirtualHub(table) as hub, open_port(hub) as port:
        sweeps = [hub.sweep(), hub.sweep()]
        assert [port.readline(), port.readline()] == sweeps
        beat = parse_line(hub.heartbeat())
        assert isinstance(beat, Heartbeat) and beat.seq == 1
        assert parse_line(port.readline()) == beat


def test_the_port_path_survives_unplug_and_replug(table: SimTable) -> None:
    with VirtualHub(table) as hub:
        port, before = hub.port, os.path.realpath(hub.port)
        hub.sweep()
        hub.sweep()
        hub.unplug()
        assert not hub.plugged and not os.path.exists(port)
        assert hub.sweep() == b""  # no power, no sweeps
        assert hub.write(b"x") is False
        hub.replug()
        assert hub.port == port and os.path.exists(port)
        assert os.path.realpath(port) != before or os.path.exists(before)
        with open_port(hub) as wire:
            line = hub.sweep()
            assert parse_line(wire.readline()) == parse_line(line)
            assert parse_line(line).seq == 0  # the hub rebooted
    assert not os.path.exists(os.path.dirname(port))


def test_a_host_that_does_not_read_loses_lines_not_the_hub(table: SimTable) -> None:
    with VirtualHub(table, buffer=512) as hub:
        for _ in range(2000):
            hub.sweep()  # nobody reads: the pty fills, then the hub's buffer
        assert hub.dropped > 0
        assert not all(r.delivered for r in hub.records)
        assert hub.records[-1].seq == 1999


def test_free_running_sweeps_and_heartbeats(table: SimTable) -> None:
    with VirtualHub(table) as hub, open_port(hub) as port:
        hub.start(0.02)
        lines: list[object] = []
        deadline = time.monotonic() + WAIT
        while not any(isinstance(m, Heartbeat) for m in lines):
            assert time.monotonic() < deadline
            lines.append(parse_line(port.readline()))
        hub.stop()
        seqs = [m.seq for m in lines if isinstance(m, Snapshot)]
        assert len(seqs) >= 10  # a heartbeat comes once a second, sweeps every 20 ms
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        count = len(hub.records)
        time.sleep(0.1)
        assert len(hub.records) == count  # stopped means stopped


def test_corrupted_lines_are_at_their_rate_and_always_caught(table: SimTable) -> None:
    table.put(0, tag_uid(1))
    table.put(5, tag_uid(2, 10))
    with VirtualHub(table, FaultModel(corrupt_rate=0.1), seed=11, buffer=0) as hub:
        for _ in range(3000):
            hub.sweep()
        records = list(hub.records)
    corrupted = [r for r in records if r.corrupted]
    assert 0.1 * 3000 - 70 < len(corrupted) < 0.1 * 3000 + 70
    for record in records:
        if record.corrupted:
            with pytest.raises(ProtocolError):
                parse_line(record.line)
        else:
            assert parse_line(record.line) == Snapshot(record.seq, record.reported)


def test_the_same_seed_sends_the_same_bytes(table: SimTable) -> None:
    def run(seed: int) -> list[bytes]:
        t = SimTable()
        with VirtualHub(t, FaultModel.realistic(), seed=seed, buffer=0) as hub:
            lines = []
            for i in range(300):
                if i % 10 == 0:
                    t.put(i % 12 if i % 20 else 3, tag_uid(i))
                lines.append(hub.sweep())
            return lines

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_a_line_too_long_for_the_wire_reports_the_fullest_readers_as_collision() -> None:
    table = SimTable()
    for reader in range(12):
        for level in range(9):  # 9 ten-byte UIDs a square: over v2's 2048 bytes
            table.put(reader, tag_uid(reader * 10 + level, 10))
    with VirtualHub(table, buffer=0) as hub:
        line = hub.sweep()
    assert len(line) <= MAX_LINE + 1
    snapshot = parse_line(line)
    assert COLLISION in snapshot.readers
    kept = [r for r in snapshot.readers if r.status == "ok"]
    assert kept and all(r.uids == table.stacks[snapshot.readers.index(r)] for r in kept)
    assert EMPTY not in snapshot.readers
