"""The NXP MFRC522 reader chip over SPI: registers, commands and one RF exchange.

Section numbers refer to the NXP MFRC522 datasheet, rev. 3.9. The SPI bus, the chip-select
pin and the clock are passed in (machine.SPI, machine.Pin and the time module on the Pico;
the register-level chip model in the host tests), so this module runs under MicroPython and
CPython alike. It knows nothing about tags: that is iso14443.py.
"""

# Registers (9.2, table 20).
COMMAND = 0x01  # 9.3.1.2
COM_IRQ = 0x04  # 9.3.1.5
ERROR = 0x06  # 9.3.1.7
FIFO_DATA = 0x09  # 9.3.1.10
FIFO_LEVEL = 0x0A  # 9.3.1.11
CONTROL = 0x0C  # 9.3.1.13
BIT_FRAMING = 0x0D  # 9.3.1.14
COLL = 0x0E  # 9.3.1.15
MODE = 0x11  # 9.3.2.2
TX_CONTROL = 0x14  # 9.3.2.5
TX_ASK = 0x15  # 9.3.2.6
RF_CFG = 0x26  # 9.3.3.6
T_MODE = 0x2A  # 9.3.3.10
T_PRESCALER = 0x2B  # 9.3.3.10
T_RELOAD_H = 0x2C  # 9.3.3.11
T_RELOAD_L = 0x2D  # 9.3.3.11
VERSION = 0x37  # 9.3.4.8

# Commands, CommandReg[3:0] (10.3, table 149).
CMD_IDLE = 0x00  # 10.3.1.1
CMD_TRANSMIT = 0x04  # 10.3.1.5
CMD_TRANSCEIVE = 0x0C  # 10.3.1.8
CMD_SOFT_RESET = 0x0F  # 10.3.1.10
POWER_DOWN = 0x10  # CommandReg bit 4: reads 1 until the chip has woken up (8.6.2)

# ComIrqReg bits (9.3.1.5). Writing with bit 7 (Set1) at 0 clears the marked bits.
TX_IRQ = 0x40
RX_IRQ = 0x20
IDLE_IRQ = 0x10
TIMER_IRQ = 0x01
CLEAR_ALL_IRQ = 0x7F

# ErrorReg bits (9.3.1.7).
WR_ERR = 0x80
TEMP_ERR = 0x40
BUFFER_OVFL = 0x10
COLL_ERR = 0x08
CRC_ERR = 0x04
PARITY_ERR = 0x02
PROTOCOL_ERR = 0x01

FLUSH_BUFFER = 0x80  # FIFOLevelReg bit 7 (9.3.1.11)
T_STOP_NOW = 0x80  # ControlReg bit 7 (9.3.1.13)
START_SEND = 0x80  # BitFramingReg bit 7, only with Transceive (9.3.1.14)
COLL_POS_NOT_VALID = 0x20  # CollReg bit 5 (9.3.1.15, table 50)
T_AUTO = 0x80  # TModeReg bit 7: the timer starts at the end of each transmission (9.3.3.10)
FORCE_100_ASK = 0x40  # TxASKReg bit 6: ISO 14443 A uses 100 % ASK (9.3.2.6)
# ModeReg (9.3.2.2): TxWaitRF (bit 5), PolMFin high (bit 3), reserved bit 2 as reset,
# CRCPreset 01 = 6363h, the CRC_A preset of ISO 14443-3.
MODE_VALUE = 0x3D
ANTENNA_ON = 0x83  # TxControlReg (9.3.2.5): reset value 0x80 plus Tx2RFEn and Tx1RFEn
ANTENNA_OFF = 0x80

# Outcome of one RF exchange.
OK = 0
TIMEOUT = 1
COLLISION = 2
ERROR_REPLY = 3

COMMAND_RESET_VALUE = 0x20  # CommandReg after a reset: receiver off, awake, Idle (9.3.1.2)
RX_GAIN_MASK = 0x70  # RFCfgReg bits 6..4; bit 7 and bits 3..0 are reserved (9.3.3.6)

# Air times of ISO/IEC 14443-3 type A at 106 kbit/s, to know when a reply can be there.
ETU_US = 128 / 13.56  # one bit: 9.44 us
FDT_US = 1172 / 13.56  # the tag's frame delay time after REQA/WUPA/ANTICOLLISION/SELECT: 86 us
FIFO_SIZE = 64
POLL_US = 60  # between two looks at a chip whose reply may be coming in

