"""The Sovereign Chess board for the web view: every square, piece, square of colour and who controls which colour.

Built by the loop (on its thread) from the game's state JSON (its position text) with the pure rules engine and
published in the snapshot as ``chess``, so the page can draw the full 16×16 board in colour while the web package
imports no game's rules; the game itself is not touched.
"""
from __future__ import annotations

from typing import Any, Sequence

from companion.rules.sovereign_chess import Colour, SovereignChess, SovereignChessRoyale, square_name
from companion.rules.sovereign_chess.squares import COLOUR_SQUARES

def chess_board(state: dict[str, Any], last: Sequence[int] = ()) -> dict[str, Any] | None:
    """``None`` unless ``state`` is a Sovereign Chess game with a position. ``last``: the last move's squares (the
    prompt's board view has them)."""
    text = state.get("position")
    if not isinstance(text, str) or not str(state.get("game", "")).startswith("sovereign-chess"):
        return None
    royale = str(state.get("game")).endswith("royale")
    try:
        g: SovereignChess | SovereignChessRoyale = SovereignChessRoyale(text) if royale else SovereignChess(text)
    except ValueError:
        return None
    cells: list[list[str] | None] = []
    for sq in range(256):
        p = g.piece_at(sq)
        cells.append([p.colour.label, p.role.name.lower()] if p is not None else None)
    owned = state.get("owned") or {}
    controlled = state.get("controlled") or {}
    control: dict[str, Any] = {}
    for seat, colour in owned.items():
        control[str(seat)] = {"owned": colour, "controlled": list(controlled.get(seat, []))}
    check = state.get("check")
    if isinstance(check, dict):  # Royale: {seat in check: the seats giving it}; kings by seat
        kings = state.get("kings") or {}
        checked = [str(kings[k]) for k in check if kings.get(k)]
    else:
        king = g.king_square(g.turn) if check else None
        checked = [square_name(king)] if king is not None else []
    return {
        "files": 16, "ranks": 16,
        "cells": cells,
        "colour_squares": {square_name(sq): c.label for c in Colour for sq in COLOUR_SQUARES[c]},
        "blocked": [square_name(sq) for sq in g.blocked()],
        "last": [square_name(sq) for sq in last if 0 <= sq < 256],
        "check": checked,
        "control": control,
        "to_move_seat": state.get("active_player"),
    }


def page_extras(state: dict[str, Any], prompt: Any) -> dict[str, Any]:
    """What the web page draws that only a game's rules know, for the snapshot (:meth:`App.page_extras`)."""
    if not str(state.get("game", "")).startswith("sovereign-chess"):
        return {}
    board = getattr(prompt, "board", None)
    return {"chess": chess_board(state, board.last if board is not None else ())}


__all__ = ["chess_board", "page_extras"]
