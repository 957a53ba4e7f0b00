"""`setup-companion demo`: a whole game on the simulated table, through the real daemon."""

from __future__ import annotations

import argparse

from companion.commands._common import CommandError

HELP = "play a whole simulated game with bots through the real daemon, and check its scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, default=1, help="the game and the readers' faults (default 1)"
    )
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--teams", action="store_true", help="two teams of two (needs --players 4)")
    parser.add_argument(
        "--fast", action="store_true", help="do not wait in real time between sweeps"
    )
    parser.add_argument(
        "--frames", metavar="DIR", help="save every seat's display after each turn as PNG"
    )
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="the game journal; an existing one is resumed (default: a new temporary file)",
    )
    parser.add_argument(
        "--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"]
    )


def run(args: argparse.Namespace) -> int:
    import logging
    import tempfile
    from pathlib import Path

    from companion.sim.demo import Demo

    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    if args.teams and args.players != 4:
        raise CommandError("--teams needs --players 4")
    journal = (
        Path(args.journal)
        if args.journal
        else Path(tempfile.mkdtemp(prefix="setup-demo-")) / "journal.jsonl"
    )
    frames = Path(args.frames) if args.frames else None
    # Both are tried before the game, so a path that cannot be written is one sentence here,
    # not a game that never starts or a traceback at the first frame.
    try:
        journal.parent.mkdir(parents=True, exist_ok=True)
        with journal.open("ab"):
            pass  # an empty journal is a new game; an existing one is left as it is
    except OSError as exc:
        raise CommandError(f"cannot write the journal {journal}: {exc.strerror}") from None
    if frames is not None:
        try:
            frames.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=frames).close()
        except OSError as exc:
            raise CommandError(f"cannot write the frames in {frames}: {exc.strerror}") from None
    demo = Demo(
        seed=args.seed,
        players=args.players,
        teams=args.teams,
        fast=args.fast,
        frames=frames,
        journal=journal,
        out=lambda line: print(line, flush=True),
    )
    result = demo.run()
    print(f"journal: {journal}")
    return 0 if result.matches else 1
