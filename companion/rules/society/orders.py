"""The orders a GM enters, checked as they arrive — but only for what no phase of this turn could make legal
(an unknown society, a second attack, a square off the map or already taken, a wonder already built). Everything
that depends on the turn's own processing (gold, technology bought in 3a, a city built next to an enemy in 3c, peace
offered by the other side) is checked when its phase runs (:mod:`.resolve`), and a failure is a line in the post."""
from __future__ import annotations

from typing import Any

from companion.rules.society import formulas as f
from companion.rules.society import geo
from companion.rules.society.data import (GOVERNMENTS, KEEP_PHASES, MAX_CARAVANS, MAX_SPIES, PHASES, SPIES_LEVEL,
                                          WONDER_BY_KEY, tech_name)
from companion.rules.society.text import describe
from companion.rules.society.world import World, alive, at_war, holds, in_trade_range, sq, wonder_name

Order = dict[str, Any]

KINDS: tuple[str, ...] = ("spy", "defend", "trade", "research", "armies", "nukes", "sdi", "city", "wonder", "part",
                          "kgb", "aid", "declare", "peace", "attack", "revolution")
ONCE = ("aid", "attack", "revolution", "part", "kgb")  #: at most one a turn per society
KIND_NAMES: dict[str, str] = {
    "spy": "Send a spy", "defend": "Spy defends", "trade": "Trade", "research": "Research", "armies": "Armies",
    "nukes": "Nukes", "sdi": "SDI", "city": "City", "wonder": "Wonder", "part": "Spaceship part",
    "kgb": "KGB: obsolete", "aid": "Foreign aid", "declare": "Declare war", "peace": "Offer peace",
    "attack": "Attack", "revolution": "Revolution",
}


class OrderError(ValueError):
    """An order the rules refuse; the message is one plain line."""


def spies_at_espionage(w: World, seat: str) -> int:
    s = w["soc"][seat]
    gain = (1 if int(s["tech"]) >= SPIES_LEVEL else 0) + (1 if holds(w, seat, "trojan") else 0)
    return min(MAX_SPIES, int(s["spies"]) + gain)


def why_not(w: World, orders: list[Order], o: Order, r: f.Readings = f.DEFAULT) -> str | None:
    """None if the order may be added after ``orders``, else one plain line saying why no phase could carry it out.

    Gold, technology, neighbours and war are not judged here: the turn checks them when their phase runs."""
    try:
        _static(w, orders, o, r)
    except (OrderError, geo.SquareError) as e:
        return str(e)
    return None


