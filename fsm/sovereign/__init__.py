"""Sovereign (rules 1.2) as a table-companion machine. See :mod:`fsm.sovereign.machine`."""
from __future__ import annotations

from fsm.sovereign.machine import SovereignGame

__all__ = ["SovereignGame"]
