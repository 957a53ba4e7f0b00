"""ISO/IEC 14443-3 type A: wake the tags in one reader's field and read every UID.

The activation loop of ISO/IEC 14443-3: WUPA (then REQA), the bit-oriented anticollision
and SELECT on each cascade level until the SAK says the UID is complete, then HLTA, and
again until no tag answers.

The loop is written as generators that yield the RF exchanges they need and are sent the
replies, so that the hub can run the readers of one group side by side (one reader's frame
is on the air while the SPI bus serves another). Each yielded exchange is a tuple
(frame, tx_last_bits, rx_align, reply_bits): reply_bits is the length of the answer a tag
gives, 0 for a frame that gets none (HLTA: Transmit, not Transceive). `run(chip, steps)`
plays such a generator on one chip (mfrc522.MFRC522 or anything with its exchange()).
"""

from mfrc522 import COLLISION, OK, TIMEOUT

REQA = 0x26  # short frame (7 bits): wakes the tags in IDLE
WUPA = 0x52  # short frame (7 bits): wakes the tags in IDLE and in HALT
SELECT_CODES = (0x93, 0x95, 0x97)  # SEL of cascade levels 1, 2, 3
NVB_SELECT = 0x70  # SELECT: all 7 bytes valid (SEL, NVB, the 4 bytes of UID CLn, BCC)
CASCADE_TAG = 0x88  # CT: first byte of UID CLn when the UID goes on at the next level
SAK_CASCADE = 0x04  # SAK bit 3: the UID is not complete yet
HLTA = b"\x50\x00\x57\xcd"  # HLTA with its CRC_A
ATQA_BITS = 16
SAK_BITS = 24  # SAK and its CRC_A

# How many failures (an anticollision round or a SELECT that led nowhere) one reading may
# spend looking for the tags it has not read yet: a badly coupled tag answers with broken
# bits, which look like collisions, and must not hold up the sweep for long.
MAX_FAILURES = 16

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


def run(chip, steps):
    """Play a generator of exchanges on one chip, one exchange after the other; return
    what the generator returns."""
    reply = None
    try:
        while True:
            request = steps.send(reply)
            reply = chip.exchange(request[0], request[1], request[2], request[3])
    except StopIteration as stop:
        return stop.value


def _on_dead_path(dead, sel: int, uid, bits: int) -> bool:
    """True if the first `bits` bits of uid at this level are a branch known to lead nowhere."""
    for dsel, duid, dbits in dead:
        if dsel != sel or dbits != bits:
            continue
        full = bits >> 3
        if duid[:full] != bytes(uid[:full]):
            continue
        extra = bits & 7
        if extra and (duid[full] ^ uid[full]) & ((1 << extra) - 1):
            continue
        return True
    return False


def resolving(sel: int, dead, budget=None):
    """Find one UID CLn at this cascade level (generator); return (its 4 bytes and BCC, the
    number of bits fixed by the last collision choice), or (None, 0).

    Each round sends the bits known so far (NVB = their count); every tag whose UID CLn
    starts with them answers the rest. Where the answers collide, the chip reports the
    position (CollReg); the bit there is taken as 1 (the standard's usual choice), or as 0
    when the 1 branch is in `dead` (a branch that led nowhere before, as (sel, uid, bits)),
    and the next round asks only the tags of that branch. A round that leads nowhere (no
    tag answers: the "collision" was a badly coupled tag's broken bits; or only broken
    bits come back) takes the other branch of the last choice: the tags that did not match
    stay READY (ISO/IEC 14443-3), so no new REQA is needed. budget: a one-item list, the
    rounds that may still fail in this reading (shared by every level and attempt).
    """
    if budget is None:
        budget = [MAX_FAILURES]
    uid = bytearray(5)
    known = 0
    choices = []  # (bit, other branch still open) of each collision choice, newest last
    while True:
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
        reply = yield (frame, extra, extra, 40 - known)
        bit = _next_choice(reply, uid, full, extra)
        if bit == DONE:
            return uid, known
        if bit >= 0:
            uid[bit >> 3] |= 1 << (bit & 7)
            if not _on_dead_path(dead, sel, uid, bit + 1):
                choices.append((bit, not _on_dead_path(dead, sel, _flip(uid, bit), bit + 1)))
                known = bit + 1
                continue
            uid[bit >> 3] &= ~(1 << (bit & 7)) & 0xFF
            if not _on_dead_path(dead, sel, uid, bit + 1):
                choices.append((bit, False))
                known = bit + 1
                continue
        # This branch leads nowhere: take the other one of the newest open choice.
        budget[0] -= 1
        while choices and not choices[-1][1]:
            choices.pop()
        if not choices or budget[0] <= 0:
            return None, 0
        bit = choices.pop()[0]
        uid[bit >> 3] ^= 1 << (bit & 7)
        uid[bit >> 3] &= (2 << (bit & 7)) - 1
        for i in range((bit >> 3) + 1, 5):
            uid[i] = 0
        choices.append((bit, False))
        known = bit + 1


