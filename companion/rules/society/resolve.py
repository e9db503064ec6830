"""One turn of Society, phase by phase in the text's order, orders first in first processed.

:func:`resolve` takes the world and the turn's orders (plain dicts, in the order received) and returns the next
world and the turn's report: what happened in each phase, each order's outcome and each society's income.
Nothing here asks anything; the game machine (fsm/society) collects the orders and shows the report.
"""
from __future__ import annotations

import copy
from typing import Any

from companion.rules.society import formulas as f
from companion.rules.society import geo
from companion.rules.society.data import (COLOSSEUM_EXPIRES, GOVERNMENTS, MAX_CARAVANS, MAX_SPIES, NUKE_COST, PART_COST, PHASE_NAMES,
                   PRODUCTION, SDI_COST, SILK_ROAD_EXPIRES, SPIES_LEVEL, WONDER_BY_KEY, tech_name)
from companion.rules.society.world import (Soc, World, adjacent_socs, alive, at_war, blocked, can_build_level, free_wonder_city, holds,
                    in_trade_range, sq, sqs, war_key, wonder_name, wonder_squares)

Order = dict[str, Any]

#: which phase (a spy's target, a revolution's kept phase) each order kind belongs to
KIND_PHASE: dict[str, str] = {
    "spy": "espionage", "defend": "espionage", "trade": "trade", "research": "research", "armies": "military",
    "nukes": "military", "sdi": "military", "city": "cities", "wonder": "wonders", "part": "wonders",
    "kgb": "wonders", "aid": "aid", "attack": "war", "declare": "war", "peace": "war", "revolution": "none",
}


class Turn:
    """The working state of one turn's resolution."""

    def __init__(self, world: World, orders: list[Order], r: f.Readings) -> None:
        self.w: World = copy.deepcopy(world)
        self.start: World = world
        self.orders = orders
        self.r = r
        self.turn = int(world["turn"])
        self.result: list[str] = ["ok"] * len(orders)
        self.events: list[dict[str, str]] = []
        self.negated: set[tuple[str, str]] = set()
        self.revolution: dict[str, dict[str, str]] = {}
        self.income: dict[str, dict[str, int]] = {k: {"trade": 0, "tax": 0, "wonders": 0, "support": 0,
                                                       "disbanded": 0, "net": 0} for k in world["soc"]}
        self.wars: list[dict[str, Any]] = []
        self.winners: list[dict[str, str]] = []

    # ------------------------------------------------------------------ helpers
    def soc(self, seat: str) -> Soc:
        return self.w["soc"][seat]  # type: ignore[no-any-return]

    def name(self, seat: str) -> str:
        return str(self.w["soc"][seat]["name"])

    def say(self, phase: str, text: str) -> None:
        self.events.append({"phase": phase, "text": text})

    def mark(self, i: int, outcome: str) -> None:
        self.result[i] = outcome

    def of(self, *kinds: str) -> list[tuple[int, Order]]:
        return [(i, o) for i, o in enumerate(self.orders) if o["kind"] in kinds and self.result[i] == "ok"]

    def acts(self, i: int, seat: str, phase: str) -> bool:
        """The society may act in ``phase``; if not, the order is marked and False returned."""
        s = self.w["soc"].get(seat)
        if s is None or not s["alive"]:
            self.mark(i, "refused: the society is gone")
            return False
        rev = self.revolution.get(seat)
        if rev is not None:
            keep = rev["keep"]
            if not (keep == phase or (keep == "production" and phase in PRODUCTION)):
                self.mark(i, "lost: the society is in revolution")
                return False
        if (seat, phase) in self.negated:
            self.mark(i, f"negated: {PHASE_NAMES[phase]} sabotaged by a spy")
            return False
        return True

    def players(self) -> int:
        return len(alive(self.start)) if self.r.tech_players == "alive" else int(self.start["started"])

    def have(self, level: int, seat: str) -> int:
        """R: the other societies that have the level (at the turn's start, or by now with ``tech_have`` live)."""
        w = self.w if self.r.tech_have == "live" else self.start
        return sum(1 for k, s in w["soc"].items() if k != seat and s["alive"] and int(s["tech"]) >= level)


def resolve(world: World, orders: list[Order], r: f.Readings = f.DEFAULT) -> tuple[World, dict[str, Any]]:
    t = Turn(world, orders, r)
    _diplomacy(t)
    _espionage(t)
    _trade(t)
    _production(t)
    _aid(t)
    _war(t)
    _tax(t)
    _end(t)
    report = {"turn": t.turn, "events": t.events, "results": t.result, "income": t.income, "wars": t.wars,
              "winners": t.winners, "orders": copy.deepcopy(orders)}
    return t.w, report


