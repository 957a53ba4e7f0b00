"""A register-level model of the MFRC522 reader chip and of ISO 14443-3 type A tags.

This is the test double for the chip itself (no library offers one): it answers SPI bytes
the way the NXP MFRC522 datasheet (rev. 3.9) describes the registers and commands, and the
tags in its field answer WUPA/REQA/ANTICOLLISION/SELECT/HLTA per ISO/IEC 14443-3, with bit
collisions reported in ErrorReg and CollReg (position included). Time is modelled too: a
virtual clock advanced by SPI traffic, by the firmware's sleeps and by the RF frames, so
timeouts follow the timer registers the firmware programmed and a sweep's duration comes
out in microseconds.

What the model does not cover (CalcCRC, MFAuthent, Receive, soft power-down, the gated
timer, the hardware CRC) raises NotModelled instead of pretending.
"""

from __future__ import annotations  # MicroPython: tests/firmware/micropython/__future__.py

import math

try:  # CPython; the annotations are only read by type checkers, so MicroPython needs none
    from collections.abc import Iterable, Sequence
except ImportError:
    Iterable = Sequence = None

FC_HZ = 13.56e6
ETU_US = 128 / FC_HZ * 1e6  # one bit at 106 kbit/s: 9.44 us
FDT_US = 1172 / FC_HZ * 1e6  # tag's frame delay time after the reader's last pause: ~86 us

# Registers (datasheet 9.2, table 20) the model gives meaning to.
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
STATUS1, STATUS2, FIFO_DATA, FIFO_LEVEL, WATER_LEVEL = 0x07, 0x08, 0x09, 0x0A, 0x0B
CONTROL, BIT_FRAMING, COLL = 0x0C, 0x0D, 0x0E
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = 0x11, 0x12, 0x13, 0x14, 0x15
DEMOD, RF_CFG, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x19, 0x26, 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

# Reset values (datasheet 9.3, the register tables) of the registers the firmware touches.
RESET_VALUES = {
    COMMAND: 0x20,
    COM_IEN: 0x80,
    COM_IRQ: 0x14,
    STATUS1: 0x21,
    WATER_LEVEL: 0x08,
    CONTROL: 0x10,
    COLL: 0xA0,
    MODE: 0x3F,
    TX_CONTROL: 0x80,
    0x16: 0x10,  # TxSelReg
    0x17: 0x84,  # RxSelReg
    0x18: 0x84,  # RxThresholdReg
    DEMOD: 0x4D,
    0x1C: 0x62,  # MfTxReg
    0x1F: 0xEB,  # SerialSpeedReg
    0x21: 0xFF,  # CRCResultReg high
    0x22: 0xFF,  # CRCResultReg low
    0x24: 0x26,  # ModWidthReg
    RF_CFG: 0x48,
    0x27: 0x88,  # GsNReg
    0x28: 0x20,  # CWGsPReg
    0x29: 0x20,  # ModGsPReg
}

CMD_IDLE, CMD_TRANSMIT, CMD_NO_CHANGE, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x0, 0x4, 0x7, 0xC, 0xF
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
BUFFER_OVFL, COLL_ERR, PARITY_ERR = 0x10, 0x08, 0x02
# How long SoftReset runs before the chip is usable. The datasheet gives no figure ("this
# command automatically terminates when finished", 10.3.1.10): the model takes 1 ms, longer
# than a host's set-up writes, so a driver that does not wait for the end loses them.
SOFT_RESET_US = 1000.0

REQA, WUPA, HLTA, CASCADE_TAG = 0x26, 0x52, 0x50, 0x88
SELECT_CODES = (0x93, 0x95, 0x97)


class NotModelled(Exception):
    """The firmware used a chip feature this model does not implement."""


class BusContention(Exception):
    """Two chips were selected at once on the shared SPI bus."""


# -- bits and checksums --------------------------------------------------------------------


