"""Wiring the firmware to the chip model, as main.py wires it to the Pico."""

from __future__ import annotations

from tests.firmware.chip_model import Board, Tag
from tests.firmware.loader import firmware

NTAG = "04A1B2C3D4E5F6"  # a 7-byte NTAG213 sticker UID


def readers(board: Board, **settings) -> list:
    """The firmware's MFRC522 objects, one per chip-select line of the board."""
    fw = firmware()
    return [fw.mfrc522.MFRC522(board.bus, pin, board.clock, **settings) for pin in board.pins]


def chip_driver(board: Board, index: int = 0, **settings):
    """One initialised firmware driver for reader `index`, field off."""
    driver = readers(board, **settings)[index]
    driver.init()
    return driver


class Output:
    """Collects the lines the hub writes, with the virtual time of each."""

    def __init__(self, board: Board):
        self._board = board
        self.lines: list[bytes] = []
        self.times_us: list[float] = []

    def __call__(self, line: bytes) -> None:
        self.lines.append(bytes(line))
        self.times_us.append(self._board.clock.now_us)

    def kinds(self) -> list[str]:
        return [line.split(b" ", 1)[0].split(b"*", 1)[0].decode() for line in self.lines]

    def of_kind(self, kind: str) -> list[bytes]:
        return [line for line, k in zip(self.lines, self.kinds()) if k == kind]


def settings_of_config(**overrides) -> dict:
    """The Hub settings main.py passes from config.py (the hub's defaults may differ)."""
    config = firmware().config
    settings = {
        "max_tags": config.MAX_TAGS,
        "antenna_settle_us": config.ANTENNA_SETTLE_US,
        "sweep_period_ms": config.SWEEP_PERIOD_MS,
        "heartbeat_ms": config.HEARTBEAT_MS,
        "fault_retry_ms": config.FAULT_RETRY_MS,
        "groups": config.FIELD_GROUPS,
    }
    settings.update(overrides)
    return settings


def hub(board: Board, out=None, reader_settings: dict | None = None, **settings):
    """A firmware Hub on the board, set up as config.py says unless `settings` say otherwise;
    its lines go to `out` (an Output unless given)."""
    fw = firmware()
    out = out if out is not None else Output(board)
    settings = {"firmware": "1.0.0", **settings_of_config(), **settings}
    return fw.hub.Hub(readers(board, **(reader_settings or {})), out, board.clock, **settings), out


def run(hub_, board: Board, ms: float, inputs: dict[float, bytes] | None = None) -> None:
    """Run the hub's main loop for `ms` of virtual time, idling 1 ms as main.py does.

    inputs: bytes the Pi sends, by virtual time in ms from now.
    """
    clock = board.clock
    end = clock.now_us + ms * 1000
    pending = sorted(((clock.now_us + t * 1000, data) for t, data in (inputs or {}).items()))

    def read_input() -> bytes:
        data = b""
        while pending and pending[0][0] <= clock.now_us:
            data += pending.pop(0)[1]
        return data

    hub_.run(read_input, lambda: clock.sleep_ms(1), lambda: clock.now_us >= end)


def tags(*uids: str, **kwargs) -> list[Tag]:
    return [Tag(uid, **kwargs) for uid in uids]