# ---------------------------------------------------------------------------------------------- start of turn
def _diplomacy(t: Turn) -> None:
    for i, o in t.of("revolution"):
        seat = o["seat"]
        if seat in t.revolution:
            t.mark(i, "refused: one revolution a turn")
            continue
        t.revolution[seat] = {"gov": o["gov"], "keep": o["keep"]}
        t.say("revolution", f"{t.name(seat)} is in revolution toward {o['gov'].title()}; keeps "
                            f"{o['keep'].title()}")
    proposed = {(o["seat"], o["target"]) for _i, o in t.of("peace")}
    for i, o in t.of("peace"):
        a, b = o["seat"], o["target"]
        if (b, a) in proposed:
            if at_war(t.w, a, b):
                del t.w["wars"][war_key(a, b)]
                t.say("war", f"Peace between {t.name(a)} and {t.name(b)}")
        else:
            t.mark(i, "no effect: peace needs both sides")


# ---------------------------------------------------------------------------------------------- 1 espionage
def _espionage(t: Turn) -> None:
    for seat in alive(t.w):
        s = t.soc(seat)
        rev = t.revolution.get(seat)
        if rev is not None and rev["keep"] != "espionage":
            continue
        gain = (1 if int(s["tech"]) >= SPIES_LEVEL else 0) + (1 if holds(t.w, seat, "trojan") else 0)
        if gain:
            s["spies"] = min(MAX_SPIES, int(s["spies"]) + gain)
    sent: list[tuple[int, Order]] = []
    defend: dict[tuple[str, str], int] = {}
    for i, o in t.of("spy", "defend"):
        seat = o["seat"]
        if not t.acts(i, seat, "espionage"):
            continue
        s = t.soc(seat)
        if int(s["spies"]) <= 0:
            t.mark(i, "refused: no spy left")
            continue
        s["spies"] = int(s["spies"]) - 1
        if o["kind"] == "defend":
            defend[(seat, o["phase"])] = defend.get((seat, o["phase"]), 0) + 1
            t.say("espionage", f"{t.name(seat)} sets a spy to defend {PHASE_NAMES[o['phase']]}")
        else:
            sent.append((i, o))
    pairs = {(o["seat"], o["target"]) for _i, o in sent}
    # spies against the espionage phase first: a sabotaged espionage phase sends and defends nothing more
    ordered = [x for x in sent if x[1]["phase"] == "espionage"] + [x for x in sent if x[1]["phase"] != "espionage"]
    told: set[tuple[str, str]] = set()
    for i, o in ordered:
        a, b, ph = o["seat"], o["target"], o["phase"]
        if (a, "espionage") in t.negated:
            t.mark(i, "negated: Espionage sabotaged by a spy")
            continue
        if (b, a) in pairs:
            t.mark(i, "cancelled: both sides spied on each other")
            if (b, a) not in told:  # one line for the pair
                t.say("espionage", f"{t.name(a)}'s spy and {t.name(b)}'s spy cancel out")
            told.add((a, b))
            continue
        if not t.w["soc"][b]["alive"]:
            t.mark(i, "lost: the target is gone")
            continue
        rev = t.revolution.get(b)
        if rev is not None and not (rev["keep"] == ph or (rev["keep"] == "production" and ph in PRODUCTION)):
            t.mark(i, "lost: the target is in revolution")
            t.say("espionage", f"{t.name(a)}'s spy is lost in {t.name(b)}'s revolution")
            continue
        if defend.get((b, ph), 0) > 0:
            defend[(b, ph)] -= 1
            t.mark(i, f"stopped by {t.name(b)}'s defending spy")
            t.say("espionage", f"{t.name(b)}'s spy stops {t.name(a)}'s spy at {PHASE_NAMES[ph]}")
            continue
        t.negated.add((b, ph))
        t.say("espionage", f"{t.name(a)}'s spy sabotages {t.name(b)}'s {PHASE_NAMES[ph]}")


