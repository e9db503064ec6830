"""Terrain: what a hex costs to build a city tile or a fort on (and gives a manned fort as a defence bonus)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Terrain:
    key: str
    name: str
    value: int | None  #: cost to build (and a fort's defence bonus); None: nothing can be built (sea)
    move: int  #: move points to enter; 0 = impassable unless a city or fort stands there


TERRAINS: tuple[Terrain, ...] = (
    Terrain("river", "River", 2, 1),
    Terrain("coast", "Coast", 3, 1),
    Terrain("grassland", "Grassland", 4, 1),
    Terrain("woodland", "Woodland", 5, 1),
    Terrain("hill", "Hill", 6, 1),
    Terrain("jungle", "Jungle", 6, 1),
    Terrain("mountain", "Mountain", 7, 0),
    Terrain("desert", "Desert", 9, 1),
    Terrain("tundra", "Tundra", 9, 1),
    Terrain("sea", "Sea", None, 1),
)
BY_KEY: dict[str, Terrain] = {t.key: t for t in TERRAINS}
BUILDABLE: tuple[Terrain, ...] = tuple(t for t in TERRAINS if t.value is not None)
#: the values a fort can have (the value of a buildable hex)
FORT_VALUES: tuple[int, ...] = tuple(sorted({t.value for t in BUILDABLE if t.value is not None}))


class NoBuilding(ValueError):
    """Building on a hex that takes no building (sea)."""


def build_cost(key: str) -> int:
    t = BY_KEY[key]
    if t.value is None:
        raise NoBuilding(f"nothing can be built on {t.name.lower()}")
    return t.value
