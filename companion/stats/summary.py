"""One saved game → its summary: who played, the result and places, the time it took, its battles and its story.

The game is replayed from the journal (from its latest resume snapshot when it has one; input by input when its
moves are timed) and read from the machine's state at the end: ``results()``, ``outcome()``, ``data["story"]``.
Summaries are cached (:mod:`.cache`): an ended game is replayed once.

Statuses: ``ended`` (played to its end), ``abandoned`` (ended from the menu, or left before it began: ``hidden``),
``active`` (still being played). An active game shows its players and start only: no round, no time, no figure
that moves while it is played (a phone watching must not learn when a ballot is cast).

Durations: the time from the game's creation to its last input, each gap between inputs counted up to
:data:`GAP_CAP_S` (a box left on overnight does not make a game ten hours long).
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from companion.config.load import Config
from companion.errors import CompanionError
from companion.events import ClockEvent
from companion.journal.store import GameRecord, Journal
from companion.stats import story

log = logging.getLogger(__name__)

GAP_CAP_S = 1800.0  #: a gap between two inputs longer than this counts as this much play
STATUS = {"finished": "ended", "ended": "abandoned", "hidden": "abandoned", "active": "active"}


def iso(t: float) -> str:
    """The box's local time with its offset: ``2026-11-27T19:02:11+01:00``."""
    return datetime.fromtimestamp(t).astimezone().isoformat(timespec="seconds")


def play_time(start: float, times: list[float]) -> float:
    """Seconds from ``start`` to the last of ``times``, each gap counted up to :data:`GAP_CAP_S`."""
    total, last = 0.0, start
    for t in times:
        total += min(max(0.0, t - last), GAP_CAP_S)
        last = max(last, t)
    return total


def places(ranks: dict[int, tuple[float, ...]]) -> dict[int, int]:
    """Competition ranking ("1224"): 1 + the seats ranked strictly higher."""
    return {s: 1 + sum(1 for o in ranks.values() if o > r) for s, r in ranks.items()}


def summarize(journal: Journal, record: GameRecord, cfg: Config) -> dict[str, Any] | None:
    """The game's summary, or None for a damaged original (its copy plays on under another number)."""
    if record.status == "damaged":
        return None
    from companion.games import load

    doc = stub(record, journal._genesis(record.id))
    try:
        cls = load(record.game, cfg.games.folder)
    except CompanionError as e:  # a TOML game whose file is gone: listed, not read
        log.warning("game %d (%s) cannot be read for the history: %s", record.id, record.title, e)
        return unreadable(doc, record, str(e))
    doc.update(game=cls.game_id, title=cls.name, cooperative=cls.cooperative, scored=cls.scored,
               high_score_wins=cls.high_score_wins)
    from fsm.base import GameMachine

    from companion.session.headless import replay

    moves: list[tuple[int, int, float]] = []
    if record.status == "active":  # its players and start only: replayed until the game began, no further
        session, brk = replay(journal, record, cfg, observe=lambda s, _t, _ev: s.game is not None)
        return {**doc, "status": "active",
                "players": [{"name": n, "seat": i + 1} for i, n in enumerate(session.names)]}
    observe = _Mover(moves) if cls.move_count is not GameMachine.move_count else None
    session, brk = replay(journal, record, cfg, observe=observe, quiet=True)
    if brk is not None:
        log.warning("game %d: %s; its figures stop there", record.id, brk.message(journal.path))
    names = session.names
    game = session.game
    over = game is not None and game.is_over
    doc["status"] = "ended" if over else "abandoned"
    doc["players"] = [{"name": n, "seat": i + 1} for i, n in enumerate(names)]
    if game is None:
        doc["players"] = [{**p, "place": None, "winner": False} for p in doc["players"]]
        doc["result"] = "Left before it began"
        return doc
    times = [float(t) for (t,) in journal.db.execute("SELECT t FROM inputs WHERE game=? ORDER BY n LIMIT ?",
                                                     (record.id, session.n_inputs))]
    doc.update(t_end=times[-1] if times else record.created, duration_s=round(play_time(record.created, times)),
               rounds=game.data.get("round"), start_seat=game.start_seat(), team_won=game.team_won())
    doc["ended"] = iso(doc["t_end"])
    results = game.results()
    ranked = places({r.seat: r.rank for r in results}) if over else {}
    for r in results:
        p = doc["players"][r.seat - 1]
        p.update(place=ranked.get(r.seat), winner=over and r.winner)
        if over and cls.scored and r.score is not None:
            p["score"] = r.score
    if over:
        doc["result"], doc["decider"] = game.outcome()
    else:
        doc["result"], doc["decider"] = f"Ended from the menu in round {game.data.get('round')}", ""
    data_story = game.story()
    doc["battles"] = [{"round": b["round"], "attacker": b["attacker"], "defender": b["defender"],
                       "p_attacker_wins": b["p"], "p_exact": b["exact"], "attacker_won": bool(b["won"]),
                       "how": b["how"], "odds_args": list(b["args"])}
                      for b in game.battles() if b.get("won") is not None]
    counters = {c.id: c.name for c in getattr(getattr(cls, "spec", None), "counters", ())}
    doc["charts"] = story.ordered(story.series_charts(cls.game_id, data_story, names, counters)
                                  + story.battle_charts(doc["battles"], names) + story.move_chart(moves, names))
    return doc


