"""The Sovereign technology chart: seven tiers, their costs, gating and the bonuses as data.

Pure data and functions over plain collections of technology keys; nothing here knows about machines or screens.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Collection, Iterable


class Bonus(str, Enum):
    """What a technology's bonus does, as the companion applies it."""

    NONE = "none"
    FREE_DISCOVERY = "free_discovery"        #: Writing, Literacy, Scientific method (one-shot, selected turn)
    TRADE = "trade"                          #: +1 per city in a selected turn (one-shot)
    BANKING = "banking"                      #: +5 per city in a selected turn, nothing the next (one-shot)
    GLOBALIZATION = "globalization"          #: +12 points every turn
    EXTRA_ACTION = "extra_action"            #: Artificial Intelligence: +1 action every turn
    FREE_ACTIONS = "free_actions"            #: Wheel (1), Electricity (2): extra actions in a selected turn
    FREE_EXPANSIONS = "free_expansions"      #: Irrigation (1), Religion (2): in the turn discovered
    EXPANSIONS_OR_UNITS = "expansions_or_units"  #: Industrialisation (2), Mass production (3)
    ARTS = "arts"                            #: every city of 5-6 tiles grows by one
    NATIONALISM = "nationalism"              #: two city tiles -> two units (selected turn)
    ESPIONAGE = "espionage"                  #: take one technology from another player (selected turn)
    CONSTRUCTION = "construction"            #: +1 defence in cities
    SPACE_FLIGHT = "space_flight"            #: +1 die on all rolls, lowest removed
    ATOMIC = "atomic"                        #: armies of eight
    MEDICINE = "medicine"                    #: resurrect one unit in a battle, once per game
    SEAFARING = "seafaring"                  #: a city founded on the coast gets one free coastal expansion
    REMINDER = "reminder"                    #: a movement or building rule the players apply on the board


@dataclass(frozen=True)
class Tech:
    key: str
    name: str
    short: str  #: at most 5 characters, for the status pages
    tier: int
    units: tuple[str, ...] = ()
    bonus: Bonus = Bonus.NONE
    amount: int = 0  #: the bonus's count (actions, expansions, units, points)
    hint: str = ""  #: one short line for the screen


TIER_COST: dict[int, int] = {1: 2, 2: 3, 3: 5, 4: 8, 5: 12, 6: 17, 7: 23}
TIERS: tuple[int, ...] = tuple(sorted(TIER_COST))
FINAL_TIER = 7
#: technologies of a tier needed before any of the next tier
GATE = 4

_B = Bonus
TECHS: tuple[Tech, ...] = (
    Tech("pottery", "Pottery", "Pott", 1, ("Settler",)),
    Tech("writing", "Writing", "Writ", 1, (), _B.FREE_DISCOVERY, 1, "one free discovery"),
    Tech("road_building", "Road building", "Road", 1, (), _B.REMINDER, 0, "free moves on city tiles"),
    Tech("mining", "Mining", "Mine", 1, ("Pikeman",)),
    Tech("horseback_riding", "Horseback Riding", "Horse", 1, ("Horseman",)),
    Tech("seafaring", "Seafaring", "Sea", 1, (), _B.SEAFARING, 1, "coastal city +1 tile"),
    Tech("mathematics", "Mathematics", "Math", 2, ("Catapult",)),
    Tech("construction", "Construction", "Cons", 2, (), _B.CONSTRUCTION, 1, "+1 city defence"),
    Tech("trade", "Trade", "Trade", 2, (), _B.TRADE, 1, "+1 per city, one turn"),
    Tech("irrigation", "Irrigation", "Irri", 2, (), _B.FREE_EXPANSIONS, 1, "1 free expansion now"),
    Tech("wheel", "Wheel", "Wheel", 2, (), _B.FREE_ACTIONS, 1, "+1 action, one turn"),
    Tech("navigation", "Navigation", "Navi", 2, ("Galley",)),
    Tech("code_of_laws", "Code of Laws", "Laws", 3, (), _B.REMINDER, 0, "forts near cities"),
    Tech("literacy", "Literacy", "Lit", 3, (), _B.FREE_DISCOVERY, 1, "one free discovery"),
    Tech("gunpowder", "Gunpowder", "Gun", 3, ("Musketman",)),
    Tech("metallurgy", "Metallurgy", "Metal", 3, ("Frigate",)),
    Tech("monarchy", "Monarchy", "Mon", 3, ("Cavalry",)),
    Tech("religion", "Religion", "Relig", 3, (), _B.FREE_EXPANSIONS, 2, "2 free expansions now"),
    Tech("nationalism", "Nationalism", "Natio", 4, (), _B.NATIONALISM, 2, "2 tiles -> 2 units"),
    Tech("scientific_method", "Scientific method", "Sci", 4, (), _B.FREE_DISCOVERY, 1, "one free discovery"),
    Tech("banking", "Banking", "Bank", 4, (), _B.BANKING, 5, "+5 per city, one turn"),
    Tech("arts", "Arts", "Arts", 4, (), _B.ARTS, 1, "cities of 5+ grow 1"),
    Tech("refining", "Refining", "Refin", 4, ("Frigate",)),
    Tech("railroad", "Railroad", "Rail", 4, (), _B.REMINDER, 0, "rail between cities"),
    Tech("military_tactics", "Military tactics", "MilT", 5, ("Infantry",)),
    Tech("automobile", "Automobile", "Auto", 5, ("Tank", "Transport")),
    Tech("industrialisation", "Industrialisation", "Indus", 5, (), _B.EXPANSIONS_OR_UNITS, 2,
         "2 free expansions or units"),
    Tech("electricity", "Electricity", "Elec", 5, (), _B.FREE_ACTIONS, 2, "+2 actions, one turn"),
    Tech("medicine", "Medicine", "Med", 5, (), _B.MEDICINE, 1, "revive 1 unit, once"),
    Tech("steel", "Steel", "Steel", 5, ("Artillery",)),
    Tech("composite_materials", "Composite Materials", "Comp", 6, ("Battleship",)),
    Tech("espionage", "Espionage", "Spy", 6, (), _B.ESPIONAGE, 1, "take 1 technology"),
    Tech("rocketry", "Rocketry", "Rock", 6, ("Air raid",)),
    Tech("atomic_energy", "Atomic energy", "Atom", 6, (), _B.ATOMIC, 8, "armies of eight"),
    Tech("flight", "Flight", "Fligh", 6, (), _B.REMINDER, 0, "fly between cities"),
    Tech("mass_production", "Mass production", "Mass", 6, (), _B.EXPANSIONS_OR_UNITS, 3,
         "3 free units or expansions"),
    Tech("artificial_intelligence", "Artificial Intelligence", "AI", 7, (), _B.EXTRA_ACTION, 1, "+1 action"),
    Tech("space_flight", "Space flight", "Space", 7, (), _B.SPACE_FLIGHT, 1, "+1 die, lowest out"),
    Tech("globalization", "Globalization", "Glob", 7, (), _B.GLOBALIZATION, 12, "+12 points a turn"),
)