# ---------------------------------------------------------------------------------------------- 2 trade
def _trade(t: Turn) -> None:
    sent: dict[str, int] = {}
    gains: dict[str, int] = {}
    raw: dict[str, int] = {}  # with bonus_rounding "together": the payouts before the government bonus
    together = t.r.bonus_rounding == "together"
    for i, o in t.of("trade"):
        a, b, n = o["seat"], o["partner"], int(o.get("count", 1))
        if not t.acts(i, a, "trade"):
            continue
        sa = t.soc(a)
        ta = int(t.start["soc"][a]["tech"])
        limit = min(ta, MAX_CARAVANS)
        if sent.get(a, 0) + n > limit:
            t.mark(i, f"refused: at most {limit} caravans a turn")
            continue
        if a == b:
            if not holds(t.w, a, "nascar"):
                t.mark(i, "refused: trading with yourself needs NASCAR")
                continue
            cost = n * f.trade_cost(ta, ta, holds(t.w, a, "silk"))
            if cost > int(sa["gold"]):
                t.mark(i, f"refused: {cost} gold needed, {sa['gold']} in the treasury")
                continue
            pay = n * f.nascar_payout(ta, sa["gov"], t.r)
            sa["gold"] = int(sa["gold"]) - cost
            sent[a] = sent.get(a, 0) + n
            if together:
                pay = n * f.nascar_payout(ta, "despotism", t.r)
                raw[a] = raw.get(a, 0) + pay
            else:
                gains[a] = gains.get(a, 0) + pay
            t.say("trade", f"{t.name(a)} trades with itself x{n}: -{cost}, +{pay}")
            continue
        sb = t.w["soc"].get(b)
        if sb is None or not sb["alive"]:
            t.mark(i, "refused: no such partner")
            continue
        if at_war(t.w, a, b):
            t.mark(i, f"refused: at war with {t.name(b)}")
            continue
        if not in_trade_range(t.start, a, b, t.r):
            t.mark(i, f"refused: {t.name(b)} is out of trade range")
            continue
        rev = t.revolution.get(b)
        if (b, "trade") in t.negated or (rev is not None and rev["keep"] != "trade"):
            t.mark(i, f"turned back: {t.name(b)} cannot trade this turn")
            t.say("trade", f"{t.name(a)}'s caravans to {t.name(b)} turn back")
            continue
        tb = int(t.start["soc"][b]["tech"])
        cost = n * f.trade_cost(ta, tb, holds(t.w, a, "silk"))
        if cost > int(sa["gold"]):
            t.mark(i, f"refused: {cost} gold needed, {sa['gold']} in the treasury")
            continue
        pa = n * f.trade_payout(ta, tb, sa["gov"])
        pb = n * f.trade_payout(ta, tb, sb["gov"])
        sa["gold"] = int(sa["gold"]) - cost
        sent[a] = sent.get(a, 0) + n
        if together:
            pa = pb = n * f.trade_payout(ta, tb)
            raw[a] = raw.get(a, 0) + pa
            raw[b] = raw.get(b, 0) + pb
        else:
            gains[a] = gains.get(a, 0) + pa
            gains[b] = gains.get(b, 0) + pb
        t.say("trade", f"{t.name(a)} -> {t.name(b)} x{n}: cost {cost}, +{pa} / +{pb}")
    for seat, g in raw.items():  # the government bonus on the turn's trade income, rounded once
        gains[seat] = f.gov_bonus(t.soc(seat)["gov"], g)
        if gains[seat] != g:
            t.say("trade", f"{t.name(seat)}: trade income {g} with the {t.soc(seat)['gov'].title()} bonus = "
                           f"{gains[seat]}")
    for seat, g in gains.items():
        t.soc(seat)["gold"] = int(t.soc(seat)["gold"]) + g
        t.income[seat]["trade"] += g


# ---------------------------------------------------------------------------------------------- 3 production
PROD_KINDS = ("research", "armies", "nukes", "sdi", "city", "wonder", "part")
SUB = {"research": 0, "armies": 1, "nukes": 1, "sdi": 1, "city": 2, "wonder": 3, "part": 3}


def _plan_cost(t: Turn, seat: str, items: list[tuple[int, Order]]) -> int:
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
        elif k == "nukes":
            total += int(o["count"]) * NUKE_COST
        elif k == "sdi":
            total += int(o["count"]) * SDI_COST
        elif k == "city":
            cities += 1
            total += f.city_cost(cities)
        elif k in ("wonder", "part"):
            total += int(o["gold"])
    return total


