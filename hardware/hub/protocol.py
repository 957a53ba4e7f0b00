"""The reader hub's line protocol, versions 1 and 2 (docs/hub-protocol.md): framing, CRC, parsing.

Pure functions and small immutable values, no I/O: the link, the simulator and the tests all
share them. Every value's `str()` is its line body, so `frame(str(value))` is the wire line and
`parse_line(frame(str(value)))` gives the value back.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hardware.hub.snapshot import EMPTY, READER_COUNT, ReaderReading, Snapshot

PROTOCOL_VERSION = 2  # the newest this host speaks
PROTOCOL_VERSIONS = (1, 2)  # every version it reads: v2 is v1 with longer lines
MAX_LINE = 2048  # bytes of BODY*CCCC, without the line end (v2; a v1 hub stays within 512)
MAX_LINE_V1 = 512
SEQ_MODULO = 65536
#: RECONNECT: the hub drops off USB and comes back (reboots), which hangs up every program
#: that had its port open: how the link takes the port back from a program reading it
COMMANDS = ("VERSION", "SELFTEST", "RECONNECT")

COLLISION = ReaderReading("collision")
FAULT = ReaderReading("fault")
_FIXED_FIELDS = {"-": EMPTY, "C": COLLISION, "F": FAULT}
_UID = r"(?:[0-9A-F]{20}|[0-9A-F]{14}|[0-9A-F]{8})"
_UIDS = re.compile(rf"{_UID}(?:,{_UID})*")
_CRC = re.compile(r"[0-9A-F]{4}")
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,9}")
_VERSION_REGISTER = re.compile(r"ok:([0-9A-F]{2})")
_PRINTABLE = re.compile(rb"[\x20-\x7e]*")


class ProtocolError(ValueError):
    """A line the host must drop and count as bad; `reason` says why, for the log."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Hello:
    """`HELLO`: the hub (re)started, or answers `VERSION`. Its sequence restarts: no gap."""

    protocol: int
    firmware: str
    readers: int

    def __str__(self) -> str:
        return f"HELLO {self.protocol} {self.firmware} {self.readers}"


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """`HB`: the hub is alive; `seq` is its last snapshot's number."""

    seq: int
    uptime_ms: int

    def __str__(self) -> str:
        return f"HB {self.seq} {self.uptime_ms}"


@dataclass(frozen=True, slots=True)
class SelfTest:
    """`TEST`: per reader, its version register as two hex digits, or None for a fault."""

    readers: tuple[str | None, ...]

    @property
    def faulty_readers(self) -> tuple[int, ...]:
        return tuple(i for i, version in enumerate(self.readers) if version is None)

    def __str__(self) -> str:
        return "TEST " + " ".join("fault" if v is None else f"ok:{v}" for v in self.readers)


@dataclass(frozen=True, slots=True)
class HubError:
    """`ERR`: the hub did not understand a command."""

    text: str

    def __str__(self) -> str:
        return f"ERR {self.text}" if self.text else "ERR"


@dataclass(frozen=True, slots=True)
class Unknown:
    """A line with a good CRC but a type this host does not know (a later protocol's)."""

    kind: str


