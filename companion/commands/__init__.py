"""One module per `setup-companion` subcommand (see companion/cli.py)."""
