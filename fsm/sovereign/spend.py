"""The Spend step: up to three actions (plus bonuses), research first, then expansions, then units.

The budget is the player's ``points``; each action lowers it and counts against ``spend.max``. Bonuses do not count
as actions. ``spend.phase`` only moves forward: research -> expansion -> units.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign import techs as rt
from companion.rules.sovereign.scoring import BASE_ACTIONS, MAX_CITY
from companion.rules.sovereign.terrain import BUILDABLE, BY_KEY as TERRAIN, build_cost
from fsm.prompts import Choice, Number, Option, Prompt
from fsm.screen_text import plural

from fsm.sovereign import techpick
from fsm.sovereign.common import (BACK, bonus_ready, count_units, gain_tech, has, held, holdings, me, unit_cost,
                                   use_bonus, warn_box)

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame

PHASES = ("research", "expansion", "units")
KINDS = ("research", "free", "expand", "fort", "unit", "nat")
FREE_DISCOVERY = ("writing", "literacy", "scientific_method")
FREE_EXPANSION = ("irrigation", "religion", "industrialisation", "mass_production")
FREE_UNITS = ("industrialisation", "mass_production")
PHASE_HINT = {"expansion": "research comes first: expansions have begun",
              "units": "units come last: unit building has begun"}
#: where the step stands, in the order the rules give (research, then expansions, then units)
PHASE_LINE = {"research": "Research first, units last", "expansion": "Expanding: research done",
              "units": "Units now: no expanding"}


def start(g: "SovereignGame") -> None:
    p = me(g)
    extra = 1 if bonus_ready(g, p, "artificial_intelligence") else 0
    g.data["spend"] = {"phase": "research", "actions": 0, "max": BASE_ACTIONS + extra}


def _sp(g: "SovereignGame") -> dict[str, Any]:
    return g.data["spend"]  # type: ignore[no-any-return]


def _phase_ok(g: "SovereignGame", phase: str) -> bool:
    return PHASES.index(_sp(g)["phase"]) <= PHASES.index(phase)


def _set_phase(g: "SovereignGame", phase: str) -> None:
    sp = _sp(g)
    if PHASES.index(phase) > PHASES.index(sp["phase"]):
        sp["phase"] = phase


def _action(g: "SovereignGame", cost: int, phase: str) -> None:
    me(g)["points"] -= cost
    _sp(g)["actions"] += 1
    _set_phase(g, phase)


def _growable(g: "SovereignGame") -> list[int]:
    return [i for i, c in enumerate(me(g)["cities"]) if c["tiles"] < MAX_CITY]


def _units(g: "SovereignGame") -> tuple[str, ...]:
    return rt.units_of(held(me(g)))


def _opt(key: str, label: str, *checks: tuple[bool, str]) -> Option:
    """An option enabled when every check holds; the hint names the first that fails."""
    for ok, why in checks:
        if not ok:
            return Option(key, label, enabled=False, hint=why)
    return Option(key, label)


def menu_prompt(g: "SovereignGame") -> Prompt:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p, sp = me(g), _sp(g)
    pts, left = p["points"], sp["max"] - sp["actions"]
    acts = (left > 0, "no actions left this turn")

    def phase(ph: str) -> tuple[bool, str]:
        return _phase_ok(g, ph), PHASE_HINT.get(sp["phase"], "")

    mine = held(p)
    cheapest = min((rt.TIER_COST[t.tier] for t in rt.researchable(mine)), default=None)
    opts = [_opt("research", "Research", phase("research"), acts,
                 (cheapest is not None, "nothing left to research"),
                 (cheapest is not None and cheapest <= pts, f"research costs {cheapest}; {pts} points left"))]
    for src in FREE_DISCOVERY:
        if bonus_ready(g, p, src):
            opts.append(_opt(f"free:{src}", f"Free: {rt.tech(src).name}", phase("research"),
                             (bool(rt.researchable(mine, allow_final=False)), "nothing free to research")))
    if bonus_ready(g, p, "espionage"):
        opts.append(_opt("spy", "Espionage: take tech", phase("research"),
                         (techpick.any_takeable(g), "no one has a tech you could research")))
    grow = (bool(_growable(g)), f"every city has {MAX_CITY} tiles")
    cheap = (pts >= min(t.value or 0 for t in BUILDABLE), f"building costs 2 or more; {pts} points left")
    opts.append(_opt("expand", "Expand a city", phase("expansion"), acts, grow, cheap))
    laws = (has(p, "code_of_laws") or not g.options["forts_need_code_of_laws"], "forts need Code of Laws")
    opts.append(_opt("fort", "Build a fort", laws, phase("expansion"), acts, cheap))
    for src in FREE_EXPANSION:
        if bonus_ready(g, p, src) and p["mode"].get(src) != "units":
            n = p["oneshot"][src]
            opts.append(_opt(f"fexp:{src}", f"{n} free tile{'s' if n > 1 else ''}: {rt.tech(src).name}",
                             phase("expansion"), grow))
    if bonus_ready(g, p, "arts"):
        opts.append(_opt("arts", "Arts: grow 5-6 cities", phase("expansion"),
                         (any(5 <= c["tiles"] < MAX_CITY for c in p["cities"]), "no city of 5 or 6 tiles")))
    has_units = (bool(_units(g)), "no units discovered yet")
    least = min((unit_cost(g, u) or 1 for u in _units(g)), default=0)  # a cost not in the table is 1 or more
    afford = (not g.pass4 or least <= pts, f"no unit for {plural(pts, 'point')}")  # not a list of greyed units
    opts.append(_opt("unit", "Build a unit", acts, has_units, afford))
    for src in FREE_UNITS:
        if bonus_ready(g, p, src) and p["mode"].get(src) != "expand":
            n = p["oneshot"][src]
            opts.append(_opt(f"funit:{src}", f"{n} free unit{'s' if n > 1 else ''}: {rt.tech(src).name}", has_units))
    if bonus_ready(g, p, "nationalism"):
        opts.append(_opt("nat", "Nationalism: 2 tiles", has_units,
                         (any(c["tiles"] >= 3 for c in p["cities"]), "needs a city of 3 tiles or more")))
    for src, n in (("wheel", 1), ("electricity", 2)):
        if bonus_ready(g, p, src):
            opts.append(Option(src, f"{rt.tech(src).name} +{n} action{'s' if n > 1 else ''}"))
    opts.append(Option("done", "Done: to Move"))
    lines = (f"{plural(pts, 'point')}, {plural(left, 'action')} left", PHASE_LINE[sp["phase"]])
    # one careless OK must not end the step: the cursor starts on the first thing that can be done (pass 4)
    first = next((o.key for o in opts if o.enabled), "done") if g.pass4 else "done"
    return Choice(title="Spend", lines=lines, player=seat, options=tuple(opts), default=first)


def menu_answer(g: "SovereignGame", value: str) -> None:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p = me(g)
    kind, _, src = value.partition(":")
    if value == "done":
        if p["points"]:
            g.note(f"{g.player_name(seat)} leaves {p['points']} points unspent")
        p["points"] = 0
        g.data["spend"] = None
        g.fire("to_move")
    elif value == "research":
        g.data["sub"] = {"kind": "research"}
    elif kind == "free":
        g.data["sub"] = {"kind": "free", "src": src}
    elif value == "spy":
        g.data["sub"] = {"kind": "take", "how": "spies", "step": "player", "from": None}
    elif value in ("expand", "fort"):
        g.data["sub"] = {"kind": value, "step": "city" if value == "expand" else "terrain", "src": None}
        _skip_single_city(g)
    elif kind == "fexp":
        g.data["sub"] = {"kind": "expand", "step": "city", "src": src}
        _skip_single_city(g)
    elif value == "arts":
        before = holdings(p)
        use_bonus(p, "arts")
        _set_phase(g, "expansion")
        for c in p["cities"]:
            if 5 <= c["tiles"] < MAX_CITY:
                c["tiles"] += 1
                g.note(f"Arts: {g.player_name(seat)}'s {c['name']} grows to {c['tiles']}")
        warn_box(g, seat, before)
    elif value == "unit":
        g.data["sub"] = {"kind": "unit", "step": "unit", "src": None}
    elif kind == "funit":
        g.data["sub"] = {"kind": "unit", "step": "unit", "src": src}
    elif value == "nat":
        g.data["sub"] = {"kind": "nat", "step": "city", "city": None, "units": []}
        cands = [i for i, c in enumerate(p["cities"]) if c["tiles"] >= 3]
        if len(cands) == 1:
            g.data["sub"].update(step="unit", city=cands[0])
    elif value in ("wheel", "electricity"):
        n = 1 if value == "wheel" else 2
        use_bonus(p, value)
        _sp(g)["max"] += n
        g.note(f"{g.player_name(seat)} uses {rt.tech(value).name}: +{n} action(s)")


def _skip_single_city(g: "SovereignGame") -> None:
    sub = g.data["sub"]
    if sub["step"] == "city":
        grow = _growable(g)
        if len(grow) == 1:
            sub["city"] = grow[0]
            if sub["src"]:
                _free_expand(g, grow[0])
            else:
                sub["step"] = "terrain"


def _free_expand(g: "SovereignGame", i: int) -> None:
    seat = g.active_seat()
    p = me(g)
    src = g.data["sub"]["src"]
    before = holdings(p)
    c = p["cities"][i]
    c["tiles"] += 1
    use_bonus(p, src)
    if src in FREE_UNITS:
        p["mode"][src] = "expand"
    _set_phase(g, "expansion")
    g.note(f"{g.player_name(seat or 0)}: {rt.tech(src).name} grows {c['name']} to {c['tiles']} (free)")
    g.data["sub"] = None
    warn_box(g, seat or 0, before)


# ------------------------------------------------------------------------------------------------ sub-prompts
def sub_prompt(g: "SovereignGame") -> Prompt:
    sub = g.data["sub"]
    seat = g.active_seat()
    p = me(g)
    pts = p["points"]
    kind, step = sub["kind"], sub.get("step")
    if kind in ("research", "free"):
        free = kind == "free"
        opts = []
        for t in rt.researchable(held(p), allow_final=not free):
            c = rt.TIER_COST[t.tier]
            label = t.name if free else f"{t.name} {c}"
            opts.append(Option(t.key, label, enabled=free or c <= pts, hint=f"{t.name} costs {c}; {pts} left"))
        first = next((o.key for o in opts if o.enabled), None)
        title = "Free tech" if free else "Research"
        return Choice(title=title, lines=(rt.tech(sub["src"]).name,) if free else (f"{plural(pts, 'point')} to spend",),
                      player=seat, options=tuple(opts), back=BACK, default=first)
    if kind in ("expand", "nat") and step == "city":
        cands = _growable(g) if kind == "expand" else [i for i, c in enumerate(p["cities"]) if c["tiles"] >= 3]
        opts = [Option(str(i), f"{p['cities'][i]['name']}: {p['cities'][i]['tiles']} tiles") for i in cands]
        title = "Nationalism" if kind == "nat" else "Expand city"
        return Choice(title=title, player=seat, options=tuple(opts), back=BACK, default=opts[0].key)
    if step == "terrain":
        opts = [Option(t.key, f"{t.name} {t.value}", enabled=(t.value or 0) <= pts,
                       hint=f"{t.name} costs {t.value}; {pts} points left") for t in BUILDABLE]
        opts.append(Option("sea", "Sea: no building", enabled=False, hint="nothing can be built on sea"))
        first = next((o.key for o in opts if o.enabled), None)
        what = "Fort hex" if kind == "fort" else "Terrain"
        return Choice(title=what, lines=(f"{plural(pts, 'point')} to spend",), player=seat, options=tuple(opts), back=BACK,
                      default=first)
    if kind == "unit" and step == "cost":
        # no unit is free: the spinner starts at the chart's cost where the table knows one, else at the points
        # left (at least 1), and never goes down to 0
        known = unit_cost(g, sub["unit"])
        start = known if known is not None else min(max(pts, 1), 99)
        return Number(title="Unit cost", lines=(f"{sub['unit']} is not in the table: its cost from your chart",),
                      player=seat, lo=1, hi=99, default=max(1, start))
    # choosing a unit: build (paid or free) or Nationalism
    free = kind == "nat" or bool(sub.get("src"))
    opts = []
    for name in _units(g):
        cost = unit_cost(g, name)
        label = name if free else f"{name} {'?' if cost is None else cost}"
        ok = free or cost is None or cost <= pts
        opts.append(Option(name, label, enabled=ok, hint=f"{name} costs {cost}; {pts} points left"))
    first = next((o.key for o in opts if o.enabled), None)
    lines: tuple[str, ...]
    if kind == "nat":
        title, lines = f"Unit {len(sub['units']) + 1} of 2", ("Nationalism",)
    elif free:
        title, lines = "Free unit", (rt.tech(sub["src"]).name,)
    else:
        title, lines = "Buy a unit", (f"{plural(pts, 'point')} to spend",)
    return Choice(title=title, lines=lines, player=seat, options=tuple(opts), back=BACK, default=first)


def sub_answer(g: "SovereignGame", value: Any) -> None:
    sub = g.data["sub"]
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    who = g.player_name(seat)
    p = me(g)
    kind, step = sub["kind"], sub.get("step")
    if value == BACK:
        if kind == "unit" and step == "cost":
            sub["step"] = "unit"
        elif kind == "expand" and step == "terrain" and len(_growable(g)) > 1:
            sub["step"] = "city"
        elif kind == "nat" and step == "unit" and sub["units"]:
            sub["units"].pop()
        else:
            g.data["sub"] = None
        return
    if kind in ("research", "free"):
        g.data["sub"] = None
        if kind == "research":
            _action(g, rt.cost(value), "research")
            gain_tech(g, seat, value, f"researches ({rt.cost(value)} points)")
        else:
            use_bonus(p, sub["src"])
            gain_tech(g, seat, value, f"discovers free ({rt.tech(sub['src']).name})")
        g.check_tech_win(seat)
    elif step == "city":
        sub["city"] = int(value)
        if kind == "nat":
            sub["step"] = "unit"
        elif sub["src"]:
            _free_expand(g, int(value))
        else:
            sub["step"] = "terrain"
    elif step == "terrain":
        cost = build_cost(value)
        before = holdings(p)
        g.data["sub"] = None
        _action(g, cost, "expansion")
        if kind == "fort":
            p["forts"].append(cost)
            g.note(f"{who} builds a fort on {TERRAIN[value].name.lower()} ({cost} points)")
        else:
            c = p["cities"][int(sub["city"])]
            c["tiles"] += 1
            g.note(f"{who} expands {c['name']} onto {TERRAIN[value].name.lower()} ({cost} points): "
                   f"{plural(c['tiles'], 'tile')}")
        warn_box(g, seat, before)
    elif kind == "nat":
        sub["units"].append(value)
        if len(sub["units"]) == 2:
            before = holdings(p)
            c = p["cities"][int(sub["city"])]
            c["tiles"] -= 2
            for name in sub["units"]:
                count_units(p, 1, name)
            warn_box(g, seat, before)
            use_bonus(p, "nationalism")
            _set_phase(g, "units")
            g.data["sub"] = None
            g.note(f"{who}: Nationalism turns 2 tiles of {c['name']} into {' and '.join(sub['units'])}")
    elif kind == "unit":
        _unit(g, sub, value, who)


def _unit(g: "SovereignGame", sub: dict[str, Any], value: Any, who: str) -> None:
    p = me(g)
    seat = g.active_seat() or 0
    before = holdings(p)
    if sub["src"]:
        src = sub["src"]
        use_bonus(p, src)
        count_units(p, 1, value)
        warn_box(g, seat, before)
        p["mode"][src] = "units"
        _set_phase(g, "units")
        g.data["sub"] = None
        g.note(f"{who} builds a free {value} ({rt.tech(src).name})")
        return
    if sub["step"] == "unit":
        cost = unit_cost(g, value)
        if cost is None:
            sub["unit"], sub["step"] = value, "cost"
            return
        name = value
    else:
        name, cost = sub["unit"], int(value)
        if cost > p["points"]:
            raise g.refuse(f"{name} at {cost} is more than the {p['points']} points left")
        g.data["unit_costs"][name] = cost
    g.data["sub"] = None
    _action(g, cost, "units")
    count_units(p, 1, name)
    g.note(f"{who} builds a {name} ({cost} points)")
    warn_box(g, seat, before)