def _production(t: Turn) -> None:
    # what each society can afford: cut from the back of its order list
    for seat in alive(t.w):
        mine = [(i, o) for i, o in t.of(*PROD_KINDS) if o["seat"] == seat]
        live = []
        for i, o in mine:
            phase = KIND_PHASE[o["kind"]]
            if t.acts(i, seat, phase):
                live.append((i, o))
        while live and _plan_cost(t, seat, live) > int(t.soc(seat)["gold"]):
            i, o = live.pop()
            t.mark(i, "cut: not enough gold (cut from the back of the orders)")
            t.say("production", f"{t.name(seat)}: {describe(o, t.w)} cut, not enough gold")
    _research(t)
    _military(t)
    _cities(t)
    _wonders(t)
    for seat in alive(t.w):
        n = len(t.soc(seat)["new_cities"])
        if n:
            t.say("production", f"{t.name(seat)}: {n} conquered {'city' if n == 1 else 'cities'} rehabilitated")
        t.soc(seat)["new_cities"] = []


def _pay(t: Turn, i: int, seat: str, cost: int) -> bool:
    s = t.soc(seat)
    if cost > int(s["gold"]):
        t.mark(i, f"refused: {cost} gold needed, {s['gold']} in the treasury")
        return False
    s["gold"] = int(s["gold"]) - cost
    return True


def _research(t: Turn) -> None:
    for i, o in t.of("research"):
        seat = o["seat"]
        s = t.soc(seat)
        costs = []
        tech = int(s["tech"])
        for _ in range(int(o["levels"])):
            tech += 1
            costs.append(f.tech_cost(tech, t.players(), t.have(tech, seat), t.r))
        if not _pay(t, i, seat, sum(costs)):
            continue
        s["tech"] = tech
        parts = f" ({' + '.join(str(c) for c in costs)})" if len(costs) > 1 else ""
        t.say("research", f"{t.name(seat)} researches to {tech} {tech_name(tech)} for {sum(costs)}{parts}")


def _military(t: Turn) -> None:
    for i, o in t.of("armies", "nukes", "sdi"):
        seat, k, n = o["seat"], o["kind"], int(o["count"])
        s = t.soc(seat)
        if k == "nukes" and not can_build_level(t.w, seat, 11):
            t.mark(i, "refused: nukes need Nuclear Fission (11)")
            continue
        if k == "sdi" and not can_build_level(t.w, seat, 13):
            t.mark(i, "refused: SDI needs Space Flight (13)")
            continue
        each = {"armies": int(s["tech"]), "nukes": NUKE_COST, "sdi": SDI_COST}[k]
        if not _pay(t, i, seat, n * each):
            continue
        s[k] = int(s[k]) + n
        t.say("military", f"{t.name(seat)} builds {n} {k if k != 'sdi' else 'SDI'} for {n * each}")


def _cities(t: Turn) -> None:
    for i, o in t.of("city"):
        seat = o["seat"]
        s = t.soc(seat)
        own = sqs(t.w, list(s["cities"]))
        anywhere = holds(t.w, seat, "railroad")
        block = blocked(t.w)
        if o.get("square"):
            where = sq(t.w, o["square"])
            if where not in geo.city_sites(own, block, int(t.w["w"]), int(t.w["h"]), anywhere):
                t.mark(i, f"refused: {o['square']} is taken, nuked or not next to your cities")
                continue
        else:
            best = geo.best_city_site(own, block, int(t.w["w"]), int(t.w["h"]), anywhere)
            if best is None:
                t.mark(i, "refused: no free square next to your cities")
                continue
            where = best
        cost = f.city_cost(len(s["cities"]) + 1)
        if not _pay(t, i, seat, cost):
            continue
        s["cities"].append(geo.name(where))
        t.say("cities", f"{t.name(seat)} builds city {len(s['cities'])} at {geo.name(where)} for {cost}")


def _wonders(t: Turn) -> None:
    bids: dict[str, list[tuple[int, Order]]] = {}
    for i, o in t.of("wonder"):
        seat, key = o["seat"], o["wonder"]
        wd = WONDER_BY_KEY[key]
        if key in t.w["wonders"]:
            t.mark(i, f"refused: {wd.name} is already built")
            continue
        if not can_build_level(t.w, seat, wd.level):
            t.mark(i, f"refused: {wd.name} needs {tech_name(wd.level)} ({wd.level})")
            continue
        if int(o["gold"]) < f.wonder_base_cost(wd.level):
            t.mark(i, f"refused: {wd.name} costs at least {f.wonder_base_cost(wd.level)}")
            continue
        if not _pay(t, i, seat, int(o["gold"])):
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
        if not _pay(t, i, seat, int(o["gold"])):
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


