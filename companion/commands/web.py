"""`setup-companion web`: the web companion (on the Pi: its own service, see systemd/)."""

from __future__ import annotations

import argparse
import os

from companion.commands._common import add_config_arguments, add_log_argument, setup_logging

HELP = "serve the table live to phones and TVs on the home network (--sim: the simulated table)"
#: systemd's first passed socket (socket activation, sd_listen_fds)
LISTEN_FD = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser, state_dir="the journal archive (the Games page)")
    parser.add_argument(
        "--sim", action="store_true", help="watch the simulated table of `run --sim`"
    )
    parser.add_argument("--socket", metavar="PATH", help="the daemon's socket (default: found)")
    parser.add_argument("--host", default="0.0.0.0", help="the address to listen on")
    parser.add_argument("--port", type=int, help="the port (default: the config's web.port)")
    add_log_argument(parser, "INFO")


def daemon_socket(args: argparse.Namespace, config) -> str:
    """The daemon's socket: --socket, else its runtime directory on the Pi (systemd's
    /run/setup-companion), else next to the journal, where `run` puts it off systemd."""
    from pathlib import Path

    from companion.daemon.publish import SOCKET_NAME

    if args.socket:
        return args.socket
    run_dir = Path("/run/setup-companion")
    if not args.sim and (run_dir / SOCKET_NAME).exists():
        return str(run_dir / SOCKET_NAME)
    return str(config.paths.state_dir / SOCKET_NAME)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from companion.commands._common import load
    from companion.web.app import create_app

    setup_logging(args.log_level)
    config = load(args)
    app = create_app(
        daemon_socket(args, config),
        config.paths.state_dir,
        watch_needs_pin=config.web.watch_needs_pin,
    )
    activated = os.environ.get("LISTEN_PID") == str(os.getpid()) and os.environ.get("LISTEN_FDS")
    if activated:
        server = uvicorn.Config(
            app, fd=LISTEN_FD, log_level=args.log_level.lower(), access_log=False
        )
    else:
        port = args.port or config.web.port
        print(f"web companion on http://{_shown(args.host)}:{port}/", flush=True)
        server = uvicorn.Config(
            app, host=args.host, port=port, log_level=args.log_level.lower(), access_log=False
        )
    uvicorn.Server(server).run()
    return 0


def _shown(host: str) -> str:
    return "localhost" if host in ("0.0.0.0", "127.0.0.1", "::") else host
