"""`companion` — the command line. Subcommands live in small modules, each with ``register(subparsers)``.

Handlers import what they need lazily so `companion --help` and start-up stay fast on a Pi Zero 2 W.
A :class:`~companion.errors.CompanionError` ends the command with its one-line message and exit status 2.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Callable, Sequence

#: each module defines ``register(sub)``; add yours here
COMMAND_MODULES: list[str] = [
    "companion.cli.core",
    "companion.cli.diagram",
    "companion.cli.odds",
    "companion.cli.calc",
    "companion.cli.chess",
    "companion.cli.dice",
    "companion.cli.journal",
    "companion.cli.society",
    "companion.cli.stats",
    "companion.cli.web",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Sovereign Companion: the table companion.")
    parser.add_argument("--config", metavar="PATH", help="config file (default /etc/companion/config.toml)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    _config_everywhere(parser)
    return parser


def _config_everywhere(parser: argparse.ArgumentParser) -> None:
    """Accept ``--config PATH`` after any subcommand too (``companion play GAME --script F --config C``).

    SUPPRESS keeps a subcommand from overwriting a value given before it.
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                if "--config" not in child._option_string_actions:
                    child.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS,
                                       help="config file (default /etc/companion/config.toml)")
                _config_everywhere(child)


def main(argv: Sequence[str] | None = None) -> int:
    from companion.errors import CompanionError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            sys.stdout.flush()
            return 2
    except SystemExit:  # --help, or a usage error: argparse printed and exits; a reader that left shows here
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _reader_left()
        raise
    except BrokenPipeError:
        return _reader_left()
    try:
        status = int(func(args) or 0)
        sys.stdout.flush()  # a reader that left shows here, not in the interpreter's own flush at exit
        return status
    except CompanionError as e:
        print("companion: " + " ".join(str(e).splitlines()), file=sys.stderr)  # one line, whatever it quotes
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_left()


def _reader_left() -> int:
    """`companion ... | head`: the reader left; no traceback, and no second error at the interpreter's exit (the
    unflushed rest of stdout's buffer would raise again there: "Exception ignored ... BrokenPipeError", status 120)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141


if __name__ == "__main__":
    sys.exit(main())
