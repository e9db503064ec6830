"""The orders menu: the GM picks a society and enters its orders as they arrive, one declarative prompt per field.
Each finished order is checked against the rules and a dry run of the turn; a refusal is one plain line and
changes nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society import geo
from companion.rules.society.data import (GOVERNMENTS, KEEP_PHASES, MAX_CARAVANS, NUKE_COST, PHASE_NAMES, PHASES,
                                          PRODUCTION, SDI_COST, WONDER_BY_KEY, WONDERS, tech_name)
from companion.rules.society.formulas import nascar_payout, trade_cost, trade_payout, wonder_base_cost
from companion.rules.society.orders import KIND_NAMES, KINDS, ONCE, describe, spies_at_espionage, why_not
from companion.rules.society.resolve import KIND_PHASE, research_costs, spendable
from companion.rules.society.world import (adjacent_socs, alive, at_war, blocked, can_build_level, holds,
                                           in_trade_range, sqs)
from fsm.prompts import Choice, Confirm, Number, Option, Prompt

from fsm.society.common import BACK, clip, readings, sname, soc, world, wrap

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

#: the fields each kind of order asks for, in order
STEPS: dict[str, tuple[str, ...]] = {
    "spy": ("target", "phase"), "defend": ("phase",), "trade": ("target", "count"), "research": ("levels",),
    "armies": ("count",), "nukes": ("count",), "sdi": ("count",), "city": ("square",), "wonder": ("wonder", "gold"),
    "part": ("gold",), "kgb": ("wonder",), "aid": ("target", "aid_what"), "declare": ("target",),
    "peace": ("target",), "attack": ("target", "armies", "nukes", "nukes_first", "rank"),
    "revolution": ("gov", "keep"),
}
TARGET_FIELD = {"aid": "to", "trade": "partner"}
CANCEL_ZERO = ("count", "levels", "gold")  #: number steps where 0 cancels the order (a spinner has no BACK)
AID_ITEMS = ("gold", "armies", "spies", "nukes", "sdi", "tech")


def entered(n: int) -> str:
    return f"{n} order{'' if n == 1 else 's'} entered"


def entry(g: "SocietyGame") -> dict[str, Any] | None:
    return g.data["entry"]  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------- prompts
def prompt(g: "SocietyGame") -> Prompt:
    e = entry(g)
    w = world(g)
    turn = int(w["turn"])
    orders = g.data["orders"]
    if e is None:
        opts = [Option(f"soc:{k}", clip(f"{sname(g, k, 9)} {soc(g, k)['gold']}g T{soc(g, k)['tech']}", 22))
                for k in alive(w)]
        opts += [Option("list", f"Order list ({len(orders)})", enabled=bool(orders), hint="no orders yet"),
                 Option("process", "Process turn"), Option("more", "More...")]
        return Choice(f"Turn {turn} orders", lines=(entered(len(orders)), "pick who sent them"),
                      options=tuple(opts))
    step = e["step"]
    if step == "process":
        return Confirm(f"Process turn {turn}?", lines=(f"{len(orders)} orders", "phases 1-6, then", "the report"))
    if step == "list":
        opts = [Option(str(i), clip(f"{i + 1} {sname(g, o['seat'], 4)} {describe(o, w)}", 21))
                for i, o in enumerate(orders)]
        return Choice("Order list", lines=("OK on one deletes it",), options=tuple(opts), back=BACK)
    if step == "delete":
        o = orders[int(e["index"])]
        return Confirm("Delete order?", lines=(clip(f"{sname(g, o['seat'])}:"), *wrap(describe(o, w))[:2]),
                       default=False)
    if step == "more":
        return Choice("More", lines=(f"Turn {turn}",), options=(Option(BACK, "Back to orders"),
                                                               Option("concede", "Domination win")), back=BACK)
    if step == "concede":
        opts = [Option(k, sname(g, k, 20)) for k in alive(w)]
        return Choice("Domination by", lines=("the GM and players", "concede to"), options=tuple(opts),
                      back=BACK)
    if step == "concede_ok":
        return Confirm("End the game?", lines=(clip(f"{sname(g, e['seat'], 14)} wins"), "by domination"),
                       default=False)
    seat = str(e["seat"])
    s = soc(g, seat)
    head = clip(f"{s['name']}: {s['gold']}g T{s['tech']}")
    if step == "kind":
        mine = [o for o in orders if o["seat"] == seat]
        opts = [Option("done", "Done with orders")]
        opts += [Option(k, KIND_NAMES[k], enabled=(why := _unavailable(g, seat, k, mine)) is None, hint=why or "")
                 for k in KINDS]
        return Choice(clip(f"Orders: {s['name']}", 20), lines=(head, entered(len(mine))),
                      options=tuple(opts), back=BACK)
    kind = str(e["kind"])
    o = e["o"]
    title = clip(KIND_NAMES[kind], 20)
    if step == "target":
        others = [k for k in alive(w) if k != seat]
        if kind == "trade" and holds(w, seat, "nascar"):
            others = [seat, *others]
        opts = [Option(k, sname(g, k, 20), enabled=(why := _no_target(g, seat, kind, k)) is None, hint=why or "")
                for k in others]
        return Choice(title, lines=(head, "with whom?" if kind == "trade" else "which society?"),
                      options=tuple(opts), back=BACK)
    if step == "phase":
        opts = [Option(p, PHASE_NAMES[p]) for p in PHASES]
        return Choice(title, lines=(head, "which phase?"), options=tuple(opts), back=BACK)
    if step == "count":
        if kind == "trade":
            used = sum(int(x.get("count", 1)) for x in orders if x["seat"] == seat and x["kind"] == "trade")
            hi = max(1, min(int(s["tech"]), MAX_CARAVANS) - used)
            ta, p = int(s["tech"]), str(o["partner"])
            tb = int(soc(g, p)["tech"])
            cost = trade_cost(ta, tb, holds(w, seat, "silk"))
            pay = nascar_payout(ta, s["gov"], readings(g)) if p == seat else trade_payout(ta, tb, s["gov"])
            title = clip(f"Trade {cost}g, +{pay} each", 20)  # the order as the player wrote it: (6) --> (+9)
        else:
            each = {"armies": int(s["tech"]), "nukes": NUKE_COST, "sdi": SDI_COST}[kind]
            hi = max(1, _avail(g, seat) // each)
        return Number(title, lines=(head, f"max {hi}; 0 cancels"), lo=0, hi=hi, default=1)
    if step == "levels":
        avail, costs, n = _avail(g, seat), research_costs(w, seat, 10, readings(g)), 0
        while n < len(costs) and sum(costs[: n + 1]) <= avail:
            n += 1
        return Number(title, lines=(head, f"next {costs[0]}g; 0 cancels"), lo=0, hi=max(1, n), default=1)
    if step == "square":
        own = sqs(w, list(s["cities"]))
        anywhere = holds(w, seat, "railroad")
        sites = geo.city_sites(own, blocked(w), int(w["w"]), int(w["h"]), anywhere)
        best = geo.best_city_site(own, blocked(w), int(w["w"]), int(w["h"]), anywhere)
        opts = [Option("auto", f"Auto ({geo.name(best)})" if best else "Auto")]
        opts += [Option(geo.name(q), geo.name(q)) for q in sites]
        return Choice(title, lines=(head, "Auto: least border"), options=tuple(opts), back=BACK)
    if step == "wonder":
        if kind == "kgb":
            opts = [Option(k, wd.name if len(wd.name) <= 17 else wd.short) for wd in WONDERS if (k := wd.key) in w["wonders"] and k != "kgb"]
        else:
            ordered = {x["wonder"] for x in orders if x["seat"] == seat and x["kind"] == "wonder"}
            opts = [Option(wd.key, f"{wd.level} {wd.name if len(wd.name) <= 17 else wd.short}",
                           enabled=can_build_level(w, seat, wd.level) and wd.key not in ordered,
                           hint="already ordered" if wd.key in ordered else f"needs {tech_name(wd.level)} ({wd.level})")
                    for wd in WONDERS if wd.key not in w["wonders"]]
        return Choice(title, lines=(head, "which wonder?"), options=tuple(opts), back=BACK)
    if step == "gold":
        lo = wonder_base_cost(_level(o["wonder"])) if kind == "wonder" else 1000
        if kind == "part" and int(s["parts"]) + 1 < readings(g).spaceship_parts:  # only the last may cost more
            return Number(title, lines=(head, f"part {int(s['parts']) + 1} 1000g; 0 cancels"), lo=0, hi=1000,
                          default=1000)
        return Number(title, lines=(head, f"min {lo}g; 0 cancels"), lo=0, hi=max(lo, _avail(g, seat)), default=lo)
    if step == "aid_what":
        to = sname(g, o["to"], 10)
        opts = [Option("done", "Done")]
        opts += [Option(k, f"{k.title() if k != 'sdi' else 'SDI'}: {o.get(k, 0)}") for k in AID_ITEMS]
        return Choice(title, lines=(head, clip(f"to {to}; what?")), options=tuple(opts), back=BACK)
    if step == "aid_amount":
        k = str(e["item"])
        if k == "tech":
            hi = max(0, int(s["tech"]) - int(soc(g, o["to"])["tech"]))
        elif k == "spies":
            hi = spies_at_espionage(w, seat) - sum(1 for x in orders if x["seat"] == seat
                                                   and x["kind"] in ("spy", "defend"))
        else:
            hi = int(s[k]) + sum(int(x["count"]) for x in orders if x["seat"] == seat and x["kind"] == k)
        return Number(title, lines=(head, f"{k} to give"), lo=0, hi=hi, default=min(hi, int(o.get(k, 0))))
    if step in ("armies", "nukes"):
        have = int(s[step]) + sum(int(x["count"]) for x in orders if x["seat"] == seat and x["kind"] == step)
        return Number(title, lines=(head, f"{step}, of {have}"), lo=0, hi=have,
                      default=have if step == "armies" else 0)
    if step == "nukes_first":
        return Confirm(title, lines=(head, "nukes or armies first?"), yes="Nukes", no="Armies")
    if step == "rank":
        ranked = list(o.get("ranking", []))
        left = [c for c in soc(g, o["target"])["cities"] if c not in ranked]
        opts = [Option("done", "Done" if ranked else "Done (GM's order)")]
        opts += [Option(c, c, enabled=(why := _no_rank(g, seat, o["target"], [*ranked, c])) is None, hint=why or "")
                 for c in left]
        return Choice("Theatre ranking", lines=(head, clip("ranked: " + (",".join(ranked) or "none"))),
                      options=tuple(opts), back=BACK)
    if step == "gov":
        opts = [Option(k, gv.name) for k, gv in GOVERNMENTS.items() if k != s["gov"]]
        return Choice(title, lines=(head, "new government?"), options=tuple(opts), back=BACK)
    # keep
    return Choice(title, lines=(head, "the one phase kept"), options=tuple(Option(p, p.title()) for p in KEEP_PHASES),
                  back=BACK)


def _unavailable(g: "SocietyGame", seat: str, kind: str, mine: list[dict[str, Any]]) -> str | None:
    """Why an order kind cannot be entered for this society now (the menu greys it out), or None."""
    w = world(g)
    s = soc(g, seat)
    if kind in ONCE and any(o["kind"] == kind for o in mine):
        return f"{KIND_NAMES[kind]}: once a turn"
    rev = next((o for o in mine if o["kind"] == "revolution"), None)
    if rev is not None and not _kept(str(rev["keep"]), {"kind": kind}):
        return f"in revolution: only {str(rev['keep']).title()}"
    if kind in ("spy", "defend"):
        used = sum(1 for o in mine if o["kind"] in ("spy", "defend"))
        if spies_at_espionage(w, seat) <= used:
            return "no spy left this turn"
    need = {"nukes": 11, "sdi": 13, "part": 15}.get(kind)
    if need is not None and not can_build_level(w, seat, need):
        return f"needs {tech_name(need)} ({need})"
    if kind == "part" and int(s["parts"]) >= readings(g).spaceship_parts:
        return "the spaceship is complete"
    if kind == "kgb" and not holds(w, seat, "kgb"):
        return "needs the KGB, unused"
    if kind == "wonder" and all(k in w["wonders"] for k in WONDER_BY_KEY):
        return "every wonder is built"
    if kind == "peace" and not any(at_war(w, seat, k) for k in alive(w) if k != seat):
        return "not at war"
    if kind == "attack" and not any(adjacent_socs(w, seat, k) for k in alive(w) if k != seat):
        return "no adjacent society"
    if kind == "trade":
        limit = min(int(s["tech"]), MAX_CARAVANS)
        if sum(int(o.get("count", 1)) for o in mine if o["kind"] == "trade") >= limit:
            return f"{limit} caravan{'s' if limit > 1 else ''} ordered, the most"
    if kind in ("trade", "declare"):
        others = [k for k in alive(w) if k != seat]
        if kind == "trade" and holds(w, seat, "nascar"):
            return None
        if all(_no_target(g, seat, kind, k) is not None for k in others):
            return "nobody in trade range" if kind == "trade" else "at war with everyone"
    return None


def _no_target(g: "SocietyGame", seat: str, kind: str, other: str) -> str | None:
    """Why ``other`` cannot be this order's target (the list greys it out with the reason), or None."""
    w = world(g)
    name = sname(g, other, 10)
    if other == seat:
        return None
    if kind == "trade":
        peace = {(x["seat"], x["target"]) for x in g.data["orders"] if x["kind"] == "peace"}
        if at_war(w, seat, other) and not ((seat, other) in peace and (other, seat) in peace):
            return f"at war with {name}"
        if not in_trade_range(w, seat, other, readings(g)):
            return f"{name} is out of trade range"
    elif kind == "attack" and not adjacent_socs(w, seat, other):
        return f"{name} is not adjacent"
    elif kind == "declare" and (at_war(w, seat, other) or any(
            x["seat"] == seat and x["kind"] == "declare" and x["target"] == other for x in g.data["orders"])):
        return f"already at war with {name}"
    elif kind == "peace" and not at_war(w, seat, other):
        return f"not at war with {name}"
    return None


