"""Sovereign Chess Royale (four players) as a table-companion machine. See :mod:`fsm.sovereign_chess_royale.machine`."""
from __future__ import annotations

from fsm.sovereign_chess_royale.machine import SovereignChessRoyaleGame

__all__ = ["SovereignChessRoyaleGame"]
