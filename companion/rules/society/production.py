"""Phase 3, production, in the text's sub-phases: what each society can afford (cut from the back of its list),
3a research, 3b military, 3c cities, 3d wonders and spaceship parts, 3e conquered cities rehabilitated.

Every order is checked here, against the world as this phase finds it: research bought in 3a opens the nukes of 3b
and the wonders of 3d; a city built in 3c makes its square a neighbour for the next city and for the war."""
from __future__ import annotations

from companion.rules.society import formulas as f
from companion.rules.society import geo
from companion.rules.society.data import (NUKE_COST, NUKES_LEVEL, PART_COST, SDI_COST, SDI_LEVEL, SPACESHIP_LEVEL,
                                          WONDER_BY_KEY, tech_name)
from companion.rules.society.text import describe, plural
from companion.rules.society.turn import KIND_PHASE, Order, Turn
from companion.rules.society.world import alive, blocked, can_build_level, free_wonder_city, holds, sq, sqs, wonder_name

PROD_KINDS = ("research", "armies", "nukes", "sdi", "city", "wonder", "part")
SUB = {"research": 0, "armies": 1, "nukes": 1, "sdi": 1, "city": 2, "wonder": 3, "part": 3}


def plan_cost(t: Turn, seat: str, items: list[tuple[int, Order]]) -> int:
    """What these production orders of one society cost, in sub-phase order."""
    s = t.soc(seat)
    tech, cities, total = int(s["tech"]), len(s["cities"]), 0
    for _i, o in sorted(items, key=lambda x: (SUB[x[1]["kind"]], x[0])):
        k = o["kind"]
        if k == "research":
            for _ in range(int(o["levels"])):
                tech += 1
                total += f.tech_cost(tech, t.players(), t.have(tech, seat), t.r)
        elif k == "armies":
            total += int(o["count"]) * tech
        elif k in ("nukes", "sdi") and reach(t, seat, tech, NUKES_LEVEL if k == "nukes" else SDI_LEVEL):
            total += int(o["count"]) * (NUKE_COST if k == "nukes" else SDI_COST)
        elif k == "city":
            cities += 1
            total += f.city_cost(cities)
        elif k == "wonder" and reach(t, seat, tech, WONDER_BY_KEY[o["wonder"]].level):
            total += int(o["gold"])
        elif k == "part" and reach(t, seat, tech, SPACESHIP_LEVEL):
            total += int(o["gold"])
    return total


def reach(t: Turn, seat: str, tech: int, level: int) -> bool:
    """With ``tech`` after this turn's research, the society can build what ``level`` allows (an order it cannot
    is refused at its phase and holds no gold back from the rest)."""
    return tech >= level or can_build_level(t.w, seat, level)


def production(t: Turn) -> None:
    # what each society can afford: cut from the back of its order list, before anything is built
    for seat in alive(t.w):
        live = [(i, o) for i, o in t.of(*PROD_KINDS) if o["seat"] == seat and t.acts(i, seat, KIND_PHASE[o["kind"]])]
        while live and (cost := plan_cost(t, seat, live)) > int(t.soc(seat)["gold"]):
            # the back-most order that holds gold (one its phase will refuse anyway holds none)
            j = next(j for j in range(len(live) - 1, -1, -1) if plan_cost(t, seat, live[:j] + live[j + 1:]) < cost)
            i, o = live.pop(j)
            t.mark(i, "cut: not enough gold (cut from the back of the orders)")
            t.say("production", f"{t.name(seat)}: {describe(o, t.w, full=True)} cut, not enough gold")
    research(t)
    military(t)
    cities(t)
    wonders(t)
    for seat in alive(t.w):
        n = len(t.soc(seat)["new_cities"])
        if n:
            t.say("rehab", f"{t.name(seat)}: {plural(n, 'conquered city')} rehabilitated")
        t.soc(seat)["new_cities"] = []


def pay(t: Turn, i: int, seat: str, cost: int) -> bool:
    s = t.soc(seat)
    if cost > int(s["gold"]):
        t.mark(i, f"refused: {cost} gold needed, {s['gold']} in the treasury")
        return False
    s["gold"] = int(s["gold"]) - cost
    return True


def research(t: Turn) -> None:
    for i, o in t.of("research"):
        seat = o["seat"]
        s = t.soc(seat)
        costs = []
        tech = int(s["tech"])
        for _ in range(int(o["levels"])):
            tech += 1
            costs.append(f.tech_cost(tech, t.players(), t.have(tech, seat), t.r))
        if not pay(t, i, seat, sum(costs)):
            continue
        s["tech"] = tech
        parts = f" ({' + '.join(str(c) for c in costs)})" if len(costs) > 1 else ""
        t.say("research", f"{t.name(seat)} researches to {tech} {tech_name(tech)} for {sum(costs)}{parts}")


