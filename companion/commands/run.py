"""`setup-companion run`: the daemon (on the Pi: under systemd, see systemd/)."""

from __future__ import annotations

import argparse

HELP = "run the scorekeeper daemon (--sim: on the simulated table)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default /etc/setup-companion/config.toml)",
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        help="play on the simulated table: a virtual hub, mock pins, in-memory displays",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where the journal and the tile registry live (default: the config's, or $STATE_DIRECTORY)",
    )
    parser.add_argument(
        "--hub-port", metavar="PATH", help="the reader hub's serial port (default: the config's)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="--sim: the seed of the readers' faults"
    )
    parser.add_argument(
        "--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"]
    )


def run(args: argparse.Namespace) -> int:
    import logging
    import os
    import signal
    import threading
    from dataclasses import replace
    from pathlib import Path

    from companion.cli import CommandError
    from companion.config import ConfigError, PathsConfig, load_config
    from companion.daemon import Daemon, open_devices
    from companion.notify import Notifier

    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise CommandError(f"the configuration is not valid: {exc}") from None
    state_dir = args.state_dir or os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if args.sim and not state_dir and args.config is None:
        state_dir = "/tmp/setup-companion-sim"
    if state_dir:
        config = replace(config, paths=PathsConfig(Path(state_dir)))
    try:
        config.paths.state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(
            f"cannot use the state directory {config.paths.state_dir}: {exc.strerror}"
        ) from None

    notifier = Notifier.from_env()
    rig = pin_factory = registry = None
    hub_port = args.hub_port
    displays = None
    if args.sim:
        from companion.simrig import SimRig, mock_pin_factory
        from hardware.hub.sim import FaultModel

        rig = SimRig(FaultModel.realistic(), seed=args.seed, readers=config.hub.readers)
        rig.hub.start(0.1)
        hub_port = hub_port or rig.port
        pin_factory = mock_pin_factory()
        registry = rig.registry
        displays = {
            side: {"driver": "dummy"} for side, seat in config.seats.items() if seat.enabled
        }
    devices = open_devices(config, hub_port=hub_port, pin_factory=pin_factory, displays=displays)
    if rig is not None:
        devices.closers.append(rig.close)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        daemon = Daemon(config, devices, registry=registry, notifier=notifier)
        daemon.serve(stop)
    finally:
        devices.close()
        notifier.close()
    return 0
