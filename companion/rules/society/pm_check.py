"""A PM's readings (:mod:`.pm`) against a game: the game's orders each line makes, the companion's price for each
line beside the one the player wrote, and what the turn would refuse that can be told now."""
from __future__ import annotations

from typing import Any

from companion.rules.society import formulas as f
from companion.rules.society.data import (GOVERNMENTS, KEEP_PHASES, NUKE_COST, NUKES_LEVEL, PART_COST, PHASES, SDI_COST,
                                          SDI_LEVEL, SPACESHIP_LEVEL, WONDERS, tech_name)
from companion.rules.society.orders import why_not
from companion.rules.society.pm import Reading, find_wonder
from companion.rules.society.resolve import research_costs
from companion.rules.society.world import World, can_build_level, holds

Order = dict[str, Any]


def _seat(w: World, name: Any) -> str | None:
    return next((k for k, s in w["soc"].items() if s["name"] == name), None)


def to_orders(rd: Reading, w: World, seat: str) -> tuple[list[Order], list[str]]:
    """The game's orders one reading makes, and why it makes none (an empty list then)."""
    k = rd["kind"]
    o: Order = {"seat": seat}
    tgt = _seat(w, rd.get("target")) if rd.get("target") is not None else None
    if "target" in rd and tgt is None and not rd.get("defend"):
        return [], [f"no society called {rd['target']!r}"]
    s = w["soc"][seat]
    if k == "spy":
        ph = {"production": "research"}.get(rd.get("phase", ""), rd.get("phase", ""))
        if ph not in PHASES:
            return [], [f"a spy cannot target {rd.get('phase')!r}" + (" (tax is immune)" if ph == "tax" else "")]
        return [{**o, "kind": "defend", "phase": ph} if rd.get("defend") else
                {**o, "kind": "spy", "target": tgt, "phase": ph}], []
    if k == "trade":
        return [{**o, "kind": "trade", "partner": tgt, "count": int(rd.get("count", 1))}], []
    if k == "city":
        sq = list(rd.get("squares") or [])
        return [{**o, "kind": "city", "square": None, "squares": sq} for _ in range(int(rd.get("count", 1)))], []
    if k in ("armies", "sdi"):
        return [{**o, "kind": k, "count": int(rd.get("count", 1))}], []
    if k == "nukes":
        n = int(rd.get("count", 1))
        if tgt is None:
            return [{**o, "kind": "nukes", "count": n}], []
        return [{**o, "kind": "attack", "target": tgt, "armies": 0, "nukes": n, "nukes_first": True,
                 "ranking": [], "nuke_targets": list(rd.get("squares") or [])}], []
    if k == "wonder":
        wd = find_wonder(str(rd.get("wonder")))
        if wd is None:
            return [], ["no such wonder"]
        return [{**o, "kind": "wonder", "wonder": wd.key, "gold": int(rd.get("stated_cost") or wd.level ** 2)}], []
    if k == "aid":
        return [{**o, "kind": "aid", "to": tgt, **{x: int(n) for x, n in rd.get("gifts", {}).items()}}], []
    if k == "attack":
        na = rd.get("count")
        out = {**o, "kind": "attack", "target": tgt, "armies": int(s["armies"]) if na is None else int(na),
               "nukes": int(rd.get("nukes", 0)), "nukes_first": bool(rd.get("nukes_first", True)),
               "ranking": list(rd.get("squares") or [])}
        return [out], ([] if na is not None else [f"no army count: read as all {s['armies']}"])
    if k == "research":
        levels = int(rd["count"]) if "count" in rd else int(rd["level"]) - int(s["tech"])
        if levels < 1:
            return [], [f"{s['name']} already has level {rd.get('level')}"]
        return [{**o, "kind": "research", "levels": levels}], []
    if k == "spaceship":
        return [{**o, "kind": "part", "gold": int(rd.get("stated_cost") or PART_COST)}], []
    if k == "revolution":
        keep = {"research": "production", "military": "production", "cities": "production",
                "wonders": "production"}.get(rd.get("phase", ""), rd.get("phase", ""))
        if rd.get("government") not in GOVERNMENTS:
            return [], [f"no government called {rd.get('government')!r}"]
        if keep not in KEEP_PHASES:
            return [], ["name the one phase kept (espionage, trade, production, aid, war or tax)"]
        return [{**o, "kind": "revolution", "gov": rd["government"], "keep": keep}], []
    if k == "peace":
        return [{**o, "kind": "peace", "target": tgt}], []
    return [{**o, "kind": "declare", "target": tgt}], []