# ---------------------------------------------------------------------------------------------- 4 foreign aid
AID_KEYS = ("gold", "armies", "spies", "nukes", "sdi", "tech")
MILITARY = ("armies", "nukes", "sdi")
ONE = {"armies": "army", "spies": "spy", "nukes": "nuke"}  #: the singular, for the report


def _aid(t: Turn) -> None:
    given: set[str] = set()
    for i, o in t.of("aid"):
        a, b = o["seat"], o["to"]
        if not t.acts(i, a, "aid"):
            continue
        if a in given:
            t.mark(i, "refused: foreign aid once a turn")
            continue
        sa, sb = t.soc(a), t.w["soc"].get(b)
        if sb is None or not sb["alive"] or a == b:
            t.mark(i, "refused: no such recipient")
            continue
        if any(int(o.get(k, 0)) for k in MILITARY) and not adjacent_socs(t.w, a, b):
            t.mark(i, f"refused: military aid only to an adjacent nation")
            continue
        short = [k for k in AID_KEYS if k != "tech" and int(o.get(k, 0)) > int(sa[k])]
        if short:
            t.mark(i, f"refused: not enough {short[0]}")
            continue
        levels = int(o.get("tech", 0))
        if levels and int(sb["tech"]) + levels > int(sa["tech"]):
            t.mark(i, "refused: technology given only up to your own level")
            continue
        parts = []
        for k in AID_KEYS:
            n = int(o.get(k, 0))
            if not n:
                continue
            if k == "tech":
                sb["tech"] = int(sb["tech"]) + n
                parts.append(f"{n} tech level{'s' if n > 1 else ''}")
                continue
            sa[k] = int(sa[k]) - n
            sb[k] = int(sb[k]) + n
            if k == "spies":
                sb[k] = min(MAX_SPIES, int(sb[k]))
            parts.append(f"{n} {'SDI' if k == 'sdi' else ONE.get(k, k) if n == 1 else k}")
        given.add(a)
        t.say("aid", f"{t.name(a)} gives {t.name(b)} {', '.join(parts)}")


# ---------------------------------------------------------------------------------------------- 5 war
def _war(t: Turn) -> None:
    from companion.rules.society.war import fight_all

    for i, o in t.of("declare"):
        a, b = o["seat"], o["target"]
        if not t.acts(i, a, "war"):
            continue
        if not t.w["soc"][b]["alive"] or at_war(t.w, a, b):
            t.mark(i, "no effect: already at war")
            continue
        t.w["wars"][war_key(a, b)] = {"since": t.turn, "by": a}
        t.say("war", f"{t.name(a)} declares war on {t.name(b)}")
    fight_all(t)


# ---------------------------------------------------------------------------------------------- 6 tax
def _tax(t: Turn) -> None:
    world_cities = sum(len(s["cities"]) for s in t.w["soc"].values() if s["alive"])
    for seat in alive(t.w):
        s = t.soc(seat)
        rev = t.revolution.get(seat)
        if rev is not None and rev["keep"] != "tax" and not t.r.revolution_tax:
            t.say("tax", f"{t.name(seat)} collects no tax (revolution)")
            continue
        taxed = len(s["cities"]) - len(s["new_cities"])
        base = f.tax(taxed, int(s["tech"]), s["gov"])
        wonder = 0
        if holds(t.w, seat, "babel"):
            wonder += int(s["tech"]) ** 2
        if holds(t.w, seat, "mafia"):
            wonder += world_cities
        if t.r.bonus_rounding == "together":  # tax and wonder income get the bonus once, rounded once
            cap = GOVERNMENTS[s["gov"]].city_cap
            plain = (taxed if cap is None else min(taxed, cap)) * int(s["tech"]) * 5
            wonder = f.gov_bonus(s["gov"], plain + wonder) - base
        else:
            wonder = f.gov_bonus(s["gov"], wonder)
        income = base + wonder
        kept, support = f.settle_support(income, int(s["armies"]), len(s["cities"]), s["gov"],
                                         holds(t.w, seat, "nra"), t.r)
        gone = int(s["armies"]) - kept
        s["armies"] = kept
        s["gold"] = int(s["gold"]) + income - support
        inc = t.income[seat]
        inc.update(tax=base, wonders=wonder, support=support, disbanded=gone, net=income - support)
        extra = f", {gone} armies disbanded" if gone else ""
        t.say("tax", f"{t.name(seat)}: tax {base} + wonders {wonder} - support {support} = "
                     f"{income - support}{extra}")


