"""Sovereign Chess (Mark Bates): the rules engine — legal moves, control of colours, regime change, check, perft.

A pure library: no I/O, nothing from ``hw/`` or ``fsm/``. Start with :class:`SovereignChess`::

    game = SovereignChess()            # the start position (or SovereignChess(position_text))
    game.make("wPi2-i4")
    [m.text for m in game.legal_moves()]
    game.controlled(1), game.blocked(), game.in_check(), game.outcome()

:func:`~.perft.perft` counts move paths on the fast internal :class:`~.position.Position`.
"""
from __future__ import annotations

from .errors import ChessError, IllegalMoveError, MoveTextError, PositionTextError
from .fen import START, parse_position, position_text
from .game import Outcome, Piece, SovereignChess
from .moves import Move, MoveKind, parse_move_text
from .perft import count_legal, divide, perft
from .position import Position
from .squares import Colour, Role, parse_square, square_name

GAME_ID = "sovereign-chess"

__all__ = [
    "GAME_ID",
    "START",
    "ChessError",
    "Colour",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveTextError",
    "Outcome",
    "Piece",
    "Position",
    "PositionTextError",
    "Role",
    "SovereignChess",
    "count_legal",
    "divide",
    "parse_move_text",
    "parse_position",
    "parse_square",
    "perft",
    "position_text",
    "square_name",
]
