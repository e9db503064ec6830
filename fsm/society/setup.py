"""Set-up: the map's size (about 12 squares per society), starting squares proposed equidistant and random (the
GM may move any), then the game starts with 1 city, 6 gold, Despotism and Masonry for everyone."""
from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any

from companion.rules.society import geo
from companion.rules.society.world import new_world
from fsm.prompts import Choice, Number, Option, Prompt, Random

from fsm.society.common import BACK, TITLE_PX, clip, squeeze

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

SEEDS = tuple(str(i) for i in range(1, 33))


def start(g: "SocietyGame") -> None:
    side = geo.side_for(len(g.players), int(g.options["squares_per_society"]))
    g.data["setup"] = {"w": side, "h": side, "seed": None, "squares": [], "step": "menu", "seat": None,
                        "col": None}


def propose(g: "SocietyGame") -> None:
    s = g.data["setup"]
    pts = geo.start_squares(len(g.players), s["w"], s["h"], int(s["seed"]))
    s["squares"] = [geo.name(p) for p in pts]


def prompt(g: "SocietyGame") -> Prompt:
    s = g.data["setup"]
    if s["seed"] is None:
        return Random("Start squares", lines=("Proposing equidistant random start squares",), keys=SEEDS)
    if s["step"] == "width":
        return Number("Map width", lines=("columns A..",), lo=2, hi=geo.MAX_SIDE, default=s["w"])
    if s["step"] == "height":
        return Number("Map height", lines=("rows 1..",), lo=2, hi=geo.MAX_SIDE, default=s["h"])
    if s["step"] == "move":  # the column, then the row: a few presses even on a 26x26 map
        seat = int(s["seat"])
        cur = s["squares"][seat - 1]
        opts = [Option(c, f"Column {c}") for c in string.ascii_uppercase[: s["w"]]]
        return Choice(clip(f"Start: {g.player_name(seat)}", TITLE_PX), lines=(f"now {cur}", "which column?"),
                      options=tuple(opts), back=BACK, default=cur[0])
    if s["step"] == "move_row":
        seat = int(s["seat"])
        cur = s["squares"][seat - 1]
        row = min(int(cur[1:]), s["h"])
        return Number(clip(f"Start: {g.player_name(seat)}", TITLE_PX), lines=(f"now {cur}", f"column {s['col']}, row?"),
                      lo=1, hi=s["h"], default=row)
    opts = [Option("start", "Start game"), Option("width", f"Map width {s['w']}"),
            Option("height", f"Map height {s['h']}")]
    opts += [Option(f"move:{p.seat}", squeeze(f"{{}} at {s['squares'][p.seat - 1]}", p.name)) for p in g.players]
    opts.append(Option("reroll", "Other start squares"))
    return Choice("Society set-up", lines=(f"{len(g.players)} societies, {s['w']}x{s['h']} map",),
                  options=tuple(opts))


def answer(g: "SocietyGame", value: Any) -> None:
    s = g.data["setup"]
    if s["seed"] is None:
        s["seed"] = int(value)
        propose(g)
        return
    step = s["step"]
    if step in ("width", "height"):
        w, h = (value, s["h"]) if step == "width" else (s["w"], value)
        if w * h < len(g.players):
            raise g.refuse(f"{len(g.players)} societies need at least {len(g.players)} squares")
        s["w"], s["h"] = w, h
        s["step"] = "menu"
        propose(g)
        return
    if step == "move":
        if value == BACK:
            s["step"], s["seat"] = "menu", None
        else:
            s["step"], s["col"] = "move_row", value
        return
    if step == "move_row":
        square = f"{s['col']}{value}"
        seat = int(s["seat"])
        for p in g.players:
            if p.seat != seat and s["squares"][p.seat - 1] == square:
                raise g.refuse(f"{square} is {p.name}'s start; pick another square")
        s["squares"][seat - 1] = square
        s["step"], s["seat"], s["col"] = "menu", None, None
        return
    if value == "start":
        names = [p.name for p in g.players]
        g.data["world"] = new_world(names, s["w"], s["h"], list(s["squares"]))
        g.note(f"Map {s['w']}x{s['h']}; starting squares " +
               ", ".join(f"{n} {q}" for n, q in zip(names, s["squares"])))
        g.fire("begin")
    elif value in ("width", "height"):
        s["step"] = value
    elif value == "reroll":
        s["seed"] = None
    elif str(value).startswith("move:"):
        s["step"], s["seat"] = "move", int(str(value)[5:])
