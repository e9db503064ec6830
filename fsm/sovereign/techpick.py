"""Taking a technology from another player with Espionage (Spend).

By default only a technology the spy could research now may be taken (tier gating applies); switch
``espionage_researchable = false`` lifts that limit (the text sets it on captures only).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign import techs as rt
from fsm.prompts import Choice, Option, Prompt
from fsm.screen_text import squeeze

from fsm.sovereign.common import BACK, held, me, pl, short

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame


def _takeable(g: "SovereignGame", victim: int) -> list[rt.Tech]:
    mine = held(me(g))
    if not g.options["espionage_researchable"]:
        return [t for t in rt.TECHS if t.key in pl(g, victim)["techs"] and t.key not in mine]
    return [t for t in rt.TECHS if t.key in pl(g, victim)["techs"] and rt.can_research(mine, t.key)]


def any_takeable(g: "SovereignGame") -> bool:
    return any(_takeable(g, s) for s in g.seats if s != g.active_seat())


def prompt(g: "SovereignGame") -> Prompt:
    sub = g.data["sub"]
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    if sub["step"] == "player":
        opts = []
        for s in g.seats:
            if s != seat:
                n = len(_takeable(g, s))
                opts.append(Option(str(s), squeeze(f"{{}} ({n})", short(g, s)), enabled=n > 0,
                                   hint=f"{short(g, s)} has nothing to take"))
        first = next((o.key for o in opts if o.enabled), None)
        why = ("Only a tech you could research now.",) if g.options["espionage_researchable"] else (
            "Any tech you lack.",)
        return Choice(title="Take a tech", lines=why, player=seat,
                      options=tuple(opts), back=BACK, default=first)
    victim = int(sub["from"])
    opts = [Option(t.key, t.name) for t in _takeable(g, victim)]
    return Choice(title="Take which?", lines=(f"from {short(g, victim)}",), player=seat, options=tuple(opts), back=BACK,
                  default=opts[0].key if opts else None)


def answer(g: "SovereignGame", value: Any) -> None:
    sub = g.data["sub"]
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    if value == BACK:
        if sub["step"] == "tech":
            sub["step"] = "player"
        else:
            g.data["sub"] = None
        return
    if sub["step"] == "player":
        sub["from"] = int(value)
        sub["step"] = "tech"
        return
    victim = int(sub["from"])
    g.data["sub"] = None
    if sub["how"] == "spies":
        me(g)["oneshot"].pop("espionage", None)
    from fsm.sovereign.common import gain_tech

    gain_tech(g, seat, value, f"{sub['how']} from {g.player_name(victim)}:")
    g.check_tech_win(seat)
