"""The plays both exports write (:mod:`.bgstats`, :mod:`.bgg`): which saved games, and each seat's result.

* Played to the end: a play. Ended from the menu: a play marked unfinished (BG Stats ``ignored``, BGG
  ``incomplete`` and ``nowinstats``), so it is kept but counts in no statistics. Left before it began, still being
  played, or damaged (its copy is exported): not exported.
* A cooperative game (SOVERANA) is one result for the table, as BG Stats and BGG record co-op plays: every seat won
  when the city was saved, none when it collapsed; the players' places (by votes cards) keep who led.
* The identities are stable (UUIDv5): a play's is made from its game's genesis hash (its number, game, seed and
  set-up: it never changes), a player's from the player's id (:mod:`.names`: a rename keeps it), the location's
  and a game's from their names — all within this box's id, kept in ``box-id`` beside the journal. Exporting again
  gives the same ones, so an import updates instead of adding.
"""
from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from companion.stats.names import Names

log = logging.getLogger(__name__)

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://sovereign-companion.invalid/export")
BOX_FILE = "box-id"


def box_id(journal: Path) -> str:
    """This box's id: a random one kept in ``box-id`` beside the journal (made at the first export). Where it
    cannot be kept (a read-only folder), one made from the journal's path, with a line in the log."""
    path = Path(journal).parent / BOX_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) == 32 and all(c in "0123456789abcdef" for c in text):
            return text
    except (OSError, UnicodeDecodeError):
        pass
    new = uuid.uuid4().hex
    try:
        tmp = path.with_name(BOX_FILE + ".tmp")
        tmp.write_text(new + "\n", encoding="ascii")
        os.replace(tmp, path)
        return new
    except OSError as e:
        log.warning("cannot keep this box's id in %s (%s); the export's ids come from the journal's path", path,
                    e.strerror)
        return uuid.uuid5(NAMESPACE, str(Path(journal).resolve())).hex


def uid(box: str, kind: str, key: str) -> str:
    """An identity BG Stats keeps: UUIDv5 within the box, upper-case as BG Stats writes its own."""
    return str(uuid.uuid5(NAMESPACE, f"{box}/{kind}/{key}")).upper()


def score_text(v: int | float | None) -> str:
    """A score as both formats write it: "31", "2.5", or "" when the game has none."""
    if v is None:
        return ""
    return str(int(v)) if float(v).is_integer() else str(v)


def default_location() -> str:
    return f"Sovereign Companion ({socket.gethostname()})"


@dataclass(frozen=True)
class Seat:
    player: str  #: the player's id (names.id_of)
    name: str  #: as shown
    seat: int
    score: int | float | None
    winner: bool
    start: bool
    rank: int  #: place, 0 when unranked
    new: bool  #: the player's first play of this game


@dataclass(frozen=True)
class Play:
    id: int
    genesis: str
    game: str
    title: str
    cooperative: bool
    scored: bool
    high_score_wins: bool
    start: float
    end: float
    duration_s: int
    rounds: int
    finished: bool
    comments: str
    seats: tuple[Seat, ...]


def plays(summaries: Sequence[dict[str, Any]], names: Names) -> list[Play]:
    """The exported plays, oldest first (see the module's docstring for which and how)."""
    out: list[Play] = []
    seen: set[tuple[str, str]] = set()
    for d in sorted(summaries, key=lambda x: (x["t_start"], x["id"])):
        if d["status"] not in ("ended", "abandoned") or d["hidden"] or d.get("unreadable") or d["t_end"] is None:
            continue
        finished = d["status"] == "ended"
        team = d.get("team_won") if d.get("cooperative") else None
        seats = []
        for p in d["players"]:
            pid = names.id_of(p["name"])
            seats.append(Seat(pid, names.shown(p["name"]), p["seat"], p.get("score") if finished else None,
                              bool(team) if team is not None and finished else bool(p.get("winner")),
                              p["seat"] == d.get("start_seat"), int(p.get("place") or 0) if finished else 0,
                              (d["game"], pid) not in seen))
            seen.add((d["game"], pid))
        note = "; ".join(x for x in (d.get("result"), d.get("decider")) if x)
        out.append(Play(d["id"], d["genesis"], d["game"], d["title"], bool(d.get("cooperative")),
                        bool(d.get("scored")), bool(d.get("high_score_wins", True)), d["t_start"], d["t_end"],
                        int(d["duration_s"] or 0), int(d["rounds"] or 0), finished,
                        f"{note} (companion game {d['id']})".strip(), tuple(seats)))
    return out


__all__ = ["Play", "Seat", "box_id", "default_location", "plays", "score_text", "uid"]
