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


def test_each_walk_is_taken_once_and_whoever_finds_it_taken_takes_another(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers (threads here, each with its own reports: flock locks each open file apart) ask for one walk: it
    is taken once, and the second, instead of waiting, takes a walk nobody had started; both get the same report."""
    import threading
    import time

    import walk_checks

    first, second = walk_checks.PAIRS[0], walk_checks.PAIRS[-1]
    mine: dict[str, walk_checks.Report] = {}
    theirs: dict[str, walk_checks.Report] = {}
    taken: list[tuple[str, int]] = []
    started, helped = threading.Event(), threading.Event()

    def fake_take(game: str, seed: int) -> walk_checks.Report:
        taken.append((game, seed))
        if (game, seed) == first:  # the other worker's walk lasts until this one has taken another
            started.set()
            helped.wait(5)
        else:  # ... and this one's until the other's report is written (so it is read next, not waited for)
            helped.set()
            deadline = time.monotonic() + 5
            while walk_checks._key(*first) not in theirs and time.monotonic() < deadline:
                time.sleep(0.01)
        return walk_checks.Report(problems={"fuzz": [f"{seed}-{game}"]})

    monkeypatch.setattr(walk_checks, "take", fake_take)
    other = threading.Thread(target=walk_checks.report, args=(*first, tmp_path, theirs))
    other.start()
    started.wait(5)
    r = walk_checks.report(*first, tmp_path, mine)
    other.join(5)
    assert taken == [first, second]  # the second worker took the last walk while the first took its own
    assert r == theirs[walk_checks._key(*first)] and r.problems["fuzz"] == [f"{first[1]}-{first[0]}"]
    assert set(mine) == {walk_checks._key(*first), walk_checks._key(*second)}
