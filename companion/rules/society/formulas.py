"""Every number the GM computes, as pure functions over whole numbers (exact fractions inside, rounded as the
readings say). The readings of the ambiguous places are one frozen value, :class:`Readings`, built from the
``[games.society]`` switches."""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Mapping

from companion.rules.society.data import GOVERNMENTS, tech_base_cost


@dataclass(frozen=True)
class Readings:
    """How the ambiguous places of the text are read; the defaults are the Society manual's readings."""

    tech_price: str = "shared"  #: "shared": Base*(P-R)/P; "literal": Base*(P - R/P) as printed
    tech_rounding: str = "up"  #: up | down | nearest (halves up)
    tech_players: str = "alive"  #: P counts the societies still alive, or "all" that started
    tech_have: str = "start"  #: R counts who had the level at the turn's start, or also earlier buyers ("live")
    casualty_rounding: str = "down"  #: down | up (attacker D/AT, defender D/DC*C)
    support_rounding: str = "down"  #: Monarchy's army support armies/cities: down | up
    support_cities: str = "all"  #: the cities that divide army support: all, or only those under the tax cap (capped)
    nascar_rounding: str = "down"  #: NASCAR's 0.5*T^2 per caravan: down | up
    two_way_tie: str = "both_destroyed"  #: equal strengths: both_destroyed | both_return
    bonus_rounding: str = "each"  #: Monarchy's +50 % rounded up per caravan, tax, wonder income (each) or per turn
    survivor_rounding: str = "up"  #: a two-way winner's survivors difference/tech: up (as printed) | down
    spaceship_parts: int = 4  #: parts needed to win: 4 (Special Units) or 3 (Victory)
    trade_range: str = "tech"  #: "tech": as many squares as the tech level; "adjacent": neighbours only
    silk_road_expiry: str = "owner"  #: Silk Road expires when its owner (owner) or anyone (anyone) reaches Mass Ed.
    obsolete_culture: bool = True  #: obsolete wonders still count toward a cultural victory
    revolution_tax: bool = False  #: a society in revolution still collects tax (False: only if it kept Tax)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Readings":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in names})


DEFAULT = Readings()


def _round(x: Fraction, how: str) -> int:
    if how == "up":
        return math.ceil(x)
    if how == "nearest":
        return math.floor(x + Fraction(1, 2))
    return math.floor(x)


def gov_bonus(government: str, amount: int) -> int:
    """Monarchy +50% (round up), Republic double, Despotism as is — tax, trade and wonder income alike."""
    if government == "monarchy":
        return math.ceil(Fraction(amount * 3, 2))
    if government == "republic":
        return amount * 2
    return amount


def capture(attackers: int, defenders: int, attacker_tech: int, defender_tech: int, defender_cities: int) -> int:
    """C = ((A/DT) - (D/DC)) * (AT/DT), rounded down; never below 0 nor above the defender's cities."""
    if defender_cities <= 0 or attackers <= 0:
        return 0
    c = (Fraction(attackers, defender_tech) - Fraction(defenders, defender_cities)) * Fraction(attacker_tech,
                                                                                             defender_tech)
    return max(0, min(defender_cities, math.floor(c)))


def casualties(defenders: int, attacker_tech: int, defender_cities: int, captured: int, attackers: int,
               r: Readings = DEFAULT) -> tuple[int, int]:
    """(attacker's losses D/AT, defender's losses D/DC * cities lost), each at most the army it comes from."""
    att = _round(Fraction(defenders, attacker_tech), r.casualty_rounding)
    dfn = _round(Fraction(defenders, defender_cities) * captured, r.casualty_rounding) if defender_cities else 0
    return min(attackers, att), min(defenders, dfn)


def tax(cities: int, tech: int, government: str) -> int:
    """Cities x tech x 5 over at most the government's city cap, with the government's bonus."""
    cap = GOVERNMENTS[government].city_cap
    taxed = cities if cap is None else min(cities, cap)
    return gov_bonus(government, taxed * tech * 5)


def army_support(armies: int, cities: int, government: str, nra: bool = False, r: Readings = DEFAULT) -> int:
    """Despotism free; Monarchy armies/cities; Republic armies (with the NRA, a Monarchy's)."""
    if government == "despotism" or armies <= 0:
        return 0
    if government == "monarchy" or nra:
        return _round(Fraction(armies, max(cities, 1)), r.support_rounding)
    return armies


def settle_support(income: int, armies: int, cities: int, government: str, nra: bool = False,
                   r: Readings = DEFAULT) -> tuple[int, int]:
    """(armies kept, support paid): armies are disbanded until the support no longer exceeds the income."""
    cap = GOVERNMENTS[government].city_cap
    if r.support_cities == "capped" and cap is not None:
        cities = min(cities, cap)
    kept = armies
    while kept > 0 and army_support(kept, cities, government, nra, r) > income:
        kept -= 1
    return kept, army_support(kept, cities, government, nra, r)


def trade_cost(tech: int, partner_tech: int, silk_road: bool = False) -> int:
    return 0 if silk_road else tech + partner_tech


def trade_payout(tech: int, partner_tech: int, government: str = "despotism") -> int:
    return gov_bonus(government, tech * partner_tech)


def nascar_payout(tech: int, government: str = "despotism", r: Readings = DEFAULT) -> int:
    """A caravan to yourself (NASCAR): half the square of your tech level, with the government's bonus."""
    return gov_bonus(government, _round(Fraction(tech * tech, 2), r.nascar_rounding))


def tech_cost(level: int, players: int, have: int, r: Readings = DEFAULT) -> int:
    """The shared-knowledge price of a level: P players, R of whom already have it."""
    base = tech_base_cost(level)
    if players <= 0:
        return base
    if r.tech_price == "literal":
        factor = players - Fraction(have, players)
    else:
        factor = Fraction(players - have, players)
    return max(0, _round(base * factor, r.tech_rounding))


def city_cost(number: int) -> int:
    """The N-th city costs 3N gold; the first is free."""
    return 0 if number <= 1 else 3 * number


def wonder_base_cost(level: int) -> int:
    return level * level


def two_way(a1: int, a1_tech: int, a2: int, a2_tech: int, r: Readings = DEFAULT) -> tuple[int | None, int]:
    """Two attacking armies meet: (winner 1|2|None, the winner's survivors = difference / its tech, rounded up
    unless the reading says down)."""
    s1, s2 = a1 * a1_tech, a2 * a2_tech
    if s1 == s2:
        return None, 0
    if s1 > s2:
        return 1, min(a1, _round(Fraction(s1 - s2, a1_tech), r.survivor_rounding))
    return 2, min(a2, _round(Fraction(s2 - s1, a2_tech), r.survivor_rounding))
