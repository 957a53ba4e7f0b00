"""The MFRC522 driver's register sequences, checked against the datasheet (rev. 3.9)."""

import pytest

from tests.firmware import chip_model as m
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, chip_driver, readers
from tests.firmware.loader import firmware

mfrc522 = firmware().mfrc522


class RecordingSpi:
    """Passes transfers to the model bus and keeps the raw bytes, to check the wire format."""

    def __init__(self, bus):
        self.bus = bus
        self.sent: list[bytes] = []
        self.received: list[bytes] = []

    def write(self, buf):
        self.write_readinto(buf, bytearray(len(buf)))

    def write_readinto(self, wbuf, rbuf):
        self.bus.write_readinto(wbuf, rbuf)
        self.sent.append(bytes(wbuf))
        self.received.append(bytes(rbuf))


def writes(chip) -> list[tuple[int, int]]:
    return [(reg, value) for kind, reg, value, _ in chip.log if kind == "W"]


def test_spi_address_bytes_follow_8_1_2_3():
    board = Board(readers=1)
    spi = RecordingSpi(board.bus)
    driver = mfrc522.MFRC522(spi, board.pins[0], board.clock)
    assert driver.read(mfrc522.VERSION) == 0x92
    # Read: MSB set, register in bits 6..1, LSB 0; a 00h byte clocks the value out.
    assert spi.sent[-1] == bytes([0x80 | 0x37 << 1, 0x00]) == b"\xee\x00"
    assert spi.received[-1][1] == 0x92
    driver.write(mfrc522.COMMAND, mfrc522.CMD_SOFT_RESET)
    assert spi.sent[-1] == bytes([0x01 << 1, 0x0F])
    driver.write_fifo(b"\x93\x20")
    assert spi.sent[-1] == bytes([0x09 << 1, 0x93, 0x20])
    board.chips[0].fifo[:] = [0x11, 0x22, 0x33]
    assert driver.read_fifo(3) == b"\x11\x22\x33"
    # A burst read repeats the address byte and ends with 00h (8.1.2.1).
    assert spi.sent[-1] == bytes([0x92, 0x92, 0x92, 0x00])


def test_init_soft_resets_then_sets_a_one_millisecond_timer_and_type_a_settings():
    board = Board(readers=1)
    chip = board.chips[0]
    driver = readers(board)[0]
    assert driver.init() == 0x92
    sequence = writes(chip)
    assert sequence[0] == (m.COMMAND, 0x0F)  # SoftReset first of all writes (10.3.1.10)
    after_reset = dict(sequence[1:])
    assert after_reset[m.T_MODE] & 0x80  # TAuto: timer starts when a frame has been sent
    assert after_reset[m.TX_ASK] == 0x40  # Force100ASK (9.3.2.6)
    assert after_reset[m.MODE] & 0x03 == 0x01  # CRC preset 6363h, the CRC_A one (9.3.2.2)
    assert after_reset[m.COLL] & 0x80 == 0  # ValuesAfterColl = 0 (9.3.1.15)
    assert after_reset[m.TX_CONTROL] & 0x03 == 0  # field off until its turn
    assert (after_reset[m.RF_CFG] >> 4) & 0x07 == 4  # RxGain 33 dB
    # The chip's own formula (8.5) with what was written: 1.0 ms, not the usual 25 ms.
    assert chip.timeout_us() == pytest.approx(1000.0, rel=0.01)
    assert driver.timeout_us() == pytest.approx(chip.timeout_us())
    # It waited for the PowerDown bit to clear before talking to the chip (8.8.2).
    reset_at = next(t for kind, reg, _, t in chip.log if kind == "W")
    reads = [(reg, t) for kind, reg, _, t in chip.log if kind == "R" and t > reset_at]
    assert reads[0][0] == m.COMMAND
    assert next(t for reg, t in reads if reg == m.VERSION) >= chip.awake_at


@pytest.mark.parametrize("version", [0x91, 0x92, 0x88, 0x12])
def test_init_reports_the_version_register_of_genuine_chips_and_clones(version):
    board = Board(readers=1)
    board.chips[0].version = version
    board.chips[0].reset()
    assert readers(board)[0].init() == version


def test_a_missing_or_dead_reader_is_a_fault():
    board = Board(readers=4, missing=[0])
    board.chips[1].alive = False
    board.chips[2].alive = False
    board.chips[2].dead_reads = 0xFF
    drivers = readers(board)
    for driver in drivers[:3]:
        started = board.clock.now_us
        with pytest.raises(mfrc522.ReaderFault):
            driver.init()
        assert board.clock.now_us - started < 1000  # no waiting for a reset that never ends
    assert drivers[3].init() == 0x92  # the others keep working


def test_a_reader_that_does_not_keep_its_settings_is_a_fault(monkeypatch):
    board = Board(readers=1)
    chip = board.chips[0]
    monkeypatch.setattr(chip, "_write", lambda reg, value: None)  # MOSI broken
    with pytest.raises(mfrc522.ReaderFault, match="settings"):
        readers(board)[0].init()