Message = Hello | Snapshot | Heartbeat | SelfTest | HubError | Unknown


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): `crc16(b"123456789") == 0x29B1`."""
    # crc_hqx is exactly this CRC, computed in C: a line costs microseconds, not a Python loop.
    return binascii.crc_hqx(data, 0xFFFF)


def frame(body: str) -> bytes:
    """The wire line for `body`: `BODY*CCCC\\n`. Raises ValueError if it cannot be a line."""
    raw = body.encode("ascii")
    if _PRINTABLE.fullmatch(raw) is None:
        raise ValueError(f"a line body is printable ASCII: {body!r}")
    if len(raw) + 5 > MAX_LINE:
        raise ValueError(f"line of {len(raw) + 5} bytes is over {MAX_LINE}")
    return b"%s*%04X\n" % (raw, crc16(raw))


def format_snapshot(seq: int, readers: Sequence[ReaderReading]) -> bytes:
    """The framed `S` line for one sweep (used by the simulator and the tests)."""
    if not 0 <= seq < SEQ_MODULO:
        raise ValueError(f"sequence number {seq} is outside 0..65535")
    return frame(f"S {seq} " + " ".join(str(r) for r in readers))


def format_command(command: str) -> bytes:
    """A host command line with its CRC, e.g. `VERSION*CCCC\\n`."""
    if not command or " " in command:
        raise ValueError(f"a command is one word: {command!r}")
    return frame(command)


def unframe(raw: bytes) -> str:
    """The checked BODY of one line (with or without its `\\n`), or ProtocolError."""
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > MAX_LINE:
        raise ProtocolError(f"line too long ({len(raw)} bytes)")
    if _PRINTABLE.fullmatch(raw) is None:
        raise ProtocolError("bytes that are not printable ASCII")
    body, star, crc = raw.rpartition(b"*")
    if not star:
        raise ProtocolError("no CRC")
    text = crc.decode("ascii")
    if _CRC.fullmatch(text) is None:
        raise ProtocolError(f"malformed CRC {text!r}")
    if int(text, 16) != crc16(body):
        raise ProtocolError("bad CRC")
    return body.decode("ascii")


def parse_line(raw: bytes, received: float = 0.0, *, readers: int | None = READER_COUNT) -> Message:
    """One hub line (with or without its `\\n`) as a typed message.

    `received` is stamped on a Snapshot. `readers` is how many reader fields an `S` or `TEST`
    line must have (None accepts any number). Raises ProtocolError for a line the host must
    drop and count as bad: bad or missing CRC, too long, not printable ASCII, or a known line
    type with a malformed field. A good line of an unknown type is `Unknown(kind)`.
    """
    body = unframe(raw)
    kind, _, rest = body.partition(" ")
    if kind == "S":
        return _snapshot(rest, received, readers)
    if kind == "HB":
        seq, uptime = _fields(rest, 2, "HB")
        return Heartbeat(_seq(seq), _decimal(uptime, "uptime"))
    if kind == "HELLO":
        protocol, firmware, count = _fields(rest, 3, "HELLO")
        return Hello(_decimal(protocol, "protocol"), firmware, _decimal(count, "reader count"))
    if kind == "TEST":
        return _self_test(rest, readers)
    if kind == "ERR":
        return HubError(rest)
    if not kind:
        raise ProtocolError("empty line")
    return Unknown(kind)


def parse_command(raw: bytes) -> str:
    """A host command as the hub reads it: the word, its CRC checked if one is given."""
    text = raw.rstrip(b"\r\n")
    if b"*" in text:
        return unframe(text)
    if _PRINTABLE.fullmatch(text) is None or not text:
        raise ProtocolError("not a command")
    return text.decode("ascii")


def _snapshot(rest: str, received: float, readers: int | None) -> Snapshot:
    fields = rest.split(" ")
    if readers is not None and len(fields) != readers + 1:
        raise ProtocolError(f"S line with {len(fields) - 1} readers, expected {readers}")
    seq = _seq(fields[0])
    return Snapshot(seq, tuple(_reading(f) for f in fields[1:]), received)


def _reading(field: str) -> ReaderReading:
    fixed = _FIXED_FIELDS.get(field)
    if fixed is not None:
        return fixed
    if _UIDS.fullmatch(field) is None:
        raise ProtocolError(f"malformed reader field {field[:24]!r}")
    uids = tuple(field.split(","))
    if len(set(uids)) != len(uids):
        raise ProtocolError(f"a UID read twice by one reader: {field[:24]!r}")
    return ReaderReading("ok", uids)


def _self_test(rest: str, readers: int | None) -> SelfTest:
    fields = rest.split(" ") if rest else []
    if readers is not None and len(fields) != readers:
        raise ProtocolError(f"TEST line with {len(fields)} readers, expected {readers}")
    versions: list[str | None] = []
    for field in fields:
        match = _VERSION_REGISTER.fullmatch(field)
        if match is None and field != "fault":
            raise ProtocolError(f"malformed TEST field {field[:24]!r}")
        versions.append(match.group(1) if match else None)
    return SelfTest(tuple(versions))


def _fields(rest: str, count: int, kind: str) -> list[str]:
    fields = rest.split(" ")
    if len(fields) != count or not all(fields):
        raise ProtocolError(f"{kind} line needs {count} fields")
    return fields


def _decimal(text: str, what: str) -> int:
    if _DECIMAL.fullmatch(text) is None:
        raise ProtocolError(f"malformed {what} {text[:12]!r}")
    return int(text)


def _seq(text: str) -> int:
    seq = _decimal(text, "sequence number")
    if seq >= SEQ_MODULO:
        raise ProtocolError(f"sequence number {seq} over 65535")
    return seq


class LineSplitter:
    """Feed bytes, take whole lines (with their `\\n`).

    A run of bytes longer than a line can be without a newline is noise: it is thrown away up
    to the next newline and counted once in `overlong`, so a babbling port never grows memory.
    """

    _LIMIT = MAX_LINE + 2  # a line may end in \r\n

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipping = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        """The complete lines `data` finishes; the rest waits for more bytes."""
        buffer = self._buffer
        buffer += data
        lines: list[bytes] = []
        start = 0
        while (end := buffer.find(b"\n", start)) >= 0:
            if self._skipping:
                self._skipping = False
            else:
                lines.append(bytes(buffer[start : end + 1]))
            start = end + 1
        del buffer[:start]
        if len(buffer) > self._LIMIT:
            if not self._skipping:
                self.overlong += 1
            self._skipping = True
            buffer.clear()
        return lines

    def reset(self) -> bool:
        """Forget a partial line (the port was lost); True if one was pending."""
        pending = bool(self._buffer) and not self._skipping
        self._buffer.clear()
        self._skipping = False
        return pending