def to_bits(data: bytes, last_bits: int = 0) -> list[int]:
    """Bits in air order (LSB first); last_bits of the last byte (0 = all 8)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    if last_bits and data:
        del bits[len(bits) - 8 + last_bits :]
    return bits


def to_bytes(bits: Sequence[int], offset: int = 0) -> bytes:
    """Pack air-order bits into bytes, the first one at bit position `offset`."""
    out = bytearray(math.ceil((offset + len(bits)) / 8))
    for i, bit in enumerate(bits):
        if bit:
            out[(offset + i) // 8] |= 1 << ((offset + i) % 8)
    return bytes(out)


def crc_a(data: bytes) -> int:
    """CRC_A (ISO/IEC 14443-3): bit by bit, independent of the firmware's byte-wise one."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(data: bytes) -> bytes:
    crc = crc_a(data)
    return data + bytes((crc & 0xFF, crc >> 8))


def uid_levels(uid: bytes) -> list[bytes]:
    """UID CLn of each cascade level, each with its BCC (5 bytes)."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
    elif len(uid) == 10:
        parts = [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
    else:
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


# -- tags ----------------------------------------------------------------------------------


class Tag:
    """One ISO 14443-3 type A tag: POWER-OFF, IDLE, READY (per cascade level), ACTIVE, HALT.

    sak is the final SAK (NTAG213: 00h). garbled models a badly coupled tag (e.g. covered by
    other tiles): it answers, but its answers arrive with bit and parity errors.
    """

    def __init__(
        self, uid: bytes | str, sak: int = 0x00, power_up_us: float = 300.0, garbled: bool = False
    ):
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        self.levels = uid_levels(self.uid)
        self.sak = sak
        self.power_up_us = power_up_us
        self.garbled = garbled
        size_code = {4: 0, 7: 1, 10: 2}[len(self.uid)]
        self.atqa = bytes([(size_code << 6) | 0x04, 0x00])  # UID size in bits 8..7, bit frame AC
        self.state = "off"
        self.level = 0
        self.from_halt = False
        self.ready_at = math.inf
        self.selected_count = 0

    def __repr__(self) -> str:
        return f"Tag({self.uid.hex().upper()!r}, state={self.state})"

    @property
    def hex(self) -> str:
        return self.uid.hex().upper()

    def power_on(self, at_us: float) -> None:
        self.state = "idle"
        self.ready_at = at_us + self.power_up_us
        self.level = 0
        self.from_halt = False

    def power_off(self) -> None:
        self.state = "off"
        self.ready_at = math.inf

    def _error(self) -> None:
        # Any frame a state does not expect sends the tag back to IDLE, or to HALT if WUPA
        # had woken it from there (ISO 14443-3 state diagram).
        if self.state in ("ready", "active"):
            self.state = "halt" if self.from_halt else "idle"

    def receive(self, bits: list[int], at_us: float) -> list[int] | None:
        """Handle a frame from the reader; return the answer's bits, or None for silence."""
        if self.state == "off" or at_us < self.ready_at:
            return None
        if len(bits) == 7:
            command = int.from_bytes(to_bytes(bits), "little")
            woken = (command == REQA and self.state == "idle") or (
                command == WUPA and self.state in ("idle", "halt")
            )
            if woken:
                self.from_halt = self.state == "halt"
                self.state, self.level = "ready", 0
                return to_bits(self.atqa)
            self._error()
            return None
        data = to_bytes(bits)
        if self.state == "ready" and len(bits) >= 16 and data[0] == SELECT_CODES[self.level]:
            return self._anticollision_or_select(bits, data)
        if self.state == "active" and len(bits) == 32 and data == with_crc(bytes([HLTA, 0])):
            self.state = "halt"
            return None
        self._error()
        return None

    def _anticollision_or_select(self, bits: list[int], data: bytes) -> list[int] | None:
        cln = self.levels[self.level]
        nvb = data[1]
        if nvb == 0x70:
            if len(bits) != 72 or with_crc(data[:7]) != data or data[2:7] != cln:
                self._error()
                return None
            last = self.level == len(self.levels) - 1
            if last:
                self.state = "active"
                self.selected_count += 1
                return to_bits(with_crc(bytes([self.sak])))
            self.level += 1
            return to_bits(with_crc(bytes([0x04])))
        count, extra = nvb >> 4, nvb & 0x0F
        if not (2 <= count <= 6 and extra <= 7 and len(bits) == count * 8 + extra):
            self._error()
            return None
        known = len(bits) - 16
        mine = to_bits(cln)
        if known >= 40:
            self._error()
            return None
        if bits[16:] != mine[:known]:
            return None  # not this tag's branch: it stays silent, still READY
        return mine[known:]

    def answer(self, bits: list[int]) -> tuple[list[int], bool]:
        """The answer as the reader receives it: (bits, parity broken)."""
        if not self.garbled:
            return bits, False
        return [b ^ (1 if i % 5 == 2 else 0) for i, b in enumerate(bits)], True


