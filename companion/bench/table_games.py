"""Saved games of every kind, made quickly: a journal holding an evening-by-evening history for the history page's
bench (``history_500_ms``), the statistics' tests and the phone's screenshots.

Each game is played through a :class:`~companion.session.Session` as the table plays it (answers as a phone sends
them, rolls from the roller), by a seeded player that leans towards the game's end: most games finish, some are
ended from the game menu, a few are left running or left before they began. The inputs are journaled with the times
an evening would give them (a few seconds to a minute apart, evenings days apart), each game in one transaction.

``python -m companion.bench.table_games OUT.sqlite [--games N] [--seed S]`` writes one (216 games by default).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from fsm.autoplay import random_answer
from fsm.prompts import Choice, Dice, Number, Prompt, SecretVote

#: the table: names come back evening after evening (a few only now and then)
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
#: the first evening (local time), and how the evenings follow
FIRST_EVENING = (2026, 9, 4, 19, 0)


@dataclass(frozen=True)
class Kind:
    """How to play one game: its id, players, rule switches, the answers it leans to, and how long before the table
    gives up (inputs)."""

    game: str
    players: tuple[int, int]
    prefs: dict[str, float] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    limit: int = 1500
    move_every: float = 20.0  #: seconds an answer takes, on average
    #: after this many inputs (a range to draw from), the first of these options offered is taken (resign, a draw)
    concede: tuple[str, ...] = ()
    concede_after: tuple[int, int] = (0, 0)


SOVEREIGN = {"collect": 6, "skip": 0.1, "cities": 0.05, "battle": 2.5, "done": 1.2, "found": 0.3, "capture": 0.2,
             "fort": 0.1, "end": 6, "mark": 0.25, "unmark": 0.1, "roll": 8, "ret_att": 0.15, "ret_def": 0.15,
             "add": 0.4, "rollon": 0.5, "hold": 0.2, "other": 0.15, "field": 3, "city": 1, "sea": 0.4,
             "med_att": 0.3, "med_def": 0.3, "back": 0.03, "research": 0.6, "build": 0.8, "new": 0.01,
             "raze": 0.01, "remove": 0.05, "Cities|back": 3, "Whose|back": 3, "City|done": 3, "Attack|done": 5,
             "Defence|done": 5, "Held|done": 5, "other": 0.04, "Manoeuvre|done": 0.8}
KINDS: tuple[Kind, ...] = (
    Kind("sovereign", (2, 4), SOVEREIGN, limit=2600, move_every=6.0),
    Kind("sovereign", (3, 3), SOVEREIGN, {"air_raid_loss": "all", "space_flight_bonus": "extra",
                                          "explode": "chain"}, limit=2600, move_every=6.0),
    Kind("soverana", (6, 6), {"none": 4, "yes": 2, "no": 1, "back": 0.02}, {"rounds": 3}, limit=3000,
         move_every=12.0),
    Kind("sovereigns-chain", (2, 4), {"back": 0.02, "done": 5, "none": 3}, limit=900, move_every=10.0),
    Kind("sovereign-chess", (2, 2), {}, limit=400, move_every=45.0, concede=("resign", "resign_other", "agree"),
         concede_after=(20, 70)),
    Kind("sovereign-chess-royale", (4, 4), {}, limit=500, move_every=30.0, concede=("agree",),
         concede_after=(30, 90)),
    Kind("society", (2, 4), {"back": 0.3, "soc:": 0.6, "process": 1.0, "more": 0.06, "concede": 2.0, "done": 3.0,
                             "paste": 0.0, "list": 0.1, "*": 0.12}, limit=700, move_every=40.0),
    Kind("race-to-ten", (2, 4), {"done": 2}, limit=800, move_every=8.0),
    Kind("vp-tracker", (2, 6), {"done": 1, "adj:": 1.5}, limit=800, move_every=8.0),
)


def _weight(title: str, key: str, prefs: dict[str, float]) -> float:
    """The weight of answering ``key``: ``"Word|key"`` (the title's first word), ``key``, ``"head:"`` (keys such as
    ``u:Catapult``), ``"*"``, else 1."""
    scoped = f"{title.split(' ', 1)[0]}|{key}"
    if scoped in prefs:
        return prefs[scoped]
    if key in prefs:
        return prefs[key]
    head = key.split(":", 1)[0]
    return prefs.get(head + ":", prefs.get("*", 1.0))


def choose(p: Prompt, rng: random.Random, prefs: dict[str, float]) -> Any:
    """A valid answer to ``p``, leaning to the keys ``prefs`` weighs up (a key's weight, else its ``head:``'s, else
    1); options offered from the game menu (resign, a draw) only when weighed in."""
    if isinstance(p, Choice):
        keys = [o.key for o in p.options if o.enabled and (not o.in_menu or prefs.get(o.key, 0) > 0)]
        weights = [_weight(p.title, k, prefs) for k in keys]
        if p.back is not None:
            keys.append(p.back)
            weights.append(_weight(p.title, "back", {"back": 0.05, **prefs}) if len(keys) > 1 else 1.0)
        return rng.choices(keys, weights)[0]
    if isinstance(p, SecretVote):
        keys = [o.key for o in p.options]
        return rng.choices(keys, [_weight(p.title, k, prefs) for k in keys])[0]
    if isinstance(p, Number):
        return p.default if rng.random() < 0.5 else rng.randint(p.lo, min(p.hi, max(p.lo, p.default + 6)))
    return random_answer(p, rng)  # the contract tests' random player: a subset, yes or no, OK


@dataclass
class Played:
    rows: list[tuple[float, str]]
    rolls: list[tuple[float, Any]]
    status: str
    summary: str


def play(game: str, names: list[str], seed: int, t0: float, kind: Kind, finish: str,
         games_dir: Path | None = None) -> Played:
    """One game played to its end (``finish``: "play"), ended from the menu part-way ("end"), left running
    ("leave"), or left before it began ("hide")."""
    from companion.events import AnswerEvent, Key, KeyEvent, RollEvent
    from companion.games import load
    from companion.session import Session, encode_event

    rng = random.Random(seed)
    session = Session(load(game, games_dir), seed=seed, presets=names, options=dict(kind.options),
                      sources=("roller", "typed", "rng"), roller_connected=lambda: True)
    rows: list[tuple[float, str]] = []
    rolls: list[tuple[float, Any]] = []
    t = t0
    stop = {"play": kind.limit, "leave": rng.randint(8, 30)}.get(finish) or rng.randint(kind.limit // 8,
                                                                                    kind.limit // 3)

    def put(ev: Any, remote: bool) -> bool:
        nonlocal t
        t += rng.expovariate(1.0 / kind.move_every)
        if remote:
            got, why = session.try_remote(ev, t, None)
            if why is not None:
                return False
        else:
            got = session.handle(ev, t)
        rows.append((t, encode_event(ev)))
        rolls.extend((t, r) for r in got)
        return True

    if finish == "hide":
        put(KeyEvent(Key.BACK), False)
        if session.game_cls.min_players == session.game_cls.max_players or not session.left:
            put(KeyEvent(Key.BACK), False)
        return Played(rows, rolls, session.status, session.summary())
    count = rng.randint(*kind.players)
    if session.game_cls.min_players != session.game_cls.max_players:
        put(AnswerEvent(count, session.prompt_seq, "device"), True)
    put(AnswerEvent("start", session.prompt_seq, "device"), True)
    misses = 0
    concede_at = rng.randint(*kind.concede_after) if kind.concede else stop
    while session.game is not None and not session.game.is_over and len(rows) < stop and misses < 50:
        p = session.prompt()
        if isinstance(p, Dice):
            put(RollEvent(p.die, tuple(rng.randint(1, p.sides) for _ in range(p.count)), roller="roller"), False)
            continue
        offered = [o.key for o in getattr(p, "options", ()) if o.enabled and o.key in kind.concede]
        value = rng.choice(offered) if offered and len(rows) >= concede_at else choose(p, rng, kind.prefs)
        back = getattr(p, "back", None)
        if misses >= 5 and back is not None:
            value = back  # refused again and again: the table backs out and tries something else
        ok = put(AnswerEvent(value, session.prompt_seq, "device"), True)
        misses = 0 if ok else misses + 1
    if session.game is not None and not session.game.is_over and finish != "leave":
        _end_from_menu(session, put)
    return Played(rows, rolls, session.status, session.summary())


def _end_from_menu(session: Any, put: Callable[[Any, bool], bool]) -> None:
    """The game menu's End game, confirmed, as the table presses it."""
    from companion.events import Key, KeyEvent

    put(KeyEvent(Key.HOLD), False)
    for _ in range(40):
        menu = session.overlays[-1].widget
        if menu.items[menu.cursor].key == "end":
            break
        put(KeyEvent(Key.DOWN), False)
    put(KeyEvent(Key.OK), False)
    for _ in range(2):
        if session.ended:
            break
        put(KeyEvent(Key.UP), False)
        put(KeyEvent(Key.OK), False)
    if not session.ended:
        raise RuntimeError("the generator could not end a game from the menu")