def _no_rank(g: "SocietyGame", seat: str, target: str, ranking: list[str]) -> str | None:
    """Why this theatre ranking can't be fought (a sneak attack takes only cities next to the attacker's territory;
    a declared war goes on from the cities above), or None."""
    w = world(g)
    return geo.check_theatre(sqs(w, ranking), sqs(w, list(soc(g, seat)["cities"])),
                             sqs(w, list(soc(g, target)["cities"])), int(w["w"]), int(w["h"]),
                             chain=at_war(w, seat, target), anywhere=holds(w, seat, "jihad"))


def _kept(keep: str, o: dict[str, Any]) -> bool:
    """The order acts in a revolution that keeps ``keep`` (a whole production phase counts as one)."""
    phase = KIND_PHASE[o["kind"]]
    return phase == keep or (keep == "production" and phase in PRODUCTION)


def _avail(g: "SocietyGame", seat: str) -> int:
    return spendable(world(g), g.data["orders"], seat, readings(g))


def _level(key: str) -> int:
    return next(wd.level for wd in WONDERS if wd.key == key)


# ---------------------------------------------------------------------------------------------- answers
def answer(g: "SocietyGame", value: Any) -> None:
    e = entry(g)
    if e is None:
        _main(g, str(value))
        return
    step = e["step"]
    if step == "process":
        if value:
            g.process_turn()
        else:
            g.data["entry"] = None
        return
    if step == "list":
        g.data["entry"] = None if value == BACK else {"step": "delete", "index": int(value)}
        return
    if step == "delete":
        if value:
            o = g.data["orders"].pop(int(e["index"]))
            g.note(f"Turn {world(g)['turn']}: deleted {sname(g, o['seat'])}: {describe(o, world(g))}")
        g.data["entry"] = {"step": "list"} if g.data["orders"] else None
        return
    if step == "more":
        g.data["entry"] = None if value == BACK else {"step": "concede"}
        return
    if step == "concede":
        g.data["entry"] = None if value == BACK else {"step": "concede_ok", "seat": value}
        return
    if step == "concede_ok":
        if value:
            g.concede(str(e["seat"]))
        else:
            g.data["entry"] = None
        return
    if step == "kind":
        if value in (BACK, "done"):
            g.data["entry"] = None
            return
        g.data["entry"] = {"seat": e["seat"], "kind": value, "step": STEPS[value][0],
                           "o": {"seat": e["seat"], "kind": value}}
        return
    if value == BACK or (value == 0 and step in CANCEL_ZERO):
        g.data["entry"] = {"seat": e["seat"], "step": "kind"}
        return
    _field(g, e, step, value)