DONE = 40
FAILED = -1


def _flip(uid, bit: int):
    other = bytearray(uid)
    other[bit >> 3] ^= 1 << (bit & 7)
    return other


def _next_choice(reply, uid, full: int, extra: int) -> int:
    """Take one anticollision reply into uid: DONE when it completed a sound UID CLn, the
    collided bit to choose at (bits from it on cleared), or FAILED."""
    data = reply.data
    if reply.status == OK:
        # The tags sent the 40 - known missing bits; aligned at rx_align = extra they fill
        # exactly the bytes from `full` to the BCC.
        if len(data) != 5 - full or reply.last_bits:
            return FAILED
        _merge(uid, full, extra, data, 5 - full)
        return DONE if uid[0] ^ uid[1] ^ uid[2] ^ uid[3] == uid[4] else FAILED
    if reply.status != COLLISION:
        return FAILED
    # CollPos counts from bit 0 of the first FIFO byte, RxAlign included (MFRC631 datasheet:
    # "RxAlign ... included in the CollPos"; NXP's reader library): the collided bit is bit
    # CollPos - 1 of the bytes received, which start at byte `full`.
    position = reply.coll_pos
    if position <= extra:
        return FAILED  # no position, or one inside the bits that were sent: no progress
    bit = (full << 3) + position - 1
    if bit >= 32:
        return FAILED  # the UID bytes agree, so their BCCs cannot differ: not a sound answer
    # Only the bytes up to the collision count (the rest may be missing; NXP's library reads
    # no further either).
    needed = (position - 1 + 7) >> 3
    if len(data) < needed:
        return FAILED
    if needed:
        _merge(uid, full, extra, data, needed)
    uid[bit >> 3] &= (1 << (bit & 7)) - 1
    for i in range((bit >> 3) + 1, 5):
        uid[i] = 0
    return bit


def _merge(uid, full: int, extra: int, data, count: int) -> None:
    """Copy count received bytes into uid from byte `full`, keeping the `extra` bits of
    uid[full] that were sent (the received first byte holds the rest of it)."""
    if extra:
        mask = (1 << extra) - 1
        uid[full] = (uid[full] & mask) | (data[0] & ~mask & 0xFF)
    else:
        uid[full] = data[0]
    for i in range(1, count):
        uid[full + i] = data[i]


def selecting_level(sel: int, uid_cln):
    """SELECT the tag with this UID CLn (4 bytes and BCC), a generator; return its SAK, or -1."""
    frame = bytearray(9)
    frame[0] = sel
    frame[1] = NVB_SELECT
    for i in range(5):
        frame[2 + i] = uid_cln[i]
    crc = crc_a(frame[:7])
    frame[7] = crc & 0xFF
    frame[8] = crc >> 8
    reply = yield (frame, 0, 0, SAK_BITS)
    data = reply.data
    if reply.status != OK or len(data) != 3 or reply.last_bits:
        return -1
    if crc_a(data[:1]) != data[1] | (data[2] << 8):
        return -1
    return data[0]


