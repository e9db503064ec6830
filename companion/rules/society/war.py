"""Phase 5, war: declarations, attacks in the order received, two-way attacks, nukes (on the player's ranked
targets) and SDI, captures and casualties, and the wonders of an eliminated society passing to its conqueror."""
from __future__ import annotations

from typing import Any

from companion.rules.society import formulas as f
from companion.rules.society import geo
from companion.rules.society.text import plural
from companion.rules.society.turn import Order, Turn
from companion.rules.society.world import adjacent_socs, at_war, holds, sq, sqs, war_key, wonder_name, wonder_squares


def war(t: Turn) -> None:
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


def fight_all(t: "Turn") -> None:
    attacks = t.of("attack")
    away: dict[int, int] = {}
    for i, o in attacks:
        seat = o["seat"]
        if not t.acts(i, seat, "war"):
            continue
        s = t.soc(seat)
        n = int(o.get("armies", 0))
        if n > int(s["armies"]) or int(o.get("nukes", 0)) > int(s["nukes"]):
            t.mark(i, f"refused: {s['name']} has {plural(int(s['armies']), 'army')} and "
                      f"{plural(int(s['nukes']), 'nuke')} at the war")
            continue
        s["armies"] = int(s["armies"]) - n
        away[i] = n
    sdi_used: dict[str, int] = {}
    met: set[int] = set()  #: attacks whose army already fell (or went home) in a two-way attack: nukes may fly
    for i, o in attacks:
        if i not in away or (t.result[i] != "ok" and i not in met):
            continue
        _attack(t, i, o, away, sdi_used, met)
    for i, o in attacks:
        if i in away:
            s = t.soc(o["seat"])
            if s["alive"]:
                s["armies"] = int(s["armies"]) + away[i]
    # each society attacked this turn (and not attacking back) gets one counterattack next turn: it gets past the
    # attacker's Colosseum
    t.w["counters"] = [[r["defender"], r["attacker"]] for r in t.wars
                       if not any(x["kind"] == "attack" and x["seat"] == r["defender"] and x["target"] == r["attacker"]
                                  for x in t.orders)]


def _counter(t: "Turn", a: str, b: str, away: dict[int, int]) -> int | None:
    """The index of b's attack on a this turn that is still to be fought with armies, if any."""
    for j, o in enumerate(t.orders):
        if (o["kind"] == "attack" and o["seat"] == b and o["target"] == a and away.get(j, 0) > 0
                and t.result[j] == "ok"):
            return j
    return None