def _main(g: "SocietyGame", value: str) -> None:
    if value.startswith("soc:"):
        g.data["entry"] = {"seat": value[4:], "step": "kind"}
    elif value in ("list", "process", "more"):
        g.data["entry"] = {"step": value}


def _field(g: "SocietyGame", e: dict[str, Any], step: str, value: Any) -> None:
    """Record one field; advance to the next step or commit the order (refusing changes nothing)."""
    kind = str(e["kind"])
    o = dict(e["o"])
    repeat: str | None = None  # a step that comes round again (aid items, theatre ranking)
    if step == "target":
        o[TARGET_FIELD.get(kind, "target")] = value
    elif step == "count":
        o["count"] = value
    elif step in ("phase", "levels", "wonder", "gold", "armies", "nukes", "nukes_first", "gov", "keep"):
        o[step] = value
    elif step == "square":
        o["square"] = None if value == "auto" else value
    elif step == "aid_what":
        if value != "done":
            g.data["entry"] = {**e, "step": "aid_amount", "item": value}
            return
    elif step == "aid_amount":
        o[str(e["item"])] = value
        repeat = "aid_what"
    elif step == "rank":
        if value != "done":
            o["ranking"] = [*o.get("ranking", []), value]
            repeat = "rank"
    if kind == "wonder" and step == "gold":
        o["gold"] = value
    if repeat is not None:
        g.data["entry"] = {**e, "step": repeat, "o": o}
        return
    steps = list(STEPS[kind])
    if kind == "attack":
        s = soc(g, str(e["seat"]))
        if int(s["nukes"]) == 0 and not any(x["seat"] == e["seat"] and x["kind"] == "nukes" for x in g.data["orders"]):
            steps = [x for x in steps if x not in ("nukes", "nukes_first")]
            o.setdefault("nukes", 0)
        elif step == "nukes" and int(value) == 0:
            steps.remove("nukes_first")
    nxt = steps.index(step) + 1 if step in steps else len(steps)
    if kind == "aid" and step == "aid_what":
        nxt = len(steps)
    if nxt < len(steps):
        g.data["entry"] = {**e, "step": steps[nxt], "o": o}
        return
    _commit(g, e, o)