def make_journal(path: Path, games: int = 216, seed: int = 32, *, distinct: int | None = 48,
                 kinds: Sequence[Kind] = KINDS, say: Callable[[str], None] | None = None) -> dict[str, int]:
    """Write ``games`` saved games of every kind (the TOML ones: the shipped examples) into a new journal at
    ``path``; returns how many games ended in each status. Only ``distinct`` of them are played (None: all); the
    others replay one of those on a later evening with other players in the seats (the same inputs, the same seed:
    another game in the journal, with its own number and chain), which takes a fraction of the time. ``kinds``:
    the games to make, in turn (every kind by default)."""
    from companion.config.load import parse_config
    from companion.games import load
    from companion.journal.store import Journal
    from companion.session.headless import game_key

    cfg = parse_config({})
    rng = random.Random(seed)
    evening = time.mktime((*FIRST_EVENING, 0, 0, 0, -1))
    journal = Journal(path)
    counts: dict[str, int] = {}
    made: list[tuple[str, int, int, Played, int]] = []  # key, seed, players asked for, what was played, kind
    try:
        journal.db.execute("PRAGMA synchronous=OFF")  # building the file is not what anyone measures
        t = evening
        for i in range(games):
            if i % 6 == 0 and i:  # a few games an evening, then days later the next evening
                evening += 86400 * rng.randint(2, 9)
                t = evening + rng.uniform(0, 1800)
            table = list(NAMES[:6]) if rng.random() < 0.85 else list(NAMES)
            rng.shuffle(table)
            if distinct is None or i < distinct or i >= games - 2:
                kind = kinds[i % len(kinds)]
                key = game_key(kind.game, cfg)
                finish = rng.choices(("play", "end", "leave", "hide"), (0.86, 0.08, 0.03, 0.03))[0]
                if i >= games - 2:
                    finish = "leave"  # tonight's games, still running
                gseed = rng.getrandbits(32)
                played = play(key, table, gseed, t, kind, finish)
                made.append((key, gseed, len(table), played, i % len(kinds)))
            else:  # the same game again, on this evening, other players in the seats
                key, gseed, n, original, k = made[i % len(made)]
                kind = kinds[k]
                if n > len(table):
                    table = list(NAMES[:n])
                    rng.shuffle(table)
                table = table[:n]
                shift = t - original.rows[0][0] if original.rows else 0.0
                played = Played([(rt + shift, e) for rt, e in original.rows],
                                [(rt + shift, r) for rt, r in original.rolls], original.status, original.summary)
            setup = {"options": dict(kind.options), "names": table, "sources": ["roller", "typed", "rng"],
                     "contract": True}
            gid = journal.new_game(key, load(key).name, gseed, setup, created=t)
            _store(journal, gid, played, t)
            counts[played.status] = counts.get(played.status, 0) + 1
            t = (played.rows[-1][0] if played.rows else t) + rng.uniform(60, 900)
            if say is not None and (i + 1) % 50 == 0:
                say(f"{i + 1} games")
        journal.db.execute("PRAGMA synchronous=FULL")
    finally:
        journal.close()
    return counts


