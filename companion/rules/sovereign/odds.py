"""Exact odds of a Sovereign battle: rational arithmetic over every army state, no simulation.

One roll: each side's die (the highest of two with Space flight), plus bonus dice after a natural 12 (once, chained
or off), plus the side's sum. The attacker wins the roll when its total is strictly higher. Chained bonus dice make
the roll unbounded; their tails are geometric series, summed in closed form, so the result is still exact.

A battle: the loser of each roll loses one unit in the fixed removal order (:func:`battle.removal_order`), until one
side has none left. The value of a state (attacker losses i, defender losses j) is
``V(i, j) = p(i, j) V(i, j + 1) + (1 - p(i, j)) V(i + 1, j)``.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from companion.rules.sovereign.battle import Explode, Field, Side, army_sum, defence_bonus, removal_order
from companion.rules.sovereign.units import Fighter

SIDES = 12
_FACES = range(1, SIDES + 1)
_LOW = range(1, SIDES)  # faces that do not explode


@functools.lru_cache(maxsize=8)
def die_dist(dice: int) -> tuple[Fraction, ...]:
    """P(kept die = r) for r = 1..12 (index r - 1) when ``dice`` d12 are rolled and the highest kept."""
    n = SIDES ** dice
    return tuple(Fraction(r ** dice - (r - 1) ** dice, n) for r in _FACES)


@dataclass(frozen=True)
class RollModel:
    """How both sides roll."""

    explode: Explode = Explode.ONCE
    att_dice: int = 1  #: 2 with Space flight
    def_dice: int = 1
    #: dice per bonus roll (1; 2 when the space_flight_bonus option lets Space flight roll bonus dice too)
    att_bonus_dice: int = 1
    def_bonus_dice: int = 1


def _finite(first: tuple[Fraction, ...], bonus: tuple[Fraction, ...], explode: Explode) -> dict[int, Fraction]:
    if explode is Explode.OFF:
        return {r: first[r - 1] for r in _FACES}
    out = {r: first[r - 1] for r in _LOW}
    for b in _FACES:
        out[SIDES + b] = out.get(SIDES + b, Fraction(0)) + first[SIDES - 1] * bonus[b - 1]
    return out


@functools.lru_cache(maxsize=64)
def _diff_tail(model: RollModel) -> tuple[int, tuple[Fraction, ...]]:
    """For finite rolls: (lowest difference z0, P(XA - XD > z) for z = z0 .. max)."""
    a = _finite(die_dist(model.att_dice), die_dist(model.att_bonus_dice), model.explode)
    d = _finite(die_dist(model.def_dice), die_dist(model.def_bonus_dice), model.explode)
    diff: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in d.items():
            diff[x - y] = diff.get(x - y, Fraction(0)) + px * py
    lo, hi = min(diff), max(diff)
    tail: list[Fraction] = []
    acc = Fraction(0)
    for z in range(hi, lo - 1, -1):  # tail[z - lo] = P(diff > z)
        tail.append(acc)
        acc += diff.get(z, Fraction(0))
    tail.reverse()
    return lo, tuple(tail)


def _pair(wa: Sequence[Fraction], wd: Sequence[Fraction], s: int) -> Fraction:
    """Sum of wa[ra] * wd[rd] over ra, rd in 1..11 with ra - rd > s."""
    if s >= SIDES - 2:
        return Fraction(0)
    total = Fraction(0)
    for ra in _LOW:
        for rd in _LOW:
            if ra - rd > s:
                total += wa[ra - 1] * wd[rd - 1]
    return total


def _chain(t: int, model: RollModel) -> Fraction:
    """P(XA - XD > t) with chained bonus dice: X = 12 K + R, K geometric after the first die."""
    fa, fd = die_dist(model.att_dice), die_dist(model.def_dice)
    ba, bd = die_dist(model.att_bonus_dice), die_dist(model.def_bonus_dice)
    fa12, fd12, ba12, bd12 = fa[-1], fd[-1], ba[-1], bd[-1]
    full = -(SIDES - 1)  # s <= full: every pair of low faces satisfies ra - rd > s
    total = _pair(fa, fd, t)  # neither exploded
    k = 1  # only the defender exploded, k times: finitely many terms can still be won
    while t + SIDES * k < SIDES - 2:
        total += fd12 * bd12 ** (k - 1) * _pair(fa, bd, t + SIDES * k)
        k += 1
    k = 1  # only the attacker exploded, k times: eventually every pair wins
    while t - SIDES * k > full:
        total += fa12 * ba12 ** (k - 1) * _pair(ba, fd, t - SIDES * k)
        k += 1
    total += fa12 * (1 - ba12) * (1 - fd12) * ba12 ** (k - 1) / (1 - ba12)
    # both exploded: weight of kA - kD = j is fa12 fd12 q^|j| / (1 - ba12 bd12), q = ba12 (j >= 0) or bd12
    both = fa12 * fd12 / (1 - ba12 * bd12)
    j = -1
    while t - SIDES * j < SIDES - 2:
        total += both * bd12 ** (-j) * _pair(ba, bd, t - SIDES * j)
        j -= 1
    j = 0
    while t - SIDES * j > full:
        total += both * ba12 ** j * _pair(ba, bd, t - SIDES * j)
        j += 1
    total += both * (1 - ba12) * (1 - bd12) * ba12 ** j / (1 - ba12)
    return total


@functools.lru_cache(maxsize=4096)
def roll_win(t: int, model: RollModel = RollModel()) -> Fraction:
    """P(attacker wins one roll) when the defender's fixed part (sum + bonus) exceeds the attacker's by ``t``."""
    if model.explode is Explode.CHAIN:
        return _chain(t, model)
    lo, tail = _diff_tail(model)
    if t < lo:
        return Fraction(1)
    if t - lo >= len(tail):
        return Fraction(0)
    return tail[t - lo]


@dataclass(frozen=True)
class Odds:
    attacker: Fraction
    defender: Fraction
    first_roll: Fraction  #: the attacker's chance to win the next roll

    @property
    def defender_float(self) -> float:
        return float(self.defender)

    @property
    def attacker_float(self) -> float:
        """``1 - defender``: the two printed numbers are complements (the exact fractions are in ``attacker``)."""
        return 1.0 - float(self.defender)


def battle_odds(attackers: Sequence[Fighter], defenders: Sequence[Fighter], fld: Field = Field(),
                model: RollModel = RollModel(), at_sea: bool = False, air_all: bool = False) -> Odds:
    """Exact chance that the attacker destroys the defending army before losing its own. ``air_all``: a roll lost
    while the attack has air raids destroys every air raid in it (the ``air_raid_loss = "all"`` reading)."""
    return _battle_odds(tuple(attackers), tuple(defenders), fld, model, at_sea, air_all)


@functools.lru_cache(maxsize=256)
def _battle_odds(attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...], fld: Field, model: RollModel,
                 at_sea: bool, air_all: bool = False) -> Odds:
    a_order = removal_order(attackers, Side.ATTACK, at_sea)
    d_order = removal_order(defenders, Side.DEFEND, at_sea)
    na, nd = len(a_order), len(d_order)
    if na == 0:
        return Odds(Fraction(0), Fraction(1), Fraction(0))
    if nd == 0:
        return Odds(Fraction(1), Fraction(0), Fraction(1))
    a_sums = [army_sum(a_order[i:], Side.ATTACK) for i in range(na)]
    a_bonus = [defence_bonus(fld, a_order[i:]) for i in range(na)]
    d_sums = [army_sum(d_order[j:], Side.DEFEND) for j in range(nd)]
    # air raids are removed first, so they are a_order[:raids]; with air_all a lost roll there removes them all
    raids = sum(1 for f in a_order if f.air) if air_all else 0
    # rows[i][j]: attacker losses i, defender losses j; rows computed from i = na (destroyed) down to 0
    rows: list[list[Fraction]] = [[Fraction(0)] * (nd + 1) for _ in range(na + 1)]
    for i in range(na - 1, -1, -1):
        after = raids if i < raids else i + 1
        row = rows[i]
        row[nd] = Fraction(1)
        for j in range(nd - 1, -1, -1):
            p = roll_win(d_sums[j] + a_bonus[i] - a_sums[i], model)
            row[j] = p * row[j + 1] + (1 - p) * rows[after][j]
    first = roll_win(d_sums[0] + a_bonus[0] - a_sums[0], model)
    return Odds(rows[0][0], 1 - rows[0][0], first)
