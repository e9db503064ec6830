"""Sovereign (opensourceboardgame.org, rules 1.2): the technology chart, terrain, units, scoring, battles and the
exact battle odds. Pure functions and data; imports nothing from hw/ or fsm/."""
from __future__ import annotations

from companion.rules.sovereign.battle import Explode, Field, Side, TieRule, Where
from companion.rules.sovereign.odds import Odds, RollModel, battle_odds
from companion.rules.sovereign.units import Fighter, UnitSpecError, UnitStats, parse_notation, parse_spec, parse_specs

__all__ = ["Explode", "Field", "Side", "TieRule", "Where", "Odds", "RollModel", "battle_odds", "Fighter",
           "UnitSpecError", "UnitStats", "parse_notation", "parse_spec", "parse_specs"]