# ---------------------------------------------------------------------------------------------- end of turn
def _end(t: Turn) -> None:
    for seat, rev in t.revolution.items():
        if t.soc(seat)["alive"]:
            t.soc(seat)["gov"] = rev["gov"]
            t.say("revolution", f"{t.name(seat)} is now a {rev['gov'].title()}")
    top = max((int(s["tech"]) for s in t.w["soc"].values() if s["alive"]), default=0)
    won = t.w["wonders"]
    col = won.get("colosseum")
    if col is not None and not col["obsolete"] and top >= COLOSSEUM_EXPIRES:
        col["obsolete"] = True
        t.say("wonders", "The Colosseum is obsolete (Industrialization)")
    silk = won.get("silk")
    if silk is not None and not silk["obsolete"]:
        who = top if t.r.silk_road_expiry == "anyone" else int(t.w["soc"][silk["owner"]]["tech"])
        if who >= SILK_ROAD_EXPIRES:
            silk["obsolete"] = True
            t.say("wonders", "The Silk Road is obsolete (Mass Education)")
    for s in t.w["soc"].values():
        s["new_cities"] = [c for c in s["new_cities"] if c in s["cities"]]
    _victory(t)
    t.w["turn"] = t.turn + 1


def culture(w: World, seat: str, r: f.Readings) -> tuple[int, int]:
    """(wonders built and still held, wonders built or conquered) toward a cultural victory."""
    held = sum(1 for v in w["wonders"].values() if v["owner"] == seat and v.get("builder", seat) == seat
               and (r.obsolete_culture or not v["obsolete"]))
    s = w["soc"][seat]
    return held, int(s["built"]) + int(s["conquered"])


def _victory(t: Turn) -> None:
    living = alive(t.w)
    if len(living) == 1 and int(t.start["started"]) > 1:
        t.winners.append({"seat": living[0], "how": "conquest"})
    need = t.r.spaceship_parts
    done = [k for k in living if int(t.soc(k)["parts"]) >= need
            and int(t.start["soc"][k]["parts"]) < need]
    if done:
        # the dearest last part wins; equal ones go to the first order received, as for wonders
        first = {o["seat"]: i for i, o in reversed(list(enumerate(t.orders)))
                 if o["kind"] == "part" and t.result[i] == "ok"}
        best = max(done, key=lambda k: (int(t.soc(k)["part_spent"][-1]), -first.get(k, len(t.orders))))
        t.winners.append({"seat": best, "how": "spaceship"})
    for k in living:
        held, total = culture(t.w, k, t.r)
        if held >= 7 or total >= 10:
            t.winners.append({"seat": k, "how": "cultural"})
    for wn in t.winners:
        t.say("victory", f"{t.name(wn['seat'])} wins: {wn['how']} victory")


def describe(o: Order, w: World) -> str:
    """An order in a few words (the report, the device's order list)."""
    from companion.rules.society.orders import describe as d

    return d(o, w)


def spendable(world: World, orders: list[Order], seat: str, r: f.Readings = f.DEFAULT) -> int:
    """Gold the society can still put into production this turn: the treasury after the trade phase (trade income
    included) less the production orders it already has."""
    t = Turn(world, orders, r)
    _diplomacy(t)
    _espionage(t)
    _trade(t)
    mine = [(i, o) for i, o in t.of(*PROD_KINDS) if o["seat"] == seat]
    return max(0, int(t.soc(seat)["gold"]) - _plan_cost(t, seat, mine))


def production_cost(world: World, orders: list[Order], seat: str, r: f.Readings = f.DEFAULT) -> int:
    """What the society's production orders among ``orders`` cost this turn (those a spy has not negated)."""
    t = Turn(world, orders, r)
    _diplomacy(t)
    _espionage(t)
    mine = [(i, o) for i, o in t.of(*PROD_KINDS)
            if o["seat"] == seat and (seat, KIND_PHASE[o["kind"]]) not in t.negated]
    return _plan_cost(t, seat, mine)


def research_costs(world: World, seat: str, levels: int, r: f.Readings = f.DEFAULT) -> list[int]:
    """The price of each of the next ``levels`` levels for this society this turn."""
    t = Turn(world, [], r)
    tech = int(world["soc"][seat]["tech"])
    return [f.tech_cost(tech + k, t.players(), t.have(tech + k, seat), r) for k in range(1, levels + 1)]
