"""`setup-companion run`: the daemon (on the Pi: under systemd, see systemd/)."""

from __future__ import annotations

import argparse
import logging
import threading

from companion.commands._common import (
    CommandError,
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
    parser.add_argument(
        "--faults",
        default="realistic",
        choices=("none", "realistic", "noisy"),
        help="--sim: how badly the simulated readers read (the web page can change it)",
    )
    add_log_argument(parser, "INFO")


def run(args: argparse.Namespace) -> int:
    from companion.commands._startup import Stopped
    from companion.notify import Notifier

    setup_logging(args.log_level)
    notifier = Notifier.from_env()
    try:
        return _run(args, notifier)
    except Stopped as stopped:  # said on the displays; exit 2, for the restart policy
        stopped.tell(notifier)
        raise
    finally:
        notifier.close()


def _run(args: argparse.Namespace, notifier) -> int:
    import signal

    from companion.board.problems import Problem
    from companion.commands._common import StateDirUnusable
    from companion.commands._lock import StateDirError, StateDirLock
    from companion.commands._startup import Stopped, config_displays, saving_problem
    from companion.daemon import Daemon, open_devices
    from companion.game.journal import Journal

    try:
        config, config_error = load_keeping_last_good(args)
    except CommandError as exc:
        problem = "state-unusable" if isinstance(exc, StateDirUnusable) else "config-broken"
        raise Stopped(problem, str(exc), *config_displays(args)) from None
    displays = {side: seat.display for side, seat in config.seats.items() if seat.enabled}
    try:
        lock = StateDirLock(config.paths.state_dir)  # held until this process ends
    except StateDirError as exc:
        if exc.in_use:  # another daemon has the table and its displays: leave them be
            raise CommandError(str(exc)) from None
        raise Stopped("state-unusable", str(exc), displays, config.game.language) from None
    unsaved = saving_problem(config.paths.state_dir, lock.unwritable)
    if unsaved is not None:
        logging.getLogger("setup.daemon").error(
            "the SD card cannot be written (%s): the table plays without saving games",
            Problem(unsaved),
        )
    registry = rig = devices = None
    try:
        if args.sim:
            from companion.sim.actions import PROFILES
            from companion.sim.devices import SimDevices

            sim = SimDevices(
                config, faults=PROFILES[args.faults](), seed=args.seed, hub_port=args.hub_port
            )
            sim.rig.hub.start(0.1)
            devices, registry, rig = sim.devices, sim.rig.registry, sim.rig
        else:
            devices = open_devices(config, hub_port=args.hub_port)
        journal = Journal(config.paths.journal, unsaved=unsaved)
        daemon = Daemon(config, devices, registry=registry, notifier=notifier, journal=journal)
    except Exception as exc:  # a bug or a device that stops the start: say so, then stop
        # the sentence goes to stderr (below); the traceback only with --log-level DEBUG
        logging.getLogger("setup.daemon").debug("the daemon failed while starting", exc_info=True)
        if devices is not None:
            devices.close()
        lock.release()
        raise Stopped("start-failed", f"the daemon failed while starting: {exc}", displays,
                      config.game.language) from None  # fmt: skip
    stop = threading.Event()
    on_signal = Stopping(stop)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    try:
        if config_error is not None:
            daemon.table.announce(Problem("config-invalid"), daemon.clock(), CONFIG_NOTICE_SECONDS)
        publisher = _publish(daemon, rig, args)
        if publisher is not None:
            devices.closers.append(publisher.close)
        daemon.serve(stop)
    finally:
        devices.close()
        lock.release()
    return 0


class Stopping:
    """What SIGTERM and SIGINT do to the daemon: set `stop`, once.

    A second signal can land while the first handler is inside `Event.set`, holding the
    Event's lock, which is not re-entrant: Ctrl-C on `make play` sends SIGINT, and the
    shell's trap SIGTERM right after. Calling `set` again from there waited on that lock
    for ever, and the daemon never stopped (about 1 stop in 100 on a loaded machine)."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.asked = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.asked:  # the first signal is being handled, or was: nothing more to do
            return
        self.asked = True
        self.stop.set()


def _publish(daemon, rig, args: argparse.Namespace):
    """The web companion's socket (companion.daemon.publish); the table plays on without it."""
    from companion.daemon.publish import Publisher, socket_path

    devices = daemon.devices
    try:
        publisher = Publisher(
            socket_path(daemon.config), clock=daemon.clock, presenter=devices.presenter
        )
    except OSError as exc:
        logging.getLogger("setup.publish").error(
            "no web companion socket (%s); the table plays on without it", exc
        )
        return None
    if rig is None:
        daemon.publish_to(publisher)
        return publisher
    from companion.sim.actions import SimActions

    buttons = devices.buttons
    pins = {seat: b.pin for seat, b in buttons.buttons.items()} if buttons else {}
    actions = SimActions(rig, pins, daemon.config.game.long_press, args.faults)
    daemon.publish_to(publisher, handlers=actions.handlers())
    daemon.sim_truth = actions.truth
    daemon.sound_listeners.append(actions.heard)
    assert daemon.requests is not None
    daemon.requests.log_pin = True
    return publisher
