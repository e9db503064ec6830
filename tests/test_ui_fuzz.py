"""Every game through the whole session: random presses and rolls, every frame drawn, no internal error ever.

The session catches a failing input (so a bug never takes the table down) and says "Internal error"; here that
must never happen, whatever the keys. The walk is taken once for all the screen tests (tests/walk_checks.py).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from walk_checks import WALKS, report


@pytest.mark.parametrize("game, seed", WALKS)
def test_random_presses_never_break_a_game(game: str, seed: int, shared_dir: Path) -> None:
    """The walk tests/test_screens_fit.py draws every screen of (tests/screen_walk.py): same games, seeds, keys."""
    r = report(game, seed, shared_dir)
    assert not r.problems["fuzz"], "\n".join(r.problems["fuzz"][:5]) + "\n" + r.logged
    assert r.frames > 0 and r.started and (r.answers > 20 or r.over), "the random player barely got into the game"
