"""The contract every game machine must pass: built-in games and the TOML examples alike.

* every state is reachable from the initial state in the phase graph;
* every state that is not final has a way out to another state;
* under a random player, every answer the prompt allows is applied or refused with InvalidAnswer — and a refusal
  changes nothing; all state stays JSON; undo (restore of the snapshot) returns exactly to the previous state, and
  re-applying the same answer gives exactly the same next state.
"""
from __future__ import annotations

import json
import random
from collections import deque
from typing import Any

import pytest

from companion.games import BUILTIN, load
from fsm.autoplay import random_answer
from fsm.base import GameMachine, Player, Setup
from fsm.prompts import InvalidAnswer

from conftest import EXAMPLES

GAMES = sorted(BUILTIN) + sorted(str(p) for p in EXAMPLES.glob("*.toml"))


def _states(cls: type[GameMachine]) -> list[str]:
    return [s if isinstance(s, str) else s["name"] for s in cls.STATES]


def _edges(cls: type[GameMachine]) -> dict[str, set[str]]:
    names = _states(cls)
    out: dict[str, set[str]] = {s: set() for s in names}
    for t in cls.TRANSITIONS:
        srcs = t["source"]
        srcs = names if srcs == "*" else ([srcs] if isinstance(srcs, str) else list(srcs))
        for s in srcs:
            dest = t.get("dest") or s
            out[s].add(s if dest == "=" else dest)
    return out


@pytest.fixture(params=GAMES)
def game_cls(request: pytest.FixtureRequest) -> type[GameMachine]:
    return load(request.param)


def test_every_state_reachable(game_cls: type[GameMachine]) -> None:
    edges = _edges(game_cls)
    seen, todo = {game_cls.INITIAL}, deque([game_cls.INITIAL])
    while todo:
        for nxt in edges[todo.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert set(_states(game_cls)) - seen == set()


def test_every_state_has_a_way_out(game_cls: type[GameMachine]) -> None:
    assert set(game_cls.FINAL) <= set(_states(game_cls))
    edges = _edges(game_cls)
    stuck = [s for s in _states(game_cls) if s not in game_cls.FINAL and not (edges[s] - {s})]
    assert stuck == []


def _new(cls: type[GameMachine], n: int) -> GameMachine:
    return cls(Setup(tuple(Player(f"P{i + 1}", i + 1) for i in range(n))))


def _view(g: GameMachine) -> str:
    return json.dumps([g.state, g.data, g.state_json()], sort_keys=True)


@pytest.mark.parametrize("seed", range(6))
def test_random_play_undo_is_exact(game_cls: type[GameMachine], seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(game_cls.min_players, game_cls.max_players)
    g = _new(game_cls, n)
    applied = refused = 0
    now = _view(g)  # the game as the last step left it (asking for the prompt must not change it)
    for _ in range(400):
        if g.is_over:
            break
        prompt = g.prompt()
        value: Any = random_answer(prompt, rng)
        before, snap = now, g.snapshot()
        try:
            g.answer(value)
        except InvalidAnswer:
            refused += 1
            assert _view(g) == before, f"a refused answer changed the game in {snap[0]}"
            continue
        applied += 1
        assert g.state in _states(game_cls)
        after = _view(g)
        g.restore(snap)
        assert _view(g) == before, f"undo after {prompt.title!r} did not restore the state"
        assert g.prompt() == prompt
        g.answer(value)
        now = _view(g)
        assert now == after, f"re-applying {value!r} at {prompt.title!r} gave another state"
    assert applied > 0
    json.dumps(g.state_json())