BY_KEY: dict[str, Tech] = {t.key: t for t in TECHS}


class UnknownTech(KeyError):
    """A technology key that is not on the chart."""


def tech(key: str) -> Tech:
    try:
        return BY_KEY[key]
    except KeyError:
        raise UnknownTech(f"no technology {key!r} on the chart") from None


def in_tier(tier: int) -> tuple[Tech, ...]:
    return tuple(t for t in TECHS if t.tier == tier)


def cost(key: str) -> int:
    return TIER_COST[tech(key).tier]


def count_in_tier(held: Iterable[str], tier: int) -> int:
    return sum(1 for k in set(held) if k in BY_KEY and BY_KEY[k].tier == tier)


def tier_open(held: Collection[str], tier: int) -> bool:
    """A tier can be researched once every tier below has at least four technologies researched."""
    return all(count_in_tier(held, t) >= GATE for t in range(1, tier))


def can_research(held: Collection[str], key: str, allow_final: bool = True) -> bool:
    t = tech(key)
    if key in held or (not allow_final and t.tier == FINAL_TIER):
        return False
    return tier_open(held, t.tier)


def researchable(held: Collection[str], allow_final: bool = True) -> tuple[Tech, ...]:
    """Every technology that could be researched now, in chart order."""
    return tuple(t for t in TECHS if can_research(held, t.key, allow_final))


def tier_complete(held: Collection[str], tier: int) -> bool:
    return all(t.key in held for t in in_tier(tier))


def completes_tier(held: Collection[str], key: str) -> bool:
    """Would adding ``key`` complete its tier (earning a Technology card)?"""
    t = tech(key)
    return key not in held and tier_complete(set(held) | {key}, t.tier)


def has_all_final(held: Collection[str]) -> bool:
    """All three tier-7 technologies: an immediate win."""
    return tier_complete(held, FINAL_TIER)


def units_of(held: Iterable[str]) -> tuple[str, ...]:
    """Unit names the held technologies allow, in chart order, without repeats."""
    have = set(held)
    out: list[str] = []
    for t in TECHS:
        if t.key in have:
            out.extend(u for u in t.units if u not in out)
    return tuple(out)


def chart_units() -> tuple[str, ...]:
    """Every unit the chart names, in chart order."""
    return units_of(BY_KEY)


def sort_keys(keys: Iterable[str]) -> list[str]:
    """Technology keys in chart order."""
    order = {t.key: i for i, t in enumerate(TECHS)}
    return sorted(set(keys), key=lambda k: order.get(k, len(order)))
