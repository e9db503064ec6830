"""Sovereign's Chain: the machine (``SovereignsChainGame``), split into one mixin per phase."""
from __future__ import annotations

from fsm.sovereigns_chain.game import SovereignsChainGame

__all__ = ["SovereignsChainGame"]