def _attack(t: "Turn", i: int, o: "Order", away: dict[int, int], sdi_used: dict[str, int], met: set[int]) -> None:
    a, b = o["seat"], o["target"]
    sa, sb = t.soc(a), t.w["soc"][b]
    if i in met:
        # its army met the target's in a two-way attack fought earlier; its nukes still fly, in their turn
        nukes = int(o.get("nukes", 0))
        if nukes and sa["alive"] and sb["alive"]:
            sneak0 = not (at_war(t.start, a, b) and int(t.start["wars"][war_key(a, b)]["since"]) < t.turn)
            rec0: dict[str, Any] = {"attacker": a, "defender": b, "sneak": sneak0, "jihad": holds(t.w, a, "jihad")}
            t.wars.append(rec0)
            _nuke(t, a, b, nukes, sdi_used, rec0, o.get("nuke_targets") or [])
        return

    def home(why: str) -> None:
        # an army that cannot fight stays home and defends from now on
        sa["armies"] = int(sa["armies"]) + away[i]
        away[i] = 0
        t.mark(i, f"stayed home: {why}")

    if not sa["alive"]:
        # eliminated earlier in this war phase: the army has no home to come back to
        away[i] = 0
        t.mark(i, f"lost: {t.name(a)} was eliminated")
        return
    if not sb["alive"]:
        home("the target is gone")
        return
    if not adjacent_socs(t.w, a, b):
        home(f"not adjacent to {t.name(b)}")
        return
    # armies meet armies: a strike with nukes only is no two-way attack
    counter = _counter(t, a, b, away) if away[i] > 0 else None
    attacked_by_b = any(x["kind"] == "attack" and x["seat"] == b and x["target"] == a for x in t.orders)
    # the Colosseum's one counterattack: this turn, or the turn after b's attack (orders cross on a forum)
    counter_right = [a, b] in t.start.get("counters", [])
    if holds(t.w, b, "colosseum") and not attacked_by_b and not counter_right:
        home(f"{t.name(b)}'s Colosseum")
        t.say("war", f"{t.name(a)}'s attack on {t.name(b)} is stopped by the Colosseum")
        return
    jihad = holds(t.w, a, "jihad")
    declared = at_war(t.start, a, b) and int(t.start["wars"][war_key(a, b)]["since"]) < t.turn
    sneak = not declared and not jihad
    if not at_war(t.w, a, b):
        t.w["wars"][war_key(a, b)] = {"since": t.turn, "by": a}
    rec: dict[str, Any] = {"attacker": a, "defender": b, "sneak": not declared, "jihad": jihad}
    t.wars.append(rec)
    word = "a sneak attack" if not declared else "an attack"
    sent = [plural(n, one) for n, one in ((away[i], "army"), (int(o.get("nukes", 0)), "nuke")) if n]
    t.say("war", f"{t.name(a)} launches {word} on {t.name(b)} with {' and '.join(sent) or plural(0, 'army')}")
    army_attacks = True
    if counter is not None:
        met.add(counter)
        ta, tb = int(sa["tech"]), int(sb["tech"])
        n1, n2 = away[i], away[counter]
        win, surv = f.two_way(n1, ta, n2, tb, t.r)
        rec["two_way"] = {"a1": n1, "a1_tech": ta, "a2": n2, "a2_tech": tb, "winner": win, "survivors": surv}
        if win is None:
            if t.r.two_way_tie == "both_return":
                t.mark(counter, "no battle: equal armies met and went home")
                t.say("war", f"Two-way attack: {n1}x{ta} = {n2}x{tb}; both armies go home")
                rec["result"] = "tie"
                army_attacks = False
            else:
                away[i] = away[counter] = 0
                t.mark(counter, "destroyed in a two-way attack")
                t.say("war", f"Two-way attack: {n1}x{ta} = {n2}x{tb}; both armies destroyed")
                rec["result"] = "tie"
        elif win == 2:
            away[i] = 0
            away[counter] = surv
            met.discard(counter)  # the winner's survivors attack in their turn
            t.mark(i, "destroyed in a two-way attack")
            t.say("war", f"Two-way attack: {t.name(b)} wins {n2}x{tb} against {n1}x{ta}; {surv} survive")
            rec["result"] = "lost two-way"
        else:
            away[i] = surv
            away[counter] = 0
            t.mark(counter, "destroyed in a two-way attack")
            t.say("war", f"Two-way attack: {t.name(a)} wins {n1}x{ta} against {n2}x{tb}; {surv} survive")
    # the nukes fly whatever became of the army (a lost two-way attack destroys armies, not missiles)
    nukes = int(o.get("nukes", 0))
    if nukes and o.get("nukes_first", True):
        _nuke(t, a, b, nukes, sdi_used, rec, o.get("nuke_targets") or [])
    if army_attacks and sb["alive"] and away[i] > 0:
        _capture(t, i, o, away, sneak, jihad, rec)
    if nukes and not o.get("nukes_first", True) and sb["alive"]:
        _nuke(t, a, b, nukes, sdi_used, rec, o.get("nuke_targets") or [])


