"""The history document: every saved game, standings per game and per player, luck and dice — what ``companion
stats --json`` prints (``games``, ``players``, ``battles``) and the phone's history page reads (those and
``standings``, ``luck``, ``dice``, ``names``), filtered by game and by player. Names are shown as renamed or merged
(:mod:`.names`); every figure counts a player under that one name.

What counts (the figures a reviewer can recompute from the ``games`` and ``battles`` lists):

* **plays**: games played to their end (status ``ended``) the player sat in; abandoned and active games are listed
  but count for nothing but luck (abandoned ones only);
* **wins**, **win_rate** = wins / plays (a shared win is a win for each winner); **avg_place** over those plays,
  places ranked "1224"; **avg_score** over the plays that have a score;
* **luck**: the sum over every battle the player fought, in ended and abandoned games, of won − chance (the
  attacker's chance is ``p_attacker_wins``, the defender's 1 − that);
* **h_index**: the largest h such that h different games were each played at least h times.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterable

from companion.config.load import Config
from companion.journal.store import GameRecord, Journal
from companion.stats import luck as L
from companion.stats.cache import SummaryCache
from companion.stats.names import Names
from companion.stats.summary import summarize

log = logging.getLogger(__name__)

ROUND = 4  #: decimals of rates and averages


def _key(journal: Journal, game_id: int, status: str, code: str) -> str:
    head = getattr(journal, "head_of", None)
    if callable(head):
        n, digest = head(game_id)
    else:
        row = journal.db.execute("SELECT n, hash FROM inputs WHERE game=? ORDER BY n DESC LIMIT 1",
                                 (game_id,)).fetchone()
        n, digest = (int(row[0]), str(row[1])) if row else (0, journal._genesis(game_id))
    return f"{n}:{digest}:{status}:{code}"


def _code(game: str, cfg: Config, memo: dict[str, str]) -> str:
    """The code version a game's summary depends on (the companion's and the machines' source, a TOML game's
    file): as for the resume snapshots."""
    if game not in memo:
        from types import SimpleNamespace

        from companion.errors import CompanionError
        from companion.games import load
        from companion.session.snapshot import code_version

        try:
            memo[game] = code_version(SimpleNamespace(game_cls=load(game, cfg.games.folder)))  # type: ignore[arg-type]
        except CompanionError:
            memo[game] = "unreadable"
    return memo[game]


def cached(journal: Journal, cfg: Config, cache: SummaryCache, rec: GameRecord, memo: dict[str, str],
           compute: bool = True, charts: bool = False) -> dict[str, Any] | None:
    """One game's summary (with its charts if asked): from the cache while its key holds, else computed (unless
    ``compute`` is false) and kept; None for a damaged original or a game that cannot be summarised (logged)."""
    if rec.status == "damaged":
        return None
    key = _key(journal, rec.id, rec.status, _code(rec.game, cfg, memo))
    doc = cache.get(rec.id, key, charts, stale=not compute)
    if doc is not None or not compute:
        return doc
    try:
        doc = summarize(journal, rec, cfg)
    except Exception:  # one game that cannot be read must not hide the others
        log.exception("game %d could not be summarised for the history", rec.id)
        return None
    if doc is not None and doc["status"] != "active":
        cache.put(rec.id, key, doc)
    return doc


def collect(journal: Journal, cfg: Config, cache: SummaryCache, compute: bool = True) \
        -> tuple[list[dict[str, Any]], int]:
    """Every saved game's summary, newest first, from the cache where it still holds. Without ``compute`` only an
    active game (its players and start: the first few inputs) is read now; the others not cached are counted (the
    second value) for another process to summarise (:mod:`.warm`) — left out, or shown as the companion summarised
    them before an upgrade until then."""
    memo: dict[str, str] = {}
    out, pending = [], 0
    for rec in journal.games():
        doc = cached(journal, cfg, cache, rec, memo, compute=compute or rec.status == "active")
        if doc is None or doc.pop("stale", False):
            pending += rec.status != "damaged" and not compute
        if doc is not None:
            out.append(doc)
    out.sort(key=lambda d: (d["t_start"], d["id"]), reverse=True)
    return out, pending


# ---------------------------------------------------------------------------------------------- the document
def shown(summaries: Iterable[dict[str, Any]], names: Names) -> list[dict[str, Any]]:
    """The summaries with every player named as shown now."""
    out = []
    for d in summaries:
        players = [{**p, "name": names.shown(p["name"])} for p in d["players"]]
        out.append({**d, "players": players})
    return out


def game_entry(d: dict[str, Any]) -> dict[str, Any]:
    """A game as the document lists it (an active game: its players and start only)."""
    active = d["status"] == "active"
    players = [{"name": p["name"], "seat": p["seat"]} if active else
               {k: p[k] for k in ("name", "seat", "place", "winner", "score") if k in p} for p in d["players"]]
    entry = {"id": d["id"], "game": d["game"], "title": d["title"], "status": d["status"], "hidden": d["hidden"],
             "started": d["started"], "ended": None if active else d["ended"],
             "duration_s": None if active else d["duration_s"], "rounds": None if active else d["rounds"],
             "players": players, "result": None if active else d["result"],
             "decider": None if active else d.get("decider"), "cooperative": bool(d.get("cooperative"))}
    if d.get("team_won") is not None and not active:
        entry["team_won"] = d["team_won"]
    return entry


def battles(summaries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for d in summaries:
        if d["status"] == "active":
            continue
        names = {p["seat"]: p["name"] for p in d["players"]}
        for b in d["battles"]:
            out.append({"game_id": d["id"], "round": b["round"], "attacker": names.get(b["attacker"]),
                        "defender": names.get(b["defender"]), "p_attacker_wins": b["p_attacker_wins"],
                        "p_attacker_wins_exact": b["p_exact"], "attacker_won": b["attacker_won"], "how": b["how"],
                        "odds_args": b["odds_args"]})
    return out


def h_index(counts: Iterable[int]) -> int:
    ordered = sorted(counts, reverse=True)
    return max((i + 1 for i, n in enumerate(ordered) if n >= i + 1), default=0)


def _rates(rows: list[dict[str, Any]], luck_sum: float, fought: int) -> dict[str, Any]:
    plays = len(rows)
    wins = sum(1 for p in rows if p["winner"])
    placed = [p["place"] for p in rows if p.get("place") is not None]
    scored = [p["score"] for p in rows if isinstance(p.get("score"), (int, float))]
    return {"plays": plays, "wins": wins, "win_rate": round(wins / plays, ROUND) if plays else None,
            "luck": round(luck_sum, ROUND), "battles": fought,
            "avg_place": round(sum(placed) / len(placed), ROUND) if placed else None,
            "avg_score": round(sum(scored) / len(scored), ROUND) if scored else None}


def players(summaries: list[dict[str, Any]], fights: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per player (as shown): plays, wins, win rate, luck, average place and score, H-index; per game too."""
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for d in summaries:
        for p in d["players"]:
            per = rows.setdefault(p["name"], {})
            if d["status"] == "ended":
                per.setdefault(d["game"], []).append(p)
            else:
                per.setdefault(d["game"], [])
    lucky: dict[str, dict[str, list[tuple[float, bool]]]] = {}
    game_of = {d["id"]: d["game"] for d in summaries}
    for b in fights:
        att, dfn = L.sides(b["p_attacker_wins"], b["attacker_won"])
        for who, side in ((b["attacker"], att), (b["defender"], dfn)):
            lucky.setdefault(who, {}).setdefault(game_of[b["game_id"]], []).append(side)
    out = {}
    for name in sorted(rows, key=str.casefold):
        per = rows[name]
        every = [p for ps in per.values() for p in ps]
        fought = [x for xs in lucky.get(name, {}).values() for x in xs]
        doc = _rates(every, L.luck(fought), len(fought))
        doc["h_index"] = h_index(len(ps) for ps in per.values())
        doc["games"] = {g: _rates(ps, L.luck(lucky.get(name, {}).get(g, [])), len(lucky.get(name, {}).get(g, [])))
                        for g, ps in sorted(per.items())}
        out[name] = doc
    return out


