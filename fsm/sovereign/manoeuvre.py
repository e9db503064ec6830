"""The Manoeuvre step: battles, settlers founding cities, board changes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fsm.prompts import Choice, Option, Prompt

from companion.rules.sovereign import techs as rt

from fsm.sovereign import battle_setup as bs
from fsm.sovereign import capture
from fsm.sovereign.cities import new_city
from fsm.sovereign.common import (BACK, SETTLER, cards_line, count_units, has, held, holdings, me, pending_line,
                                  warn_box)

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame


def prompt(g: "SovereignGame") -> Prompt:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p = me(g)
    sub = g.data["sub"]
    if sub and sub["kind"] == "found":
        return Choice(title="New city", lines=("Seafaring: on a coast hex, +1 free tile.",), player=seat,
                      options=(Option("inland", "Not on the coast"), Option("coast", "Coastal hex: 2 tiles")),
                      back=BACK, default="inland")
    opts = (Option("battle", "Battle..."),
            Option("found", "Settler founds a city", enabled=can_found(p), hint=no_settler(p)),
            Option("capture", "Capture a city...", enabled=capture.can_capture_city(g),
                   hint="no one else has a city"),
            Option("fort", "Capture a fort...", enabled=capture.can_capture_fort(g),
                   hint="no one else has a fort"),
            Option("cities", "Cities..."),
            Option("done", "Done: to Finish"))
    return Choice(title="Manoeuvre",
                  lines=(cards_line(p), pending_line(p), "Attack: move onto hex"), player=seat, options=opts,
                  default="done")


def answer(g: "SovereignGame", value: Any) -> None:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    sub = g.data["sub"]
    if sub and sub["kind"] == "found":
        g.data["sub"] = None
        if value != BACK:
            _found(g, seat, coastal=value == "coast")
        return
    if value == "battle":
        g.data["battle"] = bs.new_battle(g, seat)
        g.fire("open_battle")
    elif value == "found":
        if has(me(g), "seafaring"):
            g.data["sub"] = {"kind": "found"}
        else:
            _found(g, seat, coastal=False)
    elif value == "capture":
        capture.start_city(g)
    elif value == "fort":
        capture.start_fort(g)
    elif value == "cities":
        g.data["sub"] = {"kind": "cities", "step": "player"}
    elif value == "done":
        g.enter_finish()


def can_found(p: dict[str, Any]) -> bool:
    """A settler founds a city: the player has built one (Pottery brings it) and not used it yet."""
    return int(p.get("settlers", 0)) > 0


def no_settler(p: dict[str, Any]) -> str:
    """Why there is no Settler to found a city with: no Pottery yet, or none built (or all used)."""
    if SETTLER not in rt.units_of(held(p)):
        return "no Settler: Pottery brings it"
    return "no Settler left: build one in Spend"


def _found(g: "SovereignGame", seat: int, coastal: bool) -> None:
    p = me(g)
    before = holdings(p)
    count_units(p, -1, SETTLER)  # the settler is used up
    c = new_city(g, seat, 2 if coastal else 1)
    warn_box(g, seat, before)
    extra = " + a free coastal tile (Seafaring)" if coastal else ""
    g.note(f"{g.player_name(seat)}'s settler founds {c['name']}{extra}")
