"""Reader hub sweep budget, computed by running the firmware against the chip model.

The firmware's own register sequences run on the register-level MFRC522 model
(tests/firmware/chip_model.py), whose virtual clock charges every SPI access, every sleep
and every RF frame: the figures are the time a Pico would take, under two assumptions
stated in the names: 30 us per register access (a MicroPython call with its chip-select
toggles, SPI at 4 MHz) and the firmware's settings (1 ms field settle, 1 ms reply timeout).
"""

from __future__ import annotations

from benchmarks.figure import Figure
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import hub

SWEEPS = 5


def _sweep_ms(board: Board, reader_settings: dict | None = None, **settings) -> float:
    """Mean time of one sweep after boot, in ms of the board's virtual clock."""
    h, _ = hub(board, reader_settings=reader_settings, **settings)
    h.self_test()
    board.logging(False)
    started = board.clock.now_us
    for _ in range(SWEEPS):
        h.sweep()
    return (board.clock.now_us - started) / 1000 / SWEEPS


def _accesses_per_empty_reader() -> float:
    board = Board()
    h, _ = hub(board)
    h.self_test()
    before = board.bus.transfers
    h.sweep()
    return (board.bus.transfers - before) / 12


def _ntag(reader: int, index: int = 0) -> Tag:
    return Tag(bytes([0x04, reader, index, 0xC3, 0xD4, 0xE5, 0xF6]))


def run() -> list[Figure]:
    empty = _sweep_ms(Board())
    one_each = Board()
    for reader in range(12):
        one_each.put(reader, _ntag(reader))
    stacks = Board()
    for reader in range(12):
        stacks.put(reader, *(_ntag(reader, i) for i in range(3)))
    one_tag = _sweep_ms(one_each)
    return [
        Figure("firmware.empty_sweep_ms (30us/access)", empty, "ms", target=50),
        Figure("firmware.empty_square_ms", empty / 12, "ms", target=3),
        Figure(
            "firmware.register_accesses_per_empty_square", _accesses_per_empty_reader(), "count"
        ),
        Figure("firmware.sweep_ntag_on_every_square_ms", one_tag, "ms", target=100),
        Figure("firmware.ntag_read_ms", (one_tag - empty) / 12, "ms"),
        Figure("firmware.sweep_3_tag_stack_on_every_square_ms", _sweep_ms(stacks), "ms"),
        Figure(
            "firmware.empty_sweep_ms (60us/access)",
            _sweep_ms(Board(access_overhead_us=60.0)),
            "ms",
            target=100,
        ),
        Figure(
            "firmware.empty_sweep_ms (usual 25ms timeout)",
            _sweep_ms(Board(), reader_settings={"timer_reload": 999}),
            "ms",
        ),
    ]
