"""The turn report: the post the GM puts in the forum thread (markdown or BBCode), and the same pages on the device
(views): each society's state and income, what happened in each phase, and the map as a text grid."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society.data import PHASE_NAMES, WONDER_BY_KEY
from companion.rules.society.orders import describe
from companion.rules.society.text import plural
from companion.rules.society.world import held_wonder_squares, map_rows, new_world, seat_mark
from fsm.prompts import View

from fsm.society.common import TITLE_PX, clip, readings, summary, wrap
from fsm.society.sheet import sheet

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

PHASE_TITLES: dict[str, str] = {
    "start": "Start of turn: revolutions and peace", "revolution": "Start of turn: revolutions and peace",
    "espionage": "1. Espionage", "trade": "2. Trade", "production": "3. Production: what the treasury cannot pay",
    "research": "3a. Research", "military": "3b. Military", "cities": "3c. Cities",
    "wonders": "3d. Wonders and spaceships", "rehab": "3e. Conquered cities", "aid": "4. Foreign aid", "war": "5. War",
    "tax": "6. Tax collection", "end": "End of turn", "victory": "Victory",
}
ORDER = ("start", "revolution", "espionage", "trade", "production", "research", "military", "cities", "wonders",
         "rehab", "aid", "war", "tax", "end", "victory")
TABLE_FROM = 10  #: societies from which the post lists them as one table
COLS = 14  #: map columns per device page (a row number and one character per column fit the width)


def _soc_lines(s: dict[str, Any], inc: dict[str, int] | None, names: dict[int, str]) -> list[str]:
    """One society's state; ``names`` by seat (the wars name the enemies)."""
    if not s["alive"]:
        return ["Eliminated"]
    out = [f"Treasury {s['treasury']} gold"]
    if inc is not None:
        out.append(f"Income: trade {inc['trade']}, tax {inc['tax']}, wonders {inc['wonders']}"
                   + (f", support -{inc['support']}" if inc["support"] else "")
                   + (f", {plural(inc['disbanded'], 'army')} disbanded" if inc["disbanded"] else ""))
    out += [f"Tech {s['tech']} ({s['tech_name']}), {s['government'].title()}",
            f"Cities ({len(s['cities'])}): {', '.join(s['cities']) or 'none'}",
            f"Armies {s['armies']}, spies {s['spies']}, nukes {s['nukes']}, SDI {s['sdi']}",
            f"Wonders: {', '.join(s['wonders']) or 'none'}; spaceship parts {s['spaceship_parts']}"]
    if s["at_war_with"]:
        out.append("At war with: " + ", ".join(names.get(int(x), str(x)) for x in s["at_war_with"]))
    return out


def _by_phase(rep: dict[str, Any]) -> list[tuple[str, list[str]]]:
    groups: dict[str, list[str]] = {}
    for e in rep["events"]:
        groups.setdefault(e["phase"], []).append(e["text"])
    return [(PHASE_TITLES.get(p, p.title()), groups[p]) for p in ORDER if p in groups]


class Markup:
    """Markdown or BBCode pieces of the post."""

    def __init__(self, fmt: str) -> None:
        self.bb = fmt == "bbcode"

    def h(self, text: str) -> str:
        return f"[b][size=150]{text}[/size][/b]" if self.bb else f"## {text}"

    def sub(self, text: str) -> str:
        return f"[b]{text}[/b]" if self.bb else f"### {text}"

    def name(self, text: str) -> str:
        return f"[u]{text}[/u]" if self.bb else f"**{text}**"

    def items(self, lines: list[str]) -> list[str]:
        if self.bb:
            return ["[list]", *[f"[*]{x}" for x in lines], "[/list]"]
        return [f"- {x}" for x in lines]

    def code(self, lines: list[str]) -> list[str]:
        return ["[code]", *lines, "[/code]"] if self.bb else ["```", *lines, "```"]

    def table(self, head: list[str], rows: list[list[str]]) -> list[str]:
        """A Markdown table; in BBCode (few forums have tables) aligned columns in a code block."""
        if not self.bb:
            return [f"| {' | '.join(head)} |", "|" + "|".join("---" for _ in head) + "|",
                    *[f"| {' | '.join(r)} |" for r in rows]]
        wid = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
        def fmt(r: list[str]) -> str:
            return "  ".join(str(c).ljust(wid[i]) for i, c in enumerate(r)).rstrip()

        return self.code([fmt(head), fmt(["-" * x for x in wid]), *[fmt(r) for r in rows]])


def render(g: "SocietyGame", fmt: str = "markdown", turn: int | str | None = None) -> str:
    """The latest processed turn as a forum post (or turn ``turn``, or ``"all"`` of them); before the first turn,
    the set-up."""
    m = Markup(fmt)
    w = g.data["world"]
    reports = g.data["reports"]
    out: list[str] = []
    if w is None:
        s = g.data["setup"]
        out += [m.h(f"Society: set-up, {s['w']}x{s['h']} map"), ""]
        out += m.items([f"{p.name}: {s['squares'][p.seat - 1]}" for p in g.players] if s["squares"] else [])
        return "\n".join(out) + "\n"
    history = _history(g)
    if turn == "all":
        return "\n\n".join(_post(g, m, h["report"], h["world"], last=n == max(history))
                            for n, h in sorted(history.items()))
    if turn is not None:
        if int(turn) not in history:
            done = ", ".join(str(n) for n in sorted(history)) or "none yet"
            raise ValueError(f"turn {turn} has no post; processed turns: {done}")
        return _post(g, m, history[int(turn)]["report"], history[int(turn)]["world"], last=int(turn) == max(history))
    if not reports:
        out += [m.h(f"Society: turn {w['turn']} about to start"), ""]
        for k in w["soc"]:
            s2 = summary(w, k)
            out += [m.sub(f"{s2['society']}"), *m.items(_soc_lines(s2, None, seat_names(w))), ""]
        out += [m.sub("Map"), *m.code(map_rows(w)), ""]
        out += _sheet(g, m, w)
        return "\n".join(out) + "\n"
    return _post(g, m, reports[-1], w, last=True)


