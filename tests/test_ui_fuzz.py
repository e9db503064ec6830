"""Every game through the whole session: random presses and rolls, every frame drawn, no internal error ever.

The session catches a failing input (so a bug never takes the table down) and says "Internal error"; here that
must never happen, whatever the keys.
"""
from __future__ import annotations

import logging
import random

import pytest

from companion.events import Key, KeyEvent, RollEvent
from companion.games import BUILTIN, load
from companion.session import Session
from conftest import EXAMPLES

GAMES = sorted(BUILTIN) + sorted(str(p) for p in EXAMPLES.glob("*.toml"))
KEYS = [Key.OK] * 5 + [Key.UP] * 2 + [Key.DOWN] * 3 + [Key.BACK, Key.HOLD]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_random_presses_never_break_a_game(game: str, seed: int, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(seed)
    cls = load(game)
    s = Session(cls, seed=seed, presets=["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"], options={})
    for i in range(2500):
        if rng.random() < 0.08:
            die = rng.choice(["d6", "d12"])
            ev = RollEvent(die, tuple(rng.randint(1, 6 if die == "d6" else 12) for _ in range(rng.randint(1, 2))))
        elif s.overlays and s.overlays[-1].kind == "end":
            ev = KeyEvent(Key.BACK)  # keep playing: the point is to go deep into each game
        else:
            ev = KeyEvent(rng.choice(KEYS), repeat=rng.random() < 0.1)
        with caplog.at_level(logging.ERROR):
            s.handle(ev)
        assert not (s.toast or "").startswith("Internal error"), caplog.text
        if i % 7 == 0:
            assert s.render().size == (128, 64)
        if s.closed:
            break
    answers = sum(1 for e in s.action_log if "answer" in e)  # BACK steps back through undo: count answers given
    assert s.game is not None and (answers > 20 or s.game.is_over), "the random player barely got into the game"
