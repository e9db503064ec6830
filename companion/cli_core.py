"""Core commands: run, sim, play, games, export."""
from __future__ import annotations

import argparse


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("games", help="list the games")
    p.add_argument("--ids", action="store_true", help="print only the ids, one per line")
    p.set_defaults(func=cmd_games)


def cmd_games(args: argparse.Namespace) -> int:
    from .games import BUILTIN, load

    for gid in BUILTIN:
        cls = load(gid)
        print(gid if args.ids else f"{gid:18} {cls.description}")
    return 0
