"""Adjusting cities to the board: tiles gained or lost, a city added or razed. Captures have their own flow
(Manoeuvre, :mod:`.capture`): a whole city never changes hands here."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign.scoring import MAX_CITY
from fsm.prompts import Choice, Option, Prompt
from fsm.screen_text import plural, squeeze

from fsm.sovereign.common import BACK, pl, short, tiles

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame


def new_city(g: "SovereignGame", seat: int, n_tiles: int = 1) -> dict[str, Any]:
    p = pl(g, seat)
    c = {"name": f"City {p['next_city']}", "tiles": n_tiles, "start": None}
    p["next_city"] += 1
    p["cities"].append(c)
    return c


def prompt(g: "SovereignGame") -> Prompt:
    sub = g.data["sub"]
    step = sub["step"]
    active = g.active_seat()
    if step == "player":
        who = tuple(Option(str(s), squeeze("{}: " + plural(tiles(pl(g, s)), 'tile'), short(g, s))) for s in g.seats)
        return Choice(title="Whose cities?", lines=("Adjust to the board.",), player=active, options=who, back=BACK,
                      default=str(active))
    seat = int(sub["seat"])
    p = pl(g, seat)
    if step == "city":
        found = [Option(str(i), f"{c['name']}: {plural(c['tiles'], 'tile')}") for i, c in enumerate(p["cities"])]
        found.append(Option("new", "New city (1 tile)"))
        return Choice(title="Cities", lines=(f"of {short(g, seat)}",), player=active, options=tuple(found),
                      back=BACK, default=found[0].key)
    c = p["cities"][int(sub["city"])]
    if step == "edit":
        opts = (Option("add", "+1 tile", enabled=c["tiles"] < MAX_CITY, hint=f"a city has at most {MAX_CITY} tiles"),
                Option("remove", "-1 tile", enabled=c["tiles"] > 1, hint="the central tile goes last: Remove city"),
                Option("raze", "Remove city"),
                Option("done", "Done"))
        return Choice(title=c["name"], lines=(f"of {short(g, seat)}: {plural(c['tiles'], 'tile')}",),
                      player=active, options=opts, back=BACK, default="done")
    raise RuntimeError(f"invariant: no cities step {step!r}")


def answer(g: "SovereignGame", value: Any) -> None:
    sub = g.data["sub"]
    step = sub["step"]
    if value == BACK:
        prev = {"player": None, "city": "player", "edit": "city"}[step]
        if prev is None:
            g.data["sub"] = None
        else:
            sub["step"] = prev
        return
    if step == "player":
        sub["seat"], sub["step"] = int(value), "city"
        return
    seat = int(sub["seat"])
    p = pl(g, seat)
    who = g.player_name(seat)
    if step == "city":
        if value == "new":
            c = new_city(g, seat)
            g.note(f"{who} gets new {c['name']} (1 tile)")
            sub["city"] = len(p["cities"]) - 1
        else:
            sub["city"] = int(value)
        sub["step"] = "edit"
        return
    i = int(sub["city"])
    c = p["cities"][i]
    if value == "add":
        c["tiles"] += 1
        g.note(f"{who}'s {c['name']} +1 tile ({c['tiles']})")
    elif value == "remove":
        c["tiles"] -= 1
        g.note(f"{who}'s {c['name']} -1 tile ({c['tiles']})")
    elif value == "raze":
        p["cities"].pop(i)
        g.note(f"{who}'s {c['name']} is removed")
        sub["step"] = "city"
    elif value == "done":
        sub["step"] = "city"
