"""Core commands: run, sim, play, games, export, check."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("games", help="list the games")
    p.add_argument("--ids", action="store_true", help="print only the ids, one per line")
    p.set_defaults(func=cmd_games)
    _register_play(sub)
    _register_run(sub)
    _register_check(sub)


def cmd_games(args: argparse.Namespace) -> int:
    """The built-in games, then the TOML games of the games folder and the shipped examples (as the menu has them).

    The first column is what ``companion play`` takes for that game: its id, or its path when the id plays another
    game (a built-in one, or an earlier file with the same id)."""
    from companion.config.load import load_config
    from companion.errors import CompanionError
    from companion.games import BUILTIN, load, toml_for_id
    from companion.games.toml_game import load_toml_game
    from companion.ui.menus import toml_game_files

    cfg = load_config(getattr(args, "config", None))
    rows: list[tuple[str, str]] = [(gid, load(gid).description) for gid in BUILTIN]
    for path in toml_game_files(cfg):
        try:
            cls = load_toml_game(path)
        except CompanionError as e:
            rows.append((str(path), f"(broken: {e})"))
            continue
        plays = toml_for_id(cls.game_id, cfg.games.folder)
        if plays is not None and plays.resolve() == path.resolve():
            rows.append((cls.game_id, f"{cls.description}  ({path})"))
        else:  # its id plays another game: named by its path
            rows.append((str(path), cls.description))
    if args.ids:
        for name, text in rows:
            if not text.startswith("(broken"):
                print(name)
        return 0
    width = max(18, *(len(name) for name, _ in rows if len(name) <= 24))  # the descriptions in one column
    for name, text in rows:
        print(f"{name:{width}} {text}")
    return 0


def _register_play(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("play", help="play a game headless from a script of button presses and rolls")
    p.add_argument("game", help="a game id (companion games --ids) or a game .toml path")
    p.add_argument("--script", required=True, type=Path, metavar="FILE",
                   help="one event per line: up, down, ok, back, hold, roll d12 7, wait 0.5, # comment")
    p.add_argument("--seed", type=int, help="seed for the built-in dice and random picks")
    p.add_argument("--journal", type=Path, metavar="PATH", help="journal file (default: in memory)")
    p.add_argument("--resume", action="store_true", help="continue the game in --journal, skipping applied events")
    p.add_argument("--state-json", type=Path, metavar="OUT", help="write the final state as JSON")
    p.add_argument("--frames", type=Path, metavar="DIR",
                   help="write a PNG for every distinct screen, numbered from 0001 (a new run clears the old ones)")
    p.add_argument("--frame-scale", type=int, default=4, metavar="N",
                   help="PNG pixels per screen pixel in --frames (default 4: 512x256)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("export", help="export a saved game as JSON")
    p.add_argument("game_id", nargs="?", type=int, help="saved game number (default: the latest)")
    p.add_argument("--journal", type=Path, metavar="PATH", help="journal file (default from config)")
    p.add_argument("--list", action="store_true", help="list the saved games instead")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here instead of stdout")
    p.add_argument("--record", action="store_true",
                   help="the game record instead of JSON (Sovereign Chess: header and moves, one per line)")
    p.add_argument("--notation", default="companion", metavar="companion|osc",
                   help="with --record, Sovereign Chess: the companion's move text (default) or OpenSovereignChess's "
                        "(O-O-O@h1 for castling on the queen's side, + for check, # for mate)")
    p.add_argument("--report", action="store_true",
                   help="write the latest turn's report for the forum thread instead (games with one: society)")
    p.add_argument("--format", default="markdown", metavar="markdown|bbcode", help="the report's markup")
    p.add_argument("--turn", metavar="N|all", help="with --report: turn N's post, or every turn's in one file")
    p.add_argument("--bgstats", type=Path, metavar="FILE", help="every finished play as a BG Stats play file "
                   "(.bgsplay; importing it again updates, never doubles)")
    p.add_argument("--bgg", type=Path, metavar="FILE", help="every finished play as BoardGameGeek's plays XML")
    p.add_argument("--me", metavar="NAME", help="with --bgstats: the player who owns the BG Stats app")
    p.add_argument("--location", metavar="NAME", help="with --bgstats/--bgg: the table's name (default: the host's)")
    p.add_argument("--bgg-user", metavar="USER", help="with --bgg: the BGG username the plays are listed under")
    p.set_defaults(func=cmd_export)


def cmd_play(args: argparse.Namespace) -> int:
    from companion.session.headless import play

    state = play(args.game, args.script, seed=args.seed, journal_path=args.journal, resume=args.resume,
                 state_json=args.state_json, frames=args.frames, frame_scale=args.frame_scale, config=args.config,
                 notify=lambda line: print(f"companion: {line}", file=sys.stderr))
    if args.state_json is None:
        print(json.dumps(state, indent=2, sort_keys=True))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.bgstats is not None or args.bgg is not None:
        from companion.cli.stats import cmd_export_apps

        return cmd_export_apps(args)
    from companion.config.load import load_config
    from companion.errors import JournalError
    from companion.session.headless import replay
    from companion.journal.store import Journal

    cfg = load_config(args.config)
    path = args.journal or cfg.journal_path()
    if not Path(path).exists():
        raise JournalError(f"no journal at {path}; play a game first or pass --journal PATH")
    journal = Journal(path)
    try:
        if args.list:
            for r in journal.games():
                print(f"{r.id:4}  {r.status:8}  {time.strftime('%Y-%m-%d %H:%M', time.localtime(r.updated))}  "
                      f"{r.summary or r.title}")
            return 0
        records = journal.games()
        if not records:
            raise JournalError(f"no saved games in {path}")
        record = journal.game(args.game_id) if args.game_id is not None else records[0]
        if args.report and args.format not in REPORT_FORMATS:
            raise JournalError(f"--format {args.format!r}: use markdown or bbcode")
        if args.notation not in ("companion", "osc"):
            raise JournalError(f"--notation {args.notation!r}: use companion or osc")
        session, brk = replay(journal, record, cfg)
        if brk is not None:
            print(f"companion: {brk.message(path)}; exporting up to there", file=sys.stderr)
        if args.report:
            text = _report(session, record.id, args.format, getattr(args, "turn", None))
        else:
            times = [t for _n, t, _e in journal.verified_inputs(record.id)[0]][:session.n_inputs]
            out = {"id": record.id, "status": record.status, "seed": record.seed, "created": record.created,
                   "updated": record.updated, **session.export(), "inputs": len(times)}
            if "record" in out:  # the game record as text too, dated from the journal
                from companion.records.chess import record_text

                headers = dict(out["record"]["headers"])
                headers = {"Game": headers.pop("Game", record.title),
                           "Date": time.strftime("%Y.%m.%d", time.localtime(record.created)), **headers}
                out["record"] = record_text(headers, out["record"]["moves"], out["record"]["result"])
                if args.notation == "osc":
                    from companion.records.chess import is_royale_record, osc_record

                    if is_royale_record(out["record"]):
                        raise JournalError("--notation osc: OpenSovereignChess has no Royale; export the Royale "
                                           "record in the companion's notation")
                    out["record"] = osc_record(out["record"])
            elif args.record:
                raise JournalError(f"game {record.id} ({record.title}) has no game record; export it as JSON")
            text = out["record"] if args.record else json.dumps(out, indent=2, sort_keys=True, default=str) + "\n"
        if args.output:
            args.output.write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    finally:
        journal.close()


REPORT_FORMATS = ("markdown", "bbcode")


def _report(session: "Any", game_id: int, fmt: str, turn: str | None = None) -> str:
    """A game's turn report (a game machine with a ``report(fmt, turn)`` method), for `companion export --report`;
    ``turn``: a turn's number, or "all"."""
    from companion.errors import JournalError

    game = session.game
    render = getattr(game, "report", None)
    if game is None or not callable(render):
        raise JournalError(f"game {game_id} has no turn report; --report is for society games")
    if turn is None:
        return str(render(fmt))
    if turn != "all" and not turn.isdigit():
        raise JournalError(f"--turn {turn!r}: give a turn number or 'all'")
    try:
        return str(render(fmt, turn if turn == "all" else int(turn)))
    except ValueError as e:
        raise JournalError(str(e)) from e