def check(readings: list[Reading], w: World, seat: str, entered: list[Order], r: f.Readings = f.DEFAULT
          ) -> list[tuple[Reading, list[Order]]]:
    """Each reading with ``problems`` (and ``cost``, the companion's price) and the orders it makes, checked in turn
    against the orders already ``entered`` and those of the lines above it."""
    s = w["soc"][seat]
    tech = int(s["tech"]) + sum(int(x.get("levels", 0)) for x in entered if x["seat"] == seat
                                and x["kind"] == "research")
    for rd in readings:  # research runs first (3a): later lines are priced at the level it reaches
        if rd["kind"] == "research":
            tech = int(rd["level"]) if "level" in rd and "count" not in rd else tech + int(rd.get("count", 1))
    cities = len(s["cities"]) + sum(1 for x in entered if x["seat"] == seat and x["kind"] == "city")
    level = int(s["tech"]) + sum(int(x.get("levels", 0)) for x in entered if x["seat"] == seat
                                 and x["kind"] == "research")
    orders = list(entered)
    wars: dict[str, tuple[Order, int]] = {}  #: this PM's attack on each society, and its line
    out: list[tuple[Reading, list[Order]]] = []
    for rd in readings:
        rd = dict(rd)
        probs = list(rd.get("problems", []))
        made, why = to_orders(rd, w, seat)
        probs += why
        cost = None
        k = rd["kind"]
        if k == "trade" and made:
            p = w["soc"][made[0]["partner"]] if made[0]["partner"] in w["soc"] else s
            n = int(rd.get("count", 1))
            cost = n * f.trade_cost(int(s["tech"]), int(p["tech"]), holds(w, seat, "silk"))
            pay = n * f.trade_payout(int(s["tech"]), int(p["tech"]), s["gov"])
            if "stated_payout" in rd and int(rd["stated_payout"]) != pay:
                probs.append(f"payout stated {rd['stated_payout']}, the companion makes it {pay}")
        elif k == "research" and made:
            n = int(made[0]["levels"])
            costs = research_costs(w, seat, level - int(s["tech"]) + n, r)[level - int(s["tech"]):]
            cost, level = sum(costs), level + n
        elif k == "armies":
            cost = int(rd.get("count", 1)) * tech
        elif k == "city" and made:
            cost = sum(f.city_cost(cities + j + 1) for j in range(len(made)))
            cities += len(made)
        elif k == "nukes" and made and made[0]["kind"] == "nukes":
            cost = int(rd.get("count", 1)) * NUKE_COST
        elif k == "sdi":
            cost = int(rd.get("count", 1)) * SDI_COST
        elif k in ("wonder", "spaceship") and made:
            cost = int(made[0]["gold"])
        need = {"nukes": NUKES_LEVEL if made and made[0]["kind"] == "nukes" else 0, "sdi": SDI_LEVEL,
                "spaceship": SPACESHIP_LEVEL}.get(k, 0)
        if k == "wonder" and made:
            need = next(wd.level for wd in WONDERS if wd.key == made[0]["wonder"])
        if need > tech and not can_build_level(w, seat, need):
            probs.append(f"needs {tech_name(need)} ({need}); tech {tech} after this PM's research")
        if cost is not None:
            rd["cost"] = cost
            if "stated_cost" in rd and int(rd["stated_cost"]) != cost and k not in ("wonder", "spaceship"):
                probs.append(f"cost stated {rd['stated_cost']}, the companion makes it {cost}")
        for o in made:
            if o["kind"] == "attack" and o["target"] in wars:  # nukes and armies at one society: the one war
                first, at = wars[o["target"]]
                both = _join(first, o)
                if why_not(w, [x for x in orders if x is not first], both, r) is None:
                    first.update(both)
                    rd["joined"] = at
                    continue
            bad = why_not(w, orders, o, r)
            if bad is not None:
                probs.append(bad)
            else:
                orders.append(o)
                if o["kind"] == "attack":
                    wars[o["target"]] = (o, int(rd["line"]))
        rd["problems"] = list(dict.fromkeys(probs))  # once each
        out.append((rd, [] if "joined" in rd else made))
    return out


def _join(first: Order, then: Order) -> Order:
    """One war from two lines at the same society ("3 Nukes to X", "Attack X with 4 armies"): the line written
    first decides whether the nukes or the armies go first."""
    nukes_first = bool(first["nukes_first"]) if first["armies"] and first["nukes"] else bool(first["nukes"])
    return {**first, "armies": int(first["armies"]) + int(then["armies"]),
            "nukes": int(first["nukes"]) + int(then["nukes"]), "nukes_first": nukes_first,
            "ranking": [*first.get("ranking", []), *then.get("ranking", [])],
            "nuke_targets": [*first.get("nuke_targets", []), *then.get("nuke_targets", [])]}
