"""A battle as the arguments of ``companion odds sovereign``: both armies and every modifier, so anyone can
recompute the chance the battle screen showed (``companion stats`` prints them as ``odds_args``).

Each unit is written ``Name:A-D-M{R}`` (the unit table's name keeps its air and ship flags; the statistics are the
ones the battle used), equal neighbours grouped as ``N*``; the order of the army is kept, since it settles which of
two equally strong units goes first.
"""
from __future__ import annotations

from typing import Sequence

from companion.rules.sovereign.battle import Field, Where
from companion.rules.sovereign.odds import RollModel
from companion.rules.sovereign.units import Fighter


def unit_spec(f: Fighter) -> str:
    """``Catapult:2-1-2{1}``: the unit's name and the statistics it fought with."""
    rng = f"{{{f.range}}}" if f.range else ""
    return f"{f.name}:{f.attack}-{f.defence}-{f.move}{rng}"


def army_spec(army: Sequence[Fighter]) -> str:
    """The army in the order it was entered, equal neighbours as ``N*spec``: ``2*Horseman:2-1-2,Catapult:2-1-2{1}``."""
    parts: list[tuple[int, Fighter]] = []
    for f in army:
        if parts and parts[-1][1] == f:
            parts[-1] = (parts[-1][0] + 1, f)
        else:
            parts.append((1, f))
    return ",".join(unit_spec(f) if n == 1 else f"{n}*{unit_spec(f)}" for n, f in parts)


def odds_args(attackers: Sequence[Fighter], defenders: Sequence[Fighter], fld: Field, model: RollModel,
              at_sea: bool = False, air_all: bool = False) -> list[str]:
    """The argv after ``companion odds sovereign`` giving exactly ``battle_odds(attackers, defenders, fld, model,
    at_sea, air_all)``."""
    args = ["--attack", army_spec(attackers), "--defend", army_spec(defenders)]
    if fld.where is Where.CITY:
        args += ["--city-tiles", str(fld.adjacent)] + (["--construction"] if fld.construction else [])
    elif fld.where is Where.FORT:
        args += ["--fort", str(fld.fort)]
    if at_sea or fld.where is Where.SEA:
        args.append("--at-sea")
    if model.att_dice > 1:
        args.append("--attacker-space-flight")
    if model.def_dice > 1:
        args.append("--defender-space-flight")
    if model.att_bonus_dice > 1 or model.def_bonus_dice > 1:
        args += ["--space-flight-bonus", "extra"]
    args += ["--explode", model.explode.value]
    if air_all:
        args += ["--air-raid-loss", "all"]
    return args


__all__ = ["army_spec", "odds_args", "unit_spec"]
