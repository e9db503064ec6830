"""A table's history written from design-32's contract (the document of ``GET /api/history`` and each game's story of
``GET /api/story/<id>``): 216 games in a tenth of a second for the history pages' tests, beside the slower games
played through the companion and read by the statistics' own provider (tests/test_history_browser.py).

:func:`evenings` builds ``n`` saved games across every game (Sovereign, SOVERANA, Sovereign's Chain, both chess
games, Society and a TOML game), deterministic for a seed; :class:`FixtureSource` answers the web view's provider
calls from them, filters and standings included, and keeps renames and merges in memory.
"""
from __future__ import annotations

import json
import math
import random
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from companion.stats import history as H

PEOPLE = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "<b>Hana</b>", "Bartholomew-Alexander"]
GAMES = [  # id, title, players (lo, hi), cooperative, has a score
    ("sovereign", "Sovereign", (2, 5), False, True),
    ("soverana", "SOVERANA", (6, 6), True, False),
    ("sovereigns-chain", "Sovereign's Chain", (2, 4), False, True),
    ("sovereign-chess", "Sovereign Chess", (2, 2), False, False),
    ("sovereign-chess-royale", "Sovereign Chess Royale", (4, 4), False, False),
    ("society", "Society", (3, 6), False, False),
    ("race-to-ten", "Race to Ten", (2, 4), False, True),
]
START = datetime(2026, 1, 2, 19, 0, tzinfo=timezone.utc)
Z95 = 1.959964


def evenings(n: int = 216, seed: int = 32) -> dict[str, Any]:
    """``games`` (the whole list, newest last), ``battles`` and ``stories`` (by game id) for ``n`` saved games."""
    rng = random.Random(seed)
    games: list[dict[str, Any]] = []
    battles: list[dict[str, Any]] = []
    stories: dict[int, dict[str, Any]] = {}
    for i in range(n):
        gid, title, (lo, hi), coop, scored = GAMES[i % len(GAMES)]
        names = rng.sample(PEOPLE, rng.randint(lo, hi))
        if i % 13 == 0 and "Ana" in names:  # the same person typed another way: merged by the names store
            names[names.index("Ana")] = "Anna"
        status = "active" if i == n - 1 else "abandoned" if i % 23 == 5 else "ended"
        started = START + timedelta(days=i * 1.7, minutes=rng.randint(0, 90))
        duration = rng.randint(25, 200) * 60 + rng.randint(0, 59)
        rounds = rng.randint(3, 14)
        game: dict[str, Any] = {"id": i + 1, "game": gid, "title": title, "status": status, "hidden": i % 41 == 7,
                                "started": started.isoformat(), "cooperative": coop}
        if status == "active":  # its players and start only: no live counts
            game.update(ended=None, result=None, players=[{"name": x, "seat": s + 1, "place": None, "winner": False}
                                                          for s, x in enumerate(names)])
            games.append(game)
            continue
        scores = {x: rng.randint(5, 40) for x in names}
        order = sorted(names, key=lambda x: -scores[x])
        if coop:  # the city stands (everyone wins) or falls (nobody does)
            won = rng.random() < 0.55
            winners = set(names) if won else set()
            places = {x: 1 if won else None for x in names}
        else:
            winners = {order[0]}
            places = {x: 1 + sum(scores[y] > scores[x] for y in names) for x in names}
        if status == "abandoned":
            winners, places = set(), {x: None for x in names}
        players = []
        for s, x in enumerate(names):
            row: dict[str, Any] = {"name": x, "seat": s + 1, "place": places[x], "winner": x in winners}
            if scored:
                row["score"] = scores[x]
            players.append(row)
        result = ("The city stands: everyone wins" if winners else "The city fell") if coop else \
            f"{order[0]} wins" + (f" with {scores[order[0]]} points" if scored else "")
        if status == "abandoned":
            result = "Stopped from the menu"
        game.update(ended=(started + timedelta(seconds=duration)).isoformat(), duration_s=duration, rounds=rounds,
                    players=players, result=result)
        games.append(game)
        mine = _battles(rng, game, names) if gid == "sovereign" else []
        battles += mine
        stories[game["id"]] = _story(rng, game, names, rounds, mine)
    return {"games": games, "battles": battles, "stories": stories}