def _store(journal: Any, gid: int, played: Played, t: float) -> None:
    """A game's inputs (chained), its dice and its status, as the loop would have left them."""
    from companion.journal.store import RollRecord

    if played.rows:
        journal.append_inputs(gid, played.rows)
    with journal.db:
        journal.db.executemany(
            "INSERT INTO rolls (t, game, roller, source, die, value, player, purpose) VALUES (?,?,?,?,?,?,?,?)",
            [(rt, gid, r.roller, r.source, r.die, r.value, r.player, r.purpose) for rt, r in played.rolls
             if isinstance(r, RollRecord)])
    journal.db.execute("UPDATE games SET status=?, summary=?, updated=? WHERE id=?",
                       (played.status, played.summary, played.rows[-1][0] if played.rows else t, gid))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.bench.table_games", description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the journal to write (must not exist)")
    ap.add_argument("--games", type=int, default=216)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--distinct", type=int, default=48, help="games actually played; the rest replay them (0: all)")
    args = ap.parse_args(argv)
    if args.out.exists():
        print(f"{args.out} exists; give a new file", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    counts = make_journal(args.out, args.games, args.seed, distinct=args.distinct or None,
                          say=lambda s: print(s, file=sys.stderr))
    print(json.dumps({"journal": str(args.out), "games": args.games, "statuses": counts,
                      "seconds": round(time.perf_counter() - t0, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
