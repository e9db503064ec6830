"""The world a Society game keeps between turns, as plain JSON: the map, each society, the wonders and the wars.

Societies are keyed by their seat as a string ("1", "2", ...); squares are names like "B3".
"""
from __future__ import annotations

from typing import Any

from companion.rules.society import geo
from companion.rules.society.data import START_GOLD, WONDER_BY_KEY
from companion.rules.society.formulas import Readings

World = dict[str, Any]
Soc = dict[str, Any]


def new_society(name: str, square: str) -> Soc:
    return {"name": name, "gold": START_GOLD, "tech": 1, "gov": "despotism", "armies": 0, "spies": 0, "nukes": 0,
            "sdi": 0, "parts": 0, "part_spent": [], "cities": [square], "new_cities": [], "built": 0,
            "conquered": 0, "alive": True}


def new_world(names: list[str], width: int, height: int, squares: list[str]) -> World:
    return {"turn": 1, "w": width, "h": height, "nuked": [], "started": len(names),
            "soc": {str(i + 1): new_society(n, squares[i]) for i, n in enumerate(names)},
            "wonders": {}, "wars": {}, "counters": []}


def sq(w: World, text: str) -> geo.Sq:
    return geo.parse(text, int(w["w"]), int(w["h"]))


def sqs(w: World, names: list[str]) -> list[geo.Sq]:
    return [sq(w, s) for s in names]


def alive(w: World) -> list[str]:
    return [k for k, s in w["soc"].items() if s["alive"]]


def owner_of(w: World, square: str) -> str | None:
    for k, s in w["soc"].items():
        if square in s["cities"]:
            return str(k)
    return None


def blocked(w: World) -> set[geo.Sq]:
    """Squares no new city may use: every city and every nuked square."""
    out = set(sqs(w, list(w["nuked"])))
    for s in w["soc"].values():
        out |= set(sqs(w, list(s["cities"])))
    return out


def holds(w: World, seat: str, key: str, live: bool = True) -> bool:
    """The society holds wonder ``key`` (and, with ``live``, it is not obsolete)."""
    got = w["wonders"].get(key)
    return bool(got is not None and got["owner"] == seat and (not live or not got["obsolete"]))


def wonder_squares(w: World) -> set[str]:
    return {str(v["square"]) for v in w["wonders"].values() if v.get("square")}


def held_wonder_squares(w: World) -> dict[str, str]:
    """Wonder cities whose owner still holds the wonder (a captured city's wonder stays its builder's until that
    society is eliminated): square -> wonder key."""
    return {str(v["square"]): k for k, v in w["wonders"].items()
            if v.get("square") and v["square"] in w["soc"][v["owner"]]["cities"]}


def war_key(a: str, b: str) -> str:
    x, y = sorted((a, b), key=int)
    return f"{x}-{y}"


def at_war(w: World, a: str, b: str) -> bool:
    return war_key(a, b) in w["wars"]


def adjacent_socs(w: World, a: str, b: str) -> bool:
    return geo.adjacent(sqs(w, w["soc"][a]["cities"]), sqs(w, w["soc"][b]["cities"]))


def trade_distance(w: World, a: str, b: str) -> int | None:
    return geo.territory_distance(sqs(w, w["soc"][a]["cities"]), sqs(w, w["soc"][b]["cities"]))


def in_trade_range(w: World, a: str, b: str, r: Readings) -> bool:
    if holds(w, a, "silk"):
        return True
    d = trade_distance(w, a, b)
    if d is None:
        return False
    reach = 1 if r.trade_range == "adjacent" else int(w["soc"][a]["tech"])
    return d <= reach


def can_build_level(w: World, seat: str, level: int) -> bool:
    """The society has the level, or holds the University of California and someone else has it."""
    if int(w["soc"][seat]["tech"]) >= level:
        return True
    return holds(w, seat, "uc") and any(int(s["tech"]) >= level for k, s in w["soc"].items() if s["alive"])


def free_wonder_city(w: World, seat: str) -> str | None:
    used = wonder_squares(w)
    return next((c for c in w["soc"][seat]["cities"] if c not in used), None)


def wonder_name(key: str) -> str:
    return WONDER_BY_KEY[key].name


SEAT_LETTERS = "ABCDEFGHJKL"  #: seats 10 to 20 (no I: it reads as a 1)


def seat_mark(seat: int) -> str:
    return str(seat) if seat < 10 else SEAT_LETTERS[seat - 10]


def map_rows(w: World) -> list[str]:
    """The map as text: a header of column letters, then one row per line; each square is the owner's seat
    number (a letter from 10 on: A=10 .. L=20, no I), '*' a nuked square, '.' empty; '+' marks a wonder city whose
    owner holds its wonder."""
    width, height = int(w["w"]), int(w["h"])
    marks: dict[str, str] = {s: "*" for s in w["nuked"]}
    won = held_wonder_squares(w)
    for k, s in w["soc"].items():
        for c in s["cities"]:
            marks[c] = seat_mark(int(k))
    head = "   " + " ".join(chr(ord("A") + c) for c in range(width))
    out = [head]
    for r in range(height):
        cells = []
        for c in range(width):
            name = geo.name((c, r))
            m = marks.get(name, ".")
            cells.append(m + ("+" if name in won else " "))
        out.append(f"{r + 1:>2} " + "".join(cells).rstrip())
    return out