def _nuke(t: "Turn", a: str, b: str, n: int, sdi_used: dict[str, int], rec: dict[str, Any],
          ranked: list[str]) -> None:
    """``n`` nukes on ``b``; each hit takes the first city of the player's ranking it may, else the GM's pick
    (nearest first). Wonder cities only once every other city is gone."""
    sa, sb = t.soc(a), t.soc(b)
    sa["nukes"] = int(sa["nukes"]) - n
    stopped = 0
    if not holds(t.w, a, "majestic"):
        stopped = min(n, int(sb["sdi"]) - sdi_used.get(b, 0))
        sdi_used[b] = sdi_used.get(b, 0) + stopped
    per = 4 if holds(t.w, b, "overlord") else 1
    hits = (n - stopped) // per
    wonder = wonder_squares(t.w)
    mine = sqs(t.w, list(sa["cities"]))

    def key(c: str) -> tuple[int, int, int, int]:
        s = sq(t.w, c)
        d = geo.territory_distance(mine, [s])
        return (ranked.index(c) if c in ranked else len(ranked), d if d is not None else 0, s[1], s[0])

    targets: list[str] = []
    for _ in range(hits):
        if not sb["cities"]:
            break
        plain = [c for c in sb["cities"] if c not in wonder]
        c = min(plain or list(sb["cities"]), key=key)
        targets.append(c)
        sb["cities"].remove(c)
        if c in sb["new_cities"]:
            sb["new_cities"].remove(c)
        t.w["nuked"].append(c)
        for v in t.w["wonders"].values():
            if v.get("square") == c:
                v["square"] = None
    rec["nukes"] = {"sent": n, "stopped": stopped, "destroyed": targets}
    t.say("war", f"{plural(n, 'nuke')} on {t.name(b)}: " + (f"{stopped} stopped by SDI, " if stopped else "")
          + f"destroyed {', '.join(targets) if targets else 'nothing'}")
    _eliminated(t, a, b)


def _capture(t: "Turn", i: int, o: "Order", away: dict[int, int], sneak: bool, jihad: bool,
             rec: dict[str, Any]) -> None:
    a, b = o["seat"], o["target"]
    sa, sb = t.soc(a), t.soc(b)
    A, D = away[i], int(sb["armies"])
    AT, DT, DC = int(sa["tech"]), int(sb["tech"]), len(sb["cities"])
    c = f.capture(A, D, AT, DT, DC)
    w, h = int(t.w["w"]), int(t.w["h"])
    mine, theirs = sqs(t.w, list(sa["cities"])), sqs(t.w, list(sb["cities"]))
    chain = not sneak
    ranking = [sq(t.w, x) for x in o.get("ranking") or []]
    taken: list[geo.Sq] = []
    if ranking and geo.check_theatre(ranking, mine, theirs, w, h, chain, jihad) is None:
        taken = ranking[:c]
    if len(taken) < c:
        rest = [x for x in theirs if x not in taken]
        taken += geo.capture_order(mine + taken, rest, c - len(taken), w, h, chain, jihad)
    att_loss, def_loss = f.casualties(D, AT, DC, len(taken), A, t.r)
    away[i] = A - att_loss
    sb["armies"] = D - def_loss
    names = [geo.name(x) for x in taken]
    for c_name in names:
        sb["cities"].remove(c_name)
        sa["cities"].append(c_name)
        sa["new_cities"].append(c_name)
    rec.update({"A": A, "D": D, "AT": AT, "DT": DT, "DC": DC, "C": c, "captured": names,
                "attacker_casualties": att_loss, "defender_casualties": def_loss})
    t.say("war", f"C = (({A}/{DT}) - ({D}/{DC})) x ({AT}/{DT}) -> {c}; {t.name(a)} takes "
                 f"{', '.join(names) if names else 'no city'}; losses {att_loss} / {def_loss}")
    _eliminated(t, a, b)


def _eliminated(t: "Turn", a: str, b: str) -> None:
    sb = t.soc(b)
    if sb["cities"] or not sb["alive"]:
        return
    sb["alive"] = False
    sb["armies"] = 0
    got = [k for k, v in t.w["wonders"].items() if v["owner"] == b]
    for k in got:
        t.w["wonders"][k]["owner"] = a
    t.soc(a)["conquered"] = int(t.soc(a)["conquered"]) + len(got)
    for k in [k for k in t.w["wars"] if b in k.split("-")]:
        del t.w["wars"][k]
    t.say("war", f"{t.name(b)} is eliminated" + (f"; {t.name(a)} takes {_and([wonder_name(k) for k in got])}"
                                                 if got else ""))


def _and(names: list[str]) -> str:
    """"the Colosseum", "Babel and Mafia", "A, B and C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
