"""Runs the hub firmware's own main.py in the MicroPython unix port, on the chip model.

    micropython harness.py SCENARIO.json RESULT.json

The scenario (written by tests/firmware/test_under_micropython.py) gives the paths, the
board (tags per reader, readers missing or with MISO stuck high), config.py changes, the
virtual clock and timed events, and whether micropython-lib's usb-device is on the Pico
("usb": "present", "absent", or "fails" as on a MicroPython without machine.USBDevice; its
stand-in is usb_device/usb/device). `machine` is machine_shim.py and `time` is the model's
virtual clock; stdin and stdout are the hub's serial port, so stdout carries only what the
firmware writes. What the test needs besides (the fields that were on together, the
watchdog) goes to RESULT.json. Mode "pure" instead writes pure.outputs() there.
"""

import json
import sys


def main() -> None:
    with open(sys.argv[1]) as f:
        scenario = json.load(f)
    sys.path[:0] = scenario["paths"]
    import chip_model

    if scenario["mode"] == "pure":
        import time

        import hub
        import iso14443
        import mfrc522
        import protocol
        import pure

        result = pure.outputs(protocol, iso14443, mfrc522, hub, chip_model, scenario["inputs"])
        # The real unix port's own tick arithmetic, for the same pairs.
        pairs = scenario["inputs"]["tick_pairs"]
        result["real_ticks_diff"] = [time.ticks_diff(a, b) for a, b in pairs]
        adds = scenario["inputs"]["tick_adds"]
        result["real_ticks_add"] = [time.ticks_add(a, b) for a, b in adds]
        write(result)
        return
    import machine_shim

    clock_settings = scenario["clock"]
    clock = chip_model.VirtualClock(
        1_000_000.0, clock_settings["period"], clock_settings.get("wrap_after_us")
    )
    board = chip_model.Board(missing=scenario["missing"], clock=clock)
    for reader, uids in scenario["tags"]:
        board.put(reader, *[chip_model.Tag(uid) for uid in uids])
    board.logging(False)  # the register log would fill MicroPython's heap in a long run
    for reader in scenario["stuck_high"]:
        board.chips[reader].alive = False
        board.chips[reader].dead_reads = 0xFF
    sys.modules["machine"] = machine_shim
    sys.modules["time"] = clock
    import config

    for name, value in scenario["config"]:
        setattr(config, name, value)
    machine_shim.install(board, config.CS_PINS)
    usb_package = scenario.get("usb", "present")
    if usb_package != "absent":
        sys.path.insert(0, scenario["usb_device"])
        import usb.device

        if usb_package == "fails":
            usb.device.fail = "'module' object has no attribute 'USBDevice'"
    start = clock.now_us
    for event in scenario["events"]:
        clock.at(start + event[0] * 1000, action(board, event))
    import main as firmware_main

    outcome = "returned"
    try:
        firmware_main.main(config)
    except SystemExit:
        outcome = "ended"
    write(
        {
            "outcome": outcome,
            "virtual_ms": (clock.now_us - start) / 1000,
            "together": [sorted(list(names)) for names in board.ether.together],
            "fields_on": sorted(list(board.ether.on)),
            "contention": board.bus.contention,
            "spi": machine_shim.spi_settings,
            "reset_pin": machine_shim.made[config.RESET_PIN].values,
            "watchdogs": [
                [w.timeout_ms, w.feeds, w.longest_gap_ms] for w in machine_shim.watchdogs
            ],
            "usb_inits": sys.modules["usb.device"].calls if usb_package == "present" else [],
        }
    )


def action(board, event):
    kind = event[1]

    def run():
        import chip_model

        if kind == "put":
            board.put(event[2], chip_model.Tag(event[3]))
        elif kind == "clear":
            board.clear(event[2])
        elif kind == "kill":
            board.chips[event[2]].alive = False
            board.chips[event[2]].dead_reads = event[3]
        elif kind == "revive":
            board.chips[event[2]].alive = True
        elif kind == "fail":
            board.chips[event[2]].fail_with = MemoryError(event[3])
        elif kind == "heal":
            board.chips[event[2]].fail_with = None
        elif kind == "interrupt":
            raise KeyboardInterrupt
        elif kind == "end":
            raise SystemExit

    return run


def write(result) -> None:
    with open(sys.argv[2], "w") as f:
        json.dump(result, f)


main()
