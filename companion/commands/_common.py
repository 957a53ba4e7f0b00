"""What several commands share: the user-facing error, the config and state-dir options, and
logging.

A command's `run` imports what it runs inside the function (as does this module for the
config): `setup-companion --help` loads every command's module, and `run` must start fast on
a Pi Zero (benchmarks/bench_startup.py). Every such import points down the layers."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.config import Config

#: where `--sim` keeps its journal and registry when no state dir is given: in the running
#: user's own runtime (or state) directory, never a fixed path another user could make first
SIM_STATE_NAME = "setup-companion-sim"
#: the daemon's copy of the last configuration that loaded, in its state dir
LAST_GOOD = "config-last-good.toml"
LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"]


class CommandError(Exception):
    """A user-facing error: its text is one sentence shown as it is, exit code 2."""


def add_config_arguments(parser: argparse.ArgumentParser, *, state_dir: str | None = None) -> None:
    """--config and --hub-port; --state-dir too when `state_dir` says what lives there."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default /etc/setup-companion/config.toml)",
    )
    if state_dir is not None:
        parser.add_argument(
            "--state-dir",
            metavar="DIR",
            help=f"where {state_dir} live(s) (default: the config's, or $STATE_DIRECTORY)",
        )
    parser.add_argument(
        "--hub-port", metavar="PATH", help="the reader hub's serial port (default: the config's)"
    )


def add_sim_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """--sim (`what` happens on the simulated table) and --seed of its readers' faults."""
    parser.add_argument("--sim", action="store_true", help=what)
    parser.add_argument(
        "--seed", type=int, default=0, help="--sim: the seed of the readers' faults"
    )


def add_log_argument(parser: argparse.ArgumentParser, default: str = "WARNING") -> None:
    parser.add_argument("--log-level", default=default, choices=LOG_LEVELS)


def setup_logging(level: str) -> None:
    import warnings

    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    # Off a Pi, gpiozero warns once per pin library it tries; the log line of the buttons
    # (or buzzer) that could not open already says that there is no GPIO here.
    warnings.filterwarnings("ignore", message="Falling back from ", module="gpiozero")


def load(args: argparse.Namespace) -> Config:
    """The config of `--config`, with the state dir of `--state-dir`, $STATE_DIRECTORY (set by
    systemd) or, for `--sim` without a config, `sim_state_dir()`; the state dir is created."""
    from companion.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise CommandError(f"the configuration is not valid: {exc}") from None
    if not hasattr(args, "state_dir"):
        return config
    state_dir = _state_dir(args)
    if state_dir:
        config = replace(config, paths=replace(config.paths, state_dir=Path(state_dir)))
    try:
        config.paths.state_dir.mkdir(parents=True, exist_ok=True)
        os.scandir(config.paths.state_dir).close()  # one that exists but is not ours to read
    except OSError as exc:
        raise StateDirUnusable(
            f"cannot use the state directory {config.paths.state_dir}: {exc.strerror}"
        ) from None
    return config


class StateDirUnusable(CommandError):
    """`load` cannot use the state dir (as opposed to a config that is not valid)."""


def _state_dir(args: argparse.Namespace) -> str:
    state_dir = args.state_dir or os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if getattr(args, "sim", False) and not state_dir and args.config is None:
        state_dir = str(private_dir(sim_state_dir()))
    return state_dir


def sim_state_dir() -> Path:
    """`$XDG_RUNTIME_DIR/setup-companion-sim` (a tmpfs of the user's own, like /tmp was), or
    under `$XDG_STATE_HOME` or ~/.local/state where there is none."""

    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("XDG_STATE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".local" / "state")
        except (KeyError, RuntimeError):
            raise CommandError(
                "--sim: no home directory to keep its state in; give --state-dir"
            ) from None
    return Path(base) / SIM_STATE_NAME


def private_dir(path: Path) -> Path:
    """`path` made (0700) if missing, and checked, opened without following a link, to be a
    directory of this user that no one else can write into; CommandError otherwise."""
    import errno
    import stat

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        why = exc.strerror
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            why = "it is a symbolic link or not a directory"
        raise CommandError(f"cannot use {path} for the simulator's state: {why}") from None
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise CommandError(
            f"{path} is not a directory of yours alone (mode {stat.filemode(info.st_mode)}): "
            "the simulator will not keep its state there; remove it or give --state-dir"
        )
    return path


def load_keeping_last_good(args: argparse.Namespace) -> tuple[Config, str | None]:
    """For the daemon: the config as `load` gives it, a copy of which is kept in the state
    dir; if the file is broken (an edit gone wrong), the last copy that loaded, with the
    reason, so the table keeps running as before instead of stopping at every restart."""
    from companion.atomic import write_atomic
    from companion.config import DEFAULT_PATH, DEFAULT_STATE_DIR

    log = logging.getLogger("setup.config")
    try:
        config = load(args)
    except CommandError as exc:
        last = Path(_state_dir(args) or _stated_dir(args.config) or DEFAULT_STATE_DIR) / LAST_GOOD
        try:
            there = last.is_file()
        except OSError:  # a state dir that cannot be read: the config's error is the news
            there = False
        if not there:
            raise
        log.error("%s; running with the last configuration that loaded, %s", exc, last)
        config = load(argparse.Namespace(**{**vars(args), "config": str(last)}))
        return config, str(exc)
    source = Path(args.config) if args.config else DEFAULT_PATH
    copy = config.paths.state_dir / LAST_GOOD
    try:
        text = source.read_bytes() if source.exists() else None
        if text is not None and (not copy.exists() or copy.read_bytes() != text):
            write_atomic(copy, text)
    except OSError as exc:  # a copy that cannot be kept must not stop the table
        log.warning("cannot keep a copy of the configuration in %s: %s", copy, exc)
    return config, None


def _stated_dir(path: str | None) -> str | None:
    """`paths.state_dir` of a config file that does not load, if its TOML can still be read
    (the error was in another value); None otherwise."""
    import tomllib

    from companion.atomic import read_file

    if path is None:
        return None
    try:
        data = read_file(
            path, lambda data: tomllib.loads(data.decode("utf-8")), ValueError, ValueError
        )
    except ValueError:  # not TOML at all (TOMLDecodeError is one), or damaged
        return None
    value = data.get("paths", {})
    value = value.get("state_dir") if isinstance(value, dict) else None
    return value if isinstance(value, str) else None
