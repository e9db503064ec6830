"""Society's tables: technologies with base prices, the fourteen wonders, the three governments, unit prices."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

#: levels 1..15 by name; 16 and up are "Noname"
TECH_NAMES: tuple[str, ...] = (
    "Masonry", "Iron Working", "Monarchy", "Architecture", "Geography", "Religion", "Espionage", "Industrialization",
    "Representative Government", "Mass Education", "Nuclear Fission", "Miniaturization", "Space Flight",
    "The Laser", "Fusion Power",
)
_BASE = (0, 4, 8, 12, 20, 32, 52, 84, 136, 220, 356, 576, 932, 1508, 2440)

MAX_LEVEL = 60  #: a guard for input ranges; the chart is open-ended

# what each level allows (besides its wonder)
SPIES_LEVEL = 7
MONARCHY_LEVEL = 3
REPUBLIC_LEVEL = 9
NUKES_LEVEL = 11
SDI_LEVEL = 13
SPACESHIP_LEVEL = 15

NUKE_COST = 500
SDI_COST = 1000
PART_COST = 1000
MAX_SPIES = 5
MAX_CARAVANS = 15
START_GOLD = 6


def tech_name(level: int) -> str:
    return TECH_NAMES[level - 1] if 1 <= level <= len(TECH_NAMES) else "Noname"


@lru_cache(maxsize=None)
def tech_base_cost(level: int) -> int:
    """The chart's base price; from 16 on, the sum of the prices of the two levels before it."""
    if level < 1:
        raise ValueError(f"tech level {level} is below 1")
    if level <= len(_BASE):
        return _BASE[level - 1]
    a, b = _BASE[-2], _BASE[-1]
    for _ in range(len(_BASE) + 1, level + 1):
        a, b = b, a + b
    return b


@dataclass(frozen=True)
class Wonder:
    level: int
    key: str
    name: str
    short: str  #: up to 10 characters, for the device


WONDERS: tuple[Wonder, ...] = (
    Wonder(1, "babel", "Tower of Babel", "Babel"),
    Wonder(2, "colosseum", "Colosseum", "Colosseum"),
    Wonder(3, "trojan", "Trojan Horse", "Trojan"),
    Wonder(4, "acropolis", "Acropolis", "Acropolis"),
    Wonder(5, "silk", "Silk Road", "Silk Road"),
    Wonder(6, "jihad", "Jihad", "Jihad"),
    Wonder(7, "mafia", "Mafia", "Mafia"),
    Wonder(8, "railroad", "Trans-Siberian Railroad", "Railroad"),
    Wonder(9, "nra", "National Rifle Association", "NRA"),
    Wonder(10, "uc", "University of California", "Univ.Cal."),
    Wonder(11, "nascar", "NASCAR", "NASCAR"),
    Wonder(12, "kgb", "KGB", "KGB"),
    Wonder(13, "majestic", "Majestic-12 Program", "Majestic12"),
    Wonder(14, "overlord", "Galactic Overlord", "Overlord"),
)
WONDER_BY_KEY: dict[str, Wonder] = {w.key: w for w in WONDERS}

#: tech levels that make wonders obsolete when reached ("anyone" or the owner, per switch)
COLOSSEUM_EXPIRES = 8
SILK_ROAD_EXPIRES = 10


@dataclass(frozen=True)
class Government:
    key: str
    name: str
    city_cap: int | None  #: most cities taxed; None: no cap
    tech: int  #: tech level needed for the revolution (1: always)


GOVERNMENTS: dict[str, Government] = {
    "despotism": Government("despotism", "Despotism", 6, 1),
    "monarchy": Government("monarchy", "Monarchy", 12, MONARCHY_LEVEL),
    "republic": Government("republic", "Republic", None, REPUBLIC_LEVEL),
}

#: the phases a spy can target, in turn order; production is split into its sub-phases
PHASES: tuple[str, ...] = ("espionage", "trade", "research", "military", "cities", "wonders", "aid", "war")
PHASE_NAMES: dict[str, str] = {
    "espionage": "Espionage", "trade": "Trade", "research": "Research", "military": "Military",
    "cities": "Cities", "wonders": "Wonders", "aid": "Foreign aid", "war": "War",
}
#: the phases a revolution may keep (a whole production phase counts as one)
KEEP_PHASES: tuple[str, ...] = ("espionage", "trade", "production", "aid", "war", "tax")
PRODUCTION = ("research", "military", "cities", "wonders")
