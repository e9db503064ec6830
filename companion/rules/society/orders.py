"""The orders a GM enters, checked as they arrive: the static rules (technology, one-a-turn limits, the map), then
a dry run of the whole turn so an order the treasury cannot pay is refused at once with one plain line."""
from __future__ import annotations

from typing import Any

from companion.rules.society import formulas as f
from companion.rules.society import geo
from companion.rules.society.data import (GOVERNMENTS, KEEP_PHASES, MAX_CARAVANS, MAX_SPIES, PHASES, SPIES_LEVEL, WONDER_BY_KEY,
                   tech_name)
from companion.rules.society.world import (World, adjacent_socs, alive, at_war, blocked, can_build_level, holds, in_trade_range, sq, sqs,
                    wonder_name)

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


def describe(o: Order, w: World) -> str:
    """An order in a few words (about 20 characters with 8-letter names), for lists and the report."""
    def nm(seat: str) -> str:
        return str(w["soc"][seat]["name"])[:8] if seat in w["soc"] else str(seat)

    k = o["kind"]
    if k == "spy":
        return f"spy {nm(o['target'])} {o['phase']}"
    if k == "defend":
        return f"defend {o['phase']}"
    if k == "trade":
        return f"trade {nm(o['partner'])} x{o.get('count', 1)}"
    if k == "research":
        return f"research +{o['levels']}"
    if k in ("armies", "nukes", "sdi"):
        return f"{o['count']} {k if k != 'sdi' else 'SDI'}"
    if k == "city":
        return f"city {o.get('square') or '(auto)'}"
    if k == "wonder":
        return f"{WONDER_BY_KEY[o['wonder']].short} {o['gold']}g"
    if k == "part":
        return f"part {o['gold']}g"
    if k == "kgb":
        return f"KGB: {WONDER_BY_KEY[o['wonder']].short}"
    if k == "aid":
        gifts = " ".join(f"{o[x]}{'g' if x == 'gold' else ' ' + x}" for x in
                         ("gold", "armies", "spies", "nukes", "sdi", "tech") if o.get(x))
        return f"aid {nm(o['to'])} {gifts}"
    if k == "declare":
        return f"war on {nm(o['target'])}"
    if k == "peace":
        return f"peace {nm(o['target'])}"
    if k == "attack":
        extra = f" {o['nukes']}n" if int(o.get("nukes", 0)) else ""
        return f"attack {nm(o['target'])} {o.get('armies', 0)}a{extra}"
    if k == "revolution":
        return f"revolt: {o['gov']}"
    return str(k)


def spies_at_espionage(w: World, seat: str) -> int:
    s = w["soc"][seat]
    gain = (1 if int(s["tech"]) >= SPIES_LEVEL else 0) + (1 if holds(w, seat, "trojan") else 0)
    return min(MAX_SPIES, int(s["spies"]) + gain)


def why_not(w: World, orders: list[Order], o: Order, r: f.Readings = f.DEFAULT) -> str | None:
    """None if the order may be added after ``orders``, else one plain line saying why not."""
    try:
        _static(w, orders, o, r)
    except (OrderError, geo.SquareError) as e:
        return str(e)
    from companion.rules.society.resolve import resolve

    _new, rep = resolve(w, [*orders, o], r)
    res = rep["results"][-1]
    if res.startswith("cut: "):
        # at entry the new order is simply refused: say what it costs and what is left for production
        from companion.rules.society.resolve import production_cost, spendable

        seat = str(o["seat"])
        need = production_cost(w, [*orders, o], seat, r) - production_cost(w, orders, seat, r)
        return f"not enough gold: {need} needed, {spendable(w, orders, seat, r)} left for production"
    if res.startswith("refused: "):
        return str(res).split(": ", 1)[1]
    return None


