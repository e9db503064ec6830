"""The start of a Society turn (revolutions, peace), phase 1 espionage and phase 2 trade.

Two readings of the text decided here (the Society manual, companion/manuals/society.md, quotes them):

- Spies sent at each other cancel one for one: "Should two players send spies at each other, regardless of phase
  targeted, neither spy gets through" speaks of one spy on each side, and the CHANGE on defending spies ("will only
  stop equal number of opposing spys") counts spies one for one. Two spies against one: one pair cancels, the second
  spy goes on.
- A spy against the Espionage phase also stops that turn's training: "1a. Espionage: New spy is trained" is part of
  the phase and "Each spy can target the entire espionage phase". The sabotaged society sends and defends nothing
  (its spies stay home) and gains no spy this turn.
"""
from __future__ import annotations

from companion.rules.society import formulas as f
from companion.rules.society.data import MAX_CARAVANS, MAX_SPIES, PHASE_NAMES, SPIES_LEVEL
from companion.rules.society.text import plural
from companion.rules.society.turn import Order, Turn, kept
from companion.rules.society.world import alive, at_war, holds, in_trade_range, war_key


def diplomacy(t: Turn) -> None:
    for i, o in t.of("revolution"):
        seat = o["seat"]
        if seat in t.revolution:
            t.mark(i, "refused: one revolution a turn")
            continue
        t.revolution[seat] = {"gov": o["gov"], "keep": o["keep"]}
        t.say("start", f"{t.name(seat)} is in revolution toward {o['gov'].title()}; keeps {o['keep'].title()}")
    proposed = {(o["seat"], o["target"]) for _i, o in t.of("peace")}
    for i, o in t.of("peace"):
        a, b = o["seat"], o["target"]
        if (b, a) in proposed:
            if at_war(t.w, a, b):
                del t.w["wars"][war_key(a, b)]
                t.say("start", f"Peace between {t.name(a)} and {t.name(b)}")
        else:
            t.mark(i, "no effect: peace needs both sides")


def training(t: Turn, seat: str) -> int:
    """The spies a society gains at the start of its espionage phase (Espionage, the Trojan Horse)."""
    s = t.soc(seat)
    return (1 if int(s["tech"]) >= SPIES_LEVEL else 0) + (1 if holds(t.w, seat, "trojan") else 0)


def espionage(t: Turn) -> None:
    start: dict[str, int] = {}
    gain: dict[str, int] = {}
    for seat in alive(t.w):
        s = t.soc(seat)
        start[seat] = int(s["spies"])
        rev = t.revolution.get(seat)
        gain[seat] = training(t, seat) if rev is None or kept(rev["keep"], "espionage") else 0
        s["spies"] = min(MAX_SPIES, start[seat] + gain[seat])
    left = {seat: int(t.soc(seat)["spies"]) for seat in alive(t.w)}
    spent = {seat: 0 for seat in alive(t.w)}
    sent: list[tuple[int, Order]] = []
    defend: dict[tuple[str, str], list[int]] = {}
    for i, o in t.of("spy", "defend"):
        seat = o["seat"]
        if not t.acts(i, seat, "espionage"):
            continue
        if left[seat] <= 0:
            t.mark(i, "refused: no spy left")
            continue
        left[seat] -= 1
        if o["kind"] == "defend":
            defend.setdefault((seat, o["phase"]), []).append(i)
        else:
            sent.append((i, o))
    # spies sent at each other meet first, one for one, whatever phase each targeted
    going: list[tuple[int, Order]] = []
    for i, o in sent:
        a, b = o["seat"], o["target"]
        partner = next((j for j, x in sent if x["seat"] == b and x["target"] == a and t.result[j] == "ok"), None)
        if partner is not None and t.result[i] == "ok":
            for k in (i, partner):
                t.mark(k, "cancelled: both sides spied on each other")
                spent[t.orders[k]["seat"]] += 1
            t.say("espionage", f"{t.name(a)}'s spy and {t.name(b)}'s spy cancel out")
        elif t.result[i] == "ok":
            going.append((i, o))
    # spies against the espionage phase first: a sabotaged espionage phase sends and defends nothing more; then the
    # defenders take their posts (so the post says so before they stop anyone), then the other spies
    esp = [x for x in going if x[1]["phase"] == "espionage"]
    used: dict[tuple[str, str], int] = {}  #: defending spies that have stopped one spy each
    for batch in (esp, [x for x in going if x[1]["phase"] != "espionage"]):
        if batch is not esp:
            for (seat, _ph), idx in defend.items():
                for j in idx:
                    if (seat, "espionage") in t.negated:
                        t.mark(j, "negated: Espionage sabotaged by a spy")
                    else:
                        spent[seat] += 1  # retired, whether or not it came into play
                        t.say("espionage", f"{t.name(seat)} sets a spy to defend "
                                           f"{PHASE_NAMES[t.orders[j]['phase']]}")
        for i, o in batch:
            _send(t, i, o, defend, used, spent)
    for seat in alive(t.w):
        s = t.soc(seat)
        if (seat, "espionage") in t.negated:
            s["spies"] = max(0, min(MAX_SPIES, start[seat]) - spent[seat])
            if gain[seat]:
                t.say("espionage", f"{t.name(seat)} trains no spy this turn (Espionage sabotaged)")
        else:
            s["spies"] = int(s["spies"]) - spent[seat]


def trade(t: Turn) -> None:
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
            t.mark(i, f"refused: at most {plural(limit, 'caravan')} a turn")
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
            t.mark(i, f"refused: at war with {t.name(b)} (peace from both sides first)")
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


def _send(t: Turn, i: int, o: Order, defend: dict[tuple[str, str], list[int]],
          used: dict[tuple[str, str], int], spent: dict[str, int]) -> None:
    """One spy sent at another society: lost, stopped by a defender, or its target phase sabotaged."""
    a, b, ph = o["seat"], o["target"], o["phase"]
    if (a, "espionage") in t.negated:
        t.mark(i, "negated: Espionage sabotaged by a spy")
        return
    spent[a] += 1
    if not t.w["soc"][b]["alive"]:
        t.mark(i, "lost: the target is gone")
        return
    rev = t.revolution.get(b)
    if rev is not None and not kept(rev["keep"], ph):
        t.mark(i, "lost: the target is in revolution")
        t.say("espionage", f"{t.name(a)}'s spy is lost in {t.name(b)}'s revolution")
        return
    guards = len(defend.get((b, ph), [])) if (b, "espionage") not in t.negated else 0
    if guards > used.get((b, ph), 0):
        used[(b, ph)] = used.get((b, ph), 0) + 1
        t.mark(i, f"stopped by {t.name(b)}'s defending spy")
        t.say("espionage", f"{t.name(b)}'s spy stops {t.name(a)}'s spy at {PHASE_NAMES[ph]}")
        return
    t.negated.add((b, ph))
    t.say("espionage", f"{t.name(a)}'s spy sabotages {t.name(b)}'s {PHASE_NAMES[ph]}")
