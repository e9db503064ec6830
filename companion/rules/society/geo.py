"""The map: squares named by column letter and row number (A1 top left), adjacency by a common edge only, trade
distance, city placement and capture order that minimise borders, and equidistant random starting squares."""
from __future__ import annotations

import math
import random
import string
from typing import Iterable, Sequence

Sq = tuple[int, int]  #: (column, row), 0-based

MAX_SIDE = 26  #: columns are single letters


class SquareError(ValueError):
    """A square name that is not on the map."""


def name(sq: Sq) -> str:
    return f"{string.ascii_uppercase[sq[0]]}{sq[1] + 1}"


def parse(text: str, width: int, height: int) -> Sq:
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in string.ascii_uppercase or not t[1:].isdigit() or not t[1:].isascii():
        raise SquareError(f"{text!r} is not a square; write a column letter and a row number, like B3")
    sq = (string.ascii_uppercase.index(t[0]), int(t[1:]) - 1)
    if not (0 <= sq[0] < width and 0 <= sq[1] < height):
        raise SquareError(f"{t} is off the map (A1 to {name((width - 1, height - 1))})")
    return sq


def side_for(societies: int, per_society: int = 12) -> int:
    """The side of the square map whose area is closest to ``per_society`` squares per society."""
    area = societies * per_society
    lo = max(1, math.isqrt(area))
    best = min((lo, lo + 1), key=lambda s: (abs(s * s - area), s))
    return max(2, min(MAX_SIDE, best))


def neighbours(sq: Sq, width: int, height: int) -> list[Sq]:
    c, r = sq
    out = [(c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)]
    return [(x, y) for x, y in out if 0 <= x < width and 0 <= y < height]


def distance(a: Sq, b: Sq) -> int:
    """Steps between squares through common edges (a neighbour is 1 away)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def territory_distance(mine: Iterable[Sq], theirs: Iterable[Sq]) -> int | None:
    """The fewest steps from any of my cities to any of theirs; None if either has none."""
    t = list(theirs)
    best = [distance(a, b) for a in mine for b in t]
    return min(best) if best else None


def adjacent(mine: Iterable[Sq], theirs: Iterable[Sq]) -> bool:
    return territory_distance(mine, theirs) == 1


def border(own: set[Sq], width: int, height: int) -> int:
    """Edges between the territory and map squares outside it (the map's edge is no border)."""
    return sum(1 for s in own for n in neighbours(s, width, height) if n not in own)


def _reading(sq: Sq) -> tuple[int, int]:
    return sq[1], sq[0]


def city_sites(own: Sequence[Sq], blocked: set[Sq], width: int, height: int, anywhere: bool = False) -> list[Sq]:
    """Squares a new city may go on: free, not nuked, and next to one of ``own`` (anywhere with the Railroad)."""
    if anywhere or not own:
        cand = {(c, r) for c in range(width) for r in range(height)}
    else:
        cand = {n for s in own for n in neighbours(s, width, height)}
    return sorted((s for s in cand if s not in blocked and s not in own), key=_reading)


def best_city_site(own: Sequence[Sq], blocked: set[Sq], width: int, height: int,
                   anywhere: bool = False) -> Sq | None:
    """Where the GM builds a city given no square: the site leaving the shortest border, then the most own
    neighbours, then the first in reading order (row, then column)."""
    sites = city_sites(own, blocked, width, height, anywhere)
    if not sites:
        return None
    base = set(own)

    def key(s: Sq) -> tuple[int, int, int, int]:
        mine = sum(1 for n in neighbours(s, width, height) if n in base)
        return border(base | {s}, width, height), -mine, s[1], s[0]

    return min(sites, key=key)


def capturable(attacker: Sequence[Sq], defender: Sequence[Sq], width: int, height: int) -> list[Sq]:
    """Defender cities next to the attacker's territory, in reading order."""
    a = set(attacker)
    return sorted((d for d in defender if any(n in a for n in neighbours(d, width, height))), key=_reading)


def capture_order(attacker: Sequence[Sq], defender: Sequence[Sq], count: int, width: int, height: int,
                  chain: bool = True, anywhere: bool = False) -> list[Sq]:
    """The cities taken, best first, minimising the attacker's border: each must touch the attacker's territory
    (or, with ``chain``, a city taken before it; ``anywhere``: any city)."""
    own, left = set(attacker), list(defender)
    taken: list[Sq] = []
    start = set(capturable(attacker, defender, width, height))
    while len(taken) < count and left:
        if anywhere:
            cand = list(left)
        elif chain:
            cand = [d for d in left if any(n in own for n in neighbours(d, width, height))]
        else:
            cand = [d for d in left if d in start]
        if not cand:
            break
        pick = min(cand, key=lambda s: (border(own | {s}, width, height), s[1], s[0]))
        taken.append(pick)
        own.add(pick)
        left.remove(pick)
    return taken


def check_theatre(ranking: Sequence[Sq], attacker: Sequence[Sq], defender: Sequence[Sq], width: int, height: int,
                  chain: bool = True, anywhere: bool = False) -> str | None:
    """None if the ranking is allowed, else one line saying which city breaks it."""
    own, start = set(attacker), set(capturable(attacker, defender, width, height))
    for s in ranking:
        if s not in defender:
            return f"{name(s)} is not one of the target's cities"
        ok = anywhere or (any(n in own for n in neighbours(s, width, height)) if chain else s in start)
        if not ok:
            return f"{name(s)} does not touch your territory or a city above it"
        own.add(s)
    return None


def start_squares(n: int, width: int, height: int, seed: int) -> list[Sq]:
    """``n`` starting squares as far apart as the map allows (largest smallest distance), chosen at random among
    the equally good layouts the seed gives."""
    rng = random.Random(seed)
    cells = [(c, r) for r in range(height) for c in range(width)]
    if n > len(cells):
        raise SquareError(f"{n} societies do not fit on a {width}x{height} map")
    best: list[Sq] = []
    best_key = (-1, -1)
    for _ in range(12):
        first = rng.choice(cells)
        pts = [first]
        fc, fr = first
        near = [abs(c - fc) + abs(r - fr) for c, r in cells]  # each cell's distance() to the nearest point so far
        while len(pts) < n:
            far = max(near)
            pick = rng.choice([cell for cell, d in zip(cells, near) if d == far])
            pts.append(pick)
            pc, pr = pick
            for i, (c, r) in enumerate(cells):
                d = abs(c - pc) + abs(r - pr)
                if d < near[i]:
                    near[i] = d
        mind = min((distance(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]), default=0)
        edge = min(min(c, r, width - 1 - c, height - 1 - r) for c, r in pts)
        if (mind, edge) > best_key:
            best, best_key = pts, (mind, edge)
    return best
