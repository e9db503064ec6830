"""The turn report: the post the GM puts in the forum thread (markdown or BBCode), and the same pages on the device
(views): each society's state and income, what happened in each phase, and the map as a text grid."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society.data import PHASE_NAMES
from companion.rules.society.world import map_rows, new_world, seat_mark
from fsm.prompts import View

from fsm.society.common import PAGE, clip, wrap

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

PHASE_TITLES: dict[str, str] = {
    "revolution": "Revolutions", "espionage": "1. Espionage", "trade": "2. Trade", "research": "3a. Research",
    "military": "3b. Military", "cities": "3c. Cities", "wonders": "3d. Wonders and spaceships",
    "production": "3. Production", "aid": "4. Foreign aid", "war": "5. War", "tax": "6. Tax collection",
    "victory": "Victory",
}
ORDER = ("revolution", "espionage", "trade", "research", "military", "cities", "wonders", "production", "aid",
         "war", "tax", "victory")
COLS = 14  #: map columns per device page (a row number and one character per column fit the width)


def _soc_lines(s: dict[str, Any], inc: dict[str, int] | None, names: dict[int, str]) -> list[str]:
    """One society's state; ``names`` by seat (the wars name the enemies)."""
    out = [f"Treasury {s['treasury']} gold"]
    if inc is not None:
        out.append(f"Income: trade {inc['trade']}, tax {inc['tax']}, wonders {inc['wonders']}, "
                   f"support -{inc['support']}" + (f", {inc['disbanded']} armies disbanded" if inc["disbanded"]
                                                    else ""))
    out += [f"Tech {s['tech']} ({s['tech_name']}), {s['government'].title()}",
            f"Cities ({len(s['cities'])}): {', '.join(s['cities']) or 'none'}",
            f"Armies {s['armies']}, spies {s['spies']}, nukes {s['nukes']}, SDI {s['sdi']}",
            f"Wonders: {', '.join(s['wonders']) or 'none'}; spaceship parts {s['spaceship_parts']}"]
    if s["at_war_with"]:
        out.append("At war with: " + ", ".join(names.get(int(x), str(x)) for x in s["at_war_with"]))
    if not s["alive"]:
        out.insert(0, "Eliminated")
    return out


def _by_phase(rep: dict[str, Any]) -> list[tuple[str, list[str]]]:
    groups: dict[str, list[str]] = {}
    for e in rep["events"]:
        groups.setdefault(e["phase"], []).append(e["text"])
    return [(PHASE_TITLES.get(p, p.title()), groups[p]) for p in ORDER if p in groups]


def render(g: "SocietyGame", fmt: str = "markdown") -> str:
    """The latest processed turn as a forum post; before the first turn, the set-up."""
    bb = fmt == "bbcode"

    def h(text: str) -> str:
        return f"[b][size=150]{text}[/size][/b]" if bb else f"## {text}"

    def sub(text: str) -> str:
        return f"[b]{text}[/b]" if bb else f"### {text}"

    def items(lines: list[str]) -> list[str]:
        if bb:
            return ["[list]", *[f"[*]{x}" for x in lines], "[/list]"]
        return [f"- {x}" for x in lines]

    def code(lines: list[str]) -> list[str]:
        return ["[code]", *lines, "[/code]"] if bb else ["```", *lines, "```"]

    w = g.data["world"]
    reports = g.data["reports"]
    out: list[str] = []
    if w is None:
        s = g.data["setup"]
        out += [h(f"Society: set-up, {s['w']}x{s['h']} map"), ""]
        out += items([f"{p.name}: {s['squares'][p.seat - 1]}" for p in g.players] if s["squares"] else [])
        return "\n".join(out) + "\n"
    if not reports:
        out += [h(f"Society: turn {w['turn']} about to start"), ""]
        from fsm.society.machine import summary

        for k in w["soc"]:
            s2 = summary(w, k)
            out += [sub(f"{s2['society']}"), *items(_soc_lines(s2, None, seat_names(w))), ""]
        out += [sub("Map"), *code(map_rows(w)), ""]
        return "\n".join(out) + "\n"
    rep = reports[-1]
    out += [h(f"Society: turn {rep['turn']} results"), ""]
    for title, lines in _by_phase(rep):
        out += [sub(title), *items(lines), ""]
    names = {int(k): str(v["society"]) for k, v in rep["societies"].items()}
    refused = [f"{names.get(int(o['seat']), o['seat'])}: {o['text']}: {r}"
               for o, r in zip(rep["orders"], rep["results"]) if r != "ok"]
    if refused:
        out += [sub("Orders not carried out"), *items(refused), ""]
    out += [sub("Societies"), ""]
    for k, s2 in rep["societies"].items():
        inc = rep["income"].get(k)
        out += [f"[u]{s2['society']}[/u]" if bb else f"**{s2['society']}**", *items(_soc_lines(s2, inc, names)), ""]
    if g.data["winners"]:
        out += [sub(str(g.data["win_reason"])), ""]
    out += [sub("Map"), *code(rep["map"]), "Digits and letters (A=10 .. L=20, no I) are the owners' seats; "
            "+ a wonder city; * a nuked square.", ""]
    out.append("Seats: " + ", ".join(f"{k} {v['society']}" for k, v in rep["societies"].items()))
    return "\n".join(out) + "\n"


