"""The battle engine: army sums, defence bonuses, roll totals with the bonus die, and who is removed.

Everything is a pure function of armies (sequences of :class:`Fighter`) and a :class:`Field` describing where the
battle is. The machine keeps armies as JSON and calls these; the odds engine uses the same removal order.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from companion.rules.sovereign.units import Fighter

MAX_ARMY = 7
MAX_ARMY_ATOMIC = 8
MAX_ADJACENT = 6


class Explode(str, Enum):
    """What a natural 12 on the kept die does."""

    ONCE = "once"    #: one more d12, added (that one does not explode again)
    CHAIN = "chain"  #: one more d12, added, and again while they show 12
    OFF = "off"      #: nothing


class Side(str, Enum):
    ATTACK = "att"
    DEFEND = "def"

    @property
    def other(self) -> "Side":
        return Side.DEFEND if self is Side.ATTACK else Side.ATTACK


class Where(str, Enum):
    FIELD = "field"
    CITY = "city"
    FORT = "fort"
    SEA = "sea"


class TieRule(str, Enum):
    """Among units of equal strength, who is removed (the designer's two options)."""

    LOSER_CHOOSES = "loser_chooses"
    HIGHEST_TOTAL = "highest_total"  #: the unit with the highest attack + defence + move goes


@dataclass(frozen=True)
class Field:
    """Where a battle is fought and what the defender gets for it."""

    where: Where = Where.FIELD
    adjacent: int = 0  #: city tiles next to the defended tile (0-6), for the player holding the central tile
    construction: bool = False  #: the defender has Construction (+1 in a city)
    fort: int = 0  #: a manned fort's hex value

    def __post_init__(self) -> None:
        if not 0 <= self.adjacent <= MAX_ADJACENT:
            raise ValueError(f"adjacent city tiles go from 0 to {MAX_ADJACENT}, not {self.adjacent}")
        if self.fort < 0:
            raise ValueError("a fort's value cannot be negative")


def is_air_raid(attackers: Sequence[Fighter]) -> bool:
    """An air raid: every attacking unit is an air raid."""
    return bool(attackers) and all(f.air for f in attackers)


def defence_bonus(fld: Field, attackers: Sequence[Fighter]) -> int:
    """What the defender adds to every roll: city adjacency (not against an air raid) + Construction, or a fort."""
    if fld.where is Where.CITY:
        adj = 0 if is_air_raid(attackers) else fld.adjacent
        return adj + (1 if fld.construction else 0)
    if fld.where is Where.FORT:
        return fld.fort
    return 0


def strength(f: Fighter, side: Side) -> int:
    return f.attack if side is Side.ATTACK else f.defence


def army_sum(army: Sequence[Fighter], side: Side) -> int:
    return sum(strength(f, side) for f in army)


def removal_key(f: Fighter, side: Side, at_sea: bool = False) -> tuple[int, int, int, int, int]:
    """Smallest key goes first: attacking air raids at once; ships at sea last; range units after the rest,
    lower range before higher; otherwise the strongest (attack for the attacker, defence for the defender)."""
    return (0 if (side is Side.ATTACK and f.air) else 1,
            1 if (at_sea and f.ship) else 0,
            1 if f.range > 0 else 0,
            f.range,
            -strength(f, side))


def removal_candidates(army: Sequence[Fighter], side: Side, at_sea: bool = False) -> list[int]:
    """Indices of the units that may be removed next (all of equal standing)."""
    if not army:
        return []
    keys = [removal_key(f, side, at_sea) for f in army]
    low = min(keys)
    return [i for i, k in enumerate(keys) if k == low]


def distinct_candidates(army: Sequence[Fighter], cands: Sequence[int]) -> list[int]:
    """The candidates with one index per distinct unit (two identical Horsemen are one choice)."""
    seen: set[Fighter] = set()
    out: list[int] = []
    for i in cands:
        if army[i] not in seen:
            seen.add(army[i])
            out.append(i)
    return out


def pick_highest_total(army: Sequence[Fighter], cands: Sequence[int]) -> int:
    """The designer's second option: the highest attack + defence + move goes; the first listed among equals."""
    return max(cands, key=lambda i: (army[i].total, -i))


def removal_order(army: Sequence[Fighter], side: Side, at_sea: bool = False,
                  tie: TieRule = TieRule.HIGHEST_TOTAL) -> list[Fighter]:
    """The order units would be lost in, one per lost roll (loser-chooses ties resolved as highest total:
    the sums, and so the odds, do not depend on which of equal-strength units goes)."""
    rest = list(army)
    out: list[Fighter] = []
    while rest:
        i = pick_highest_total(rest, removal_candidates(rest, side, at_sea))
        out.append(rest.pop(i))
    return out


def kept_die(dice: Sequence[int]) -> int:
    """Space flight rolls one die more and removes the lowest: the highest is kept."""
    if not dice:
        raise ValueError("no dice rolled")
    return max(dice)


def wants_bonus(dice: Sequence[int], bonus: Sequence[int], explode: Explode) -> bool:
    """Does this side roll another bonus d12 now? ``bonus`` holds the (kept) bonus dice so far."""
    if explode is Explode.OFF or kept_die(dice) != 12:
        return False
    if not bonus:
        return True
    return explode is Explode.CHAIN and bonus[-1] == 12


def roll_total(dice: Sequence[int], bonus: Sequence[int], army_strength: int, extra: int = 0) -> int:
    """Kept die + every bonus die + the army's strength + bonuses."""
    return kept_die(dice) + sum(bonus) + army_strength + extra


def roll_winner(att_total: int, def_total: int) -> Side:
    """The higher total wins; a draw goes to the defender."""
    return Side.ATTACK if att_total > def_total else Side.DEFEND


def army_limit(atomic: bool) -> int:
    return MAX_ARMY_ATOMIC if atomic else MAX_ARMY
