"""The game menu's pages: a status page per player, the technology chart of the player to move, the battle log."""
from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.sovereign import techs as rt
from fsm.prompts import View
from fsm.screen_text import TITLE_PX, clip, squeeze

from fsm.sovereign.common import cards_line, held, pl, tiles, wrap

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame

LOG_LINES = 30


def status(g: "SovereignGame", seat: int) -> View:
    p = pl(g, seat)
    sizes = ",".join(str(c["tiles"]) for c in p["cities"]) or "-"
    lines = [clip(f"Cities {len(p['cities'])}: {sizes} = {tiles(p)} tiles"),
             f"Points {p['points']} (added {p['added']})",
             cards_line(p)]
    if any(p["pending"].values()):
        c = p["pending"]
        lines.append(f"Pending: {c['military']} Mil {c['expansion']} Exp {c['technology']} Tech")
    if p["forts"]:
        lines.append(clip("Forts " + ",".join(str(v) for v in p["forts"])))
    mine = held(p)
    for tier in rt.TIERS:
        got = [t.name for t in rt.in_tier(tier) if t.key in mine]
        if got:
            lines.append(f"Tier {tier}: {len(got)} of {len(rt.in_tier(tier))}")
            lines.extend(wrap([n + "," for n in got[:-1]] + got[-1:], " "))
    if not mine:
        lines.append("No technologies yet")
    return View(title=squeeze("{} status", g.player_name(seat), TITLE_PX), lines=tuple(lines))


def chart(g: "SovereignGame", seat: int) -> View:
    mine = held(pl(g, seat))
    lines: list[str] = []
    for tier in rt.TIERS:  # in words: "Tier 2, 3 pts: locked" then what opens it, never "T2 3p T1 0/4"
        head = f"Tier {tier}, {rt.TIER_COST[tier]} pts"
        if not rt.tier_open(mine, tier):
            prev = rt.count_in_tier(mine, tier - 1)
            lines += [f"{head}: locked", f"  tier {tier - 1}: {prev} of {rt.GATE} needed"]
            continue
        can = [t.name for t in rt.in_tier(tier) if t.key not in mine]
        lines += [f"{head}: open"] + wrap([n + "," for n in can[:-1]] + can[-1:], " ") if can else [
            f"Tier {tier}: all researched"]
    return View(title=squeeze("Chart: {}", g.player_name(seat), TITLE_PX), lines=tuple(lines))


def battle_log(g: "SovereignGame") -> View:
    lines: list[str] = []
    for entry in g.data["battle_log"][-LOG_LINES:]:
        lines.extend(wrap(entry.split()))
    return View(title="Battle log", lines=tuple(lines) or ("No battles yet",))


def all_views(g: "SovereignGame") -> list[View]:
    out = []
    active = g.active_seat()
    if active is not None:
        out.append(chart(g, active))
    out.extend(status(g, s) for s in g.seats)
    out.append(battle_log(g))
    return out
