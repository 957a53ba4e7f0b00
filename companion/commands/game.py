"""`setup-companion game`: plays whole games given as JSON Lines on stdin (docs/engine-json.md)."""

from __future__ import annotations

import argparse

HELP = "play whole games: one JSON game per line on stdin, its scores and winner per line on stdout"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "The format is described in docs/engine-json.md."


def run(args: argparse.Namespace) -> int:
    from companion.commands._jsonlines import filter_lines
    from engine.notation import game_json

    return filter_lines(game_json)