def stub(record: GameRecord, genesis: str = "") -> dict[str, Any]:
    """A summary's fields as known before the game is replayed."""
    return {"id": record.id, "game": record.game, "title": record.title, "hidden": record.status == "hidden",
            "started": iso(record.created), "t_start": record.created, "ended": None, "t_end": None,
            "duration_s": None, "rounds": None, "result": None, "decider": None, "players": [], "battles": [],
            "charts": [], "start_seat": None, "genesis": genesis}


def unreadable(doc: dict[str, Any], record: GameRecord, why: str) -> dict[str, Any]:
    """A game listed with ``why`` it cannot be read (its players as set up): it counts in no figure."""
    names = list(record.setup.get("names", ()))
    return {**doc, "status": STATUS.get(record.status, "abandoned"), "unreadable": why, "result": why,
            "players": [{"name": n, "seat": i + 1, "place": None, "winner": False} for i, n in enumerate(names)]}


class _Mover:
    """An observer of the replay timing each move: (move number, the seat that made it, seconds it took). A move
    took the time from its player's turn beginning — the move before, or a choice such as taking White after the
    first move — to the move. With a game clock, that is the clock's own count: not while it is paused, and each
    journaled clock line sets it to the time the clock says this turn has used (the time the box was off is not);
    without one, the time between the inputs, each gap counted up to :data:`GAP_CAP_S`."""

    def __init__(self, out: list[tuple[int, int, float]]) -> None:
        self.out = out
        self.moves = 0
        self.took = 0.0  #: seconds of this turn so far
        self.prev_t: float | None = None
        self.seat: int | None = None  #: the seat to move after the input before
        self.counting = False  #: the time ran after the input before (with a clock: it ran and was not paused)

    def __call__(self, session: Any, t: float, ev: Any) -> None:
        game = session.game
        if game is None:
            return
        if self.prev_t is not None and self.counting:
            self.took += min(max(0.0, t - self.prev_t), GAP_CAP_S)
        self.prev_t = t
        clock = session.timekeeper.clock if session.timekeeper is not None else None
        if clock is not None and isinstance(ev, ClockEvent) and ev.kind == "state":
            self.took = clock.used / 1000
        n = game.move_count() or 0
        seat = game.active_seat()
        if n > self.moves:
            self.out.append((n, int(self.seat or 0), self.took))
            self.moves = n
            self.took = 0.0
        elif seat != self.seat:  # the turn passed without a move (an opening choice): its time is no move's
            self.took = 0.0
        self.seat = seat
        self.counting = clock is None or (clock.running is not None and not clock.paused and clock.flagged is None)


__all__ = ["GAP_CAP_S", "STATUS", "iso", "places", "play_time", "stub", "summarize", "unreadable"]