def _history(g: "SocietyGame") -> dict[int, dict[str, Any]]:
    """Processed turns still standing (an undone turn's entry is dropped): turn -> report and world after it."""
    w = g.data["world"]
    done = int(w["turn"]) - 1 if w is not None else 0
    return {n: h for n, h in getattr(g, "history", {}).items() if n <= done}


def _sheet(g: "SocietyGame", m: Markup, w: dict[str, Any]) -> list[str]:
    out = [m.h(f"Turn {w['turn']}: the sheet for your orders"), ""]
    for title, head, rows in sheet(w, readings(g)):
        out += [m.sub(title), *m.table(head, rows), ""]
    return out


def _post(g: "SocietyGame", m: Markup, rep: dict[str, Any], w: dict[str, Any], last: bool) -> str:
    out = [m.h(f"Society: turn {rep['turn']} results"), ""]
    for title, lines in _by_phase(rep):
        out += [m.sub(title), *m.items(lines), ""]
    names = {int(k): str(v["society"]) for k, v in rep["societies"].items()}
    pairs = list(zip(rep["orders"], rep["results"]))
    refused = [f"{names.get(int(o['seat']), o['seat'])}: {o['text']}: {r}" for o, r in pairs
               if r not in ("ok", "note")]
    if refused:
        out += [m.sub("Orders not carried out"), *m.items(refused), ""]
    notes = [f"{names.get(int(o['seat']), o['seat'])}: "  # (a PM is private: a line that is no order is not quoted)
             + (f"PM line {o.get('line')} not read as an order (the GM has it)" if o.get("unread")
                else o.get("note") or o["text"]) for o, r in pairs if r == "note"]
    if notes:
        out += [m.sub("Lines the GM kept as notes"), *m.items(notes), ""]
    living = {k: v for k, v in rep["societies"].items() if v["alive"]}
    gone = [v["society"] for v in rep["societies"].values() if not v["alive"]]
    out += [m.sub("Societies"), ""]
    if len(living) >= TABLE_FROM:
        head = ["Society", "Gold", "Income", "Tech", "Gov.", "Cities", "Armies", "Spies", "Nukes", "SDI", "Wonders",
                "At war with"]
        rows = [[v["society"], str(v["treasury"]), str(rep["income"].get(k, {}).get("net", "")), str(v["tech"]),
                 v["government"].title()[:4], f"{len(v['cities'])}: {' '.join(v['cities'])}", str(v["armies"]),
                 str(v["spies"]), str(v["nukes"]), str(v["sdi"]), ", ".join(v["wonders"]) or "-",
                 ", ".join(names.get(int(x), str(x)) for x in v["at_war_with"]) or "-"] for k, v in living.items()]
        out += [*m.table(head, rows), ""]
    else:
        for k, s2 in living.items():
            out += [m.name(s2["society"]), *m.items(_soc_lines(s2, rep["income"].get(k), names)), ""]
    if gone:
        out += ["Eliminated: " + ", ".join(gone), ""]
    if last and g.data["winners"]:
        out += [m.sub(str(g.data["win_reason"])), ""]
    out += [m.sub("Map"), *m.code(rep["map"]), "Digits and letters (A=10 .. L=20, no I) are the owners' seats; "
            "+ a wonder city (its owner holds the wonder); * a nuked square.", ""]
    out.append("Seats: " + ", ".join(f"{k} {v['society']}" for k, v in rep["societies"].items()))
    if not rep["winners"]:
        out += ["", *_sheet(g, m, w)]
    return "\n".join(out).rstrip("\n") + "\n"


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
    out += [clip(f"{seat_mark(int(k))} {v['name']}" + ("" if v["alive"] else " (gone)"))
            for k, v in w["soc"].items()]
    held = sorted(held_wonder_squares(w).items())
    if held:  # the wonder cities, each with its wonder and whose it is
        out.append("Wonders:")
        out += [clip(f"{square} {WONDER_BY_KEY[key].short} ({seat_mark(int(w['wonders'][key]['owner']))})")
                for square, key in held]
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
    out = [View("Map", tuple(device_map(w)))]
    reps = g.data["reports"]
    last = reps[-1] if reps else None
    for k in w["soc"]:
        s = summary(w, k)
        inc = last["income"].get(k) if last else None
        lines = [x for ln in [f"Seat {seat_mark(int(k))} on the map", *_soc_lines(s, inc, seat_names(w))]
                 for x in wrap(ln)]
        out.append(View(clip(s["society"], TITLE_PX), tuple(lines)))
    if last is not None:
        lines = []
        for title, evs in _by_phase(last):
            lines += wrap(title.upper())
            lines += [x for e in evs for x in wrap(e)]
        out.append(View(f"Turn {last['turn']} report", tuple(lines)))
    if g.data["orders"]:
        lines = [x for i, o in enumerate(g.data["orders"])
                 for x in wrap(f"{i + 1} {w['soc'][o['seat']]['name']}: {describe(o, w)}")]
        out.append(View("Orders this turn", tuple(lines)))
    return out


__all__ = ["render", "views", "device_map", "PHASE_NAMES"]
