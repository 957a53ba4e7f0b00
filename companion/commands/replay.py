"""`setup-companion replay JOURNAL`: re-scores a recorded game and prints it turn by turn."""

from __future__ import annotations

import argparse

from companion.commands._common import CommandError

HELP = "re-score a recorded game from its journal and print it turn by turn"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "journal",
        metavar="JOURNAL",
        help="a game journal (journal.jsonl in the state directory, or an archived journal-<n>.jsonl)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per event (start, turn, undo, return, end, result) instead",
    )
    parser.epilog = (
        "Every turn is scored again by the rules engine; a turn whose recorded points differ "
        "is marked DIFFERS and the exit code is then 1. A journal that cannot be read or "
        "replayed is named with its line (exit code 2)."
    )


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from companion.commands._jsonlines import json_line
    from companion.game.replay import ReplayError, json_objects, replay_journal, text_lines

    try:
        played = replay_journal(args.journal)
    except ReplayError as exc:
        raise CommandError(str(exc)) from None
    if played.repaired:
        print(f"setup-companion: warning: the journal has {played.repaired}", file=sys.stderr)
    if played.torn:
        print(
            f"setup-companion: warning: the journal's last line was cut short and is ignored "
            f"({played.torn}); the game is shown up to the line before it",
            file=sys.stderr,
        )
    if not played.games:
        raise CommandError(f"the journal {args.journal} holds no game")
    differences = played.differences
    # a journal's text may hold what no output encoding can (a lone surrogate): escaped
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        for n, game in enumerate(played.games):
            if args.json:
                for obj in json_objects(game):
                    sys.stdout.buffer.write(json_line(obj))
                continue
            if n:
                print()
            for line in text_lines(game):
                print(line)
        if differences and not args.json:
            where = ", ".join(f"line {event.line}" for event in differences)
            print(f"{len(differences)} event(s) differ from the engine's scoring: {where}")
        sys.stdout.flush()
        sys.stdout.buffer.flush()
    except BrokenPipeError:  # `| head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if differences else 0