# -- the virtual clock, the chip-select pins and the SPI bus -------------------------------


PICO_TICKS_PERIOD = 1 << 30  # rp2 port: ticks_ms/ticks_us wrap here
UNIX_TICKS_PERIOD = 1 << 62  # the unix port


class VirtualClock:
    """Stands in for MicroPython's time module: ticks_us/ticks_ms/ticks_add/ticks_diff,
    sleep_us/sleep_ms, with ticks that wrap at `period` as MicroPython's do.

    Time moves only when something spends it (SPI traffic, the RF frames, sleeps); `at()`
    runs a function once the clock has passed a moment, to change the table mid-sweep.
    """

    def __init__(
        self,
        start_us: float = 0.0,
        period: int = PICO_TICKS_PERIOD,
        wrap_after_us: float | None = None,
    ):
        self.now_us = float(start_us)
        self.period = period
        self._events: list = []
        self.pause_us = 0.0  # the next ticks_us() first lets this much time pass
        # wrap_after_us: both tick counters pass their wrap that long after the start (the
        # counts are offset in integers; now_us itself stays small, so floats keep their us).
        self._us_offset = 0
        self._ms_offset = 0
        if wrap_after_us is not None:
            wrap_us = int(start_us + wrap_after_us)
            self._us_offset = period - wrap_us % period
            self._ms_offset = period - (wrap_us // 1000) % period

    def ticks_us(self) -> int:
        if self.pause_us:
            # The host was held up (an interrupt, a garbage collection) just as it looked
            # at the time: whatever it read from a chip before is that much older.
            pause, self.pause_us = self.pause_us, 0.0
            self.advance(pause)
        return (int(self.now_us) + self._us_offset) % self.period

    def ticks_ms(self) -> int:
        return (int(self.now_us // 1000) + self._ms_offset) % self.period

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) % self.period

    def ticks_diff(self, a: int, b: int) -> int:
        half = self.period // 2
        return ((a - b + half) % self.period) - half

    def at(self, time_us: float, action) -> None:
        """Call action() as soon as the clock reaches time_us."""
        self._events.append((time_us, action))
        self._events.sort(key=lambda event: event[0])

    def advance(self, us: float) -> None:
        self.now_us += us
        while self._events and self._events[0][0] <= self.now_us:
            self._events.pop(0)[1]()

    def sleep_us(self, us: float) -> None:
        self.advance(us)

    def sleep_ms(self, ms: float) -> None:
        self.advance(ms * 1000)


class Pin:
    """A chip-select line (machine.Pin's value() API): idle high, low selects its chip."""

    def __init__(self, bus: SpiBus, name: str):
        self._bus = bus
        self.name = name
        self._value = 1

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self._value
        v = 1 if v else 0
        if v != self._value:
            self._value = v
            self._bus.cs_changed(self, v)
        return None

    __call__ = value


class SpiBus:
    """The shared SPI bus (machine.SPI's write/readinto/write_readinto API).

    Each transfer costs access_overhead_us (the MicroPython call and the chip-select
    toggles) plus the bytes at the bus clock. Only the selected chip sees the bytes; with
    the MISO buffers of docs/hardware.md, nobody selected reads as 0x00.
    """

    def __init__(
        self, clock: VirtualClock, baudrate: int = 4_000_000, access_overhead_us: float = 30.0
    ):
        self.clock = clock
        self.baudrate = baudrate
        self.access_overhead_us = access_overhead_us
        self.chips: dict[Pin, MFRC522Model | None] = {}
        self.transfers = 0
        self.contention = False

    def attach(self, chip: MFRC522Model | None, name: str = "") -> Pin:
        """A chip-select line for this chip (None: a reader that is missing or unplugged)."""
        pin = Pin(self, name or f"cs{len(self.chips)}")
        self.chips[pin] = chip
        return pin

    def cs_changed(self, pin: Pin, value: int) -> None:
        selected = [p for p in self.chips if p.value() == 0]
        if len(selected) > 1:
            self.contention = True
            raise BusContention(f"{[p.name for p in selected]} selected at once")
        chip = self.chips.get(pin)
        if chip is not None and value == 0:
            chip.spi_begin()

    def write(self, buf: bytes) -> None:
        self.write_readinto(buf, bytearray(len(buf)))

    def readinto(self, buf: bytearray, write: int = 0x00) -> None:
        self.write_readinto(bytes([write]) * len(buf), buf)

    def write_readinto(self, wbuf: bytes, rbuf: bytearray) -> None:
        self.transfers += 1
        self.clock.advance(self.access_overhead_us + len(wbuf) * 8 / self.baudrate * 1e6)
        selected = [p for p in self.chips if p.value() == 0]
        chip = self.chips[selected[0]] if selected else None
        for i, byte in enumerate(wbuf):
            rbuf[i] = chip.spi_byte(byte) if chip is not None else 0x00


# -- the chip ------------------------------------------------------------------------------


class Ether:
    """The space above the board: which readers have their field on, and the most at once."""

    def __init__(self) -> None:
        self.on: set[str] = set()
        self.most_at_once = 0
        self.switch_ons = 0
        self.together: set[frozenset[str]] = set()  # every set of fields that was on at once

    def field(self, name: str, on: bool) -> None:
        if on:
            self.on.add(name)
            self.switch_ons += 1
            self.most_at_once = max(self.most_at_once, len(self.on))
            self.together.add(frozenset(self.on))
        else:
            self.on.discard(name)


class MFRC522Model:
    """One MFRC522 with the tags lying in its field.

    alive=False is a dead chip: every byte reads as `dead_reads` (0x00: nothing drives MISO
    and the pull-down wins; 0xFF: a line stuck high). fail_with, if set, is raised by the
    next SPI byte (anything that goes wrong inside a scan). rx_stops_at_collision: after a
    collision the FIFO holds only the bytes up to the collided bit, not the rest of the frame.
    Every register access is logged in `log` as ("R"|"W", register, value, time_us).
    """

    def __init__(
        self,
        clock: VirtualClock,
        ether: Ether | None = None,
        name: str = "reader",
        version: int = 0x92,
        tags: Iterable[Tag] = (),
    ):
        self.clock = clock
        self.ether = ether or Ether()
        self.name = name
        self.version = version
        self.tags: list[Tag] = list(tags)
        self.alive = True
        self.dead_reads = 0x00
        self.fail_with: BaseException | None = None
        self.rx_stops_at_collision = False
        self.soft_reset_us = SOFT_RESET_US
        self.log: list[tuple[str, int, int, float]] = []
        self.logging = True
        self.frames: list[list[int]] = []  # every frame sent to the air, as bits
        self._phase = "idle"
        self._address = 0
        self.reset()

    # -- state --

    def reset(self) -> None:
        self.regs = bytearray(64)
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[VERSION] = self.version
        self.fifo: list[int] = []
        self.irq = RESET_VALUES[COM_IRQ]
        self.errors = 0
        self.coll = 0x20  # CollPosNotValid until a collision happens
        self.rx_last_bits = 0
        self.awake_at = self.clock.now_us  # until then SoftReset is still running
        self._tx_end: float | None = None
        self._tx_bits: list[int] = []
        self._tx_transceive = False
        self._rx_end: float | None = None
        self._rx: tuple[list[int], bool, int | None, int] | None = None
        self._timer_end: float | None = None
        self._set_field(False)

    @property
    def command(self) -> int:
        return self.regs[COMMAND] & 0x0F

    @property
    def field_on(self) -> bool:
        return bool(self.regs[TX_CONTROL] & 0x03)

    def timeout_us(self) -> float:
        """The timer period the registers give (datasheet 8.5)."""
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        even = self.regs[DEMOD] & 0x10
        return (2 * prescaler + (2 if even else 1)) * (reload + 1) / FC_HZ * 1e6

    def _set_field(self, on: bool) -> None:
        was_on = getattr(self, "_field", False)
        self._field = on
        if on and not was_on:
            for tag in self.tags:
                tag.power_on(self.clock.now_us)
        elif was_on and not on:
            for tag in self.tags:
                tag.power_off()
        if on != was_on:
            self.ether.field(self.name, on)

    # -- SPI (8.1.2) --

    def spi_begin(self) -> None:
        self._phase = "address"

    def spi_byte(self, mosi: int) -> int:
        if not self.alive:
            return self.dead_reads
        if self.fail_with is not None:
            raise self.fail_with
        self._advance()
        if self._phase == "address":
            if mosi & 0x01:
                raise AssertionError(f"SPI address byte {mosi:#04x} has bit 0 set (8.1.2.3)")
            self._address = (mosi >> 1) & 0x3F
            self._phase = "read" if mosi & 0x80 else "write"
            return 0x00
        if self._phase == "read":
            value = self._read(self._address)
            # On a read, each byte sent is the next address to read; 00h ends (8.1.2.1).
            if mosi & 0x80:
                self._address = (mosi >> 1) & 0x3F
            else:
                self._phase = "done"
            return value
        if self._phase == "write":
            self._write(self._address, mosi)
            return 0x00
        raise AssertionError("bytes clocked after the end of a read (8.1.2.1)")

    def _note(self, kind: str, reg: int, value: int) -> None:
        if self.logging:
            self.log.append((kind, reg, value, self.clock.now_us))

    def _read(self, reg: int) -> int:
        if reg == FIFO_DATA:
            value = self.fifo.pop(0) if self.fifo else 0x00
        elif reg == FIFO_LEVEL:
            value = len(self.fifo)
        elif reg == COM_IRQ:
            value = self.irq & 0x7F
        elif reg == ERROR:
            value = self.errors
        elif reg == CONTROL:
            value = (self.regs[CONTROL] & 0xF8) | self.rx_last_bits
        elif reg == COLL:
            value = (self.regs[COLL] & 0x80) | self.coll
        elif reg == COMMAND:
            # While SoftReset runs, CommandReg shows it; PowerDown cannot be set meanwhile
            # (9.3.1.2), so it is no sign of the end.
            resetting = self.clock.now_us < self.awake_at
            value = CMD_SOFT_RESET if resetting else self.regs[COMMAND] & 0x2F
        else:
            value = self.regs[reg]
        self._note("R", reg, value)
        return value

    def _write(self, reg: int, value: int) -> None:
        self._note("W", reg, value)
        if self.clock.now_us < self.awake_at:
            return  # the reset still holds every register at its reset value
        if reg == COMMAND:
            self._command(value)
        elif reg in (COM_IRQ, DIV_IRQ):
            if reg == COM_IRQ:
                # Set1 (bit 7): 1 sets the marked bits, 0 clears them (9.3.1.5).
                self.irq = self.irq | (value & 0x7F) if value & 0x80 else self.irq & ~value
        elif reg == FIFO_DATA:
            if len(self.fifo) >= 64:
                self.errors |= BUFFER_OVFL
            else:
                self.fifo.append(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:  # FlushBuffer (9.3.1.11)
                self.fifo.clear()
                self.errors &= ~BUFFER_OVFL
        elif reg == CONTROL:
            if value & 0x40:  # TStartNow
                self._timer_end = self.clock.now_us + self.timeout_us()
            if value & 0x80:  # TStopNow
                self._timer_end = None
        elif reg == BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.command == CMD_TRANSCEIVE:  # StartSend (9.3.1.14)
                self._start_transmission(transceive=True)
        elif reg == COLL:
            self.regs[reg] = value & 0x80  # only ValuesAfterColl is writable (9.3.1.15)
        elif reg == TX_CONTROL:
            self.regs[reg] = value
            self._set_field(self.field_on)
        elif reg == T_MODE:
            if value & 0x60:
                raise NotModelled("gated timer (TModeReg TGated)")
            self.regs[reg] = value
        elif reg in (TX_MODE, RX_MODE):
            if value & 0x80:
                raise NotModelled("hardware CRC (TxCRCEn / RxCRCEn)")
            if value & 0x70:
                raise NotModelled("bit rates above 106 kBd")
            self.regs[reg] = value
        elif reg in (VERSION, STATUS1, ERROR):
            pass  # read-only
        else:
            self.regs[reg] = value

    def _command(self, value: int) -> None:
        if value & 0x10:
            raise NotModelled("soft power-down (CommandReg PowerDown)")
        command = value & 0x0F
        if command == CMD_SOFT_RESET:
            self.reset()
            self.awake_at = self.clock.now_us + self.soft_reset_us
            return
        if command == CMD_NO_CHANGE:
            self.regs[COMMAND] = (value & 0x20) | self.command
            return
        if command not in (CMD_IDLE, CMD_TRANSMIT, CMD_TRANSCEIVE):
            raise NotModelled(f"command {command:#x}")
        # Any new command ends the one running, with what it had in flight.
        self._tx_end = self._rx_end = None
        self._rx = None
        self.regs[COMMAND] = value & 0x2F
        if command == CMD_TRANSMIT:
            self._start_transmission(transceive=False)

    # -- the air interface --

    def _start_transmission(self, transceive: bool) -> None:
        framing = self.regs[BIT_FRAMING]
        bits = to_bits(bytes(self.fifo), framing & 0x07)
        self.fifo.clear()
        self.errors &= BUFFER_OVFL  # error flags restart with the receiver (9.3.1.7)
        self.coll = 0x20
        self.rx_last_bits = 0
        frame_etu = 2 + (7 if len(bits) == 7 else len(bits) * 9 / 8)  # SOF, parity, EOF
        self._tx_end = self.clock.now_us + frame_etu * ETU_US
        self._tx_bits = bits
        self._tx_transceive = transceive
        self._rx_align = (framing >> 4) & 0x07

    def _advance(self) -> None:
        """Let everything happen that happened on air up to now."""
        now = self.clock.now_us
        if self._tx_end is not None and now >= self._tx_end:
            self._end_transmission(self._tx_end)
        if self._timer_end is not None and now >= self._timer_end:
            self.irq |= TIMER_IRQ
            self._timer_end = None
        if self._rx_end is not None and now >= self._rx_end:
            self._end_reception()

    def _end_transmission(self, at: float) -> None:
        self._tx_end = None
        bits = self._tx_bits
        if self.logging:
            self.frames.append(bits)
        self.irq |= TX_IRQ
        if self.regs[T_MODE] & 0x80:  # TAuto: the timer starts at the end of transmission
            self._timer_end = at + self.timeout_us()
        if not self._tx_transceive:
            self.regs[COMMAND] &= 0xF0  # Transmit ends by itself and goes idle
            self.irq |= IDLE_IRQ
        answers = []
        if self._field:
            for tag in self.tags:
                answer = tag.receive(bits, at)
                if answer is not None:
                    answers.append(tag.answer(answer))
        if not (self._tx_transceive and answers) or self.regs[COMMAND] & 0x20:
            return  # nothing to receive, or the receiver is off (RcvOff)
        received, parity, collision = self._superpose(answers)
        start = at + FDT_US
        # The timer stops at the answer's fifth bit (TModeReg TAuto, 9.3.3.10).
        if self._timer_end is not None and start + 5 * ETU_US < self._timer_end:
            self._timer_end = None
        self._rx_end = start + (2 + len(received) * 9 / 8) * ETU_US
        self._rx = (received, parity, collision, self._rx_align)

    def _superpose(
        self, answers: list[tuple[list[int], bool]]
    ) -> tuple[list[int], bool, int | None]:
        """What the receiver makes of several tags answering at once (Manchester coding
        shows a bit where they differ as a collision)."""
        length = max(len(bits) for bits, _ in answers)
        out: list[int] = []
        collision = None
        for i in range(length):
            values = {bits[i] for bits, _ in answers if i < len(bits)}
            short = any(i >= len(bits) for bits, _ in answers)
            if len(values) == 1 and not short:
                out.append(values.pop())
            else:
                if collision is None:
                    collision = i
                out.append(1)
        if collision is not None and not self.regs[COLL] & 0x80:
            # ValuesAfterColl = 0: every bit from the collision on reads 0 (9.3.1.15).
            out[collision:] = [0] * (length - collision)
        parity = any(broken for _, broken in answers) or collision is not None
        return out, parity, collision

    def _end_reception(self) -> None:
        assert self._rx is not None
        received, parity, collision, align = self._rx
        self._rx_end = None
        self._rx = None
        if collision is not None and self.rx_stops_at_collision:
            received = received[: collision + 1]
        data = to_bytes(received, align)
        for byte in data:
            if len(self.fifo) >= 64:
                self.errors |= BUFFER_OVFL
                break
            self.fifo.append(byte)
        self.rx_last_bits = (align + len(received)) % 8
        if collision is not None:
            self.errors |= COLL_ERR
            # CollPos counts from bit 0 of the first FIFO byte, RxAlign included: the MFRC631
            # datasheet says so outright ("RxAlign ... included in the CollPos"), NXP's reader
            # library for the family reads it so, and the MFRC522's table 50 (CollPos 01h =
            # the 1st bit) is the same count with RxAlign 0.
            position = align + collision + 1
            self.coll = (position & 0x1F) if position <= 32 else 0x20
        if parity:
            self.errors |= PARITY_ERR
        if self.errors:
            self.irq |= ERR_IRQ
        self.irq |= RX_IRQ


# -- a whole board -------------------------------------------------------------------------


class Board:
    """Twelve (or n) reader chips on one SPI bus with their chip-select lines and a clock.

    missing: reader numbers with no chip on their chip-select line at all.
    """

    def __init__(
        self,
        readers: int = 12,
        missing: Iterable[int] = (),
        baudrate: int = 4_000_000,
        access_overhead_us: float = 30.0,
        clock: VirtualClock | None = None,
    ):
        self.clock = clock or VirtualClock(1_000_000.0)
        self.ether = Ether()
        self.bus = SpiBus(self.clock, baudrate, access_overhead_us)
        absent = set(missing)
        self.chips: list[MFRC522Model | None] = [
            None if i in absent else MFRC522Model(self.clock, self.ether, f"reader{i}")
            for i in range(readers)
        ]
        self.pins = [self.bus.attach(chip, f"cs{i}") for i, chip in enumerate(self.chips)]

    def put(self, reader: int, *tags: Tag) -> None:
        """Lay tags on a reader; into a field that is on, they power up from now."""
        chip = self.chips[reader]
        assert chip is not None
        chip.tags.extend(tags)
        if chip.field_on:
            for tag in tags:
                tag.power_on(self.clock.now_us)

    def clear(self, reader: int) -> None:
        chip = self.chips[reader]
        assert chip is not None
        chip.tags.clear()

    def logging(self, on: bool) -> None:
        for chip in self.chips:
            if chip is not None:
                chip.logging = on
                chip.log.clear()
                chip.frames.clear()