def military(t: Turn) -> None:
    for i, o in t.of("armies", "nukes", "sdi"):
        seat, k, n = o["seat"], o["kind"], int(o["count"])
        s = t.soc(seat)
        if k == "nukes" and not can_build_level(t.w, seat, NUKES_LEVEL):
            t.mark(i, f"refused: nukes need Nuclear Fission ({NUKES_LEVEL}); tech {s['tech']} at 3b")
            continue
        if k == "sdi" and not can_build_level(t.w, seat, SDI_LEVEL):
            t.mark(i, f"refused: SDI needs Space Flight ({SDI_LEVEL}); tech {s['tech']} at 3b")
            continue
        each = {"armies": int(s["tech"]), "nukes": NUKE_COST, "sdi": SDI_COST}[k]
        if not pay(t, i, seat, n * each):
            continue
        s[k] = int(s[k]) + n
        t.say("military", f"{t.name(seat)} builds {plural(n, {'armies': 'army', 'nukes': 'nuke', 'sdi': 'SDI'}[k])} "
                          f"for {n * each}")


def cities(t: Turn) -> None:
    for i, o in t.of("city"):
        seat = o["seat"]
        s = t.soc(seat)
        own = sqs(t.w, list(s["cities"]))
        anywhere = holds(t.w, seat, "railroad")
        block = blocked(t.w)
        sites = geo.city_sites(own, block, int(t.w["w"]), int(t.w["h"]), anywhere)
        if o.get("square"):
            where = sq(t.w, o["square"])
            if where not in sites:
                t.mark(i, f"refused: {o['square']} is taken, nuked or not next to your cities")
                continue
        elif o.get("squares"):  # the player's squares in order of preference: the first free one next to a city
            free = [x for x in o["squares"] if sq(t.w, x) in sites]
            if not free:
                t.mark(i, f"refused: none of {', '.join(o['squares'])} is free and next to your cities")
                continue
            where = sq(t.w, free[0])
        else:
            best = geo.best_city_site(own, block, int(t.w["w"]), int(t.w["h"]), anywhere)
            if best is None:
                t.mark(i, "refused: no free square next to your cities")
                continue
            where = best
        cost = f.city_cost(len(s["cities"]) + 1)
        if not pay(t, i, seat, cost):
            continue
        s["cities"].append(geo.name(where))
        t.say("cities", f"{t.name(seat)} builds city {len(s['cities'])} at {geo.name(where)} for {cost}")


def wonders(t: Turn) -> None:
    bids: dict[str, list[tuple[int, Order]]] = {}
    for i, o in t.of("wonder"):
        seat, key = o["seat"], o["wonder"]
        wd = WONDER_BY_KEY[key]
        if key in t.w["wonders"]:
            t.mark(i, f"refused: {wd.name} is already built")
            continue
        if not can_build_level(t.w, seat, wd.level):
            t.mark(i, f"refused: {wd.name} needs {tech_name(wd.level)} ({wd.level}); tech {t.soc(seat)['tech']} at 3d")
            continue
        if int(o["gold"]) < f.wonder_base_cost(wd.level):
            t.mark(i, f"refused: {wd.name} costs at least {f.wonder_base_cost(wd.level)}")
            continue
        if not pay(t, i, seat, int(o["gold"])):
            continue
        bids.setdefault(key, []).append((i, o))
    for key, lst in bids.items():
        wd = WONDER_BY_KEY[key]
        # highest bid first; ties to the first order received; a winner without a free city passes it on
        ranked = sorted(lst, key=lambda x: (-int(x[1]["gold"]), x[0]))
        won = False
        for i, o in ranked:
            seat = o["seat"]
            city = free_wonder_city(t.w, seat) if not won else None
            if city is not None:
                t.w["wonders"][key] = {"owner": seat, "builder": seat, "square": city, "obsolete": False,
                                       "turn": t.turn, "cost": int(o["gold"])}
                t.soc(seat)["built"] = int(t.soc(seat)["built"]) + 1
                won = True
                t.say("wonders", f"{t.name(seat)} builds {wd.name} at {city} for {o['gold']}")
            else:
                t.soc(seat)["gold"] = int(t.soc(seat)["gold"]) + int(o["gold"])
                why = "outbid" if won else "no city without a wonder"
                t.mark(i, f"refunded: {why}")
                t.say("wonders", f"{t.name(seat)} loses the bid for {wd.name} ({o['gold']}), refunded")
    for i, o in t.of("part"):
        seat = o["seat"]
        s = t.soc(seat)
        if not can_build_level(t.w, seat, 15):
            t.mark(i, "refused: spaceship parts need Fusion Power (15)")
            continue
        if int(o["gold"]) < PART_COST:
            t.mark(i, f"refused: a part costs {PART_COST}")
            continue
        if not pay(t, i, seat, int(o["gold"])):
            continue
        s["parts"] = int(s["parts"]) + 1
        s["part_spent"].append(int(o["gold"]))
        t.say("wonders", f"{t.name(seat)} builds spaceship part {s['parts']} for {o['gold']}")
    for i, o in t.of("kgb"):
        seat, key = o["seat"], o["wonder"]
        if not holds(t.w, seat, "kgb"):
            t.mark(i, "refused: needs the KGB")
            continue
        target = t.w["wonders"].get(key)
        if target is None or target["obsolete"] or key == "kgb":
            t.mark(i, "refused: pick another wonder that is built and working")
            continue
        target["obsolete"] = True
        t.w["wonders"]["kgb"]["obsolete"] = True
        t.say("wonders", f"{t.name(seat)}'s KGB makes {wonder_name(key)} obsolete")