def _battles(rng: random.Random, game: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    out = []
    for _ in range(rng.randint(2, 12)):
        a, d = rng.sample(names, 2)
        p = round(rng.uniform(0.08, 0.93), 4)
        out.append({"game_id": game["id"], "round": rng.randint(1, game["rounds"]), "attacker": a, "defender": d,
                    "p_attacker_wins": p, "attacker_won": rng.random() < p,
                    "odds_args": ["--attack", "2*Horseman", "--defend", "Catapult", "--explode", "once"]})
    out.sort(key=lambda b: b["round"])
    return out


def _walk(rng: random.Random, rounds: int, start: int = 0, step: tuple[int, int] = (0, 5)) -> list[int]:
    v, out = start, []
    for _ in range(rounds):
        v += rng.randint(*step)
        out.append(v)
    return out


def _series(rng: random.Random, names: list[str], rounds: int, final: dict[str, int] | None = None,
            **kw: Any) -> list[dict[str, Any]]:
    """A series per player; with ``final``, each ends at the player's final score."""
    out = []
    for s, x in enumerate(names):
        values = _walk(rng, rounds, **kw)
        if final is not None and x in final and values[-1]:
            values = [round(v * final[x] / values[-1]) for v in values]
        out.append({"name": x, "seat": s + 1, "values": values})
    return out


def _story(rng: random.Random, game: dict[str, Any], names: list[str], rounds: int,
           battles: list[dict[str, Any]]) -> dict[str, Any]:
    x = list(range(1, rounds + 1))
    gid = game["game"]
    final = {p["name"]: p["score"] for p in game["players"] if "score" in p}
    charts: list[dict[str, Any]] = []
    if gid == "sovereign":
        charts.append({"id": "points", "title": "Points by round", "kind": "line", "x_label": "Round",
                       "y_label": "Points", "x": x, "series": _series(rng, names, rounds, final, step=(1, 5))})
        charts.append({"id": "victory-cards", "title": "Victory cards", "kind": "step", "x_label": "Round",
                       "y_label": "Cards", "x": x, "series": _series(rng, names, rounds, step=(0, 1))})
        n = list(range(1, len(battles) + 1))
        charts.append({"id": "battles", "title": "Battles: odds and results", "kind": "scatter",
                       "x_label": "Battle", "y_label": "Attacker's chance", "x": n, "series": [
                           {"name": "Won", "values": [b["p_attacker_wins"] if b["attacker_won"] else None
                                                      for b in battles]},
                           {"name": "Lost", "values": [None if b["attacker_won"] else b["p_attacker_wins"]
                                                       for b in battles]}]})
        luck, var, lo, hi = 0.0, 0.0, [], []
        values = []
        for b in battles:
            p = b["p_attacker_wins"]
            luck += (1.0 if b["attacker_won"] else 0.0) - p
            var += p * (1 - p)
            values.append(round(luck, 4))
            lo.append(round(-Z95 * math.sqrt(var), 4))
            hi.append(round(Z95 * math.sqrt(var), 4))
        charts.append({"id": "luck", "title": "Attackers' luck", "kind": "band", "x_label": "Battle",
                       "y_label": "Won − chance", "x": n, "series": [{"name": "Attackers", "values": values}],
                       "band": {"lo": lo, "hi": hi, "label": "what chance alone explains (95%)"}})
    elif gid == "soverana":
        depts = ["Health", "Safety", "Education", "Economy"]
        charts.append({"id": "resources", "title": "The city's resources", "kind": "line", "x_label": "Round",
                       "y_label": "Resources", "x": x, "series": [
                           {"name": d, "values": _walk(rng, rounds, start=8, step=(-3, 3))} for d in depts]})
        charts.append({"id": "locations", "title": "Active locations", "kind": "step", "x_label": "Round",
                       "y_label": "Locations", "x": x, "series": [
                           {"name": "Active", "values": _walk(rng, rounds, start=20, step=(-2, 1))}]})
        charts.append({"id": "confidence", "title": "Votes of confidence", "kind": "bar", "x_label": "Round",
                       "y_label": "Votes", "x": x, "series": [
                           {"name": "Yes", "values": [rng.randint(0, 6) for _ in x]},
                           {"name": "No", "values": [rng.randint(0, 6) for _ in x]}]})
    elif gid in ("sovereign-chess", "sovereign-chess-royale"):
        moves = list(range(1, rng.randint(20, 60)))
        charts.append({"id": "time", "title": "Time per move", "kind": "bar" if len(names) == 2 else "line",
                       "x_label": "Move", "y_label": "Seconds", "x": moves, "series": [
                           {"name": nm, "seat": s + 1, "values": [rng.randint(2, 90) if (m - 1) % len(names) == s
                                                                  else None for m in moves]}
                           for s, nm in enumerate(names)]})
    elif gid == "society":
        charts.append({"id": "treasury", "title": "Treasuries", "kind": "line", "x_label": "Turn",
                       "y_label": "Gold", "x": x, "series": _series(rng, names, rounds, start=20, step=(-8, 15))})
        charts.append({"id": "cities", "title": "Cities", "kind": "step", "x_label": "Turn", "y_label": "Cities",
                       "x": x, "series": _series(rng, names, rounds, start=1, step=(0, 1))})
        charts.append({"id": "armies", "title": "Armies", "kind": "line", "x_label": "Turn", "y_label": "Armies",
                       "x": x, "series": _series(rng, names, rounds, start=2, step=(-1, 2))})
    else:
        title = "Scores by round" if gid == "sovereigns-chain" else "Points (counter)"
        charts.append({"id": "scores", "title": title, "kind": "line", "x_label": "Round", "y_label": "Score",
                       "x": x, "series": _series(rng, names, rounds, final, step=(1, 4))})
    decider = {"sovereign": "took the last capital in round {r}", "sovereigns-chain": "closed the chain in round {r}",
               "society": "held the most cities after turn {r}"}.get(gid, "in round {r}")
    first = next((p["name"] for p in game["players"] if p["winner"]), names[0])
    return {"id": game["id"], "game": gid, "title": game["title"], "result": game["result"],
            "decider": f"{first} {decider.format(r=rounds)}", "started": game["started"],
            "duration_s": game.get("duration_s"), "rounds": rounds, "status": game["status"], "charts": charts,
            "table": [{k: p[k] for k in ("name", "seat", "place", "score", "winner") if k in p}
                      for p in game["players"]]}


# ------------------------------------------------------------------ the document, filtered
def exact_band(ps: list[float], exact_up_to: int = 60) -> list[tuple[float, float]]:
    """The 95% band of Σ(won − chance) after each battle: Poisson-binomial quantiles, then ±1.96σ."""
    dist, mean, var, out = [1.0], 0.0, 0.0, []
    for i, p in enumerate(ps):
        mean += p
        var += p * (1 - p)
        if i >= exact_up_to:
            out.append((-Z95 * math.sqrt(var), Z95 * math.sqrt(var)))
            continue
        dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                for k in range(len(dist) + 1)]
        acc, lo, hi = 0.0, None, None
        for k, q in enumerate(dist):
            acc += q
            lo = k if lo is None and acc >= 0.025 - 1e-12 else lo
            hi = k if hi is None and acc >= 0.975 - 1e-12 else hi
        out.append((lo - mean, hi - mean))  # type: ignore[operator]
    return out