def _commit(g: "SocietyGame", e: dict[str, Any], o: dict[str, Any]) -> None:
    w = world(g)
    if o["kind"] == "attack":
        o.setdefault("ranking", [])
        o.setdefault("nukes_first", True)
    seat = str(o["seat"])
    rev = next((x for x in g.data["orders"] if x["seat"] == seat and x["kind"] == "revolution"), None)
    if rev is not None and not _kept(str(rev["keep"]), o):
        raise g.refuse(f"{sname(g, seat, 12)} is in revolution: only {str(rev['keep']).title()} acts this turn")
    why = why_not(w, g.data["orders"], o, readings(g))
    if why is None and o["kind"] == "revolution":
        lost = [x for x in g.data["orders"] if x["seat"] == seat and not _kept(str(o["keep"]), x)]
        if lost:  # already entered: they stay in the list and are reported lost
            g.note(f"{sname(g, seat)}'s revolution: {len(lost)} of its orders this turn will be lost")
    if why is not None and why.startswith("not enough gold"):  # at entry, say what is left (not the cut rule)
        why = f"not enough gold: {sname(g, o['seat'], 12)} has {_avail(g, str(o['seat']))} left to spend this turn"
    if why is not None:
        raise g.refuse(why)
    g.data["orders"].append(o)
    g.note(f"Turn {w['turn']}: {sname(g, o['seat'])}: {describe(o, w)}")
    g.data["entry"] = {"seat": e["seat"], "step": "kind"}
