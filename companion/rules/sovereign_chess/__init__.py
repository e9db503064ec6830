"""Sovereign Chess (Mark Bates): the rules engine — legal moves, control of colours, regime change, check, perft.

A pure library: no I/O, nothing from ``hw/`` or ``fsm/``. Start with :class:`SovereignChess`::

    game = SovereignChess()            # the start position (or SovereignChess(position_text))
    game.make("wPi2-i4")
    [m.text for m in game.legal_moves()]
    game.controlled(1), game.blocked(), game.in_check(), game.outcome()

:func:`~.perft.perft` counts move paths on the fast internal :class:`~.position.Position`.

The four-player Royale is :class:`SovereignChessRoyale` (seats 1–4, kings captured, Interregnum, escape): the same
engine with a few hooks overridden (:class:`RoyalePosition` on :class:`Position`, its position text
:func:`parse_royale` / :func:`royale_start` on the two-player one, :func:`royale_perft` is :func:`perft`).
"""
from __future__ import annotations

from companion.rules.sovereign_chess.errors import ChessError, IllegalMoveError, MoveTextError, PositionTextError
from companion.rules.sovereign_chess.fen import START, parse_position, position_text
from companion.rules.sovereign_chess.game import Outcome, Piece, SovereignChess
from companion.rules.sovereign_chess.moves import Move, MoveKind, parse_move_text
from companion.rules.sovereign_chess.perft import count_legal, divide, perft
from companion.rules.sovereign_chess.position import Position
from companion.rules.sovereign_chess.royale import RoyalePosition, royale_divide, royale_perft
from companion.rules.sovereign_chess.royale_game import MoveReport, RoyaleOutcome, SovereignChessRoyale
from companion.rules.sovereign_chess.royale_text import parse_royale, royale_start, royale_text
from companion.rules.sovereign_chess.squares import Colour, Role, parse_square, square_name

#: either game, for code that only reads a position (board views, move entry): both have the same query API
AnyChess = SovereignChess | SovereignChessRoyale

GAME_ID = "sovereign-chess"
ROYALE_ID = "sovereign-chess-royale"

__all__ = [
    "AnyChess",
    "GAME_ID",
    "ROYALE_ID",
    "START",
    "ChessError",
    "Colour",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveReport",
    "MoveTextError",
    "Outcome",
    "Piece",
    "Position",
    "PositionTextError",
    "Role",
    "RoyaleOutcome",
    "RoyalePosition",
    "SovereignChess",
    "SovereignChessRoyale",
    "count_legal",
    "divide",
    "parse_move_text",
    "parse_position",
    "parse_royale",
    "parse_square",
    "perft",
    "position_text",
    "royale_divide",
    "royale_perft",
    "royale_start",
    "royale_text",
    "square_name",
]
