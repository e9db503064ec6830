"""SOVERANA's fixed data: the six departments, their starting resources, the twenty locations and the numbers.

Domain values only; the phase rules are in :mod:`.phases`, the department → location assignment in
:mod:`.locfile` (it is printed on the department cards, so it ships as an editable data file).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Department(str, Enum):
    """A city department; the value is the name used in the state JSON and the locations file."""

    ECONOMY = "Economy"
    EDUCATION = "Education"
    ENERGY = "Energy & Environment"
    HEALTH = "Health & Welfare"
    JUSTICE = "Justice & Safety"
    URBAN = "Urban Development"

    @property
    def short(self) -> str:
        """A label that fits a screen line."""
        return _DEPT_SHORT[self]

    @property
    def start(self) -> int:
        """Resources the department starts the game with."""
        return STARTING_RESOURCES[self.value]


_DEPT_SHORT = {
    Department.ECONOMY: "Economy",
    Department.EDUCATION: "Education",
    Department.ENERGY: "Energy",
    Department.HEALTH: "Health",
    Department.JUSTICE: "Justice",
    Department.URBAN: "Urban",
}

DEPARTMENTS: tuple[str, ...] = tuple(d.value for d in Department)

#: department name -> resources at the start of the game
STARTING_RESOURCES: dict[str, int] = {
    "Economy": 6,
    "Education": 7,
    "Energy & Environment": 7,
    "Health & Welfare": 6,
    "Justice & Safety": 5,
    "Urban Development": 6,
}


class Outcome(str, Enum):
    """How a game ended (the state JSON's ``outcome``)."""

    COLLAPSE = "collapse"
    TEAM_WIN = "team-win"
    ROUNDS_COMPLETE = "rounds-complete"


@dataclass(frozen=True)
class Location:
    name: str
    short: str  #: the name in screen lines, in plain words (at most 70 px as drawn)


CITY_HALL = "City Hall"
PRESS = "Press and Media Center"
STOCK_EXCHANGE = "Stock Exchange"
TRANSIT = "Public Transit Authority"

LOCATIONS: tuple[Location, ...] = (
    Location(PRESS, "Press & Media"),
    Location(STOCK_EXCHANGE, "Stock Exchange"),
    Location(TRANSIT, "Transit"),
    Location("Electrical Substation", "Substation"),
    Location("Police Station", "Police"),
    Location("Fire Station", "Fire Station"),
    Location("Sewage Plant", "Sewage Plant"),
    Location("Recycling Plant", "Recycling"),
    Location("Train station", "Train Station"),
    Location("Shopping Mall", "Mall"),
    Location("Courthouse", "Courthouse"),
    Location("Community Garden", "Garden"),
    Location("Business Park", "Business Park"),
    Location("Hospital", "Hospital"),
    Location("Youth Center", "Youth Center"),
    Location("University", "University"),
    Location("Sports Complex", "Sports Complex"),
    Location("Social Service", "Social Service"),
    Location("Cultural Hub", "Cultural Hub"),
    Location(CITY_HALL, "City Hall"),
)
LOCATION_NAMES: tuple[str, ...] = tuple(loc.name for loc in LOCATIONS)
SHORT: dict[str, str] = {loc.name: loc.short for loc in LOCATIONS}

#: the two locations no department runs
INDEPENDENT: tuple[str, ...] = (PRESS, CITY_HALL)
#: the privileged locations: their effect holds while a manager stands there and they are active
SPECIAL: tuple[str, ...] = (CITY_HALL, TRANSIT, STOCK_EXCHANGE)

ACTIVE = "active"
CRISIS = "crisis"

ROUNDS = 5
ELECTION_COST = 2
STOCK_EXCHANGE_BONUS = 2
POOL_CAP = 20
RESOURCE_FLOOR = 3
#: the city collapses with more than this many locations in crisis at a round's end
COLLAPSE_OVER = 10
#: the team wins with more than this many locations active at a round's end
TEAM_WIN_OVER = 18
MISSION_VOTES = (1, 4)  #: a mission card gives 1 to 4 votes cards
#: the box: resource tokens and votes cards in all
BANK_RESOURCES = 100
BANK_VOTES = 80
