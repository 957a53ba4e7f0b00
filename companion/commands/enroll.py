"""`setup-companion enroll`: the guided registration of the 50 tiles' tags (resumable)."""

from __future__ import annotations

import argparse

from companion.commands._common import (
    CommandError,
    add_config_arguments,
    add_log_argument,
    add_sim_arguments,
    load,
    setup_logging,
)
from engine import SQUARES

HELP = "register which NFC tag is under which tile: put each tile asked for on one square"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser, state_dir="the tile registry")
    parser.add_argument(
        "--square",
        default="NW",
        choices=SQUARES,
        metavar="SQUARE",
        help="the square the tiles are put on, one at a time (default NW)",
    )
    parser.add_argument(
        "--redo", metavar="TILE", help="enrol this one tile again (e.g. star-3: a new sticker)"
    )
    parser.add_argument(
        "--list", action="store_true", help="print the registry (every tile and its tag) and stop"
    )
    add_sim_arguments(
        parser, "on the simulated table, where a scripted person puts each tile asked for"
    )
    add_log_argument(parser)
    parser.epilog = (
        "The registry is saved after each tile: stopped at any moment (Ctrl-C, power cut), "
        "`enroll` goes on with the tiles still missing."
    )


def run(args: argparse.Namespace) -> int:
    from contextlib import ExitStack

    from companion.board.registry import Registry, RegistryError
    from companion.commands._service import NotOwner, hub_holder, owned_save
    from companion.enrolment import Enrolment, registry_listing
    from engine import Tile, TileError

    setup_logging(args.log_level)
    config = load(args)
    try:
        registry = Registry.load(config.paths.registry)
    except RegistryError as exc:
        raise CommandError(str(exc)) from None
    if args.list:
        for line in registry_listing(registry):
            print(line)
        return 0
    if args.redo:
        try:
            tiles = [Tile.parse(args.redo)]
        except TileError as exc:
            raise CommandError(f"--redo: {exc}") from None
    else:
        tiles = list(registry.missing())
    if not tiles:
        print(
            f"All {len(registry)} tiles are enrolled in {config.paths.registry}; "
            "--redo TILE enrols one again, --list shows them."
        )
        return 0
    if args.square not in config.hub.readers:
        raise CommandError(f"no reader is under square {args.square} in the configuration")
    # written as the state dir's owner with its modes: the service must read it (sudo enroll)
    registry.save = owned_save(registry.save, config.paths.registry)  # type: ignore[method-assign]
    if not args.sim:
        port = args.hub_port or config.hub.port
        holder = hub_holder(port)
        if holder is not None:
            raise CommandError(
                f"{holder} holds the reader hub {port}: stop it with "
                "`sudo systemctl stop setup-companion` and run enroll again, or register "
                "the tiles at the table (hold a button in the empty lobby: the settings)"
            )

    with ExitStack() as stack:
        listeners = [lambda prompt: print(prompt, flush=True)]
        options = {}
        if args.sim:
            table, displays, person = _sim_table(args, config, stack)
            listeners.append(person)
            options = {"clock": table.clock, "give_up_after": 120.0}
        else:
            from hardware.hub.link import HubLink

            table = stack.enter_context(HubLink(args.hub_port or config.hub.port))
            displays = {side: s.display for side, s in config.seats.items() if s.enabled}
        shown = _displays(displays, config.game.language)
        stack.callback(shown.close)
        listeners.append(shown)
        enrolment = Enrolment(
            registry,
            table,
            square=args.square,
            readers=config.hub.readers,
            listeners=listeners,
            **options,
        )
        print(f"Enrolling {len(tiles)} tile(s) into {config.paths.registry}.", flush=True)
        try:
            result = enrolment.run(tiles)
        except KeyboardInterrupt:
            print(f"\nStopped: {len(registry)}/50 enrolled and saved; run enroll again to go on.")
            return 130
        except NotOwner as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(
                f"cannot save the tile registry {config.paths.registry}: {exc.strerror or exc}"
            ) from None
    if not result.complete:
        print(f"Gave up waiting for {result.gave_up}; {len(result.missing)} tile(s) left to enrol.")
        return 1
    return 0


def _sim_table(args, config, stack):
    """The simulated table with its person, hub, link and in-memory displays."""
    from companion.enrolment import SimEnrolTable, SimPerson
    from companion.sim.clock import SimClock
    from companion.sim.rig import SimRig
    from hardware.hub.link import HubLink
    from hardware.hub.sim import FaultModel

    rig = stack.enter_context(
        SimRig(FaultModel.realistic(), seed=args.seed, readers=config.hub.readers)
    )
    clock = SimClock()
    link = stack.enter_context(HubLink(rig.port, clock=clock))
    person = SimPerson(rig, args.square)
    displays = {side: {"driver": "dummy"} for side, s in config.seats.items() if s.enabled}
    return SimEnrolTable(rig, link, person, clock), displays, person


def _displays(settings, lang):
    from companion.show.screens.enrol import DisplayPrompts
    from hardware.display import Display

    return DisplayPrompts({side: Display(side, s) for side, s in settings.items()}, lang)
