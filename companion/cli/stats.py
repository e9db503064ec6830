"""`companion stats`: the saved games' figures (standings, luck, each battle's odds), and `companion export --bgstats
/ --bgg` (the plays as BG Stats and BoardGameGeek read them)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("stats", help="the saved games' figures: results, standings, luck, battles",
                       description="Every saved game's result and the standings, per player: plays, wins, win rate, "
                                   "luck (won minus the chance over their battles), and every battle's odds with the "
                                   "arguments of `companion odds sovereign` that give them.")
    p.add_argument("--journal", type=Path, metavar="PATH", help="journal file (default from config)")
    p.add_argument("--game", metavar="ID", help="only this game (an id: sovereign, soverana, ...)")
    p.add_argument("--player", metavar="NAME", help="only the games this player sat in")
    p.add_argument("--game-id", type=int, metavar="N", help="one saved game's summary and story (its charts)")
    p.add_argument("--json", action="store_true", help="print JSON: games, players, battles")
    p.add_argument("--rename", nargs=2, metavar=("NAME", "NEW"), help="show a player under a new name from now on")
    p.add_argument("--merge", nargs=2, metavar=("NAME", "INTO"), help="two names are one player (shown as INTO)")
    p.set_defaults(func=cmd_stats)


def _history(args: argparse.Namespace) -> Any:
    from companion.config.load import load_config
    from companion.stats.provider import History

    cfg = load_config(getattr(args, "config", None))
    return History(cfg, args.journal)


def cmd_stats(args: argparse.Namespace) -> int:
    from companion.errors import CompanionError
    from companion.stats.names import NamesError

    hist = _history(args)
    try:
        if args.rename or args.merge:
            book = hist.names()
            try:
                if args.rename:
                    book.rename(*args.rename)
                else:
                    book.merge(*args.merge)
            except NamesError as e:
                raise CompanionError(str(e)) from None
            print(json.dumps({"names": book.mapping()}, indent=2, ensure_ascii=False))
            return 0
        if args.game_id is not None:
            story = hist.story(args.game_id)
            if story is None:
                raise CompanionError(f"no saved game {args.game_id} in {hist.path}; `companion export --list` "
                                     "lists them")
            print(json.dumps(story, indent=2, ensure_ascii=False))
            return 0
        doc = hist.document(game=args.game, player=args.player)
        if args.json:
            print(json.dumps(doc, indent=2, ensure_ascii=False))
        else:
            _table(doc)
        return 0
    finally:
        hist.close()


def _table(doc: dict[str, Any]) -> None:
    """The standings as text: one line per player, then the games."""
    print(f"{'player':16} {'plays':>5} {'wins':>5} {'rate':>6} {'luck':>7} {'place':>6}")
    for name, p in doc["players"].items():
        rate = "-" if p["win_rate"] is None else f"{p['win_rate'] * 100:.0f}%"
        place = "-" if p["avg_place"] is None else f"{p['avg_place']:.2f}"
        print(f"{name[:16]:16} {p['plays']:5} {p['wins']:5} {rate:>6} {p['luck']:+7.2f} {place:>6}")
    print()
    for g in doc["games"]:
        who = ", ".join(p["name"] + ("*" if p.get("winner") else "") for p in g["players"])
        print(f"{g['id']:4}  {g['started'][:16]}  {g['status']:9}  {g['title'][:22]:22}  {g['result'] or '':34}  {who}")


def cmd_export_apps(args: argparse.Namespace) -> int:
    """`companion export --bgstats FILE` / `--bgg FILE`: the plays as those apps read them."""
    from companion.errors import CompanionError
    from companion.stats import bgg, bgstats
    from companion.stats.plays import box_id, default_location, plays

    hist = _history(args)
    try:
        summaries, _ = hist.summaries()
        names = hist.names()
        chosen = plays(summaries, names)
        location = args.location or default_location()
        written = []
        if args.bgstats is not None:
            me = names.id_of(args.me) if args.me else None
            doc = bgstats.bgsplay(chosen, box_id(hist.path), location, me)
            if args.me and not doc["userInfo"]["meRefId"]:
                raise CompanionError(f"--me {args.me}: no exported play has that player; give a name as played")
            _write(args.bgstats, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
            written.append(f"{args.bgstats} ({len(doc['plays'])} plays, {len(doc['players'])} players)")
        if args.bgg is not None:
            _write(args.bgg, bgg.plays_xml(chosen, location, args.bgg_user or ""))
            written.append(f"{args.bgg} ({len(chosen)} plays)")
        print("wrote " + "; ".join(written), file=sys.stderr)
        return 0
    finally:
        hist.close()


def _write(path: Path, content: str | bytes) -> None:
    from companion.errors import CompanionError

    try:
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    except OSError as e:
        raise CompanionError(f"cannot write {path}: {e.strerror}; give another file") from None


__all__ = ["cmd_export_apps", "cmd_stats", "register"]
