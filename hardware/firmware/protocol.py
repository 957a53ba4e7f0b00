"""The hub side of the reader hub protocol v2 (docs/hub-protocol.md): lines out, commands in.

MicroPython code: plain f-strings and a CRC table, nothing the Pico lacks. The Pi side
parses the same lines with hardware.hub.protocol; the host tests feed it these lines.
"""

PROTOCOL_VERSION = 2
# Bytes of BODY*CCCC, the line end not counted. Version 2 raised it from 512: twelve
# squares of three 7-byte tags make 552, and eight 10-byte tags on each still fit (2028).
MAX_LINE = 2048
COMMANDS = ("VERSION", "SELFTEST", "RECONNECT")


def _crc_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()
_HEX = [f"{i:02X}" for i in range(256)]


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 1021h, init FFFFh, no reflection); check value 29B1h."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def frame(body: str) -> bytes:
    """One protocol line: BODY*CCCC and a newline."""
    raw = body.encode()
    return raw + f"*{crc16(raw):04X}\n".encode()


def uid_hex(uid: bytes) -> str:
    return "".join([_HEX[b] for b in uid])


def reader_field(status: str, uids) -> str:
    """One reader's field of an S line: '-', 'C', 'F' or the UIDs joined by commas."""
    if status == "ok" and uids:
        return ",".join([uid_hex(uid) for uid in uids])
    if status == "collision":
        return "C"
    if status == "fault":
        return "F"
    return "-"


def hello_line(firmware: str, readers: int) -> bytes:
    return frame(f"HELLO {PROTOCOL_VERSION} {firmware} {readers}")


def snapshot_line(seq: int, readings) -> bytes:
    """The S line of one sweep; readings is a (status, uids) pair per reader.

    A line may not exceed MAX_LINE: if the UIDs read would make it longer, the longest
    field becomes C (collision) until it fits, as docs/hub-protocol.md says (a stack that
    answers with that many tags is a collision for every practical purpose).
    """
    fields = [reader_field(status, uids) for status, uids in readings]
    # "S <seq> " + the fields and their separating spaces + "*CCCC"
    length = len(str(seq)) + 3 + sum([len(f) for f in fields]) + len(fields) - 1 + 5
    while length > MAX_LINE:
        longest = 0
        for i in range(len(fields)):
            if len(fields[i]) > len(fields[longest]):
                longest = i
        length -= len(fields[longest]) - 1
        fields[longest] = "C"
    joined = " ".join(fields)
    return frame(f"S {seq} {joined}")


def heartbeat_line(seq: int, uptime_ms: int) -> bytes:
    return frame(f"HB {seq} {uptime_ms}")


def selftest_line(versions) -> bytes:
    """TEST line: per reader ok:<VersionReg in hex>, or fault where the version is None."""
    return frame("TEST " + " ".join(["fault" if v is None else "ok:" + _HEX[v] for v in versions]))


def error_line(text: str) -> bytes:
    return frame("ERR " + text)


def parse_command(line: bytes):
    """Read one command line; return (command, None), (None, error text) or (None, None).

    A command is one word, upper or lower case, optionally followed by *CCCC (then checked:
    a mismatch is "bad command", anything else unknown is "unknown command").
    An empty line (a terminal's bare Enter) is (None, None): nothing to answer.
    """
    for byte in line:
        if byte > 126 or (byte < 32 and byte not in (9, 10, 13)):
            return None, "unknown command"
    text = line.decode().strip()
    if not text:
        return None, None
    star = text.find("*")
    if star >= 0:
        word = text[:star].strip()
        crc = text[star + 1 :].strip()
        if len(crc) != 4 or not _is_hex(crc) or int(crc, 16) != crc16(word.encode()):
            return None, "bad command"
    else:
        word = text
    word = word.upper()
    if word in COMMANDS:
        return word, None
    return None, "unknown command"


def _is_hex(text: str) -> bool:
    return all(ch in "0123456789abcdefABCDEF" for ch in text)


class LineReader:
    """Cuts the incoming bytes into lines, ended by LF, CRLF or CR alone (what a terminal
    sends on Enter); a line longer than MAX_LINE is cut short there (and then answered as an
    unknown command) instead of growing without end."""

    def __init__(self, limit: int = MAX_LINE + 2):
        self._limit = limit
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list:
        lines = []
        for byte in data:
            if byte == 10 or byte == 13:  # the LF of a CRLF then ends an empty line: ignored
                if self._skipping:
                    self._skipping = False
                else:
                    lines.append(bytes(self._buffer))
                self._buffer = bytearray()
            elif not self._skipping:
                self._buffer.append(byte)
                if len(self._buffer) >= self._limit:
                    lines.append(bytes(self._buffer))
                    self._buffer = bytearray()
                    self._skipping = True
        return lines
