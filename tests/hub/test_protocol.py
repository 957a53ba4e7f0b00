"""The line protocol: CRC, framing, parsing every line type, and what makes a line bad."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from hardware.hub.protocol import (
    COLLISION,
    FAULT,
    MAX_LINE,
    Heartbeat,
    Hello,
    HubError,
    LineSplitter,
    ProtocolError,
    SelfTest,
    Unknown,
    crc16,
    format_command,
    format_snapshot,
    frame,
    parse_command,
    parse_line,
)
from hardware.hub.snapshot import EMPTY, ReaderReading, Snapshot
from tests.hub.strategies import readings, snapshots


def reference_crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit, straight from its definition."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def line(body: str) -> bytes:
    return b"%s*%04X\n" % (body.encode(), reference_crc(body.encode()))


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


@given(st.binary(max_size=600))
def test_crc_is_ccitt_false(data: bytes) -> None:
    assert crc16(data) == reference_crc(data)


def test_frame_appends_upper_case_crc_and_newline() -> None:
    assert frame("123456789") == b"123456789*29B1\n"
    assert frame("HB 7 1000") == line("HB 7 1000")


def test_frame_refuses_what_cannot_be_a_line() -> None:
    with pytest.raises(ValueError):
        frame("S 1\n2")
    with pytest.raises(ValueError):
        frame("x" * (MAX_LINE - 4))
    assert len(frame("x" * (MAX_LINE - 5))) == MAX_LINE + 1


def test_the_documented_example_line() -> None:
    body = "S 4711 04A1B2C3D4E5F6 - - - - F - - 04112233445566,0499AABBCCDDEE C - -"
    snapshot = parse_line(line(body), received=12.5)
    assert snapshot == Snapshot(
        4711,
        (
            ReaderReading("ok", ("04A1B2C3D4E5F6",)),
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            FAULT,
            EMPTY,
            EMPTY,
            ReaderReading("ok", ("04112233445566", "0499AABBCCDDEE")),
            COLLISION,
            EMPTY,
            EMPTY,
        ),
        12.5,
    )
    assert str(snapshot) == body


def test_the_example_in_the_protocol_document_parses() -> None:
    doc = Path(__file__).parents[2] / "docs" / "hub-protocol.md"
    [example] = [ln.strip() for ln in doc.read_text().splitlines() if ln.startswith("    S ")]
    snapshot = parse_line(example.encode())
    assert snapshot.seq == 4711
    assert snapshot.readers[5] == FAULT and snapshot.readers[9] == COLLISION


@given(snapshots())
def test_snapshot_round_trip(snapshot: Snapshot) -> None:
    raw = format_snapshot(snapshot.seq, snapshot.readers)
    assert raw == line(str(snapshot))
    assert parse_line(raw) == snapshot


@given(st.integers(0, 65535), st.lists(readings(), min_size=1, max_size=20))
def test_any_reader_count_round_trips_when_not_checked(seq: int, rs: list) -> None:
    body = str(Snapshot(seq, tuple(rs)))
    assume(len(body) + len("*CCCC\n") <= MAX_LINE)  # longer sweeps are cut down to fit
    assert parse_line(format_snapshot(seq, rs), readers=None).readers == tuple(rs)


@pytest.mark.parametrize(
    "message",
    [
        Hello(1, "sim-1", 12),
        Hello(2, "1.0.0+dirty", 8),
        Heartbeat(0, 0),
        Heartbeat(65535, 123456789),
        SelfTest(("92",) * 5 + (None,) + ("91",) * 6),
        HubError("unknown command"),
        HubError(""),
    ],
)
def test_other_lines_round_trip(message: object) -> None:
    assert parse_line(frame(str(message))) == message


def test_self_test_names_faulty_readers() -> None:
    test = parse_line(line("TEST " + " ".join(["ok:92"] * 3 + ["fault"] + ["ok:B2"] * 8)))
    assert isinstance(test, SelfTest)
    assert test.faulty_readers == (3,)
    assert test.readers[4] == "B2"


def test_a_line_of_unknown_type_is_unknown_not_bad() -> None:
    assert parse_line(line("TEMP 23 41")) == Unknown("TEMP")
    assert parse_line(line("S2 1 2")) == Unknown("S2")


def test_carriage_return_before_newline_is_ignored() -> None:
    assert parse_line(line("HB 1 2")[:-1] + b"\r\n") == Heartbeat(1, 2)
    assert parse_line(line("HB 1 2")[:-1]) == Heartbeat(1, 2)


TWELVE = " ".join(["-"] * 12)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"S 1 " + TWELVE.encode() + b"*0000\n", "bad CRC"),
        (b"S 1 " + TWELVE.encode() + b"\n", "no CRC"),
        (line(f"S 1 {TWELVE}").lower(), "malformed CRC"),
        (line(f"S 1 {TWELVE}")[:-2] + b"\n", "malformed CRC"),
        (line("HB 1 2").replace(b"*", b"**"), "bad CRC"),
        (b"\n", "no CRC"),
        (line(""), "empty line"),
        (line("x" * 2100), "line too long"),
        (line("HELLO 1 caf\xe9 12"), "not printable"),
        (line("HB 1\t2"), "not printable"),
        (line("S 1 " + " ".join(["-"] * 11)), "11 readers"),
        (line("S 1 " + " ".join(["-"] * 13)), "13 readers"),
        (line("S 1  " + " ".join(["-"] * 11)), "malformed reader field"),
        (line("S 65536 " + TWELVE), "over 65535"),
        (line("S 007 " + TWELVE), "malformed sequence"),
        (line("S -1 " + TWELVE), "malformed sequence"),
        (line("S +1 " + TWELVE), "malformed sequence"),
        (line("S 1 0401020304050 " + " ".join(["-"] * 11)), "malformed reader field"),
        (line("S 1 04a1b2c3d4e5f6 " + " ".join(["-"] * 11)), "malformed reader field"),
        (line("S 1 0401020304050607 " + " ".join(["-"] * 11)), "malformed reader field"),
        (line("S 1 01020304, " + " ".join(["-"] * 11)), "malformed reader field"),
        (line("S 1 01020304,-" + " -" * 11), "malformed reader field"),
        (line("S 1 E " + " ".join(["-"] * 11)), "malformed reader field"),
        (line("S 1 01020304,01020304" + " -" * 11), "read twice"),
        (line("HB 1"), "HB line needs 2 fields"),
        (line("HB 1 2 3"), "HB line needs 2 fields"),
        (line("HB x 2"), "malformed sequence"),
        (line("HELLO 1 sim-1"), "HELLO line needs 3 fields"),
        (line("HELLO one sim-1 12"), "malformed protocol"),
        (line("TEST " + " ".join(["ok:92"] * 11)), "11 readers"),
        (line("TEST " + " ".join(["ok:9"] + ["ok:92"] * 11)), "malformed TEST field"),
        (line("TEST " + " ".join(["broken"] + ["ok:92"] * 11)), "malformed TEST field"),
    ],
)
def test_bad_lines_raise_protocol_error_with_a_reason(raw: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_line(raw)
    assert reason in caught.value.reason


def test_every_single_byte_error_is_caught() -> None:
    good = format_snapshot(4711, [ReaderReading("ok", ("04A1B2C3D4E5F6",))] + [EMPTY] * 11)
    for at in range(len(good) - 1):
        for flip in (0x01, 0x20, 0x80, 0xFF):
            damaged = bytearray(good)
            damaged[at] ^= flip
            pieces = bytes(damaged).split(b"\n")
            for piece in pieces[:-1]:
                with pytest.raises(ProtocolError):
                    parse_line(piece)


def test_format_snapshot_checks_the_sequence_number() -> None:
    with pytest.raises(ValueError):
        format_snapshot(65536, [EMPTY] * 12)
    with pytest.raises(ValueError):
        format_snapshot(-1, [EMPTY] * 12)


def test_commands_with_and_without_crc() -> None:
    assert format_command("SELFTEST") == line("SELFTEST")
    assert parse_command(format_command("VERSION")) == "VERSION"
    assert parse_command(b"VERSION\r\n") == "VERSION"
    assert parse_command(b"SELFTEST\n") == "SELFTEST"
    with pytest.raises(ProtocolError):
        parse_command(b"VERSION*0000\n")
    with pytest.raises(ProtocolError):
        parse_command(b"\n")
    with pytest.raises(ValueError):
        format_command("TWO WORDS")


def test_line_splitter_joins_pieces_and_splits_lines() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"HB 1") == []
    assert splitter.feed(b" 2*ABCD\nHB") == [b"HB 1 2*ABCD\n"]
    assert splitter.feed(b" 3\n\n") == [b"HB 3\n", b"\n"]
    assert splitter.overlong == 0


def test_line_splitter_drops_an_endless_line_once_and_recovers() -> None:
    splitter = LineSplitter()
    for _ in range(10):
        assert splitter.feed(b"x" * 300) == []
    assert splitter.overlong == 1
    assert splitter.feed(b"still noise\nHB 1 2*0000\n") == [b"HB 1 2*0000\n"]
    assert splitter.overlong == 1
    assert splitter.reset() is False
    splitter.feed(b"partial")
    assert splitter.reset() is True


def test_version_2_is_read_beside_version_1() -> None:
    from hardware.hub.protocol import MAX_LINE_V1, PROTOCOL_VERSION, PROTOCOL_VERSIONS

    assert PROTOCOL_VERSIONS == (1, 2) and PROTOCOL_VERSION == 2
    assert parse_line(line("HELLO 1 0.9.0 12")) == Hello(1, "0.9.0", 12)
    assert parse_line(line("HELLO 2 1.0.0 12")) == Hello(2, "1.0.0", 12)
    # Three 7-byte tags on every square: 552 bytes, over v1's 512, within v2's 2048.
    stacks = [
        ReaderReading("ok", tuple(f"04{r:02X}{t:02X}C3D4E5F6" for t in range(3))) for r in range(12)
    ]
    raw = format_snapshot(65535, stacks)
    assert MAX_LINE_V1 < len(raw) - 1 <= MAX_LINE
    assert parse_line(raw).readers == tuple(stacks)
    # Eight 10-byte UIDs on every square, the most the firmware reads, still fit.
    tallest = [
        ReaderReading("ok", tuple(f"04{r:02X}{t:02X}" + "00" * 7 for t in range(8)))
        for r in range(12)
    ]
    assert parse_line(format_snapshot(65535, tallest)).readers == tuple(tallest)
    splitter = LineSplitter()
    assert splitter.feed(raw) == [raw] and splitter.overlong == 0


def test_a_line_over_2048_bytes_is_still_too_long() -> None:
    with pytest.raises(ProtocolError, match="too long"):
        parse_line(line("x" * 2044))
