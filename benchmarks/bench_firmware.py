"""Reader hub sweep budget, computed by running the firmware against the chip model.

The firmware's own register sequences run on the register-level MFRC522 model
(tests/firmware/chip_model.py), whose virtual clock charges every SPI access, every sleep
and every RF frame: the figures are the time a Pico would take, under the assumption stated
in the names, 30 us per register access (a MicroPython call with its chip-select toggles,
SPI at 4 MHz), and with the firmware's own settings from config.py (field settle, reply
timeout, sweep period). Tiles carry 7-byte NTAG213 UIDs (random, seeded).
"""

from __future__ import annotations

import random

from benchmarks.figure import Figure
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import hub, settings_of_config

SWEEPS = 5
SEED = 12


def _uids(count: int, rng: random.Random) -> list[bytes]:
    return [bytes([0x04]) + bytes(rng.randrange(256) for _ in range(6)) for _ in range(count)]


def _board(per_square: int, seed: int = SEED, **board_settings) -> Board:
    board = Board(**board_settings)
    rng = random.Random(seed)
    for reader in range(12):
        board.put(reader, *(Tag(uid) for uid in _uids(per_square, rng)))
    return board


def _sweep_ms(board: Board, reader_settings: dict | None = None, **settings) -> float:
    """Mean time of one sweep once the tiles are known (the sweeps after the first two)."""
    h, _ = hub(board, reader_settings=reader_settings, **{**settings_of_config(), **settings})
    h.self_test()
    board.logging(False)
    h.sweep()
    h.sweep()
    started = board.clock.now_us
    for _ in range(SWEEPS):
        h.sweep()
    return (board.clock.now_us - started) / 1000 / SWEEPS


def _first_sweep_ms(board: Board) -> float:
    """The first sweep over tiles never seen: every UID takes the anticollision rounds."""
    h, _ = hub(board, **settings_of_config())
    h.self_test()
    board.logging(False)
    started = board.clock.now_us
    h.sweep()
    return (board.clock.now_us - started) / 1000


def _accesses_per_empty_reader() -> float:
    board = Board()
    h, _ = hub(board, **settings_of_config())
    h.self_test()
    h.sweep()
    before = board.bus.transfers
    h.sweep()
    return (board.bus.transfers - before) / 12


def _tile_down_to_s_line_ms(per_square: int = 2, phases: int = 90, power_up_us: float = 300.0):
    """Worst and mean time from a tile laid on a square to the first S line that names it.

    The board holds a stack of `per_square` on every square; a new tile (never seen, so read
    by the anticollision) is laid at `phases` moments spread over a whole sweep cycle, on
    each square in turn, and taken away again once it was reported.
    """
    board = _board(per_square)
    h, out = hub(board, **settings_of_config())
    board.logging(False)
    clock = board.clock
    h.start()
    rng = random.Random(SEED + 1)
    latencies = []
    state = {"placed_at": None, "uid": None, "from": 0}

    def s_lines():
        return [(t, line) for t, line in zip(out.times_us, out.lines) if line.startswith(b"S ")]

    def run_until(predicate, limit_ms=2000):
        end = clock.now_us + limit_ms * 1000
        h.run(lambda: b"", lambda: clock.sleep_ms(1), lambda: predicate() or clock.now_us >= end)

    def wait_next_s_line():
        count = len(out.lines)
        run_until(lambda: any(line.startswith(b"S ") for line in out.lines[count:]))

    wait_next_s_line()
    wait_next_s_line()
    cycle_us = s_lines()[-1][0] - s_lines()[-2][0]
    for n in range(phases):
        reader = n % 12
        uid = _uids(1, rng)[0]
        tag = Tag(uid, power_up_us=power_up_us)
        wait_next_s_line()
        start = clock.now_us + cycle_us * (n / phases)

        def place(reader=reader, tag=tag, uid=uid):
            board.put(reader, tag)
            state["placed_at"] = clock.now_us
            state["uid"] = uid.hex().upper().encode()

        clock.at(start, place)
        state["from"] = len(out.lines)

        def reported():
            if state["placed_at"] is None:
                return False
            return any(
                line.startswith(b"S ") and state["uid"] in line
                for line in out.lines[state["from"] :]
            )

        run_until(reported)
        index = next(
            i
            for i in range(state["from"], len(out.lines))
            if out.lines[i].startswith(b"S ") and state["uid"] in out.lines[i]
        )
        latencies.append((out.times_us[index] - state["placed_at"]) / 1000)
        state["placed_at"] = None
        board.chips[reader].tags.remove(tag)
        wait_next_s_line()
    return max(latencies), sum(latencies) / len(latencies)


def run() -> list[Figure]:
    empty = _sweep_ms(Board())
    one_tile = _sweep_ms(_board(1))
    worst, mean = _tile_down_to_s_line_ms()
    return [
        Figure("firmware.sweep_empty_ms (30us/access)", empty, "ms", target=30),
        Figure("firmware.sweep_1_tile_every_square_ms", one_tile, "ms", target=60),
        Figure("firmware.sweep_2_stacks_every_square_ms", _sweep_ms(_board(2)), "ms", target=100),
        Figure("firmware.sweep_3_stacks_every_square_ms", _sweep_ms(_board(3)), "ms", target=150),
        Figure("firmware.first_sweep_3_stacks_never_seen_ms", _first_sweep_ms(_board(3)), "ms"),
        Figure("firmware.tile_down_to_s_line_worst_ms (2-stacks)", worst, "ms", target=150),
        Figure("firmware.tile_down_to_s_line_mean_ms (2-stacks)", mean, "ms"),
        Figure(
            "firmware.tile_down_to_s_line_worst_ms (2-stacks, tag taking ISO's 5 ms)",
            _tile_down_to_s_line_ms(power_up_us=5000.0)[0],
            "ms",
            target=150,
        ),
        Figure(
            "firmware.register_accesses_per_empty_square", _accesses_per_empty_reader(), "count"
        ),
        Figure(
            "firmware.sweep_empty_ms (60us/access)",
            _sweep_ms(Board(access_overhead_us=60.0)),
            "ms",
            target=100,
        ),
        Figure(
            "firmware.sweep_empty_ms (usual 25ms timeout)",
            _sweep_ms(Board(), reader_settings={"timer_reload": 999}),
            "ms",
        ),
    ]