# The host's own bound on one exchange, on top of what the chip's timer allows: the longest
# the air can take (the frame sent, the reply timeout, then a reply as long as the FIFO)
# twice over, plus 5 ms. It only ends the wait when the chip itself has stopped answering
# (unplugged, not powered); the chip is always looked at once more after the bound passes,
# so a pause of the host (a garbage collection, a busy USB) is never taken for a fault.
DEADLINE_MARGIN_US = 5_000
RESET_DEADLINE_US = 50_000


def frame_us(length: int, last_bits: int = 0) -> float:
    """Air time of a frame of `length` bytes (the last one `last_bits` long, 0 = 8): start
    of frame, 9 bits a byte with the parity, end of frame."""
    if length == 1 and last_bits == 7:
        return 9 * ETU_US  # the short frame: S, 7 bits, E
    bits = length * 9 - ((8 - last_bits) if last_bits else 0)
    return (bits + 2) * ETU_US


class ReaderFault(Exception):
    """The chip does not answer over SPI as an MFRC522 would: the reader is in fault."""


class Reply:
    """What came back from one RF exchange.

    status: OK, TIMEOUT, COLLISION or ERROR_REPLY; data: the bytes from the FIFO (for a
    bit-oriented answer the first byte is aligned as asked with rx_align); last_bits: valid
    bits in the last byte (0 = all 8); coll_pos: for a collision, CollPos (9.3.1.15): the
    1-based position of the first collided bit, counted from bit 0 of the first FIFO byte,
    so RxAlign included (0 = the chip gave no position).
    """

    def __init__(self, status: int, data: bytes = b"", last_bits: int = 0, coll_pos: int = 0):
        self.status = status
        self.data = data
        self.last_bits = last_bits
        self.coll_pos = coll_pos

    def __repr__(self) -> str:
        return f"Reply({self.status}, {bytes(self.data)}, {self.last_bits}, {self.coll_pos})"


