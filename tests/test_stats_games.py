"""What each game gives the figures at its end — ``outcome()`` (the result and the one figure that decided it),
``results()`` (winners, scores, places), ``start_seat()`` and the story it recorded — and that nothing of a secret
ballot or a hidden order reaches them before it is counted or processed."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.bench.table_games import KINDS, choose, play
from companion.config.load import parse_config
from companion.events import AnswerEvent, RollEvent
from companion.games import load
from companion.session import Session
from companion.session.headless import game_key
from companion.stats.summary import places
from fsm.prompts import Dice, SecretVote

CFG = parse_config({})
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


def finished(kind: Any, seed: int) -> Any:
    """A session of ``kind`` played to its end (the first seed from ``seed`` that gets there)."""
    key = game_key(kind.game, CFG)
    for s in range(seed, seed + 30):
        rows: list[Any] = []
        session = Session(load(key), seed=s, presets=NAMES, options=dict(kind.options))
        _drive(session, random.Random(s), kind, rows)
        if session.game is not None and session.game.is_over:
            return session
    raise AssertionError(f"no {kind.game} game finished")


def _drive(session: Session, rng: random.Random, kind: Any, rows: list[Any], until: Any = None) -> None:
    if session.game_cls.min_players != session.game_cls.max_players:
        session.try_remote(AnswerEvent(rng.randint(*kind.players), session.prompt_seq, "device"), 0.0, None)
    session.try_remote(AnswerEvent("start", session.prompt_seq, "device"), 0.0, None)
    for _ in range(kind.limit):
        if session.game is None or session.game.is_over:
            return
        p = session.prompt()
        if until is not None and until(p):
            return
        if isinstance(p, Dice):
            ev: Any = RollEvent(p.die, tuple(rng.randint(1, p.sides) for _ in range(p.count)), roller="roller")
            session.handle(ev)
        else:
            offered = [o.key for o in getattr(p, "options", ()) if o.enabled and o.key in kind.concede]
            value = rng.choice(offered) if offered and len(rows) > 30 else choose(p, rng, kind.prefs)
            ev = AnswerEvent(value, session.prompt_seq, "device")
            session.try_remote(ev, 0.0, None)
        rows.append(ev)


@pytest.mark.parametrize("kind", [k for i, k in enumerate(KINDS) if i != 1], ids=lambda k: k.game)
def test_every_game_says_who_won_and_why(kind: Any) -> None:
    game = finished(kind, 1).game
    result, decider = game.outcome()
    assert isinstance(result, str) and result and isinstance(decider, str)
    won = game.winner_seats()
    assert all(game.player_name(s) in result for s in won) or game.cooperative
    results = game.results()
    assert [r.seat for r in results] == game.seats
    assert {r.seat for r in results if r.winner} == set(won)
    ranked = places({r.seat: r.rank for r in results})
    assert all(ranked[s] == 1 for s in won)
    assert all(ranked[r.seat] > 1 for r in results if won and not r.winner and r.rank < results[won[0] - 1].rank)
    assert all((r.score is not None) == game.scored for r in results) or kind.game == "sovereigns-chain"
    start = game.start_seat()
    assert start is None or start in game.seats
    assert (start is None) == (kind.game == "society")


def test_an_unfinished_game_says_so() -> None:
    session = Session(load("sovereign"), seed=1, presets=NAMES, options={})
    for value in (3, "start"):
        session.try_remote(AnswerEvent(value, session.prompt_seq, "device"), 0.0, None)
    assert session.game.outcome() == ("Not finished", "round 1")


def test_places_are_competition_ranks() -> None:
    assert places({1: (1.0, 5.0), 2: (0.0, 7.0), 3: (0.0, 7.0), 4: (0.0, 2.0)}) == {1: 1, 2: 2, 3: 2, 4: 4}
    assert places({1: (0.0,), 2: (0.0,)}) == {1: 1, 2: 1}


def test_sovereign_records_points_cards_and_each_battle_as_shown() -> None:
    game = finished(KINDS[0], 1).game
    story = game.story()
    rounds = int(game.data["round"])
    assert sorted(int(x) for x in story["points"]["at"]) == list(range(1, rounds + 1))
    assert story["cards"]["at"][str(rounds)][str(game.winner_seat())] == sum(
        game.data["players"][str(game.winner_seat())]["cards"].values())
    fights = [b for b in game.battles() if b["won"] is not None]
    assert fights and all(b["args"][0] == "--attack" and 0 <= b["p"] <= 1 for b in fights)
    assert len({b["no"] for b in game.battles()}) == len(game.battles())


def _soverana_at_ballot(seed: int) -> tuple[Session, list[Any]]:
    kind = next(k for k in KINDS if k.game == "soverana")
    session = Session(load("soverana"), seed=seed, presets=NAMES, options=dict(kind.options))
    rows: list[Any] = []
    _drive(session, random.Random(seed), kind, rows, until=lambda p: isinstance(p, SecretVote))
    assert isinstance(session.prompt(), SecretVote)
    return session, rows


def test_a_secret_ballot_reaches_no_figure_before_it_is_counted(tmp_path: Path) -> None:
    """Two tables at the same open ballot, one voting YES and one NO: the history and the story they show are the
    same, and the machine's story has no tally for the round until every ballot is in."""
    from companion.journal.store import Journal
    from companion.session import encode_event
    from companion.stats.provider import History

    docs = []
    for vote in ("yes", "no"):
        session, rows = _soverana_at_ballot(3)
        before = json.dumps(session.game.data.get("story", {}), sort_keys=True)
        ev = AnswerEvent(vote, session.prompt_seq, "device")
        assert session.try_remote(ev, 0.0, None)[1] is None
        assert json.dumps(session.game.data.get("story", {}), sort_keys=True) == before
        folder = tmp_path / vote
        folder.mkdir()
        j = Journal(folder / "journal.sqlite")
        gid = j.new_game("soverana", "SOVERANA", 3, {"options": {"rounds": 3}, "names": NAMES,
                                                     "sources": ["roller", "typed", "rng"], "contract": True},
                         created=1_800_000_000.0)
        j.append_inputs(gid, [(1_800_000_000.0 + i, encode_event(e)) for i, e in enumerate(rows + [ev])])
        j.close()
        hist = History(CFG, folder / "journal.sqlite")
        docs.append((hist.document(full=True), hist.story(gid)))
        hist.close()
    (doc_yes, story_yes), (doc_no, story_no) = docs
    assert doc_yes == doc_no and story_yes == story_no
    assert doc_yes["games"][0]["status"] == "active" and story_yes["charts"] == []


def test_societys_orders_reach_the_story_once_the_turn_is_processed() -> None:
    kind = next(k for k in KINDS if k.game == "society")
    game = finished(kind, 2).game
    turns = sorted(int(x) for x in game.story()["treasury"]["at"])
    assert turns == list(range(1, len(turns) + 1)) and turns[-1] <= int(game.data["round"])
    assert "orders" not in json.dumps(game.data["story"])
