"""`companion perft sovereign-chess` and `companion chess inspect` — the Sovereign Chess engine from the shell."""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.rules.sovereign_chess import AnyChess, SovereignChess

PERFT_GAMES = ("sovereign-chess", "sovereign-chess-royale")


class ChessInputError(CompanionError, ValueError):
    """Bad input to `companion perft` or `companion chess` (position text, move text, depth)."""


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("perft", help="count move paths of a rules engine (sovereign-chess, sovereign-chess-royale)",
                       description="Count the legal move paths DEPTH plies deep (ordinary moves; each promotion "
                                   "choice counts; defections are not counted) and time it. sovereign-chess-royale "
                                   "counts under the Royale rules: four seats in turn, moves into check legal.")
    p.add_argument("game", help="the game (sovereign-chess or sovereign-chess-royale)")
    p.add_argument("--depth", type=int, required=True, metavar="N", help="plies to search (0 or more)")
    p.add_argument("--fen", metavar="TEXT", help="position text (default: the start position)")
    p.add_argument("--divide", action="store_true", help="also print the count below each first move")
    p.set_defaults(func=cmd_perft)

    chess = sub.add_parser("chess", help="Sovereign Chess (and Royale) positions: inspect one",
                           description="Sovereign Chess engine tools.")
    csub = chess.add_subparsers(dest="chess_command", metavar="COMMAND")
    ins = csub.add_parser("inspect", help="show a position: owned and controlled colours, blocked squares, check",
                          description="Show a position: the board, each player's owned and controlled colours, the "
                                      "blocked squares of colour, check and the number of legal moves.")
    ins.add_argument("--fen", metavar="TEXT", help="position text (default: the start position); Royale position "
                                                   "text (8 fields) is shown as a Royale position")
    ins.add_argument("--royale", action="store_true",
                     help="a Sovereign Chess Royale position (default: the Royale start); implied by Royale position "
                          "text or a Royale game record")
    ins.add_argument("--json", action="store_true", help="print JSON")
    ins.add_argument("--moves", action="store_true", help="also list the legal moves (text output)")
    ins.add_argument("--moves-file", type=Path, metavar="FILE",
                     help="replay a game record (companion export --record) or a file of moves, one per line, "
                          "from the start (or --fen) and show the final position")
    ins.set_defaults(func=cmd_inspect)
    chess.set_defaults(func=lambda args: _chess_help(chess))


def _chess_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _game(fen: str | None) -> "SovereignChess":
    from companion.rules.sovereign_chess import START, ChessError, SovereignChess

    try:
        return SovereignChess(START if fen is None else fen)
    except ChessError as e:
        raise ChessInputError(str(e)) from None


def cmd_perft(args: argparse.Namespace) -> int:
    from companion.rules.sovereign_chess import divide, perft

    if args.game not in PERFT_GAMES:
        raise ChessInputError(f"perft: unknown game {args.game!r}; perft knows {', '.join(PERFT_GAMES)}")
    if args.depth < 0:
        raise ChessInputError(f"perft: --depth must be 0 or more, got {args.depth}")
    if args.game == "sovereign-chess-royale":
        return _perft_royale(args)
    return _count(_game(args.fen).position, args, perft, divide)


def _perft_royale(args: argparse.Namespace) -> int:
    from companion.rules.sovereign_chess import ChessError, parse_royale, royale_divide, royale_perft, royale_start

    try:
        pos = parse_royale(royale_start() if args.fen is None else args.fen)
    except ChessError as e:
        raise ChessInputError(str(e)) from None
    return _count(pos, args, royale_perft, royale_divide)


def _count(pos: Any, args: argparse.Namespace, perft_of: Callable[[Any, int], int],
           divide_of: Callable[[Any, int], Any]) -> int:
    """Perft (or, with --divide, the count under each first move, one line each) and the speed it ran at."""
    from companion.rules.sovereign_chess.moves import move_from_packed

    t0, c0 = time.perf_counter(), time.process_time()
    if args.divide and args.depth > 0:
        rows = [(move_from_packed(pos.board, m).text, n) for m, n in divide_of(pos, args.depth)]
        nodes = sum(n for _, n in rows)
        for text, n in sorted(rows):
            print(f"{text} {n}")
    else:
        nodes = perft_of(pos, args.depth)
    _print_speed(nodes, time.perf_counter() - t0, time.process_time() - c0)
    return 0


def _print_speed(nodes: int, dt: float, cpu: float) -> None:
    """Nodes, wall time, CPU time (what reproduces on a loaded machine) and the speed by CPU time."""
    print(f"nodes {nodes}")
    print(f"time {dt:.3f} s")
    print(f"cpu {cpu:.3f} s")
    if cpu > 0:
        print(f"speed {nodes / cpu:,.0f} nodes/s (CPU)")


def inspect_json(game: "SovereignChess") -> dict[str, Any]:
    from companion.rules.sovereign_chess import square_name

    return {
        "position": game.text,
        "players": {
            str(p): {"owned": game.owned(p).label, "controlled": [c.label for c in game.controlled(p)]}
            for p in (1, 2)
        },
        "blocked": [square_name(sq) for sq in game.blocked()],
        "check": game.in_check(),
        "legal_moves": len(game.legal_moves()),
    }


