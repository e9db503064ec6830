"""A game's story as charts: what its machine recorded in ``data["story"]`` as play went on (points by round, the
city's resources, treasuries by turn, a TOML game's counters), each battle's odds and result, the luck they add up
to, and the time each chess move took.

A chart is the contract's shape (design-32): ``{"id", "title", "kind", "x_label", "y_label", "x", "series":
[{"name", "seat"?, "values"}]}``, values numbers or null, ``kind`` one of line, bar, scatter, band, step. A series
with a ``seat`` is a player's: its name is the player's as shown (renames are applied when the story is read).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.stats import luck as L

#: (game, series) → (title, y label, kind); the x label comes from what the series is recorded by
TITLES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("sovereign", "points"): ("Points by round", "Points added", "line"),
    ("sovereign", "cards"): ("Victory cards by round", "Victory cards", "step"),
    ("soverana", "resources"): ("The city's resources by round", "Resources", "line"),
    ("soverana", "locations"): ("Active locations by round", "Locations", "line"),
    ("soverana", "votes_cards"): ("Votes cards by round", "Votes cards", "step"),
    ("soverana", "confidence"): ("Votes of confidence", "Ballots", "bar"),
    ("sovereigns-chain", "scores"): ("Scores by game", "Score", "bar"),
    ("sovereigns-chain", "chain"): ("Chains by round", "Cards in the chain", "step"),
    ("society", "treasury"): ("Treasuries by turn", "Gold", "line"),
    ("society", "cities"): ("Cities by turn", "Cities", "step"),
    ("society", "armies"): ("Armies by turn", "Armies", "line"),
}
BY = {"round": "Round", "turn": "Turn", "game": "Game of the match", "battle": "Battle", "move": "Move"}
#: the order of a game's charts (others after, as recorded)
ORDER = ("points", "cards", "battles", "luck", "resources", "locations", "votes_cards", "confidence", "scores",
         "chain", "treasury", "cities", "armies", "moves")


def series_charts(game: str, story: Mapping[str, Any], names: Sequence[str],
                  counter_names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every recorded series as a chart; keys that are seats become the players' series."""
    out = []
    for sid, entry in story.items():
        if sid == "battles" or not isinstance(entry, dict) or "at" not in entry:
            continue
        at = entry["at"]
        xs = sorted(int(x) for x in at)
        keys: list[str] = []
        for x in xs:
            keys += [k for k in at[str(x)] if k not in keys]
        seats = all(k.isdigit() for k in keys)
        if seats:
            keys.sort(key=int)
        title, y_label, kind = TITLES.get((game, sid)) or (
            f"{(counter_names or {}).get(sid, sid.replace('_', ' ').capitalize())} by {entry.get('by', 'round')}",
            (counter_names or {}).get(sid, sid), "line")
        series = []
        for k in keys:
            values = [at[str(x)].get(k) for x in xs]
            if seats and 1 <= int(k) <= len(names):
                series.append({"name": names[int(k) - 1], "seat": int(k), "values": values})
            elif not seats:
                series.append({"name": k.replace("_", " ").capitalize() if k.islower() else k, "values": values})
        out.append({"id": sid, "title": title, "kind": kind, "x_label": BY.get(entry.get("by", "round"), "Round"),
                    "y_label": y_label, "x": xs, "series": series})
    return out


def battle_charts(battles: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each battle's odds and result (a scatter: won above, lost below the line it would take), and every
    player's luck battle by battle with the band chance alone explains."""
    if not battles:
        return []
    xs = list(range(1, len(battles) + 1))
    won = [b["p_attacker_wins"] if b["attacker_won"] else None for b in battles]
    lost = [None if b["attacker_won"] else b["p_attacker_wins"] for b in battles]
    odds = {"id": "battles", "title": "Battles: the attacker's chance and the result", "kind": "scatter",
            "x_label": "Battle", "y_label": "Attacker's chance", "x": xs,
            "series": [{"name": "Attacker won", "values": won}, {"name": "Attacker lost", "values": lost}]}
    seats = sorted({s for b in battles for s in (b["attacker"], b["defender"])})
    series = []
    for seat in seats:
        acc, values = 0.0, []
        for b in battles:
            att, dfn = L.sides(b["p_attacker_wins"], b["attacker_won"])
            if seat == b["attacker"]:
                acc += (1.0 if att[1] else 0.0) - att[0]
            elif seat == b["defender"]:
                acc += (1.0 if dfn[1] else 0.0) - dfn[0]
            values.append(round(acc, 4))
        series.append({"name": names[seat - 1] if 0 < seat <= len(names) else f"Seat {seat}", "seat": seat,
                       "values": values})
    bands = L.bands([b["p_attacker_wins"] for b in battles])
    luck = {"id": "luck", "title": "Luck: won minus the chance, battle by battle", "kind": "band",
            "x_label": "Battle", "y_label": "Luck (battles)", "x": xs, "series": series,
            "band": {"lo": [lo for lo, _ in bands], "hi": [hi for _, hi in bands],
                     "label": "what chance alone explains (95%) for a player in every battle"}}
    return [odds, luck]


def move_chart(times: Sequence[tuple[int, int, float]], names: Sequence[str]) -> list[dict[str, Any]]:
    """Time per move: (move number, seat, seconds) → one bar series per player."""
    if not times:
        return []
    xs = [m for m, _s, _t in times]
    seats = sorted({s for _m, s, _t in times})
    series = [{"name": names[s - 1] if 0 < s <= len(names) else f"Seat {s}", "seat": s,
               "values": [round(t, 1) if seat == s else None for _m, seat, t in times]} for s in seats]
    return [{"id": "moves", "title": "Time per move", "kind": "bar", "x_label": "Move", "y_label": "Seconds",
             "x": xs, "series": series}]


def ordered(charts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rank = {cid: i for i, cid in enumerate(ORDER)}
    return sorted(charts, key=lambda c: rank.get(c["id"], len(ORDER)))


def renamed(charts: list[dict[str, Any]], shown: Sequence[str]) -> list[dict[str, Any]]:
    """The charts with each player's series named as the player is shown now."""
    out = []
    for c in charts:
        series = [{**s, "name": shown[s["seat"] - 1]} if "seat" in s and 0 < s["seat"] <= len(shown) else s
                  for s in c["series"]]
        out.append({**c, "series": series})
    return out


__all__ = ["battle_charts", "move_chart", "ordered", "renamed", "series_charts"]