def standings(summaries: list[dict[str, Any]], table: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per game: plays, the longest and shortest game, and a row per player (best win rate first)."""
    out: dict[str, Any] = {}
    for d in summaries:
        if d["status"] != "ended":
            continue
        s = out.setdefault(d["game"], {"title": d["title"], "plays": 0, "longest_s": None, "longest_id": None,
                                       "shortest_s": None, "shortest_id": None, "players": []})
        s["plays"] += 1
        if s["longest_s"] is None or d["duration_s"] > s["longest_s"]:
            s["longest_s"], s["longest_id"] = d["duration_s"], d["id"]
        if s["shortest_s"] is None or d["duration_s"] < s["shortest_s"]:
            s["shortest_s"], s["shortest_id"] = d["duration_s"], d["id"]
    for gid, s in out.items():
        rows = [{"name": n, **t["games"][gid]} for n, t in table.items() if t["games"].get(gid, {}).get("plays")]
        s["players"] = sorted(rows, key=lambda r: (-(r["win_rate"] or 0), -r["wins"], r["name"].casefold()))
    return out


def luck_series(fights: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per player, luck battle by battle over every game, with the band chance alone explains: from the first
    battle fought to the last (``fights`` lists the games newest first, each game's battles in order)."""
    first: dict[Any, int] = {}
    for i, b in enumerate(fights):
        first.setdefault(b["game_id"], i)
    per: dict[str, list[tuple[float, bool]]] = {}
    for b in sorted(fights, key=lambda b: -first[b["game_id"]]):  # the oldest game first; stable within a game
        att, dfn = L.sides(b["p_attacker_wins"], b["attacker_won"])
        per.setdefault(b["attacker"], []).append(att)
        per.setdefault(b["defender"], []).append(dfn)
    out = {}
    for name in sorted(per, key=str.casefold):
        results = per[name]
        bands = L.bands([p for p, _ in results])
        out[name] = {"x": list(range(1, len(results) + 1)), "values": [round(v, 3) for v in L.running(results)],
                     "lo": [round(lo, 3) for lo, _ in bands], "hi": [round(hi, 3) for _, hi in bands]}
    return out


def document(summaries: list[dict[str, Any]], names: Names, *, game: str | None = None, player: str | None = None,
             full: bool = False, dice: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """The history: ``games``, ``players``, ``battles`` (and with ``full`` the web's ``standings``, ``luck``,
    ``dice``, ``names``), over the games of ``game`` (an id) that ``player`` sat in."""
    ds = shown(summaries, names)
    if game:
        ds = [d for d in ds if d["game"] == game]
    if player:
        who = names.id_of(player)
        ds = [d for d in ds if any(names.id_of(p["name"]) == who for p in d["players"])]
    fights = battles(ds)
    table = players(ds, fights)
    doc: dict[str, Any] = {"games": [game_entry(d) for d in ds], "players": table, "battles": fights}
    if full:  # the phone's: each battle's odds and result for the plots (the arguments and fractions: the CLI's)
        doc["battles"] = [{k: round(v, ROUND) if k == "p_attacker_wins" else v for k, v in b.items()
                           if k not in ("odds_args", "p_attacker_wins_exact")} for b in fights]
        doc["standings"] = standings(ds, table)
        doc["luck"] = luck_series(fights)
        doc["dice"] = dice() if dice is not None else {}
        doc["names"] = names.mapping()
        doc["h_index"] = h_index(sum(1 for d in ds if d["status"] == "ended" and d["game"] == g)
                                 for g in {d["game"] for d in ds})
    return doc


__all__ = ["battles", "cached", "collect", "document", "game_entry", "h_index", "players", "standings"]
