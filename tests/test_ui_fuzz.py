"""Every game through the whole session: random presses and rolls, every frame drawn, no internal error ever.

The session catches a failing input (so a bug never takes the table down) and says "Internal error"; here that
must never happen, whatever the keys.
"""
from __future__ import annotations

import logging

import pytest

from screen_walk import GAMES, SEEDS, STEPS, walk


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_presses_never_break_a_game(game: str, seed: int, caplog: pytest.LogCaptureFixture) -> None:
    """The walk tests/test_screens_fit.py draws every screen of (tests/screen_walk.py): same games, seeds, keys."""
    s = None
    with caplog.at_level(logging.ERROR):
        for i, s in enumerate(walk(game, seed=seed, steps=STEPS)):
            assert not (s.toast or "").startswith("Internal error"), caplog.text
            if i % 7 == 0:
                assert s.render().size == (128, 64)
    assert s is not None
    answers = sum(1 for e in s.action_log if "answer" in e)  # BACK steps back through undo: count answers given
    assert s.game is not None and (answers > 20 or s.game.is_over), "the random player barely got into the game"
