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
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: this machine only; 0.0.0.0: the home "
        "network, which systemd's socket gives the installed table)",
    )
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
    import socket

    from companion.commands._common import CommandError, load
    from companion.web.app import create_app
    from companion.web.edge import TableNames
    from companion.web.server import listening, serve

    setup_logging(args.log_level)
    config = load(args)
    app = create_app(
        daemon_socket(args, config),
        config.paths.state_dir,
        watch_needs_pin=config.web.watch_needs_pin,
        names=TableNames.of_this_machine(config.web.names),
    )
    activated = os.environ.get("LISTEN_PID") == str(os.getpid()) and os.environ.get("LISTEN_FDS")
    if activated:  # systemd listens (port 80 of the home network) and hands the socket over
        sock = socket.socket(fileno=LISTEN_FD)
    else:
        port = args.port or config.web.port
        try:
            sock = listening(args.host, port)
        except OSError as exc:
            raise CommandError(
                f"cannot listen on {args.host} port {port}: {exc.strerror}"
            ) from None
        print(f"web companion on {_shown(args.host, port)}", flush=True)
    serve(app, sock, args.log_level.lower())
    return 0


def _shown(host: str, port: int) -> str:
    """Where the bound socket answers, in words: what is printed is what is bound."""
    if host in ("0.0.0.0", "::"):
        return f"port {port} of every address of this machine (the home network included)"
    shown = f"[{host}]" if ":" in host else host
    only = " (this machine only)" if host in ("127.0.0.1", "::1", "localhost") else ""
    return f"http://{shown}:{port}/{only}"
