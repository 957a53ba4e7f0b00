"""The ISO 14443-3 loop (hardware/firmware/iso14443.py) against simulated populations of tags."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.firmware import chip_model as m
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, chip_driver
from tests.firmware.loader import firmware

iso = firmware().iso14443


def read(*tags: Tag, max_tags: int = 8, settle_us: float = 1000.0, known=()):
    """Put the tags on reader 0, switch its field on and read it, as the hub does."""
    board = Board(readers=1)
    board.put(0, *tags)
    driver = chip_driver(board)
    driver.antenna_on()
    board.clock.sleep_us(settle_us)
    known = [bytes.fromhex(u) for u in known]
    status, uids = iso.read_field(driver, max_tags, known)
    driver.antenna_off()
    return status, sorted(u.hex().upper() for u in uids), board.chips[0]


def sent_commands(chip) -> list[int]:
    return [m.to_bytes(bits)[0] for bits in chip.frames]


def test_crc_a_check_values_of_the_standard():
    assert iso.crc_a(b"\x00\x00") == 0x1EA0
    assert iso.crc_a(b"\x12\x34") == 0xCF26
    assert m.with_crc(b"\x50\x00") == iso.HLTA
    for data in (b"\x93\x70\x88\x04\xa1\xb2\x9f", bytes(range(40))):
        assert iso.crc_a(data) == m.crc_a(data)


def test_an_empty_field_reads_empty_after_one_wupa():
    status, uids, chip = read()
    assert (status, uids) == ("empty", [])
    assert chip.frames == [m.to_bits(b"\x52", 7)]


def test_one_4_byte_tag_takes_one_cascade_level():
    status, uids, chip = read(Tag("01020304", sak=0x08))
    assert (status, uids) == ("ok", ["01020304"])
    commands = sent_commands(chip)
    assert commands[:3] == [0x52, 0x93, 0x93]  # WUPA, ANTICOLLISION CL1, SELECT CL1
    assert 0x95 not in commands


def test_one_ntag213_takes_two_cascade_levels_with_the_cascade_tag():
    tag = Tag(NTAG)
    status, uids, chip = read(tag)
    assert (status, uids) == ("ok", [NTAG])
    selects = [m.to_bytes(b) for b in chip.frames if len(b) == 72]
    assert [s[0] for s in selects] == [0x93, 0x95]
    assert selects[0][2:6] == bytes.fromhex("88" + NTAG[:6])  # CT + the first three bytes
    assert selects[1][2:6] == bytes.fromhex(NTAG[6:])
    # The tag read is halted, so the REQA after it finds nobody new.
    assert m.to_bytes(chip.frames[-2]) == iso.HLTA
    assert chip.frames[-1] == m.to_bits(b"\x26", 7)


def test_one_10_byte_tag_takes_three_cascade_levels():
    status, uids, chip = read(Tag("04112233445566778899"))
    assert (status, uids) == ("ok", ["04112233445566778899"])
    assert 0x97 in sent_commands(chip)


@pytest.mark.parametrize(
    "first,second",
    [
        ("01020304", "81020304"),  # differ in the very first bit
        ("01020304", "01020305"),  # differ in bit 24
        ("01020300", "01020380"),  # differ in bit 31: CollPos 0 means 32
        ("04A1B2C3D4E5F6", "04A1B2C3D4E5F7"),  # same CL1, differ only at level 2
        ("04A1B2C3D4E5F6", "04A1B3C3D4E5F6"),  # differ at level 1 of two 7-byte UIDs
        ("01020304", NTAG),  # a 4-byte UID against a cascade tag at level 1
        (NTAG, "04112233445566778899"),  # 7 and 10 bytes
    ],
)
def test_two_colliding_tags_are_both_read(first, second):
    status, uids, _ = read(Tag(first), Tag(second))
    assert (status, uids) == ("ok", sorted([first, second]))


def test_a_stack_of_five_is_read_whole():
    stack = ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3D4E500", "0411223344556A", "01020304"]
    status, uids, _ = read(*(Tag(u) for u in stack))
    assert (status, uids) == ("ok", sorted(stack))


def test_max_tags_bounds_the_loop():
    status, uids, _ = read(*(Tag(f"0400000{i}") for i in range(6)), max_tags=3)
    assert status == "ok" and len(uids) == 3


def test_two_tags_with_the_same_uid_read_as_one():
    status, uids, _ = read(Tag(NTAG), Tag(NTAG))
    assert (status, uids) == ("ok", [NTAG])


def test_a_field_that_answers_but_resolves_no_uid_is_a_collision():
    status, uids, _ = read(Tag(NTAG, garbled=True))
    assert (status, uids) == ("collision", [])


def test_a_tag_not_powered_up_yet_is_not_seen():
    slow = Tag(NTAG, power_up_us=3000)
    assert read(slow, settle_us=1000)[:2] == ("empty", [])
    assert read(Tag(NTAG, power_up_us=3000), settle_us=3500)[:2] == ("ok", [NTAG])


def anticollision_frames(chip) -> int:
    return sum(1 for bits in chip.frames if len(bits) >= 16 and len(bits) != 72 and len(bits) != 32)


def test_tags_seen_last_sweep_are_selected_without_anticollision():
    stack = [NTAG, "04A1B2C3D4E5F7", "04112233445566778899"]
    status, uids, chip = read(*(Tag(u) for u in stack), known=stack)
    assert (status, uids) == ("ok", sorted(stack))
    assert anticollision_frames(chip) == 0
    # The same field without that knowledge needs the anticollision rounds.
    assert anticollision_frames(read(*(Tag(u) for u in stack))[2]) > 0


def test_a_tile_that_left_does_not_hide_the_one_that_came():
    status, uids, _ = read(Tag("01020304"), known=[NTAG])
    assert (status, uids) == ("ok", ["01020304"])
    status, uids, _ = read(Tag(NTAG), Tag("01020304"), known=["0A0B0C0D", NTAG])
    assert (status, uids) == ("ok", sorted([NTAG, "01020304"]))
    assert read(known=[NTAG])[:2] == ("empty", [])


def test_a_known_uid_is_only_reported_if_that_tag_answers():
    # A tag whose first cascade level matches a known 7-byte UID but not its second one.
    status, uids, _ = read(Tag("04A1B2C3D4E5F7"), known=[NTAG])
    assert (status, uids) == ("ok", ["04A1B2C3D4E5F7"])
    # A (non-compliant) 4-byte UID equal to an NTAG's first level: the SAK's cascade bit
    # tells them apart.
    status, uids, _ = read(Tag(NTAG), known=["88" + NTAG[:6]])
    assert (status, uids) == ("ok", [NTAG])


# Bytes from a tiny alphabet make UIDs share long prefixes, so collisions are deep and many.
_byte = st.sampled_from([0x00, 0x01, 0x80, 0xFE, 0x04])
_uid = st.one_of(
    st.lists(_byte, min_size=4, max_size=4),
    st.lists(_byte, min_size=7, max_size=7),
    st.lists(_byte, min_size=10, max_size=10),
).filter(lambda b: b[0] != 0x88)  # CT is never the first UID byte (ISO 14443-3)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_uid.map(bytes), max_size=6, unique=True),
    st.lists(_uid.map(bytes), max_size=3, unique=True),
    st.data(),
)
def test_any_population_is_read_exactly(population, gone, data):
    # What the reader knew from last time: some of the tags still there, some that left.
    still = data.draw(
        st.lists(st.sampled_from(population), unique=True) if population else st.just([])
    )
    known = data.draw(
        st.permutations([u.hex() for u in still + gone if u not in population or u in still])
    )
    status, uids, chip = read(*(Tag(u) for u in population), known=known)
    expected = sorted(u.hex().upper() for u in population)
    assert uids == expected
    assert status == ("ok" if population else "empty")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_uid.map(bytes), st.booleans()), max_size=5, unique_by=lambda t: t[0]))
def test_garbled_answers_never_invent_a_uid(population):
    tags = [Tag(uid, garbled=garbled) for uid, garbled in population]
    status, uids, _ = read(*tags)
    clean = {t.hex for t in tags if not t.garbled}
    assert set(uids) <= clean
    if not population:
        assert status == "empty"
    elif not uids:
        assert status == "collision"
