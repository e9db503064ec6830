"""The next-turn sheet of the post: what players need to write their orders — each technology level's price with
R (who has it), the next city's cost, the wonders still free with their minimum bids, spy stocks, who can trade with
whom (cost and payout a caravan) and the Colosseum counterattack rights."""
from __future__ import annotations

from typing import Any

from companion.rules.society import formulas as f
from companion.rules.society.data import COLOSSEUM_EXPIRES, WONDERS, tech_base_cost, tech_name
from companion.rules.society.early import training
from companion.rules.society.turn import Turn
from companion.rules.society.world import alive, at_war, can_build_level, holds, in_trade_range

Row = list[str]


def sheet(w: dict[str, Any], r: f.Readings) -> list[tuple[str, list[str], list[Row]]]:
    """Tables of (title, header, rows) for the turn ``w`` is about to start."""
    living = alive(w)
    name = {k: str(w["soc"][k]["name"]) for k in w["soc"]}
    t = Turn(w, [], r)
    p = t.players()
    techs = [int(w["soc"][k]["tech"]) for k in living]
    out: list[tuple[str, list[str], list[Row]]] = []
    rows = []
    for lv in range(min(techs) + 1, max(techs) + 3):
        have = [k for k in living if int(w["soc"][k]["tech"]) >= lv]
        rows.append([str(lv), tech_name(lv), str(tech_base_cost(lv)), f"{len(have)} of {p}",
                     str(f.tech_cost(lv, p, len(have), r)),
                     ", ".join(name[k] for k in have) or "-"])
    out.append(("Research prices (for a society without the level)", ["Level", "Technology", "Base", "R of P",
                                                                       "Price", "Who has it"], rows))
    rows = []
    for k in living:
        s = w["soc"][k]
        partners, war = [], []
        for j in living:
            if j == k or not in_trade_range(w, k, j, r):
                continue
            if at_war(w, k, j):  # (peace offered by both sides lets them trade the same turn)
                war.append(name[j])
                continue
            tk, tj = int(s["tech"]), int(w["soc"][j]["tech"])
            partners.append(f"{name[j]} ({f.trade_cost(tk, tj, holds(w, k, 'silk'))})-->(+"
                            f"{f.trade_payout(tk, tj, s['gov'])})")
        if holds(w, k, "nascar"):
            partners.append(f"itself (+{f.nascar_payout(int(s['tech']), s['gov'], r)})")
        gain = training(t, k)
        rows.append([name[k], str(f.city_cost(len(s["cities"]) + 1)), str(s["tech"]),
                     f"{s['spies']}" + (f" (+{gain})" if gain else ""),
                     f"{min(int(s['tech']), 15)}: " + ("; ".join(partners) or ("no partner at peace" if war else
                                                                                "nobody in range"))
                     + (f" (at war: {', '.join(war)})" if war else "")])
    out.append(("Next turn, each society", ["Society", "Next city", "Army price", "Spies", "Caravans: partners"],
                rows))
    expired = max(int(w["soc"][k]["tech"]) for k in living) >= COLOSSEUM_EXPIRES if living else False
    free = [[str(wd.level), wd.name + (" (obsolete: Industrialization reached)" if wd.key == "colosseum" and expired
                                       else ""), str(wd.level ** 2),
             ", ".join(name[k] for k in living if can_build_level(w, k, wd.level)) or "nobody yet"]
            for wd in WONDERS if wd.key not in w["wonders"]]
    if free:
        out.append(("Wonders still free", ["Level", "Wonder", "Minimum bid", "Can build now"], free))
    col = w["wonders"].get("colosseum")
    rights = [[name[d], name[a]] for d, a in w.get("counters", [])
              if col is not None and not col["obsolete"] and col["owner"] == a and d in living and a in living]
    if rights:
        out.append(("Colosseum counterattack rights", ["Society", "may counterattack"], rights))
    return out
