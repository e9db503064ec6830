"""What one player's box holds: the components the rules text counts, and the check a build is held to.

Seventy-seven coloured tiles per player: twenty-two central tiles (the Fleur-de-lis, one per city), six fort tiles,
and the rest (forty-nine) for expansions; and sixty-six military units. A build past these is not forbidden by the
text, but the box cannot show it: the companion warns.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

TILES = 77
CENTRAL = 22  #: central tiles: at most this many cities
FORTS = 6
PLAIN = TILES - CENTRAL - FORTS  #: expansion tiles (every city tile but the central one)
UNITS = 66


@dataclass(frozen=True)
class Holdings:
    """What a player has on the board, as the companion counts it."""

    city_tiles: tuple[int, ...]  #: tiles of each city (its central tile included)
    forts: int
    units: int

    @property
    def cities(self) -> int:
        return len(self.city_tiles)

    @property
    def plain(self) -> int:
        return sum(self.city_tiles) - len(self.city_tiles)


def holdings(city_tiles: Sequence[int], forts: int, units: int) -> Holdings:
    return Holdings(tuple(int(t) for t in city_tiles), int(forts), max(0, int(units)))


def over_box(before: Holdings, after: Holdings) -> list[str]:
    """One short line per component the change takes past the box (and that was not already past it)."""
    out: list[str] = []
    for what, limit, was, now in (("cities", CENTRAL, before.cities, after.cities),
                                  ("extra tiles", PLAIN, before.plain, after.plain),
                                  ("forts", FORTS, before.forts, after.forts),
                                  ("units", UNITS, before.units, after.units)):
        if now > limit and now > was:
            out.append(f"{now} {what}; box has {limit}")
    return out
