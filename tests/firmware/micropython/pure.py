"""The firmware's pure functions (and the ISO 14443 loop on the chip model) over a set of
inputs, as JSON-ready values: run in CPython and in the MicroPython unix port, the two
results must be equal. Written for both interpreters, like the firmware itself."""


def _hex(data) -> str:
    return bytes(data).hex()


def outputs(protocol, iso14443, mfrc522, hub, chip_model, inputs) -> dict:
    out = {}
    data = [bytes.fromhex(h) for h in inputs["data"]]
    out["crc16"] = [protocol.crc16(d) for d in data]
    out["crc_a"] = [iso14443.crc_a(d) for d in data]
    out["frame"] = [_hex(protocol.frame(body)) for body in inputs["bodies"]]
    out["commands"] = [list(protocol.parse_command(bytes.fromhex(h))) for h in inputs["commands"]]
    reader = protocol.LineReader()
    out["lines"] = [[_hex(x) for x in reader.feed(bytes.fromhex(h))] for h in inputs["chunks"]]
    snapshots = []
    for seq, readings in inputs["snapshots"]:
        typed = [(status, [bytes.fromhex(u) for u in uids]) for status, uids in readings]
        snapshots.append(_hex(protocol.snapshot_line(seq, typed)))
    out["snapshots"] = snapshots
    out["others"] = [
        _hex(protocol.hello_line("1.0.0", 12)),
        _hex(protocol.heartbeat_line(65535, 123456789)),
        _hex(protocol.selftest_line([0x92, None, 0x12])),
        _hex(protocol.error_line("reader 3 MemoryError")),
    ]
    out["uid_levels"] = [
        [_hex(p) for p in iso14443.uid_levels(bytes.fromhex(u))] for u in inputs["uids"]
    ]
    out["frame_us"] = [int(round(mfrc522.frame_us(n, bits) * 1000)) for n, bits in inputs["frames"]]
    out["groups"] = [hub.field_groups(groups, count) for groups, count in inputs["groups"]]
    out["describe"] = [hub.describe(ValueError(text)) for text in inputs["texts"]]
    out["describe"].append(hub.describe(mfrc522.ReaderFault("does not answer")))
    out["describe"].append(hub.describe(MemoryError()))
    fields = []
    for population in inputs["populations"]:
        board = chip_model.Board(readers=1)
        board.put(0, *[chip_model.Tag(uid) for uid in population])
        driver = mfrc522.MFRC522(board.bus, board.pins[0], board.clock)
        driver.init()
        driver.antenna_on()
        board.clock.sleep_us(5100)
        status, uids = iso14443.read_field(driver, 8, [])
        frames = board.chips[0].frames
        fields.append(
            [status, sorted([_hex(u) for u in uids]), len(frames), int(board.clock.now_us)]
        )
    out["fields"] = fields
    clock = chip_model.VirtualClock(0, 1 << 62)
    out["ticks_diff"] = [clock.ticks_diff(a, b) for a, b in inputs["tick_pairs"]]
    out["ticks_add"] = [clock.ticks_add(a, b) for a, b in inputs["tick_adds"]]
    return out
