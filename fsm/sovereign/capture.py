"""Captures in the Manoeuvre step: a city (the captor's one reward, then the loser's tile) and a fort (keep or remove).

A captured city changes hands. The captor chooses one reward, once for that capture: a technology the loser holds
and the captor could research, or a tile stolen from the captured city onto another of the captor's cities. Then
the loser removes one tile of the captured city. A city down to its central tile loses that tile too (switch
``captured_central_tile = "removed"``: "the losing player must select one tile to be removed ... unless there are
no tiles left", and "the central tile must always be the last to be removed"), so the city is gone; with
``"kept"`` the central tile is what was captured and stays.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign import techs as rt
from companion.rules.sovereign.scoring import MAX_CITY
from fsm.prompts import Choice, Option, Prompt
from fsm.screen_text import plural, squeeze

from fsm.sovereign.cities import new_city
from fsm.sovereign.common import BACK, gain_tech, held, holdings, pl, short, warn_box

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame

KINDS = ("capture", "fortcap")


def start_city(g: "SovereignGame") -> None:
    g.data["sub"] = {"kind": "capture", "step": "victim", "from": None, "city": None}


def start_fort(g: "SovereignGame") -> None:
    g.data["sub"] = {"kind": "fortcap", "step": "victim", "from": None, "fort": None}


def can_capture_city(g: "SovereignGame") -> bool:
    return any(pl(g, s)["cities"] for s in g.seats if s != g.active_seat())


def can_capture_fort(g: "SovereignGame") -> bool:
    return any(pl(g, s)["forts"] for s in g.seats if s != g.active_seat())


def _seat(g: "SovereignGame") -> int:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    return seat


def _techs(g: "SovereignGame", victim: int) -> list[rt.Tech]:
    """What the loser holds that the captor could research now (the text's limit on a captured technology)."""
    mine = held(pl(g, _seat(g)))
    return [t for t in rt.TECHS if t.key in pl(g, victim)["techs"] and rt.can_research(mine, t.key)]


def _targets(g: "SovereignGame") -> list[int]:
    """The captor's cities (before this capture) that can take one more tile."""
    return [i for i, c in enumerate(pl(g, _seat(g))["cities"]) if c["tiles"] < MAX_CITY]


def prompt(g: "SovereignGame") -> Prompt:
    sub = g.data["sub"]
    seat = _seat(g)
    if sub["kind"] == "fortcap":
        return _fort_prompt(g, sub, seat)
    step = sub["step"]
    if step == "victim":
        opts = tuple(Option(str(s), squeeze("{}: " + plural(len(pl(g, s)["cities"]), "city"), short(g, s)),
                            enabled=bool(pl(g, s)["cities"]),
                            hint=f"{short(g, s)} has no city") for s in g.seats if s != seat)
        first = next((o.key for o in opts if o.enabled), None)
        return Choice(title="Capture from", player=seat, options=opts, back=BACK, default=first)
    victim = int(sub["from"])
    if step == "city":
        opts = tuple(Option(str(i), f"{c['name']}: {plural(c['tiles'], 'tile')}") for i, c in enumerate(pl(g, victim)["cities"]))
        return Choice(title="Captured city", lines=(f"of {short(g, victim)}",), player=seat, options=opts,
                      back=BACK, default=opts[0].key)
    city = pl(g, victim)["cities"][int(sub["city"])]
    if step == "reward":
        techs, to = _techs(g, victim), _targets(g)
        opts = (Option("tech", "A technology", enabled=bool(techs),
                       hint=f"{short(g, victim)} has no tech you could research"),
                Option("tile", "Steal a city tile", enabled=city["tiles"] > 1 and bool(to),
                       hint="no tile to steal" if city["tiles"] <= 1 else "no city of yours has room"),
                Option("none", "No reward"))
        first = next(o.key for o in opts if o.enabled)
        return Choice(title="Capture prize", lines=("One of the two, once per capture.",), player=seat,
                      options=opts, back=BACK, default=first)
    if step == "tech":
        opts = tuple(Option(t.key, t.name) for t in _techs(g, victim))
        return Choice(title="Take which tech?", lines=(f"from {short(g, victim)}",), player=seat, options=opts,
                      back=BACK, default=opts[0].key)
    mine = pl(g, seat)["cities"]
    opts = tuple(Option(str(i), f"{mine[i]['name']}: {plural(mine[i]['tiles'], 'tile')}") for i in _targets(g))
    return Choice(title="Stolen tile onto", player=seat, options=opts, back=BACK, default=opts[0].key)


def answer(g: "SovereignGame", value: Any) -> None:
    sub = g.data["sub"]
    if sub["kind"] == "fortcap":
        _fort_answer(g, sub, value)
        return
    step = sub["step"]
    if value == BACK:
        prev = {"victim": None, "city": "victim", "reward": "city", "tech": "reward", "to": "reward"}[step]
        if prev is None:
            g.data["sub"] = None
        else:
            sub["step"] = prev
        return
    if step == "victim":
        sub["from"], sub["step"] = int(value), "city"
    elif step == "city":
        sub["city"], sub["step"] = int(value), "reward"
    elif step == "reward":
        if value == "none":
            _capture(g, None, None)
        else:
            sub["step"] = "tech" if value == "tech" else "to"
    elif step == "tech":
        _capture(g, str(value), None)
    else:
        _capture(g, None, int(value))


def _capture(g: "SovereignGame", tech: str | None, onto: int | None) -> None:
    """Apply a whole capture at once: the city changes hands, the reward, the loser's tile."""
    sub = g.data["sub"]
    seat, victim = _seat(g), int(sub["from"])
    p, q = pl(g, seat), pl(g, victim)
    before = holdings(p)
    c = q["cities"].pop(int(sub["city"]))
    who, loser = g.player_name(seat), g.player_name(victim)
    g.data["sub"] = None
    taken = new_city(g, seat, int(c["tiles"]))
    g.note(f"{who} captures {loser}'s {c['name']} ({plural(c['tiles'], 'tile')}) as {taken['name']}")
    if onto is not None:
        dest = p["cities"][onto]
        taken["tiles"] -= 1
        dest["tiles"] += 1
        g.note(f"{who} steals a tile of it onto {dest['name']} ({plural(dest['tiles'], 'tile')})")
    if taken["tiles"] > 1:
        taken["tiles"] -= 1
        g.note(f"{loser} removes a tile of it: {taken['tiles']} left")
    elif g.options["captured_central_tile"] == "removed":
        p["cities"].pop()  # the captured city, just added by new_city
        g.note(f"{loser} removes {taken['name']}'s central tile, its last: the city is gone")
    else:
        g.note(f"{taken['name']} is down to its central tile: {loser} removes nothing")
    if tech is not None:
        gain_tech(g, seat, tech, f"takes from {loser} (capture):")
    warn_box(g, seat, before)
    if tech is not None:
        g.check_tech_win(seat)


# ----------------------------------------------------------------------------------------------------- forts
def _fort_prompt(g: "SovereignGame", sub: dict[str, Any], seat: int) -> Prompt:
    step = sub["step"]
    if step == "victim":
        opts = tuple(Option(str(s), squeeze("{}: " + plural(len(pl(g, s)["forts"]), "fort"), short(g, s)),
                            enabled=bool(pl(g, s)["forts"]), hint=f"{short(g, s)} has no fort")
                     for s in g.seats if s != seat)
        first = next((o.key for o in opts if o.enabled), None)
        return Choice(title="Capture fort of", player=seat, options=opts, back=BACK, default=first)
    victim = int(sub["from"])
    if step == "fort":
        opts = tuple(Option(str(i), f"Fort on a {v}-hex") for i, v in enumerate(pl(g, victim)["forts"]))
        return Choice(title="Captured fort", lines=(f"of {short(g, victim)}",), player=seat, options=opts,
                      back=BACK, default=opts[0].key)
    value = pl(g, victim)["forts"][int(sub["fort"])]
    return Choice(title=f"Fort {value}: keep?", lines=("The captor keeps it or removes it.",),
                  player=seat, options=(Option("keep", "Keep it"), Option("remove", "Remove it")),
                  back=BACK, default="keep")


def _fort_answer(g: "SovereignGame", sub: dict[str, Any], value: Any) -> None:
    step = sub["step"]
    if value == BACK:
        prev = {"victim": None, "fort": "victim", "keep": "fort"}[step]
        if prev is None:
            g.data["sub"] = None
        else:
            sub["step"] = prev
        return
    if step == "victim":
        sub["from"], sub["step"] = int(value), "fort"
        return
    if step == "fort":
        sub["fort"], sub["step"] = int(value), "keep"
        return
    seat, victim = _seat(g), int(sub["from"])
    p = pl(g, seat)
    before = holdings(p)
    fort = pl(g, victim)["forts"].pop(int(sub["fort"]))
    g.data["sub"] = None
    if value == "keep":
        p["forts"].append(fort)
        g.note(f"{g.player_name(seat)} captures {g.player_name(victim)}'s fort ({fort}) and keeps it")
        warn_box(g, seat, before)
    else:
        g.note(f"{g.player_name(seat)} captures {g.player_name(victim)}'s fort ({fort}) and removes it")
