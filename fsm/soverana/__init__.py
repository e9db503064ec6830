"""SOVERANA — Running a sustainable city (six managers, five rounds). See :mod:`fsm.soverana.game`."""
from __future__ import annotations

from fsm.soverana.game import SoveranaGame

__all__ = ["SoveranaGame"]
