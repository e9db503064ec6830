"""``companion export --bgstats FILE``: a BG Stats play file (``.bgsplay``), the JSON of BG Stats' own backup.

There is no published schema; the fields and their types are those BG Stats' backups hold and the public programs
that write play files for it use (docs/stats-export.md gives each field, what the companion puts there, and the
sources). Every field is written, never left to a default (BG Stats' Android reader refuses a missing one);
tests/test_stats_export.py checks each export against a schema of its own (every field, its type).
"""
from __future__ import annotations

import time
from typing import Any, Sequence

from companion.stats.plays import Play, score_text, uid

DATE = "%Y-%m-%d %H:%M:%S"

def stamp(t: float) -> str:
    """BG Stats' date text, in the box's local time (as BG Stats shows what it is given)."""
    return time.strftime(DATE, time.localtime(t))


def bgsplay(plays: Sequence[Play], box: str, location: str, me: str | None = None,
            now: float | None = None) -> dict[str, Any]:
    """The play file for ``plays``; ``me``: the player BG Stats' owner is (a player's id), else meRefId 0."""
    changed = stamp(max((p.end for p in plays), default=now if now is not None else time.time()))
    game_ids: dict[str, int] = {}
    games = []
    for p in plays:
        if p.game not in game_ids:
            game_ids[p.game] = len(game_ids) + 1
            games.append({"id": game_ids[p.game], "uuid": uid(box, "game", p.game), "name": p.title, "bggId": 0,
                          "bggName": "", "bggYear": 0, "cooperative": p.cooperative, "highestWins": p.high_score_wins,
                          "noPoints": not p.scored, "usesTeams": False, "isBaseGame": 1, "isExpansion": 0,
                          "modificationDate": changed})
    player_ids: dict[str, int] = {}
    players = []
    for p in plays:
        for s in p.seats:
            if s.player not in player_ids:
                player_ids[s.player] = len(player_ids) + 1
                players.append({"id": player_ids[s.player], "uuid": uid(box, "player", s.player), "name": s.name,
                                "isAnonymous": False, "bggUsername": "", "modificationDate": changed})
    out_plays = []
    for p in plays:
        out_plays.append({
            "uuid": uid(box, "play", p.genesis), "gameRefId": game_ids[p.game], "locationRefId": 1,
            "playDate": stamp(p.start), "entryDate": stamp(p.start), "modificationDate": stamp(p.end),
            "durationMin": round(p.duration_s / 60), "rounds": p.rounds, "ignored": not p.finished,
            "manualWinner": True, "usesTeams": False, "rating": 0, "scoringSetting": 0, "bggId": 0, "nemestatsId": 0,
            "importPlayId": 0, "playImages": "[]", "expansionPlays": [], "board": "", "comments": p.comments,
            "playerScores": [{"playerRefId": player_ids[s.player], "score": score_text(s.score), "winner": s.winner,
                              "startPlayer": s.start, "rank": s.rank, "seatOrder": s.seat, "newPlayer": s.new}
                             for s in p.seats]})
    return {"games": games, "players": players,
            "locations": [{"id": 1, "uuid": uid(box, "location", "table"), "name": location,
                           "modificationDate": changed}],
            "plays": out_plays, "userInfo": {"meRefId": player_ids.get(me or "", 0)}, "challenges": []}


__all__ = ["bgsplay", "stamp"]
