"""The `setup-companion` command line.

Each subcommand lives in its own module under `companion.commands` and is imported only
when it runs, so that `setup-companion run` starts fast on a Pi Zero and `--help` stays
cheap. A subcommand module provides `HELP` (one line), `add_arguments(parser)` and
`run(args) -> int`. A `CommandError` (`companion.commands._common`) becomes one clear
sentence on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence

from companion.commands._common import CommandError

# name -> module; the order is the order `--help` lists them in.
COMMANDS: dict[str, str] = {
    "run": "companion.commands.run",
    "web": "companion.commands.web",
    "demo": "companion.commands.demo",
    "score": "companion.commands.score",
    "game": "companion.commands.game",
    "replay": "companion.commands.replay",
    "enroll": "companion.commands.enroll",
    "selftest": "companion.commands.selftest",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="setup-companion",
        description="Keeps score of a game of SETUP played on the companion board.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, path in COMMANDS.items():
        module = importlib.import_module(path)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        # Import only the one command that runs.
        module = importlib.import_module(COMMANDS[argv[0]])
        parser = argparse.ArgumentParser(prog=f"setup-companion {argv[0]}", description=module.HELP)
        module.add_arguments(parser)
        args = parser.parse_args(argv[1:])
        run = module.run
    else:
        args = build_parser().parse_args(argv)
        run = args._run
    try:
        code = int(run(args) or 0)
        sys.stdout.flush()  # here, where a closed pipe can still be caught
        return code
    except CommandError as exc:
        print(f"setup-companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `enroll --list | head`: the reader has all it wanted. Quiet, as `cat` would be: the
        # rest goes nowhere, so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
