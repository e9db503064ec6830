"""Sovereign Chess (two players) as a table-companion machine. See :mod:`fsm.sovereign_chess.machine`."""
from __future__ import annotations

from fsm.sovereign_chess.machine import SovereignChessGame

__all__ = ["SovereignChessGame"]