def selecting(dead=None, budget=None):
    """Run the cascade levels for one tag in READY state (a generator); return its UID
    bytes, or None.

    A 4-byte UID takes one level, 7 bytes (NTAG213 stickers) two, 10 bytes three: every
    level but the last carries the cascade tag 88h and three UID bytes. A level that fails
    marks its branch in `dead` (see resolving); a level that fails without any choice made
    in it marks the branch of the level before, which led to it.
    """
    if dead is None:
        dead = []
    if budget is None:
        budget = [MAX_FAILURES]
    uid = bytearray()
    above = []  # (sel, UID CLn, bits chosen) of the levels resolved so far
    for level in range(3):
        sel = SELECT_CODES[level]
        cln, chosen = yield from resolving(sel, dead, budget)
        failed = cln is None
        if not failed:
            sak = yield from selecting_level(sel, cln)
            if sak >= 0 and not sak & SAK_CASCADE:
                uid.extend(cln[0:4])
                return bytes(uid)
            failed = sak < 0 or cln[0] != CASCADE_TAG
            if failed and chosen:
                dead.append((sel, bytes(cln), chosen))
        if failed:
            if chosen == 0:
                # Nothing was chosen at this level: the branch above is what led here.
                for asel, acln, achosen in reversed(above):
                    if achosen:
                        dead.append((asel, acln, achosen))
                        break
                else:
                    dead.append((SELECT_CODES[0], bytes(5), 0))
            return None
        above.append((sel, bytes(cln), chosen))
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


def selecting_uid(uid: bytes):
    """SELECT a tag whose UID is known, skipping the anticollision rounds (a generator);
    return True if it answered every cascade level as a tag with this UID would."""
    levels = uid_levels(uid)
    for level in range(len(levels)):
        sak = yield from selecting_level(SELECT_CODES[level], levels[level])
        if sak < 0 or bool(sak & SAK_CASCADE) != (level < len(levels) - 1):
            return False
    return True


def reading(max_tags: int = 8, known=()):
    """Read every tag in the (switched-on, settled) field of one reader, a generator.

    Returns (status, uids): FOUND with every UID read (a stack may give several, or only
    some of its tags), EMPTY when no tag answered, COLLIDED when something answered but no
    UID could be resolved. Each tag read is sent to HALT, so the next REQA wakes only the
    ones not read yet. A tag that cannot be read does not stop the others being read: the
    branch it was on is avoided in the next attempts (up to MAX_FAILURES of them).

    known: the UIDs this reader saw last time. Each is SELECTed directly, which saves the
    two anticollision exchanges per cascade level for the tiles that have not moved (most
    of them, most of the time); a tile that has gone simply does not answer its SELECT,
    and the SELECT sent the other tags back to IDLE, where the next REQA finds them.
    """
    uids = []
    pending = list(known)
    dead = []
    budget = [MAX_FAILURES]
    answered = False
    ask_again = False
    command = WUPA
    for _ in range(max_tags + 2 * len(pending) + MAX_FAILURES + 2):
        if len(uids) >= max_tags:
            break
        reply = yield (bytes((command,)), 7, 0, ATQA_BITS)
        command = REQA
        if reply.status == TIMEOUT:
            if not ask_again:
                break
            # A SELECT or an anticollision that failed half-way can leave tags in READY or
            # ACTIVE, where REQA only sends them back to IDLE; the REQA after that wakes them.
            ask_again = False
            continue
        ask_again = False
        answered = True
        if pending:
            uid = pending.pop(0)
            if not (yield from selecting_uid(uid)):
                ask_again = True
                continue
        else:
            uid = yield from selecting(dead, budget)
            if uid is None:
                budget[0] -= 1
                if budget[0] <= 0 or (SELECT_CODES[0], bytes(5), 0) in dead:
                    break
                ask_again = True
                continue
        if uid not in uids:
            uids.append(uid)
        yield (HLTA, 0, 0, 0)
    if uids:
        return FOUND, uids
    return (COLLIDED if answered else EMPTY), uids


# Blocking forms, one exchange after the other on one chip.


def read_field(chip, max_tags: int = 8, known=()):
    """reading() on one chip; raises mfrc522.ReaderFault when the chip stops answering."""
    return run(chip, reading(max_tags, known))


def select_tag(chip):
    return run(chip, selecting())


def select_uid(chip, uid: bytes) -> bool:
    return run(chip, selecting_uid(uid))


def resolve_level(chip, sel: int):
    return run(chip, resolving(sel, []))[0]


def select_level(chip, sel: int, uid_cln: bytes) -> int:
    return run(chip, selecting_level(sel, uid_cln))