def _register_run(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("run", help="run the companion: on the Pi's hardware, or the simulator when there is none")
    p.add_argument("--game", metavar="ID|FILE", help="start (or resume) this game: an id or a game .toml")
    p.add_argument("--sim", action="store_true", help="force the terminal simulator")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("sim", help="run the terminal simulator: the OLED in the terminal, keys as buttons")
    p.add_argument("--game", metavar="ID|FILE", help="start (or resume) this game: an id or a game .toml")
    p.set_defaults(func=cmd_sim)


def _run(args: argparse.Namespace, mode: str | None) -> int:
    from companion.config.load import load_config
    from companion.loop.logsetup import log_crash
    from companion.loop.runtime import run

    cfg = load_config(args.config)
    from companion.games import check_options

    check_options(cfg.games.options, cfg.games.folder, also=args.game)  # a bad game file stops here too
    try:
        return run(cfg, mode=mode, game=args.game, say=lambda line: print(line, flush=True))
    except Exception as e:
        from companion.errors import CompanionError

        if isinstance(e, CompanionError):
            raise
        log_crash(e)
        return 1


def cmd_run(args: argparse.Namespace) -> int:
    return _run(args, "sim" if args.sim else None)


def cmd_sim(args: argparse.Namespace) -> int:
    return _run(args, "sim")


def _register_check(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("check", help="self-test the hardware: display, GPIO, roller — one line each")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from companion.cli.check import run_checks
    from companion.config.load import load_config

    results = run_checks(load_config(args.config))
    for r in results:
        print(r.line())
    return 0 if all(r.ok for r in results) else 1
