"""ISO/IEC 14443-3 type A: wake the tags in one reader's field and read every UID.

The activation loop of ISO/IEC 14443-3: WUPA (then REQA), the bit-oriented anticollision
and SELECT on each cascade level until the SAK says the UID is complete, then HLTA, and
again until no tag answers. Works with anything that has the transceive/transmit API of
mfrc522.MFRC522 (the chip, or the chip model in the host tests).
"""

from mfrc522 import COLLISION, OK, TIMEOUT

REQA = 0x26  # short frame (7 bits): wakes the tags in IDLE
WUPA = 0x52  # short frame (7 bits): wakes the tags in IDLE and in HALT
SELECT_CODES = (0x93, 0x95, 0x97)  # SEL of cascade levels 1, 2, 3
NVB_SELECT = 0x70  # SELECT: all 7 bytes valid (SEL, NVB, the 4 bytes of UID CLn, BCC)
CASCADE_TAG = 0x88  # CT: first byte of UID CLn when the UID goes on at the next level
SAK_CASCADE = 0x04  # SAK bit 3: the UID is not complete yet
HLTA = b"\x50\x00\x57\xcd"  # HLTA with its CRC_A

# What a reader saw, as the protocol's field statuses.
EMPTY = "empty"
FOUND = "ok"
COLLIDED = "collision"


def crc_a(data: bytes) -> int:
    """CRC_A of ISO/IEC 14443-3 (initial value 6363h, reflected CCITT polynomial).

    Sent low byte first. Check values from the standard's annex: 00 00 -> 1EA0h,
    12 34 -> CF26h.
    """
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc & 0xFFFF


def resolve_level(chip, sel: int):
    """Find one UID CLn at this cascade level; return its 4 bytes and BCC, or None.

    Each round sends the bits known so far (NVB = their count); every tag whose UID CLn
    starts with them answers the rest. Where the answers collide, the chip reports the
    position (CollReg); the bit there is taken as 1 (the standard's usual choice) and the
    next round asks only the tags with that bit. The known part grows by at least one bit
    per round, so 32 rounds always end it.
    """
    uid = bytearray(5)
    known = 0
    for _ in range(33):
        full = known >> 3
        extra = known & 7
        sent = full + (1 if extra else 0)
        frame = bytearray(2 + sent)
        frame[0] = sel
        frame[1] = ((2 + full) << 4) | extra
        for i in range(sent):
            frame[2 + i] = uid[i]
        if extra:
            frame[1 + sent] &= (1 << extra) - 1
        reply = chip.transceive(frame, extra, extra)
        if reply.status != OK and reply.status != COLLISION:
            return None
        data = reply.data
        # The tags send the 40 - known missing bits; aligned at rx_align = extra they fill
        # exactly the bytes from `full` to the BCC.
        if len(data) != 5 - full:
            return None
        if extra:
            mask = (1 << extra) - 1
            uid[full] = (uid[full] & mask) | (data[0] & ~mask & 0xFF)
        else:
            uid[full] = data[0]
        for i in range(1, len(data)):
            uid[full + i] = data[i]
        if reply.status == OK:
            if reply.last_bits or uid[0] ^ uid[1] ^ uid[2] ^ uid[3] != uid[4]:
                return None
            return uid
        # CollPos counts from the first bit received in this frame (9.3.1.15 of the MFRC522
        # datasheet), i.e. from UID CLn bit number `known`.
        bit = known + reply.coll_pos - 1
        if reply.coll_pos == 0 or bit >= 32:
            return None
        uid[bit >> 3] |= 1 << (bit & 7)
        known = bit + 1
    return None


def select_level(chip, sel: int, uid_cln: bytes) -> int:
    """SELECT the tag with this UID CLn (4 bytes and BCC); return its SAK, or -1."""
    frame = bytearray(9)
    frame[0] = sel
    frame[1] = NVB_SELECT
    for i in range(5):
        frame[2 + i] = uid_cln[i]
    crc = crc_a(frame[:7])
    frame[7] = crc & 0xFF
    frame[8] = crc >> 8
    reply = chip.transceive(frame)
    data = reply.data
    if reply.status != OK or len(data) != 3 or reply.last_bits:
        return -1
    if crc_a(data[:1]) != data[1] | (data[2] << 8):
        return -1
    return data[0]


def select_tag(chip):
    """Run the cascade levels for one tag in READY state; return its UID bytes, or None.

    A 4-byte UID takes one level, 7 bytes (NTAG213 stickers) two, 10 bytes three: every
    level but the last carries the cascade tag 88h and three UID bytes.
    """
    uid = bytearray()
    for level in range(3):
        sel = SELECT_CODES[level]
        cln = resolve_level(chip, sel)
        if cln is None:
            return None
        sak = select_level(chip, sel, cln)
        if sak < 0:
            return None
        if not sak & SAK_CASCADE:
            uid.extend(cln[0:4])
            return bytes(uid)
        if cln[0] != CASCADE_TAG:
            return None
        uid.extend(cln[1:4])
    return None


def uid_levels(uid: bytes) -> list:
    """UID CLn of each cascade level, each with its BCC: what SELECT sends for this UID."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes((CASCADE_TAG,)) + uid[0:3], uid[3:7]]
    else:
        parts = [bytes((CASCADE_TAG,)) + uid[0:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:10]]
    return [p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],)) for p in parts]


def select_uid(chip, uid: bytes) -> bool:
    """SELECT a tag whose UID is known, skipping the anticollision rounds; True if it
    answered every cascade level as a tag with this UID would."""
    levels = uid_levels(uid)
    for level in range(len(levels)):
        sak = select_level(chip, SELECT_CODES[level], levels[level])
        if sak < 0 or bool(sak & SAK_CASCADE) != (level < len(levels) - 1):
            return False
    return True


def read_field(chip, max_tags: int = 8, known=()):
    """Read every tag in the (switched-on) field of one reader.

    Returns (status, uids): FOUND with the UIDs read (a stack may give several, or only
    some of its tags), EMPTY when no tag answered, COLLIDED when something answered but no
    UID could be resolved. Each tag read is sent to HALT, so the next REQA wakes only the
    ones not read yet. Raises mfrc522.ReaderFault when the chip itself stops answering.

    known: the UIDs this reader saw last time. Each is SELECTed directly, which saves the
    two anticollision exchanges per cascade level for the tiles that have not moved (most
    of them, most of the time); a tile that has gone simply does not answer its SELECT,
    and the SELECT sent the other tags back to IDLE, where the next REQA finds them.
    """
    uids = []
    pending = list(known)
    answered = False
    ask_again = False
    command = WUPA
    for _ in range(max_tags + 2 * len(pending)):
        if len(uids) >= max_tags:
            break
        reply = chip.transceive(bytes((command,)), 7)
        command = REQA
        if reply.status == TIMEOUT:
            if not ask_again:
                break
            # A SELECT that failed half-way can leave a tag in READY or ACTIVE, where REQA
            # only sends it back to IDLE; the REQA after that wakes it.
            ask_again = False
            continue
        ask_again = False
        answered = True
        if pending:
            uid = pending.pop(0)
            if not select_uid(chip, uid):
                ask_again = True
                continue
        else:
            uid = select_tag(chip)
            if uid is None:
                break
        if uid not in uids:
            uids.append(uid)
        chip.transmit(HLTA)
    if uids:
        return FOUND, uids
    return (COLLIDED if answered else EMPTY), uids
