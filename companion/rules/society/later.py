"""Phase 4 foreign aid, phase 6 tax collection and the end of the turn (new governments, wonders expiring,
victory)."""
from __future__ import annotations

from companion.rules.society import formulas as f
from companion.rules.society.data import COLOSSEUM_EXPIRES, GOVERNMENTS, MAX_SPIES, SILK_ROAD_EXPIRES
from companion.rules.society.text import plural
from companion.rules.society.turn import Turn
from companion.rules.society.world import World, adjacent_socs, alive, holds

AID_KEYS = ("gold", "armies", "spies", "nukes", "sdi", "tech")
MILITARY = ("armies", "nukes", "sdi")
ONE = {"armies": "army", "spies": "spy", "nukes": "nuke", "sdi": "SDI", "tech": "tech level"}


def aid(t: Turn) -> None:
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
            t.mark(i, f"refused: military aid only to an adjacent nation ({t.name(b)} is not)")
            continue
        short = [k for k in AID_KEYS if k != "tech" and int(o.get(k, 0)) > int(sa[k])]
        if short:
            t.mark(i, f"refused: not enough {short[0]} ({sa[short[0]]} at 4a)")
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
            else:
                sa[k] = int(sa[k]) - n
                sb[k] = int(sb[k]) + n
                if k == "spies":
                    sb[k] = min(MAX_SPIES, int(sb[k]))
            parts.append(f"{n} gold" if k == "gold" else plural(n, ONE[k]))
        given.add(a)
        t.say("aid", f"{t.name(a)} gives {t.name(b)} {', '.join(parts)}")


def tax(t: Turn) -> None:
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
        extra = f", {plural(gone, 'army')} disbanded" if gone else ""
        less = f" - support {support}" if support else ""
        t.say("tax", f"{t.name(seat)}: tax {base} + wonders {wonder}{less} = {income - support}{extra}")


def end(t: Turn) -> None:
    for seat, rev in t.revolution.items():
        if t.soc(seat)["alive"]:
            t.soc(seat)["gov"] = rev["gov"]
            t.say("end", f"{t.name(seat)} is now a {rev['gov'].title()}")
    top = max((int(s["tech"]) for s in t.w["soc"].values() if s["alive"]), default=0)
    won = t.w["wonders"]
    col = won.get("colosseum")
    if col is not None and not col["obsolete"] and top >= COLOSSEUM_EXPIRES:
        col["obsolete"] = True
        t.say("end", "The Colosseum is obsolete (Industrialization)")
    silk = won.get("silk")
    if silk is not None and not silk["obsolete"]:
        who = top if t.r.silk_road_expiry == "anyone" else int(t.w["soc"][silk["owner"]]["tech"])
        if who >= SILK_ROAD_EXPIRES:
            silk["obsolete"] = True
            t.say("end", "The Silk Road is obsolete (Mass Education)")
    for s in t.w["soc"].values():
        s["new_cities"] = [c for c in s["new_cities"] if c in s["cities"]]
    victory(t)
    t.w["turn"] = t.turn + 1


def culture(w: World, seat: str, r: f.Readings) -> tuple[int, int]:
    """(wonders built and still held, wonders built or conquered) toward a cultural victory."""
    held = sum(1 for v in w["wonders"].values() if v["owner"] == seat and v.get("builder", seat) == seat
               and (r.obsolete_culture or not v["obsolete"]))
    s = w["soc"][seat]
    return held, int(s["built"]) + int(s["conquered"])


def victory(t: Turn) -> None:
    living = alive(t.w)
    if len(living) == 1 and int(t.start["started"]) > 1:
        t.winners.append({"seat": living[0], "how": "conquest"})
    need = t.r.spaceship_parts
    done = [k for k in living if int(t.soc(k)["parts"]) >= need and int(t.start["soc"][k]["parts"]) < need]
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
