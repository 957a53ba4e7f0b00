"""`setup-companion run`: the daemon (on the Pi: under systemd, see systemd/)."""

from __future__ import annotations

import argparse

from companion.commands._common import (
    add_config_arguments,
    add_log_argument,
    add_sim_arguments,
    load_keeping_last_good,
    setup_logging,
)

HELP = "run the scorekeeper daemon (--sim: on the simulated table)"
#: how long the displays say that the edited configuration is broken (at every start)
CONFIG_NOTICE_SECONDS = 30.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser, state_dir="the journal and the tile registry")
    add_sim_arguments(
        parser, "play on the simulated table: a virtual hub, mock pins, dummy displays"
    )
    add_log_argument(parser, "INFO")


def run(args: argparse.Namespace) -> int:
    import signal
    import threading

    from companion.board.problems import Problem
    from companion.cli import CommandError
    from companion.commands._lock import StateDirError, StateDirLock
    from companion.daemon import Daemon, open_devices
    from companion.notify import Notifier

    setup_logging(args.log_level)
    config, config_error = load_keeping_last_good(args)
    try:
        lock = StateDirLock(config.paths.state_dir)  # held until this process ends
    except StateDirError as exc:
        raise CommandError(str(exc)) from None
    notifier = Notifier.from_env()
    registry = None
    if args.sim:
        from companion.sim.devices import SimDevices
        from hardware.hub.sim import FaultModel

        sim = SimDevices(
            config, faults=FaultModel.realistic(), seed=args.seed, hub_port=args.hub_port
        )
        sim.rig.hub.start(0.1)
        devices, registry = sim.devices, sim.rig.registry
    else:
        devices = open_devices(config, hub_port=args.hub_port)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        daemon = Daemon(config, devices, registry=registry, notifier=notifier)
        if config_error is not None:
            daemon.table.announce(Problem("config-invalid"), daemon.clock(), CONFIG_NOTICE_SECONDS)
        daemon.serve(stop)
    finally:
        devices.close()
        notifier.close()
        lock.release()
    return 0