def _static(w: World, orders: list[Order], o: Order, r: f.Readings) -> None:
    k = o.get("kind")
    if k not in KINDS:
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

    if k in ("spy", "defend"):
        if o.get("phase") not in PHASES:
            raise OrderError("a spy targets Espionage, Trade, one production phase, Foreign aid or War")
        if k == "spy":
            other("target")
        used = sum(1 for x in mine if x["kind"] in ("spy", "defend"))
        have = spies_at_espionage(w, seat)
        if used + 1 > have:
            raise OrderError(f"{s['name']} has {have} spies this turn" if have else
                             f"no spies: Espionage ({SPIES_LEVEL}) or the Trojan Horse first")
    elif k == "trade":
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
            peace = {(x["seat"], x["target"]) for x in orders + [o] if x["kind"] == "peace"}
            if at_war(w, seat, p) and not ((seat, p) in peace and (p, seat) in peace):
                raise OrderError(f"at war with {w['soc'][p]['name']}: peace from both sides first")
            if not in_trade_range(w, seat, p, r):
                raise OrderError(f"{w['soc'][p]['name']} is out of trade range (tech {s['tech']})")
    elif k == "research":
        if int(o.get("levels", 0)) < 1:
            raise OrderError("research at least one level")
    elif k in ("armies", "nukes", "sdi"):
        if int(o.get("count", 0)) < 1:
            raise OrderError("build at least one")
        need = {"armies": 1, "nukes": 11, "sdi": 13}[k]
        if not can_build_level(w, seat, need):
            raise OrderError(f"{KIND_NAMES[k]} need {tech_name(need)} ({need})")
    elif k == "city":
        sqname = o.get("square")
        own = sqs(w, list(s["cities"]))
        anywhere = holds(w, seat, "railroad")
        block = blocked(w)
        for x in orders:
            if x["kind"] == "city" and x.get("square"):
                block.add(sq(w, x["square"]))
        sites = geo.city_sites(own, block, int(w["w"]), int(w["h"]), anywhere)
        if sqname:
            if sq(w, sqname) not in sites:
                raise OrderError(f"{sqname} is taken, nuked or not next to your cities")
        elif not sites:
            raise OrderError("no free square next to your cities")
    elif k == "wonder":
        wd = WONDER_BY_KEY.get(str(o.get("wonder")))
        if wd is None:
            raise OrderError("no such wonder")
        if wd.key in w["wonders"]:
            raise OrderError(f"{wd.name} is already built")
        if any(x["kind"] == "wonder" and x["wonder"] == wd.key for x in mine):
            raise OrderError(f"{wd.name} is already ordered")
        if not can_build_level(w, seat, wd.level):
            raise OrderError(f"{wd.name} needs {tech_name(wd.level)} ({wd.level})")
        if int(o.get("gold", 0)) < f.wonder_base_cost(wd.level):
            raise OrderError(f"{wd.name} costs at least {f.wonder_base_cost(wd.level)}")
    elif k == "part":
        if not can_build_level(w, seat, 15):
            raise OrderError("spaceship parts need Fusion Power (15)")
        last = int(s["parts"]) + 1 >= r.spaceship_parts
        if int(s["parts"]) >= r.spaceship_parts:
            raise OrderError("the spaceship is complete")
        if int(o.get("gold", 0)) < 1000 or (not last and int(o["gold"]) != 1000):
            raise OrderError("a part costs 1000; only the last part may cost more")
    elif k == "kgb":
        if not holds(w, seat, "kgb"):
            raise OrderError("needs the KGB, unused")
        t = w["wonders"].get(o.get("wonder"))
        if t is None or t["obsolete"] or o.get("wonder") == "kgb":
            raise OrderError("pick a built wonder that still works")
    elif k == "aid":
        p = other("to")
        if not any(int(o.get(x, 0)) for x in ("gold", "armies", "spies", "nukes", "sdi", "tech")):
            raise OrderError("give something")
        if any(int(o.get(x, 0)) for x in ("armies", "nukes", "sdi")) and not adjacent_socs(w, seat, p):
            raise OrderError("military aid only to an adjacent nation")
        if int(o.get("tech", 0)) and int(w["soc"][p]["tech"]) + int(o["tech"]) > int(s["tech"]):
            raise OrderError("technology given only up to your own level")
    elif k == "declare":
        p = other("target")
        if at_war(w, seat, p) or any(x["kind"] == "declare" and x["target"] == p for x in mine):
            raise OrderError(f"already at war with {w['soc'][p]['name']}")
    elif k == "peace":
        p = other("target")
        if not at_war(w, seat, p):
            raise OrderError(f"not at war with {w['soc'][p]['name']}")
    elif k == "attack":
        p = other("target")
        if not adjacent_socs(w, seat, p):
            raise OrderError(f"{w['soc'][p]['name']} is not adjacent")
        a, n = int(o.get("armies", 0)), int(o.get("nukes", 0))
        if a < 0 or n < 0 or a + n == 0:
            raise OrderError("commit armies or nukes")
        ranking = o.get("ranking") or []
        if ranking:
            declared = at_war(w, seat, p)
            why = geo.check_theatre(sqs(w, list(ranking)), sqs(w, list(s["cities"])),
                                    sqs(w, list(w["soc"][p]["cities"])), int(w["w"]), int(w["h"]),
                                    chain=declared, anywhere=holds(w, seat, "jihad"))
            if why:
                raise OrderError(why)
    elif k == "revolution":
        g = GOVERNMENTS.get(str(o.get("gov")))
        if g is None or g.key == s["gov"]:
            raise OrderError("pick another government")
        if int(s["tech"]) < g.tech and not (g.key == "republic" and holds(w, seat, "acropolis")):
            raise OrderError(f"{g.name} needs {tech_name(g.tech)} ({g.tech})"
                             + (" or the Acropolis" if g.key == "republic" else ""))
        if o.get("keep") not in KEEP_PHASES:
            raise OrderError("name the one phase kept")


def society_names(w: World) -> dict[str, str]:
    return {k: str(v["name"]) for k, v in w["soc"].items() if k in alive(w)}


__all__ = ["KINDS", "KIND_NAMES", "ONCE", "OrderError", "describe", "why_not", "spies_at_espionage",
           "society_names", "wonder_name"]