def _static(w: World, orders: list[Order], o: Order, r: f.Readings) -> None:
    k = o.get("kind")
    if k not in KINDS and k != "note":
        raise OrderError(f"unknown order {k!r}")
    if o.get("seat") not in w["soc"] or not w["soc"][str(o.get("seat"))]["alive"]:
        raise OrderError("that society is not in the game")
    seat = str(o["seat"])
    s = w["soc"][seat]
    mine = [x for x in orders if x["seat"] == seat]
    if k in ONCE and any(x["kind"] == k for x in mine):
        raise OrderError(f"{KIND_NAMES[k]}: once a turn")

    def other(key: str) -> str:
        t = o.get(key)
        if t == seat:
            raise OrderError("pick another society")
        if t not in w["soc"] or not w["soc"][t]["alive"]:
            raise OrderError("that society is not in the game")
        return str(t)

    def squares(names: list[Any]) -> None:
        for x in names:
            sq(w, str(x))  # off the map: geo.SquareError, one plain line

    if k in ("spy", "defend"):  # espionage comes first: nothing this turn adds a spy before it
        if o.get("phase") not in PHASES:
            raise OrderError("a spy targets Espionage, Trade, one production phase, Foreign aid or War")
        if k == "spy":
            other("target")
        used = sum(1 for x in mine if x["kind"] in ("spy", "defend"))
        have = spies_at_espionage(w, seat)
        if used + 1 > have:
            raise OrderError(f"{s['name']} has {have} spies this turn" if have else
                             f"no spies: Espionage ({SPIES_LEVEL}) or the Trojan Horse first")
    elif k == "trade":  # the caravan limit and the reach use the tech chart at the turn's start
        n = int(o.get("count", 1))
        limit = min(int(s["tech"]), MAX_CARAVANS)
        used = sum(int(x.get("count", 1)) for x in mine if x["kind"] == "trade")
        if n < 1 or used + n > limit:
            raise OrderError(f"at most {limit} caravans a turn ({used} ordered)")
        p = o.get("partner")
        if p == seat:
            if not holds(w, seat, "nascar"):
                raise OrderError("trading with yourself needs NASCAR")
        else:
            p = other("partner")
            if not in_trade_range(w, seat, p, r):
                raise OrderError(f"{w['soc'][p]['name']} is out of trade range (tech {s['tech']})")
    elif k == "research":
        if int(o.get("levels", 0)) < 1:
            raise OrderError("research at least one level")
    elif k in ("armies", "nukes", "sdi"):
        if int(o.get("count", 0)) < 1:
            raise OrderError("build at least one")
    elif k == "city":
        squares(list(o.get("squares") or []))
        sqname = o.get("square")
        if sqname:
            where = sq(w, str(sqname))
            if where in blocked_at_start(w):
                raise OrderError(f"{sqname} is taken or nuked")
            if any(x["kind"] == "city" and x.get("square") == sqname for x in mine):
                raise OrderError(f"{sqname} is already ordered")
    elif k == "wonder":
        wd = WONDER_BY_KEY.get(str(o.get("wonder")))
        if wd is None:
            raise OrderError("no such wonder")
        if wd.key in w["wonders"]:
            raise OrderError(f"{wd.name} is already built")
        if any(x["kind"] == "wonder" and x["wonder"] == wd.key for x in mine):
            raise OrderError(f"{wd.name} is already ordered")
        if int(o.get("gold", 0)) < f.wonder_base_cost(wd.level):
            raise OrderError(f"{wd.name} costs at least {f.wonder_base_cost(wd.level)}")
    elif k == "part":
        last = int(s["parts"]) + 1 >= r.spaceship_parts
        if int(s["parts"]) >= r.spaceship_parts:
            raise OrderError("the spaceship is complete")
        if int(o.get("gold", 0)) < 1000 or (not last and int(o["gold"]) != 1000):
            raise OrderError("a part costs 1000; only the last part may cost more")
    elif k == "kgb":
        key = o.get("wonder")
        if key not in WONDER_BY_KEY or key == "kgb":
            raise OrderError("pick a wonder other than the KGB")
        if "kgb" in w["wonders"] and (w["wonders"]["kgb"]["owner"] != seat or w["wonders"]["kgb"]["obsolete"]):
            raise OrderError("needs the KGB, unused")
    elif k == "aid":
        other("to")
        if not any(int(o.get(x, 0)) for x in ("gold", "armies", "spies", "nukes", "sdi", "tech")):
            raise OrderError("give something")
    elif k == "declare":
        p = other("target")
        if any(x["kind"] == "declare" and x["target"] == p for x in mine):
            raise OrderError(f"already declared on {w['soc'][p]['name']}")
    elif k == "peace":  # peace is made at the turn's start: at war by then, or never this turn
        p = other("target")
        if not at_war(w, seat, p):
            raise OrderError(f"not at war with {w['soc'][p]['name']}")
    elif k == "attack":
        other("target")
        a, n = int(o.get("armies", 0)), int(o.get("nukes", 0))
        if a < 0 or n < 0 or a + n == 0:
            raise OrderError("commit armies or nukes")
        squares(list(o.get("ranking") or []) + list(o.get("nuke_targets") or []))
    elif k == "revolution":  # decided at the turn's start, on the technology held then
        g = GOVERNMENTS.get(str(o.get("gov")))
        if g is None or g.key == s["gov"]:
            raise OrderError("pick another government")
        if int(s["tech"]) < g.tech and not (g.key == "republic" and holds(w, seat, "acropolis")):
            raise OrderError(f"{g.name} needs {tech_name(g.tech)} ({g.tech})"
                             + (" or the Acropolis" if g.key == "republic" else ""))
        if o.get("keep") not in KEEP_PHASES:
            raise OrderError("name the one phase kept")


def blocked_at_start(w: World) -> set[Any]:
    """Squares no city can be built on this turn: the cities standing (none is lost before 3c) and the nuked."""
    out = {sq(w, c) for c in w["nuked"]}
    for x in w["soc"].values():
        out |= {sq(w, c) for c in x["cities"]}
    return out


def society_names(w: World) -> dict[str, str]:
    return {k: str(v["name"]) for k, v in w["soc"].items() if k in alive(w)}


__all__ = ["KINDS", "KIND_NAMES", "ONCE", "OrderError", "describe", "why_not", "spies_at_espionage",
           "society_names", "wonder_name", "blocked_at_start"]
