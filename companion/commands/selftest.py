"""`setup-companion selftest`: checks the hub link, each reader, display, button and the buzzer."""

from __future__ import annotations

import argparse

from companion.commands._common import (
    CommandError,
    add_config_arguments,
    add_log_argument,
    load,
    setup_logging,
)
from engine import SIDES

HELP = "check the hub link, each reader, display and button, and the buzzer: PASS or FAIL each"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument(
        "--button-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long to wait for each seat's button to be pressed (default 10)",
    )
    parser.add_argument("--no-buttons", action="store_true", help="do not ask for the buttons")
    parser.add_argument(
        "--hub-timeout",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long to wait for the hub's first line (default 3)",
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        help="test the simulated table: a virtual hub, mock pins pressed by themselves, "
        "in-memory displays",
    )
    parser.add_argument(
        "--sim-fault-reader",
        type=int,
        action="append",
        default=[],
        metavar="N",
        help="--sim: reader N (0..11) is in fault (may be given several times)",
    )
    parser.add_argument(
        "--sim-broken-display",
        action="append",
        default=[],
        choices=SIDES,
        metavar="SIDE",
        help="--sim: the display of this side (N, E, S, W) is not connected",
    )
    add_log_argument(parser, "ERROR")
    parser.epilog = (
        "Stop the daemon first (sudo systemctl stop setup-companion): it holds the hub's port. "
        "The exit code is 0 only if every check passed."
    )


def run(args: argparse.Namespace) -> int:
    from contextlib import ExitStack

    from companion.selftest import TableSelfTest, summary

    setup_logging(args.log_level)
    if args.button_timeout <= 0 or args.hub_timeout <= 0:
        raise CommandError("--button-timeout and --hub-timeout must be more than 0 seconds")
    if not args.sim and (args.sim_fault_reader or args.sim_broken_display):
        raise CommandError("--sim-fault-reader and --sim-broken-display need --sim")
    config = load(args)
    with ExitStack() as stack:
        options = {}
        if args.sim:
            options = _sim(args, config, stack)
        test = TableSelfTest(
            config,
            hub_port=args.hub_port or options.pop("hub_port", None),
            buttons=not args.no_buttons,
            button_timeout=args.button_timeout,
            hub_timeout=args.hub_timeout,
            out=lambda line: print(line, flush=True),
            **options,
        )
        checks = test.run()
    print(summary(checks))
    return 0 if all(check.passed is not False for check in checks) else 1


def _sim(args, config, stack):
    """The simulated table: its hub sweeping on a pty, mock pins, dummy displays."""
    import threading
    import time

    from companion.sim.rig import SimRig, mock_pin_factory
    from hardware.hub.sim import FaultModel

    readers = len(config.hub.readers)
    bad = [n for n in args.sim_fault_reader if not 0 <= n < readers]
    if bad:
        raise CommandError(f"--sim-fault-reader {bad[0]}: readers are numbered 0..{readers - 1}")
    faults = FaultModel(faulty_readers=frozenset(args.sim_fault_reader))
    rig = stack.enter_context(SimRig(faults, readers=config.hub.readers))
    rig.hub.start(0.1)
    pins = mock_pin_factory()
    stack.callback(pins.close)

    def press(side, pin):
        # a person's finger: down a moment after being asked, held 0.1 s
        def finger():
            time.sleep(0.2)
            pins.pin(pin).drive_low()
            time.sleep(0.1)
            pins.pin(pin).drive_high()

        threading.Thread(target=finger, name=f"press-{side}", daemon=True).start()

    displays = {}
    for side, seat in config.seats.items():
        if not seat.enabled:
            continue
        displays[side] = {"driver": "dummy", "interface": "noop"}
        if side in args.sim_broken_display:  # a real panel on a bus nobody answers on
            displays[side] = {"driver": "ssd1306", "i2c_port": 99, "keep_image": False}
    return {
        "hub_port": rig.port,
        "pin_factory": pins,
        "press": press,
        "displays": displays,
        "scan": None,  # the panels of this machine are not the simulated table's
        "simulated": True,
    }