class MFRC522:
    """One reader on a shared SPI bus, selected by its own chip-select pin.

    spi has write(buf) and write_readinto(wbuf, rbuf) (machine.SPI); cs has value(v)
    (machine.Pin, idle high); clock has ticks_us(), ticks_add(t, d), ticks_diff(a, b) and
    sleep_us(n) (the MicroPython time module).

    An RF exchange is start() and then poll() until it returns the Reply; due() says when a
    poll can find it done, so that a hub can serve other readers meanwhile. exchange() is
    both in one, for one reader on its own.
    """

    def __init__(
        self,
        spi,
        cs,
        clock,
        timer_prescaler: int = 169,
        timer_reload: int = 39,
        rx_gain: int = 4,
    ):
        self._spi = spi
        self._cs = cs
        self._clock = clock
        self.timer_prescaler = timer_prescaler
        self.timer_reload = timer_reload
        self.rx_gain = rx_gain
        self._timeout_us = self.timeout_us()
        self._tx2 = bytearray(2)
        self._rx2 = bytearray(2)
        # One burst read of the registers that tell how an exchange ended (8.1.2.1: each
        # byte sent names the next register to read, 00h ends).
        self._status_tx = bytearray(
            [0x80 | (r << 1) for r in (COM_IRQ, ERROR, FIFO_LEVEL, CONTROL, COLL)] + [0]
        )
        self._status_rx = bytearray(6)
        self._transmit = False
        self._started = 0
        self._due = 0
        self._timer_end = 0
        self._looks = 0
        self._limit_us = 0
        cs.value(1)

    # -- SPI register access (8.1.2) ------------------------------------------------------
    # Address byte (8.1.2.3): bit 7 = 1 to read, bits 6..1 the register, bit 0 = 0.

    def read(self, reg: int) -> int:
        tx = self._tx2
        tx[0] = 0x80 | (reg << 1)
        tx[1] = 0
        self._cs.value(0)
        try:
            self._spi.write_readinto(tx, self._rx2)
        finally:
            self._cs.value(1)
        return self._rx2[1]

    def write(self, reg: int, value: int) -> None:
        tx = self._tx2
        tx[0] = (reg << 1) & 0x7E
        tx[1] = value
        self._cs.value(0)
        try:
            self._spi.write(tx)
        finally:
            self._cs.value(1)

    def read_fifo(self, count: int) -> bytes:
        """Read count bytes from the FIFO in one burst (8.1.2.1: the address byte repeated)."""
        if count <= 0:
            return b""
        tx = bytearray(count + 1)
        address = 0x80 | (FIFO_DATA << 1)
        for i in range(count):
            tx[i] = address
        rx = bytearray(count + 1)
        self._cs.value(0)
        try:
            self._spi.write_readinto(tx, rx)
        finally:
            self._cs.value(1)
        return bytes(rx[1:])

    def write_fifo(self, data: bytes) -> None:
        """Write data into the FIFO in one burst (8.1.2.2: data bytes after one address)."""
        tx = bytearray(len(data) + 1)
        tx[0] = (FIFO_DATA << 1) & 0x7E
        for i in range(len(data)):
            tx[i + 1] = data[i]
        self._cs.value(0)
        try:
            self._spi.write(tx)
        finally:
            self._cs.value(1)

    # -- set-up ---------------------------------------------------------------------------

    def init(self) -> int:
        """Soft-reset and configure the chip; return its VersionReg value (9.3.4.8).

        Raises ReaderFault when the chip does not finish its reset, reads as 0x00/0xFF
        (nothing on the bus) or does not keep what was written (MOSI or NSS broken).
        """
        # Nothing on the bus reads 0x00 or 0xFF: say so at once, not after the reset wait.
        if self.read(VERSION) in (0x00, 0xFF):
            raise ReaderFault("no chip answers")
        self.write(COMMAND, CMD_SOFT_RESET)
        clock = self._clock
        start = clock.ticks_us()
        # SoftReset "terminates automatically when finished" (10.3.1.10): until then
        # CommandReg shows it running and nothing written sticks. It is done when CommandReg
        # reads its reset value (Idle, awake; PowerDown cannot be set during a reset, so
        # that bit alone says nothing).
        while True:
            expired = clock.ticks_diff(clock.ticks_us(), start) > RESET_DEADLINE_US
            if self.read(COMMAND) == COMMAND_RESET_VALUE:
                break
            if expired:
                raise ReaderFault("does not finish its reset")
            clock.sleep_us(100)
        version = self.read(VERSION)
        if version in (0x00, 0xFF):
            raise ReaderFault("no chip answers")
        prescaler = self.timer_prescaler
        reload = self.timer_reload
        self.write(T_MODE, T_AUTO | ((prescaler >> 8) & 0x0F))
        self.write(T_PRESCALER, prescaler & 0xFF)
        self.write(T_RELOAD_H, (reload >> 8) & 0xFF)
        self.write(T_RELOAD_L, reload & 0xFF)
        self.write(TX_ASK, FORCE_100_ASK)
        self.write(MODE, MODE_VALUE)
        # Read-modify-write: the reserved bits keep their reset values (0x48 has bit 3 set).
        rf_cfg = self.read(RF_CFG)
        self.write(RF_CFG, (rf_cfg & ~RX_GAIN_MASK & 0xFF) | ((self.rx_gain & 0x07) << 4))
        # ValuesAfterColl = 0: bits received after a collision read as 0 (9.3.1.15), which
        # the bit-oriented anticollision needs.
        self.write(COLL, 0x00)
        self.write(TX_CONTROL, ANTENNA_OFF)
        if self.read(T_RELOAD_L) != reload & 0xFF or self.read(T_MODE) & T_AUTO == 0:
            raise ReaderFault("does not keep its settings")
        return version

    def timeout_us(self) -> float:
        """The RF reply timeout these timer settings give (8.5), in microseconds."""
        return (2 * self.timer_prescaler + 1) * (self.timer_reload + 1) / 13.56

    def antenna_on(self) -> None:
        """Switch the 13.56 MHz field on; the read-back doubles as a liveness check."""
        self.write(TX_CONTROL, ANTENNA_ON)
        value = self.read(TX_CONTROL)
        # Nothing on the bus reads 0x00 (the MISO pull-down) or 0xFF.
        if value & 0x03 != 0x03 or value == 0xFF:
            raise ReaderFault("does not answer")

    def antenna_off(self) -> None:
        self.write(TX_CONTROL, ANTENNA_OFF)

    # -- RF exchanges ---------------------------------------------------------------------

    def start(self, data, tx_last_bits: int = 0, rx_align: int = 0, reply_bits: int = 0):
        """Put a frame on the air (8.3.1, 10.3.1.8).

        tx_last_bits: bits of the last byte to send (0 = 8; 7 for the REQA short frame);
        rx_align: bit position in the first FIFO byte where the first received bit goes
        (BitFramingReg, 9.3.1.14), for the bit-oriented anticollision frames; reply_bits:
        the length of the answer a tag gives (0: none is awaited, Transmit, e.g. HLTA).
        """
        self.write(COMMAND, CMD_IDLE)  # end whatever command runs
        self.write(COM_IRQ, CLEAR_ALL_IRQ)
        self.write(FIFO_LEVEL, FLUSH_BUFFER)
        self.write_fifo(data)
        framing = ((rx_align & 0x07) << 4) | (tx_last_bits & 0x07)
        self._transmit = reply_bits == 0
        if self._transmit:
            self.write(BIT_FRAMING, framing)
            self.write(COMMAND, CMD_TRANSMIT)
        else:
            self.write(COMMAND, CMD_TRANSCEIVE)
            # Transceive sends only once StartSend is set (10.3.1.8).
            self.write(BIT_FRAMING, START_SEND | framing)
        clock = self._clock
        now = clock.ticks_us()
        on_air = frame_us(len(data), tx_last_bits)
        self._started = now
        if self._transmit:
            self._due = clock.ticks_add(now, int(on_air))
            self._timer_end = self._due
        else:
            reply = FDT_US + (2 + reply_bits * 9 / 8) * ETU_US
            self._due = clock.ticks_add(now, int(on_air + reply))
            self._timer_end = clock.ticks_add(now, int(on_air + self._timeout_us) + 1)
        longest = on_air + self._timeout_us + FDT_US + (2 + FIFO_SIZE * 9) * ETU_US
        self._limit_us = int(2 * longest) + DEADLINE_MARGIN_US
        self._looks = 0

    def due(self) -> int:
        """The ticks_us() moment from which poll() may find the exchange ended."""
        return self._due

    def poll(self):
        """The Reply if the exchange has ended, else None; ReaderFault if the chip has
        stopped answering as an MFRC522 would."""
        clock = self._clock
        now = clock.ticks_us()
        expired = clock.ticks_diff(now, self._started) > self._limit_us
        self._cs.value(0)
        try:
            self._spi.write_readinto(self._status_tx, self._status_rx)
        finally:
            self._cs.value(1)
        status = self._status_rx
        irq = status[1]
        level = status[3] & 0x7F
        if level > FIFO_SIZE:
            raise ReaderFault("reads nonsense (MISO stuck high?)")
        if self._transmit:
            if irq & (TX_IRQ | IDLE_IRQ):
                # The end of the transmission started the timer (TAuto); stop it, or it
                # would fire into the next exchange as a false timeout.
                self.write(CONTROL, T_STOP_NOW)
                return Reply(OK)
        elif irq & (RX_IRQ | IDLE_IRQ):
            return self._reply(status[2], level, status[4], status[5])
        elif irq & TIMER_IRQ:
            return Reply(TIMEOUT)
        if expired:
            raise ReaderFault("command never ends")
        # Not yet: look again soon while a reply may be coming in, then when the chip's own
        # timer runs out.
        self._looks += 1
        if self._looks >= 2 and clock.ticks_diff(self._timer_end, now) > POLL_US:
            self._due = self._timer_end
        else:
            self._due = clock.ticks_add(now, POLL_US)
        return None

    def _reply(self, error: int, count: int, control: int, coll: int):
        if error & (WR_ERR | TEMP_ERR | BUFFER_OVFL | PROTOCOL_ERR):
            return Reply(ERROR_REPLY)
        received = self.read_fifo(count)
        last_bits = control & 0x07  # RxLastBits (9.3.1.13)
        if error & COLL_ERR:
            # A collision usually breaks the parity of its byte too: the position is what counts.
            position = 0 if coll & COLL_POS_NOT_VALID else (coll & 0x1F) or 32
            return Reply(COLLISION, received, last_bits, position)
        if error & (PARITY_ERR | CRC_ERR):
            return Reply(ERROR_REPLY, received, last_bits)
        return Reply(OK, received, last_bits)

    def exchange(self, data, tx_last_bits: int = 0, rx_align: int = 0, reply_bits: int = 0):
        """start() and wait for the Reply."""
        self.start(data, tx_last_bits, rx_align, reply_bits)
        clock = self._clock
        while True:
            wait = clock.ticks_diff(self._due, clock.ticks_us())
            if wait > 0:
                clock.sleep_us(wait)
            reply = self.poll()
            if reply is not None:
                return reply

    def transceive(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0) -> Reply:
        """Send data and receive the answer (Transceive, 10.3.1.8)."""
        return self.exchange(data, tx_last_bits, rx_align, 8)

    def transmit(self, data: bytes) -> None:
        """Send data without waiting for an answer (Transmit, 10.3.1.5), e.g. HLTA."""
        self.exchange(data)