def document(base: dict[str, Any], query: Mapping[str, str], aliases: Mapping[str, str]) -> dict[str, Any]:
    """The history document for ``query`` (``game``, ``player``), names merged as ``aliases`` says, its figures
    counted by the statistics' own functions (companion/stats/history.py) as the provider writes them."""
    canon = lambda n: aliases.get(n.casefold(), n)  # noqa: E731
    games = []
    for g in reversed(base["games"]):
        g = {**g, "players": [{**p, "name": canon(p["name"])} for p in g["players"]]}
        if query.get("game") and g["game"] != query["game"]:
            continue
        if query.get("player") and all(p["name"] != canon(query["player"]) for p in g["players"]):
            continue
        games.append(g)
    order = {g["id"]: i for i, g in enumerate(games)}  # newest first, each game's battles in order: as the provider
    battles = sorted(({**b, "attacker": canon(b["attacker"]), "defender": canon(b["defender"])}
                      for b in base["battles"] if b["game_id"] in order), key=lambda b: order[b["game_id"]])
    table = H.players(games, battles)  # the statistics' own counting, over these games
    standings = H.standings(games, table)
    return {"games": games, "players": table, "battles": battles, "standings": standings,
            "luck": H.luck_series(battles), "dice": _dice(sum(g["status"] == "ended" for g in games)),
            "names": dict(aliases), "h_index": H.h_index(s["plays"] for s in standings.values()), "pending": 0}


