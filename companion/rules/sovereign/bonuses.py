"""When a technology's bonus can be used: the rules' note on bonus timing, as data.

A bonus is applied in the part of the turn where it would ordinarily occur. The Add step comes before research, so
Add-step bonuses (Trade, Banking, Globalization) discovered this turn apply from a later turn; so do the number of
actions (Artificial Intelligence, Wheel, Electricity), fixed when Spend begins, and — by default — the bonuses used
"in a selected turn" (free discoveries, Nationalism, Espionage). Bonuses "this turn" (Irrigation, Religion) apply in
the turn they are discovered and lapse at its end; Industrialisation, Mass production and Arts wait until used.
"""
from __future__ import annotations

from enum import Enum

from companion.rules.sovereign.techs import Bonus, tech


class Timing(str, Enum):
    NEXT_TURN = "next_turn"        #: from the discoverer's next turn on
    SELECTED = "selected"          #: a turn the player selects, after the discovery turn (option: the same turn)
    THIS_TURN = "this_turn"        #: only in the turn of discovery
    FROM_NOW = "from_now"          #: at once, until used (or for good)


TIMING: dict[Bonus, Timing] = {
    Bonus.TRADE: Timing.NEXT_TURN,
    Bonus.BANKING: Timing.NEXT_TURN,
    Bonus.GLOBALIZATION: Timing.NEXT_TURN,
    Bonus.EXTRA_ACTION: Timing.NEXT_TURN,
    Bonus.FREE_ACTIONS: Timing.SELECTED,
    Bonus.FREE_DISCOVERY: Timing.SELECTED,
    Bonus.NATIONALISM: Timing.SELECTED,
    Bonus.ESPIONAGE: Timing.SELECTED,
    Bonus.FREE_EXPANSIONS: Timing.THIS_TURN,
}

#: bonuses used up once used (the rest are standing effects)
ONE_SHOT: frozenset[Bonus] = frozenset({
    Bonus.FREE_DISCOVERY, Bonus.TRADE, Bonus.BANKING, Bonus.FREE_ACTIONS, Bonus.FREE_EXPANSIONS,
    Bonus.EXPANSIONS_OR_UNITS, Bonus.ARTS, Bonus.NATIONALISM, Bonus.ESPIONAGE, Bonus.MEDICINE,
})


def timing(key: str) -> Timing:
    return TIMING.get(tech(key).bonus, Timing.FROM_NOW)


def usable_now(key: str, discovered_turn: int, turn: int, selected_same_turn: bool = False) -> bool:
    """May the bonus of technology ``key``, discovered in global turn ``discovered_turn``, be used in ``turn``?
    (Whether a one-shot bonus was already used is the caller's business.)"""
    t = timing(key)
    if t is Timing.NEXT_TURN:
        return turn > discovered_turn
    if t is Timing.SELECTED:
        return turn > discovered_turn or selected_same_turn
    if t is Timing.THIS_TURN:
        return turn == discovered_turn
    return True


def uses(key: str) -> int:
    """How many times a one-shot bonus can be used (free expansions and units count one each); 0 for standing ones."""
    b = tech(key)
    if b.bonus not in ONE_SHOT:
        return 0
    if b.bonus in (Bonus.FREE_EXPANSIONS, Bonus.EXPANSIONS_OR_UNITS):
        return b.amount
    return 1
