"""`setup-companion score`: scores positions given as JSON Lines on stdin (docs/engine-json.md)."""

from __future__ import annotations

import argparse

HELP = "score placements: one JSON position per line on stdin, one JSON answer per line on stdout"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "The format is described in docs/engine-json.md."


def run(args: argparse.Namespace) -> int:
    from companion.commands._jsonlines import filter_lines
    from engine.notation import score_json

    return filter_lines(score_json)
