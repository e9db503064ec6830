"""The orders menu: the GM picks a society and enters its orders as they arrive, one declarative prompt per field,
or pastes its PM from the phone (:mod:`.paste`). Entry refuses only what no phase could make legal; the turn
checks the rest when each phase runs. The list of orders can be edited, reordered and pruned (:mod:`.order_list`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society.data import GOVERNMENTS, KEEP_PHASES, MAX_CARAVANS, PHASE_NAMES, PHASES, WONDERS
from companion.rules.society.formulas import nascar_payout, trade_cost, trade_payout, wonder_base_cost
from companion.rules.society.orders import KIND_NAMES, KINDS, describe, spies_at_espionage, why_not
from companion.rules.society.resolve import KIND_PHASE, research_costs
from companion.rules.society.turn import kept
from companion.rules.society.world import alive, holds
from fsm.prompts import Choice, Confirm, Number, Option, Prompt
from fsm.screen_text import fits, plural

from fsm.society import order_list, paste
from fsm.society.common import BACK, TITLE_PX, clip, readings, sname, soc, squeeze, world
from fsm.society.entry_rules import (STEPS, arrival, avail, city_sites, level, no_rank, no_target, sort_orders,
                                     status, unavailable)

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

TARGET_FIELD = {"aid": "to", "trade": "partner"}
#: the kinds in the society's menu: the most used first, in turn order (a PM is written in that order)
MENU_KINDS = ("spy", "trade", "research", "armies", "city", "wonder", "aid", "declare", "attack", "peace", "defend",
              "nukes", "sdi", "part", "kgb", "revolution")
CANCEL_ZERO = ("count", "levels", "gold")  #: number steps where 0 cancels the order (a spinner has no BACK)
AID_ITEMS = ("gold", "armies", "spies", "nukes", "sdi", "tech")
BIG = 9999  #: a spinner's top where only the turn can tell what the treasury will hold


def entry(g: "SocietyGame") -> dict[str, Any] | None:
    return g.data["entry"]  # type: ignore[no-any-return]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# ---------------------------------------------------------------------------------------------- prompts
def prompt(g: "SocietyGame") -> Prompt:
    e = entry(g)
    w = world(g)
    turn = int(w["turn"])
    orders = g.data["orders"]
    if e is None:
        seats = alive(w)
        done = [k for k in seats if status(g, k)[0]]
        opts = []
        for k in seats:
            sent, n = status(g, k)
            mark = f"{n} sent" if n or sent else ""  # the orders its PM sent; nothing while it is awaited
            opts.append(Option(f"soc:{k}", _row(g, k, mark)))
        opts += [Option("list", f"Order list ({len(orders)})", enabled=bool(orders), hint="no orders yet"),
                 Option("process", "Process turn"), Option("more", "More...")]
        last = g.data.get("last_seat")
        nxt = next((k for k in seats[seats.index(last) + 1:] + seats if not status(g, k)[0]), None) \
            if last in seats else next((k for k in seats if not status(g, k)[0]), None)
        waiting = [sname(g, k) for k in seats if k not in done]
        return Choice(f"Turn {turn} orders",
                      lines=(f"{len(done)} of {len(seats)} sent, {plural(len(orders), 'order')}",
                             "waiting: " + ", ".join(waiting) if waiting else "all sent: process"),
                      options=tuple(opts), default=f"soc:{nxt}" if nxt else "process", advance=True)
    step = e["step"]
    if step == "process":
        return Confirm(f"Process turn {turn}?", lines=(plural(len(orders), "order"), "phases 1-6, then the report"))
    if step in order_list.STEPS:
        return order_list.prompt(g, e)
    if step in paste.STEPS:
        return paste.prompt(g, e)
    if step == "more":
        return Choice("More", lines=(f"Turn {turn}",), options=(Option(BACK, "Back to orders"),
                                                               Option("concede", "Domination win")), back=BACK)
    if step == "concede":
        opts = [Option(k, sname(g, k)) for k in alive(w)]
        return Choice("Domination by", lines=("The society the GM and players concede to",), options=tuple(opts),
                      back=BACK)
    if step == "concede_ok":
        return Confirm("End the game?", lines=(f"{sname(g, e['seat'])} wins by domination",),
                       default=False)
    seat = str(e["seat"])
    s = soc(g, seat)
    head = squeeze(f"{{}}: {s['gold']} gold, tech {s['tech']}", str(s["name"]))
    if step == "arrival":
        n = len(alive(w))
        return Number("PM arrived", lines=(head, f"1st..{_ordinal(n)}: order of"), lo=1, hi=n,
                      default=int(arrival(g).get(seat, int(seat))))
    if step == "kind":
        mine = [o for o in orders if o["seat"] == seat]
        rank = arrival(g).get(seat)
        kinds = [Option(k, KIND_NAMES[k], enabled=(why := unavailable(g, seat, k, mine)) is None, hint=why or "")
                 for k in MENU_KINDS]
        # the kinds that can be ordered first, the most used first, in turn order; greyed ones below them
        by_pm = Option("paste", "Paste PM (on a phone)", hint="on the phone")
        arrived = Option("arrival", f"PM arrived: {_ordinal(int(rank))}" if rank else "PM arrived: in seat order")
        finish = Option("done", "Done with orders")
        if g.pass4:  # Done last, below every kind (a game saved before keeps the order it was pressed in)
            opts = [x for x in kinds if x.enabled] + [x for x in kinds if not x.enabled] + [by_pm, arrived, finish]
        else:
            opts = [x for x in kinds if x.enabled] + [by_pm, finish] + [x for x in kinds if not x.enabled] + [arrived]
        keys = [x.key for x in opts if x.enabled]
        last = e.get("last")
        nxt = keys[keys.index(last) + 1] if last in keys and keys.index(last) + 1 < len(keys) else None
        return Choice(squeeze("Orders: {}", str(s["name"]), TITLE_PX),
                      lines=(head, f"{plural(len(mine), 'order')}, {avail(g, seat)} gold left"),
                      options=tuple(opts), back=BACK, default=nxt
                      if last in keys else keys[0], advance=True)
    return _field_prompt(g, e, seat, head)


def _row(g: "SocietyGame", seat: str, mark: str) -> str:
    """A society in the turn's menu: "Ana: 12 gold, tech 3" while its PM is awaited (the lines above say "waiting:
    Ana"), "Ana: 12 gold, tech 3 [2 sent]" once its orders are in; the name gives way first, then the tech level
    (the society's own menu shows it), then the word "sent"."""
    s = soc(g, seat)
    tail = f" [{mark}]" if mark else ""
    for text in (f"{{}}: {s['gold']} gold, tech {s['tech']}{tail}", f"{{}}: {s['gold']} gold{tail}"):
        if fits(row := squeeze(text, sname(g, seat))):
            return row
    return squeeze(f"{{}}: {s['gold']} gold{tail.replace(' sent', '')}", sname(g, seat))


def _old(g: "SocietyGame", e: dict[str, Any]) -> dict[str, Any]:
    """The order being edited (its fields are the defaults), or {}."""
    i = e.get("edit")
    return dict(g.data["orders"][int(i)]) if i is not None and int(i) < len(g.data["orders"]) else {}


def _field_prompt(g: "SocietyGame", e: dict[str, Any], seat: str, head: str) -> Prompt:
    w = world(g)
    s = soc(g, seat)
    orders = [x for i, x in enumerate(g.data["orders"]) if i != e.get("edit")]
    step = str(e["step"])
    kind = str(e["kind"])
    o = e["o"]
    old = _old(g, e)
    title = clip(KIND_NAMES[kind], TITLE_PX)
    if step == "target":
        others = [k for k in alive(w) if k != seat]
        if kind == "trade" and holds(w, seat, "nascar"):
            others = [seat, *others]
        opts = [Option(k, sname(g, k), enabled=(why := no_target(g, seat, kind, k)) is None, hint=why or "")
                for k in others]
        was = old.get(TARGET_FIELD.get(kind, "target"))
        first = next((x.key for x in opts if x.enabled), None)
        return Choice(title, lines=(head, "with whom?" if kind == "trade" else "which society?"),
                      options=tuple(opts), back=BACK, default=was if was in others else first)
    if step == "phase":
        opts = [Option(p, PHASE_NAMES[p]) for p in PHASES]
        return Choice(title, lines=(head, "which phase?"), options=tuple(opts), back=BACK, default=old.get("phase"))
    if step == "count":
        if kind == "trade":
            used = sum(int(x.get("count", 1)) for x in orders if x["seat"] == seat and x["kind"] == "trade")
            hi = max(1, min(int(s["tech"]), MAX_CARAVANS) - used)
            ta, p = int(s["tech"]), str(o["partner"])
            tb = int(soc(g, p)["tech"])
            cost = trade_cost(ta, tb, holds(w, seat, "silk"))
            pay = nascar_payout(ta, s["gov"], readings(g)) if p == seat else trade_payout(ta, tb, s["gov"])
            title = clip(f"Trade {cost} gold, +{pay} each", TITLE_PX)  # the order as the player wrote it: (6) --> (+9)
            lines = (head, f"max {hi}; 0: none")
        else:
            hi = BIG
            lines = (head, f"{avail(g, seat)} gold; 0: none")
        return Number(title, lines=lines, lo=0, hi=hi, default=min(hi, int(old.get("count", 1))))
    if step == "levels":
        costs = research_costs(w, seat, 1, readings(g))
        return Number(title, lines=(head, f"next {costs[0]} gold; 0: none"), lo=0, hi=40,
                      default=int(old.get("levels", 1)))
    if step == "square":
        sites, best = city_sites(g, seat)
        names = [f"{chr(65 + c)}{r + 1}" for c, r in sites]
        opts = [Option("auto", f"Auto ({chr(65 + best[0])}{best[1] + 1})" if best else "Auto")]
        opts += [Option(n, n) for n in names]
        was = old.get("square")
        return Choice(title, lines=(head, "Auto: least border"), options=tuple(opts), back=BACK,
                      default=was if was in names else "auto")
    if step == "wonder":
        if kind == "kgb":
            opts = [Option(wd.key, wd.name if len(wd.name) <= 17 else wd.short) for wd in WONDERS if wd.key != "kgb"]
        else:
            ordered = {x["wonder"] for x in orders if x["seat"] == seat and x["kind"] == "wonder"}
            opts = [Option(wd.key, f"{wd.level} {wd.name if len(wd.name) <= 17 else wd.short}",
                           enabled=wd.key not in ordered, hint="already ordered")
                    for wd in WONDERS if wd.key not in w["wonders"]]
        return Choice(title, lines=(head, "which wonder?"), options=tuple(opts), back=BACK,
                      default=old.get("wonder"))
    if step == "gold":
        lo = wonder_base_cost(level(o["wonder"])) if kind == "wonder" else 1000
        if kind == "part" and int(s["parts"]) + 1 < readings(g).spaceship_parts:  # only the last may cost more
            return Number(title, lines=(head, f"part {int(s['parts']) + 1} 1000g; 0: none"), lo=0, hi=1000,
                          default=1000)
        return Number(title, lines=(head, f"min {lo} gold; 0: none"), lo=0, hi=max(lo, BIG * 10),
                      default=max(lo, int(old.get("gold", lo))))
    if step == "aid_what":
        to = sname(g, o["to"])
        opts = [Option("done", "Done")]
        opts += [Option(k, f"{k.title() if k != 'sdi' else 'SDI'}: {o.get(k, 0)}") for k in AID_ITEMS]
        return Choice(title, lines=(head, squeeze("to {}: what?", to)), options=tuple(opts), back=BACK)
    if step == "aid_amount":
        k = str(e["item"])
        if k == "tech":
            hi = max(0, int(s["tech"]) + 40)
        elif k == "spies":
            hi = spies_at_espionage(w, seat)
        else:
            hi = BIG
        return Number(title, lines=(head, f"{k} to give"), lo=0, hi=hi, default=min(hi, int(o.get(k, 0))))
    if step in ("armies", "nukes"):
        have = int(s[step]) + sum(int(x["count"]) for x in orders if x["seat"] == seat and x["kind"] == step)
        now = plural(have, "nuke" if step == "nukes" else "army") + " now"  # "1 army now", not "1 armies"
        return Number(title, lines=(head, now), lo=0, hi=max(have, BIG),
                      default=int(old.get(step, have if step == "armies" else 0)))
    if step == "nukes_first":
        return Confirm(title, lines=(head, "nukes or armies first?"), yes="Nukes", no="Armies",
                       default=bool(old.get("nukes_first", True)))
    if step == "rank":
        ranked = list(o.get("ranking", []))
        left = [c for c in soc(g, o["target"])["cities"] if c not in ranked]
        opts = [Option("done", "Done" if ranked else "Done (GM's order)")]
        opts += [Option(c, c, enabled=(why := no_rank(g, seat, o["target"], [*ranked, c])) is None, hint=why or "")
                 for c in left]
        return Choice("Theatre ranking", lines=(head, "ranked: " + (", ".join(ranked) or "none")),
                      options=tuple(opts), back=BACK)
    if step == "gov":
        opts = [Option(k, gv.name) for k, gv in GOVERNMENTS.items() if k != s["gov"]]
        return Choice(title, lines=(head, "new government?"), options=tuple(opts), back=BACK)
    # keep
    return Choice(title, lines=(head, "the one phase kept"), options=tuple(Option(p, p.title()) for p in KEEP_PHASES),
                  back=BACK)


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
    if step in order_list.STEPS:
        order_list.answer(g, e, value)
        return
    if step in paste.STEPS:
        paste.answer(g, e, value, commit)
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
    if step == "arrival":
        g.data["arrival"] = {**arrival(g), str(e["seat"]): int(value)}
        sort_orders(g)
        g.data["entry"] = {"seat": e["seat"], "step": "kind"}
        return
    if step == "kind":
        _kind(g, e, value)
        return
    if value == BACK or (value == 0 and step in CANCEL_ZERO):
        g.data["entry"] = {"seat": e["seat"], "step": "kind", "last": e.get("kind")}
        if e.get("edit") is not None:
            g.data["entry"] = {"step": "list"}
        return
    _field(g, e, step, value)


def _kind(g: "SocietyGame", e: dict[str, Any], value: Any) -> None:
    seat = str(e["seat"])
    if value in (BACK, "done"):
        if value == "done" and seat not in (g.data.get("sent") or []):
            g.data["sent"] = [*(g.data.get("sent") or []), seat]  # its PM is in, even with no orders
        g.data["last_seat"] = seat
        g.data["entry"] = None
        return
    if value == "paste":
        g.data["entry"] = {"seat": seat, "step": "paste"}
        return
    if value == "arrival":
        g.data["entry"] = {"seat": seat, "step": "arrival"}
        return
    g.data["entry"] = {"seat": seat, "kind": value, "step": STEPS[value][0], "o": {"seat": seat, "kind": value}}


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
        if value != _old(g, e).get(TARGET_FIELD.get(kind, "target"), value):
            o.pop("nuke_targets", None)  # (cities of the society the strike was aimed at before the edit)
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
    commit(g, o, e.get("edit"))
    g.data["entry"] = {"step": "list"} if e.get("edit") is not None else \
        {"seat": e["seat"], "step": "kind", "last": kind}


def commit(g: "SocietyGame", o: dict[str, Any], edit: int | None = None) -> None:
    """Add the order (or put it in place of order ``edit``); raise the refusal if no phase could carry it out."""
    w = world(g)
    if o["kind"] == "attack":
        o.setdefault("ranking", [])
        o.setdefault("nukes_first", True)
    seat = str(o["seat"])
    others = [x for i, x in enumerate(g.data["orders"]) if i != edit]
    rev = next((x for x in others if x["seat"] == seat and x["kind"] == "revolution"), None)
    if rev is not None and o["kind"] != "note" and not kept(str(rev["keep"]), KIND_PHASE[o["kind"]]):
        raise g.refuse(f"{sname(g, seat)} is in revolution: only {str(rev['keep']).title()} acts this turn")
    why = why_not(w, others, o, readings(g))
    if why is not None:
        raise g.refuse(why)
    if o["kind"] == "revolution":
        lost = [x for x in others if x["seat"] == seat and not kept(str(o["keep"]), KIND_PHASE[x["kind"]])]
        if lost:  # already entered: they stay in the list and are reported lost
            g.note(f"{sname(g, seat)}'s revolution: {len(lost)} of its orders this turn will be lost")
    if edit is None:
        g.data["orders"].append(o)
        g.note(f"Turn {w['turn']}: {sname(g, seat)}: {describe(o, w)}")
    else:
        g.data["orders"][edit] = o
        g.note(f"Turn {w['turn']}: {sname(g, seat)}: order {edit + 1} now {describe(o, w)}")
    sort_orders(g)
