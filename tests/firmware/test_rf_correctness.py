"""What a real table would show: the points where the firmware must follow the NXP documents
and ISO/IEC 14443-3, each on the register-level chip model."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.firmware import chip_model as m
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, chip_driver, hub, readers, settings_of_config
from tests.firmware.loader import firmware

fw = firmware()


def read(*tags: Tag, board: Board | None = None, known=(), settle_us: float = 5100.0):
    board = board or Board(readers=1)
    board.put(0, *tags)
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(settle_us)
    status, uids = fw.iso14443.read_field(driver, 8, [bytes.fromhex(u) for u in known])
    driver.antenna_off()
    return status, sorted(u.hex().upper() for u in uids)


def ntag_uids(rng: random.Random, count: int) -> list[str]:
    uids: set[str] = set()
    while len(uids) < count:
        uids.add("04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6)))
    return sorted(uids)


# -- the collision position counts RxAlign in --------------------------------------------


def test_the_model_counts_collpos_from_the_first_fifo_bit_as_the_datasheets_do():
    board = Board(readers=1)
    # CL1 bytes 00.. and 40..: they differ first in UID bit 6.
    board.put(0, Tag("00000000"), Tag("40000000"))
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(5100)
    driver.transceive(b"\x26", 7)
    # Four bits known (NVB 24h), RxAlign 4: bit 6 is the third bit received, and CollPos
    # counts the four aligned bits too: 7h (the MFRC631 datasheet's own example).
    reply = driver.transceive(b"\x93\x24\x00", 4, 4)
    assert (reply.status, reply.coll_pos) == (fw.mfrc522.COLLISION, 7)


@pytest.mark.parametrize("count", [3, 4])
def test_stacks_seen_for_the_first_time_are_read_whole(count):
    rng = random.Random(count)
    for _ in range(300):
        stack = ntag_uids(rng, count)
        assert read(*(Tag(u) for u in stack)) == ("ok", stack)


def test_collisions_after_a_partial_byte_are_resolved():
    # Level 1 of these collides first at bit 9, then again at bit 12 of the same byte: the
    # second round's answer is aligned at RxAlign 2, where counting from the first received
    # bit would set the wrong bit.
    stack = ["04A1B2C3D4E5F6", "04A1B0C3D4E5F6", "04A1A2C3D4E5F6"]
    assert read(*(Tag(u) for u in stack)) == ("ok", sorted(stack))


# -- only the FIFO bytes up to the collision are used ------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_a_fifo_that_holds_only_the_bytes_up_to_the_collision_is_enough(count, seed):
    rng = random.Random(seed)
    board = Board(readers=1)
    board.chips[0].rx_stops_at_collision = True
    stack = ntag_uids(rng, count)
    assert read(*(Tag(u) for u in stack), board=board) == ("ok", stack)


# -- one tag that cannot be read does not blank the others -------------------------------


def test_a_tag_that_cannot_be_read_does_not_hide_the_readable_ones():
    # The garbled tag's CL1 begins with a 1 bit where the others have 0: the anticollision's
    # usual choice (1) takes it first, and it never answers a clean frame.
    garbled = Tag("04FFFFFFFFFFFF", garbled=True)
    clean = "04000000000001"
    assert read(garbled, Tag(clean)) == ("ok", [clean])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.integers(1, 2), st.integers(0, 2**32))
def test_every_readable_tag_is_reported_beside_unreadable_ones(clean, garbled, seed):
    """Within a few sweeps: each sweep spends a bounded effort on the unreadable tags (the
    sweep must go on), and what one sweep read is SELECTed directly in the next."""
    rng = random.Random(seed)
    uids = ntag_uids(rng, clean + garbled)
    tags = [Tag(u, garbled=i >= clean) for i, u in enumerate(uids)]
    rng.shuffle(tags)
    board = Board(readers=1)
    board.put(0, *tags)
    h, out = hub(board, **settings_of_config())
    h.start()
    for _ in range(3):
        h.sweep()
    reported = [line.split(b"*")[0].split(b" ")[2].decode() for line in out.of_kind("S")]
    for field in reported:
        assert field == "C" or set(field.split(",")) <= set(uids[:clean])  # never a wrong UID
    assert sorted(reported[-1].split(",")) == sorted(uids[:clean])


def test_c_only_when_no_uid_at_all_could_be_resolved():
    assert read(Tag(NTAG, garbled=True), Tag("04112233445566", garbled=True)) == ("collision", [])


# -- the field settles as ISO/IEC 14443-3 says --------------------------------------------


def test_the_configured_settle_is_the_iso_14443_3_minimum():
    assert firmware().config.ANTENNA_SETTLE_US >= 5100


@pytest.mark.parametrize("power_up_us", [1400.0, 5000.0])
def test_a_tag_that_powers_up_slowly_is_read_by_the_hub_as_configured(power_up_us):
    board = Board()
    board.put(0, Tag(NTAG, power_up_us=power_up_us))
    board.put(7, Tag("04112233445566", power_up_us=power_up_us))
    h, out = hub(board, **settings_of_config())
    h.start()
    for _ in range(3):
        h.sweep()
    fields = out.lines[-1].split(b"*")[0].split(b" ")[2:]
    assert fields[0] == NTAG.encode() and fields[7] == b"04112233445566"


# -- soft reset and RFCfgReg ---------------------------------------------------------------


@pytest.mark.parametrize("reset_us", [300.0, 1000.0, 4000.0])
def test_init_waits_for_the_soft_reset_to_end_before_configuring(reset_us):
    board = Board(readers=1)
    chip = board.chips[0]
    chip.soft_reset_us = reset_us
    driver = readers(board)[0]
    assert driver.init() == 0x92
    reset_at = next(t for kind, reg, v, t in chip.log if kind == "W" and reg == m.COMMAND)
    set_up = [t for kind, reg, _, t in chip.log if kind == "W" and reg != m.COMMAND]
    assert set_up and min(set_up) >= reset_at + reset_us
    assert chip.timeout_us() == pytest.approx(1000.0, rel=0.01)  # the settings stuck


def test_a_reset_that_never_ends_is_a_fault_in_bounded_time():
    board = Board(readers=1)
    board.chips[0].soft_reset_us = 10e9
    started = board.clock.now_us
    with pytest.raises(fw.mfrc522.ReaderFault, match="reset"):
        readers(board)[0].init()
    assert board.clock.now_us - started < 100_000


@pytest.mark.parametrize("gain", [4, 7, 0])
def test_rx_gain_is_set_without_touching_the_reserved_bits_of_rfcfgreg(gain):
    board = Board(readers=1)
    chip_driver(board, rx_gain=gain)
    value = board.chips[0].regs[m.RF_CFG]
    assert value & 0x70 == gain << 4
    assert value & 0x8F == m.RESET_VALUES[m.RF_CFG] & 0x8F  # bit 7 and bits 3..0 reserved
