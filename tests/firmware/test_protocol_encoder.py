"""The firmware's protocol encoder and command reader (hardware/firmware/protocol.py)."""

import binascii

from hypothesis import given
from hypothesis import strategies as st

from tests.firmware.loader import firmware

protocol = firmware().protocol


def expected_line(body: str) -> bytes:
    # An independent CRC-16/CCITT-FALSE: binascii's C implementation.
    return b"%s*%04X\n" % (body.encode(), binascii.crc_hqx(body.encode(), 0xFFFF))


def test_crc16_check_value_and_table_agree_with_binascii():
    assert protocol.crc16(b"123456789") == 0x29B1
    for data in (b"", b"S 0 - - -", bytes(range(256))):
        assert protocol.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_each_line_type_is_framed_with_its_crc():
    assert protocol.hello_line("1.0.0", 12) == expected_line("HELLO 2 1.0.0 12")
    assert protocol.heartbeat_line(4711, 123456) == expected_line("HB 4711 123456")
    assert protocol.selftest_line([0x92, None, 0x91]) == expected_line("TEST ok:92 fault ok:91")
    assert protocol.error_line("unknown command") == expected_line("ERR unknown command")


def test_snapshot_line_encodes_every_status():
    uid7 = bytes.fromhex("04A1B2C3D4E5F6")
    readings = [
        ("ok", [uid7]),
        ("empty", []),
        ("collision", []),
        ("fault", []),
        ("ok", [bytes.fromhex("04112233445566"), bytes.fromhex("0499AABBCCDDEE")]),
        ("ok", [bytes.fromhex("01020304")]),
        ("ok", [bytes.fromhex("04112233445566778899")]),
    ]
    line = protocol.snapshot_line(4711, readings)
    assert line == expected_line(
        "S 4711 04A1B2C3D4E5F6 - C F 04112233445566,0499AABBCCDDEE 01020304 04112233445566778899"
    )


def test_a_too_long_snapshot_turns_the_longest_fields_into_collisions():
    # Reader r has 2 (r + 1) ten-byte UIDs: fields of 41, 83, 125 ... 503 characters.
    readings = [
        ("ok", [bytes([0x04, r, t]) + bytes(7) for t in range(2 * (r + 1))]) for r in range(12)
    ]
    line = protocol.snapshot_line(65535, readings)
    body = line[:-6].decode()  # without *CCCC\n
    assert len(line) - 1 <= protocol.MAX_LINE
    assert line == expected_line(body)
    fields = body.split(" ")[2:]
    full = [protocol.reader_field(*reading) for reading in readings]
    # The longest ones went first, and no more of them than needed.
    dropped = [r for r in range(12) if fields[r] == "C"]
    assert dropped == list(range(12 - len(dropped), 12))
    assert fields[: 12 - len(dropped)] == full[: 12 - len(dropped)]
    restored = len(line) - 1 - 1 + len(full[dropped[0]])
    assert restored > protocol.MAX_LINE


def test_commands_with_and_without_crc():
    parse = protocol.parse_command
    assert parse(b"VERSION") == ("VERSION", None)
    assert parse(b"selftest\r") == ("SELFTEST", None)
    assert parse(b"  VERSION  ") == ("VERSION", None)
    assert parse(expected_line("SELFTEST").rstrip(b"\n")) == ("SELFTEST", None)
    assert parse(b"VERSION*0000") == (None, "bad command")
    assert parse(b"VERSION*12") == (None, "bad command")
    assert parse(b"VERSION*XYZW") == (None, "bad command")
    assert parse(b"REBOOT") == (None, "unknown command")
    assert parse(b"VERSION NOW") == (None, "unknown command")
    assert parse(b"\xffVERSION") == (None, "unknown command")
    assert parse(b"") == (None, None)
    assert parse(b"\r") == (None, None)


def test_line_reader_joins_fragments_and_cuts_overlong_lines():
    reader = protocol.LineReader()
    assert reader.feed(b"VER") == []
    assert reader.feed(b"SION\nSELF") == [b"VERSION"]
    assert reader.feed(b"TEST\n\n") == [b"SELFTEST", b""]
    flood = b"A" * 5000
    lines = reader.feed(flood + b"\nVERSION\n")
    # The flood comes out once, cut at the limit (then answered as unknown), the rest of it
    # is skipped up to its newline, and the next command is intact.
    assert lines == [b"A" * (protocol.MAX_LINE + 2), b"VERSION"]


@given(st.lists(st.binary(max_size=700), max_size=8))
def test_any_bytes_become_commands_or_errors_never_exceptions(chunks):
    reader = protocol.LineReader()
    for chunk in chunks:
        for line in reader.feed(chunk):
            assert len(line) <= protocol.MAX_LINE + 2
            command, error = protocol.parse_command(line)
            assert command in (None, "VERSION", "SELFTEST")
            assert error in (None, "bad command", "unknown command")
            assert command is None or error is None
