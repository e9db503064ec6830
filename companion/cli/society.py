"""`companion society orders FILE --societies NAMES [--journal PATH] [--from NAME] --json`: read a player's PM
as the game master received it, line by line; with a journal, check each order against that game."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("society", help="Society game master's tools (read a player's PM)")
    ssub = p.add_subparsers(dest="society_command", metavar="SUBCOMMAND", required=True)
    o = ssub.add_parser("orders", help="read a PM's orders, line by line (- reads standard input)")
    o.add_argument("file", metavar="FILE", help="the PM as text ('-': standard input)")
    o.add_argument("--societies", metavar="NAMES", help="the societies' names, comma-separated (default with "
                                                        "--journal: the game's)")
    o.add_argument("--journal", metavar="PATH", help="check the orders against the latest Society game "
                                                                "in this journal (costs, reach, technology)")
    o.add_argument("--game", type=int, metavar="ID", help="with --journal: this saved game, not the latest")
    o.add_argument("--from", dest="sender", metavar="NAME", help="the society that sent the PM (with --journal)")
    o.add_argument("--json", action="store_true", help='print {"orders": [...], "unparsed": [...]}')
    o.set_defaults(func=cmd_orders)


def _world(path: Path, game_id: int | None, config: str | None) -> dict[str, Any]:
    from companion.config.load import load_config
    from companion.errors import JournalError
    from companion.journal.store import Journal
    from companion.session.headless import replay

    if not path.exists():
        raise JournalError(f"no journal at {path}; check --journal")
    journal = Journal(path)
    try:
        records = [r for r in journal.games() if game_id is None or r.id == game_id]
        for record in records:
            session, _brk = replay(journal, record, load_config(config))
            game = session.game
            if game is not None and getattr(game, "game_id", "") == "society" and game.data.get("world"):
                return dict(game.data["world"], _orders=list(game.data.get("orders", [])),
                            _options=dict(game.options))
        raise JournalError(f"no Society game past set-up in {path}" + (f" with id {game_id}" if game_id else ""))
    finally:
        journal.close()


def cmd_orders(args: argparse.Namespace) -> int:
    from companion.errors import CompanionError
    from companion.rules.society.formulas import Readings
    from companion.rules.society.pm import match_society, read
    from companion.rules.society.pm_check import check

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CompanionError(f"cannot read {args.file}: {e}; give a text file with the PM") from e
    from companion.cli import journal_arg

    journal = journal_arg(args.journal)
    w = _world(journal, args.game, getattr(args, "config", None)) if journal is not None else None
    if args.societies:
        names = [n.strip() for n in args.societies.split(",") if n.strip()]
    elif w is not None:
        names = [str(s["name"]) for s in w["soc"].values()]
    else:
        raise CompanionError("say who plays: --societies NAME,NAME,... (or --journal PATH)")
    out = read(text, names)
    if w is not None:
        known = [str(s["name"]) for s in w["soc"].values()]
        sender = match_society(args.sender or "", known)
        if args.sender and sender is None:
            raise CompanionError(f"--from {args.sender!r}: no such society in this game; it has {', '.join(known)}")
        seat = next((k for k, s in w["soc"].items() if s["name"] == sender), None)
        if seat is None:
            for rd in out["orders"]:
                rd["problems"] = [*rd.get("problems", []), "say who sent the PM (--from NAME) to check it"]
        else:
            r = Readings.from_options(w.pop("_options"))
            entered = w.pop("_orders")
            out["orders"] = [rd for rd, _made in check(out["orders"], w, seat, entered, r)]
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for rd in out["orders"]:
        extra = "; ".join(rd.get("problems", []))
        print(f"{rd['line']:>3} {rd['kind']:<11} {rd['text']}" + (f"  <- {extra}" if extra else ""))
    for u in out["unparsed"]:
        print(f"{u['line']:>3} (not read)  {u['text']}")
    return 0