def board_diagram(game: "AnyChess") -> list[str]:
    """The board as text, rank 16 at the top: a piece is its colour letter and role (``wK``); an empty square of
    colour shows its colour letter and ``:``, or ``#`` when blocked by its twin."""
    from companion.rules.sovereign_chess.squares import FILES, SQ_COLOUR, COLOUR_LETTERS

    blocked = set(game.blocked())
    lines = []
    for rank in range(15, -1, -1):
        cells = []
        for file in range(16):
            sq = rank * 16 + file
            piece = game.piece_at(sq)
            if piece is not None:
                cells.append(piece.colour.letter + piece.role.letter.upper())
            elif SQ_COLOUR[sq] >= 0:
                cells.append(COLOUR_LETTERS[SQ_COLOUR[sq]] + ("#" if sq in blocked else ":"))
            else:
                cells.append(" .")
        lines.append(f"{rank + 1:>2} " + " ".join(cells))
    lines.append("    " + "  ".join(FILES))
    return lines


def _read_moves_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a byte-order mark from a Windows editor is no move
    except (OSError, UnicodeDecodeError) as e:
        raise ChessInputError(f"cannot read moves file {path}: {getattr(e, 'strerror', None) or e}") from None


def cmd_inspect(args: argparse.Namespace) -> int:
    from companion.records.chess import is_royale_record

    text = _read_moves_file(args.moves_file) if args.moves_file is not None else None
    # Royale: asked for, or Royale position text (8 fields), or a Royale game record
    if args.royale or (args.fen is not None and len(args.fen.split()) == 8) or (text and is_royale_record(text)):
        return _inspect_royale(args, text)
    game = _game(args.fen)
    played: list[str] | None = None
    if text is not None:
        from companion.records.chess import RecordError, replay

        try:
            rec = replay(text, game.text, args.moves_file.name)
        except RecordError as e:
            raise ChessInputError(str(e)) from None
        game, played = rec.game, rec.moves
    data = inspect_json(game)
    if played is not None:
        data["moves"] = played
    if args.json:
        print(json.dumps(data))
        return 0
    for line in board_diagram(game):
        print(line)
    if played is not None:
        n = sum(m not in ("accept", "reject") for m in played)  # the opening choice is not a move
        choice = "".join(f" and {m}" for m in played if m in ("accept", "reject"))
        print(f"after {n} move{'' if n == 1 else 's'}{choice} from {args.moves_file}")
    print(f"position {game.text}")
    print(f"player {game.turn} to move, ply {game.ply}")
    for p in (1, 2):
        controlled = ", ".join(data["players"][str(p)]["controlled"]) or "nothing else"
        print(f"player {p}: owns {data['players'][str(p)]['owned']}, controls {controlled}")
    print(f"blocked: {', '.join(data['blocked']) or 'none'}")
    outcome = game.outcome()
    state = "check" if data["check"] else "not in check"
    if outcome is not None:
        state = outcome.result + (f", player {outcome.winner} wins" if outcome.winner else "")
    print(f"{state}; {data['legal_moves']} legal moves")
    if args.moves:
        for move in game.legal_moves():
            print(f"  {move.text}")
    return 0


def _inspect_royale(args: argparse.Namespace, text: str | None) -> int:
    """`chess inspect` of a Royale position: the board, each seat's army, colours and king, the checks."""
    from companion.records.chess import RecordError, replay_royale
    from companion.rules.sovereign_chess import ChessError, SovereignChessRoyale, square_name

    played: list[str] | None = None
    try:
        game = SovereignChessRoyale(args.fen)
    except ChessError as e:
        raise ChessInputError(str(e)) from None
    if text is not None:
        try:
            rec = replay_royale(text, args.fen, args.moves_file.name)
        except RecordError as e:
            raise ChessInputError(str(e)) from None
        game, played = rec.game, rec.moves
    armies = ("white", "ash", "slate", "black")
    kings = game.kings()
    data: dict[str, Any] = {
        "position": game.text,
        "to_move": game.turn,
        "seats": {
            str(s): {"army": armies[s - 1], "owned": game.owned(s).label,
                     "controlled": [c.label for c in game.controlled(s)],
                     "king": square_name(k) if (k := kings[s]) is not None else None}
            for s in (1, 2, 3, 4)
        },
        "interregnum": game.interregnum(),
        "check": {str(s): list(by) for s, by in game.checks().items()},
        "blocked": [square_name(sq) for sq in game.blocked()],
        "legal_moves": len(game.legal_moves()),
    }
    outcome = game.outcome()
    data["outcome"] = None if outcome is None else {"winner": outcome.winner, "tied": list(outcome.tied),
                                                    "reason": outcome.reason}
    if played is not None:
        data["moves"] = played
    if args.json:
        print(json.dumps(data))
        return 0
    for line in board_diagram(game):
        print(line)
    if played is not None:
        print(f"after {len(played)} moves from {args.moves_file}")
    print(f"position {game.text}")
    print(f"seat {game.turn} to move, ply {game.ply}")
    for s, seat in data["seats"].items():
        controlled = ", ".join(seat["controlled"]) or "nothing else"
        king = f"king {seat['king']}" if seat["king"] else "no king (Interregnum)"
        print(f"seat {s} ({seat['army']} army): owns {seat['owned']}, controls {controlled}; {king}")
    print(f"blocked: {', '.join(data['blocked']) or 'none'}")
    checks = "; ".join(f"seat {s} by {', '.join(map(str, by))}" for s, by in data["check"].items())
    print(f"check: {checks}" if checks else "no king in check")
    if outcome is not None:
        won = f"seat {outcome.winner} wins" if outcome.winner is not None else "all tie"
        print(f"game over ({outcome.reason}): {won}")
    print(f"{data['legal_moves']} legal moves")
    if args.moves:
        for move in game.legal_moves():
            print(f"  {move.text}")
    return 0