def seat_names(w: dict[str, Any]) -> dict[int, str]:
    return {int(k): str(v["name"]) for k, v in w["soc"].items()}


def device_map(w: dict[str, Any]) -> list[str]:
    """The map in screen-width bands, one character a square (the owner's seat, * nuked, - empty), then the key:
    which society each mark is. The characters are the display font's full-width ones, so the columns line up
    under their letters."""
    rows = map_rows(w)
    width = int(w["w"])
    grid = [r[3:] for r in rows[1:]]
    out: list[str] = []
    for c0 in range(0, width, COLS):
        c1 = min(width, c0 + COLS)
        out.append("     " + "".join(chr(ord("A") + c) for c in range(c0, c1)))
        for i, r in enumerate(grid):
            cells = "".join((r[2 * c] if 2 * c < len(r) else ".") for c in range(c0, c1)).replace(".", "-")
            out.append(f"{i + 1:02d} {cells}")
    out.append("Key: - empty, * nuked")
    out += [clip(f"{seat_mark(int(k))} {v['name']}" + ("" if v["alive"] else " (gone)"), PAGE)
            for k, v in w["soc"].items()]
    return out


def views(g: "SocietyGame") -> list[View]:
    w = g.data["world"]
    if w is None:
        s = g.data["setup"]
        out = [View("Start squares", tuple(clip(f"{p.name}: {s['squares'][p.seat - 1]}") for p in g.players
                                           if s["squares"]))]
        if s["squares"]:  # the proposed starts on the map, as the game will begin
            plan = new_world([p.name for p in g.players], int(s["w"]), int(s["h"]), list(s["squares"]))
            out.append(View("Map", tuple(device_map(plan))))
        return out
    from fsm.society.machine import summary

    out = [View("Map", tuple(device_map(w)))]
    reps = g.data["reports"]
    last = reps[-1] if reps else None
    for k in w["soc"]:
        s = summary(w, k)
        inc = last["income"].get(k) if last else None
        lines = [x for ln in [f"Seat {seat_mark(int(k))} on the map", *_soc_lines(s, inc, seat_names(w))]
                 for x in wrap(ln)]
        out.append(View(clip(s["society"], 20), tuple(lines)))
    if last is not None:
        lines = []
        for title, evs in _by_phase(last):
            lines += wrap(title.upper(), 16)
            lines += [x for e in evs for x in wrap(e)]
        out.append(View(f"Turn {last['turn']} report", tuple(lines)))
    if g.data["orders"]:
        from companion.rules.society.orders import describe

        lines = [x for i, o in enumerate(g.data["orders"])
                 for x in wrap(f"{i + 1} {w['soc'][o['seat']]['name']}: {describe(o, w)}")]
        out.append(View("Orders this turn", tuple(lines)))
    return out


__all__ = ["render", "views", "device_map", "PHASE_NAMES"]