def _dice(n_games: int) -> dict[str, Any]:
    out = {}
    rng = random.Random(n_games)
    for die, k, z in (("d6", 6, 2.638), ("d12", 12, 2.865)):
        n = 40 * n_games // k * k
        counts = [0] * k
        for _ in range(n):
            counts[rng.randrange(k)] += 1
        if die == "d6" and n:
            counts[5] += n // 25  # a die that likes its six a little
        total = sum(counts)
        sd = math.sqrt(total * (1 / k) * (1 - 1 / k))
        flagged = die == "d6"
        out[die] = {"counts": counts, "n": total, "expected": round(total / k, 3),
                    "band": [round(total / k - z * sd, 3), round(total / k + z * sd, 3)], "flagged": flagged,
                    "verdict": f"{die}: the rolls so far look loaded (Bayes factor 1250 ≥ 20)" if flagged else
                    f"{die}: {total} rolls, nothing a fair die would not do", "rollers": ["roller"]}
    return out


class FixtureSource:
    """The callables the loop would put on the hub (``history``, ``story``, ``names``: JSON text in and out),
    answered from :func:`evenings` as the statistics' provider answers."""

    def __init__(self, n: int = 216, seed: int = 32) -> None:
        self.base = evenings(n, seed)
        self.aliases: dict[str, str] = {"anna": "Ana"}  #: a folded name → the name it is shown by
        self.calls: list[tuple[str, Any]] = []

    def history(self, query: Mapping[str, Any]) -> str:
        self.calls.append(("history", dict(query)))
        return json.dumps(document(self.base, query, self.aliases), separators=(",", ":"))

    def story(self, game_id: int) -> str:
        self.calls.append(("story", game_id))
        s = self.base["stories"].get(game_id)
        if s is None:
            return json.dumps({"error": f"no saved game {game_id}"})
        canon = {p["name"]: self.aliases.get(p["name"].casefold(), p["name"]) for p in s["table"]}
        return json.dumps({**s, "table": [{**p, "name": canon[p["name"]]} for p in s["table"]]})

    def names(self, body: Mapping[str, Any]) -> str:
        """``{"rename": {"from", "to"}}`` or ``{"merge": {"from", "into"}}`` → ``{"ok", "names"}`` or an error."""
        self.calls.append(("names", dict(body)))
        shown = {self.aliases.get(p["name"].casefold(), p["name"]) for g in self.base["games"] for p in g["players"]}
        kind = "rename" if "rename" in body else "merge"
        old, new = body[kind]["from"], body[kind]["to" if kind == "rename" else "into"]
        if old not in shown:
            return json.dumps({"error": f"nobody called {old} has played here"})
        if kind == "rename" and new in shown:
            return json.dumps({"error": f"{new} is already a player's name; merge {old} into {new} instead"})
        if kind == "merge" and new not in shown:
            return json.dumps({"error": f"nobody called {new} has played here: rename {old} instead"})
        for k, v in list(self.aliases.items()):
            if v == old:
                self.aliases[k] = new
        for p in {p["name"] for g in self.base["games"] for p in g["players"]}:
            if self.aliases.get(p.casefold(), p) == old:
                self.aliases[p.casefold()] = new
        return json.dumps({"ok": True, "names": self.aliases})


__all__ = ["FixtureSource", "evenings", "document", "exact_band", "PEOPLE", "GAMES"]