def test_reqa_is_a_7_bit_short_frame_sent_with_the_transceive_sequence():
    board = Board(readers=1)
    chip = board.chips[0]
    driver = chip_driver(board)
    driver.antenna_on()
    assert chip.field_on and board.ether.on == {"reader0"}
    chip.log.clear()
    started = board.clock.now_us
    reply = driver.transceive(b"\x26", 7)
    assert reply.status == mfrc522.TIMEOUT
    # Idle, clear the IRQ bits, flush the FIFO, fill it, Transceive, then StartSend with
    # TxLastBits = 7 (10.3.1.8, 9.3.1.14).
    assert writes(chip)[:6] == [
        (m.COMMAND, 0x00),
        (m.COM_IRQ, 0x7F),
        (m.FIFO_LEVEL, 0x80),
        (m.FIFO_DATA, 0x26),
        (m.COMMAND, 0x0C),
        (m.BIT_FRAMING, 0x87),
    ]
    assert chip.frames[-1] == m.to_bits(b"\x26", 7)
    # An empty field costs the 1 ms timer plus the SPI traffic, not 25 ms.
    elapsed = board.clock.now_us - started
    assert 1000 < elapsed < 1600
    driver.antenna_off()
    assert not chip.field_on and board.ether.on == set()


def test_the_timeout_is_the_chips_timer_not_a_host_loop():
    board = Board(readers=1)
    driver = chip_driver(board, timer_reload=999)  # the 25 ms of the usual libraries
    driver.antenna_on()
    started = board.clock.now_us
    assert driver.transceive(b"\x26", 7).status == mfrc522.TIMEOUT
    assert 25_000 < board.clock.now_us - started < 26_000


def test_a_tag_answers_reqa_with_its_atqa():
    board = Board(readers=1)
    board.put(0, Tag(NTAG))
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(1000)
    reply = driver.transceive(b"\x26", 7)
    assert (reply.status, reply.data, reply.last_bits) == (mfrc522.OK, b"\x44\x00", 0)


def test_a_collision_is_reported_with_its_position_and_zeros_after_it():
    board = Board(readers=1)
    # CL1 of these differ first in bit 3 of the second byte: bit 11, CollPos 12.
    board.put(0, Tag("10000000"), Tag("10080000"))
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(1000)
    assert driver.transceive(b"\x26", 7).status == mfrc522.OK  # same ATQA: no collision
    reply = driver.transceive(b"\x93\x20")
    assert reply.status == mfrc522.COLLISION
    assert reply.coll_pos == 12
    assert reply.data == b"\x10\x00\x00\x00\x00"  # bit 11 and all after it read as 0


def test_collision_position_counts_rx_align_in():
    board = Board(readers=1)
    board.put(0, Tag("10000000"), Tag("10080000"))
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(1000)
    driver.transceive(b"\x26", 7)
    # Send the first 9 known bits (NVB 31h): the answer starts at UID bit 9, rx_align 1.
    reply = driver.transceive(b"\x93\x31\x10\x00", 1, 1)
    assert reply.status == mfrc522.COLLISION
    # Bit 11 is the third bit received, at bit 1 + 2 of the first FIFO byte: CollPos counts
    # from bit 0 of that byte, RxAlign included (MFRC631 datasheet, NXP's reader library).
    assert reply.coll_pos == 1 + 3


def test_hlta_is_transmitted_without_waiting_for_an_answer_and_halts_the_tag():
    board = Board(readers=1)
    tag = Tag("01020304", sak=0x08)
    board.put(0, tag)
    chip = board.chips[0]
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(1000)
    fw = firmware()
    assert driver.transceive(b"\x26", 7).status == mfrc522.OK
    assert fw.iso14443.select_tag(driver) == bytes.fromhex("01020304")
    assert tag.state == "active"
    chip.log.clear()
    started = board.clock.now_us
    driver.transmit(fw.iso14443.HLTA)
    assert tag.state == "halt"
    assert (m.COMMAND, 0x04) in writes(chip)  # Transmit (10.3.1.5), not Transceive
    assert writes(chip)[-1] == (m.CONTROL, 0x80)  # TStopNow: no stray timeout later
    # The frame itself takes ~360 us on air; no 1 ms wait for a reply that never comes.
    assert board.clock.now_us - started < 900
    assert driver.transceive(b"\x26", 7).status == mfrc522.TIMEOUT  # halted: REQA is ignored


@pytest.mark.parametrize("reads", [0x00, 0xFF])
def test_a_chip_that_dies_mid_exchange_raises_reader_fault_in_bounded_time(reads):
    board = Board(readers=1)
    driver = chip_driver(board)
    board.chips[0].alive = False
    board.chips[0].dead_reads = reads
    started = board.clock.now_us
    with pytest.raises(mfrc522.ReaderFault):
        driver.antenna_on()
    if reads == 0x00:  # a line stuck high reads as an error reply instead; the hub's next
        # antenna_on (above) is what catches it
        with pytest.raises(mfrc522.ReaderFault):
            driver.transceive(b"\x26", 7)
    # The host's bound, sized from the air times (mfrc522.DEADLINE_MARGIN_US and the frame):
    # about 18 ms for a REQA.
    assert board.clock.now_us - started < 20_000
    with pytest.raises(mfrc522.ReaderFault):
        driver.init()
