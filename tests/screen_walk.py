"""The random walk the screen tests share: every registered game (built-in and example TOML), driven by random
presses and rolls deep into play, the way tests/test_ui_fuzz.py does. A game added to BUILTIN is walked too."""
from __future__ import annotations

import random
from typing import Iterator

from companion.events import Key, KeyEvent, RollEvent
from companion.games import BUILTIN, load
from companion.session import Session
from conftest import EXAMPLES

GAMES = sorted(BUILTIN) + sorted(str(p) for p in EXAMPLES.glob("*.toml"))
NAMES = ["Ana", "Ben", "Cleopatra", "Dev", "Eli", "Fay"]  #: one long name: title bars must still fit
KEYS = [Key.OK] * 5 + [Key.UP] * 2 + [Key.DOWN] * 3 + [Key.BACK, Key.HOLD]
#: the walks tests/test_ui_fuzz.py takes; tests/test_screens_fit.py draws every screen of exactly these
SEEDS = (0, 1, 2)
STEPS = 2500


def walk(game: str, seed: int, steps: int) -> Iterator[Session]:
    """Yield the session after each input (the same object, changed in place)."""
    for _ev, s in walk_events(game, seed, steps):
        yield s


def walk_events(game: str, seed: int, steps: int) -> Iterator[tuple[KeyEvent | RollEvent, Session]]:
    """The same walk, each input with the session after it."""
    rng = random.Random(seed)
    cls = load(game)
    s = Session(cls, seed=seed, presets=NAMES, options={})
    for _ in range(rng.randint(0, cls.max_players - cls.min_players)):  # vary the player count
        s.handle(KeyEvent(Key.UP))
    for _ in range(steps):
        if rng.random() < 0.08:
            die = rng.choice(["d6", "d12"])
            ev: KeyEvent | RollEvent = RollEvent(die, tuple(rng.randint(1, 6 if die == "d6" else 12)
                                                           for _ in range(rng.randint(1, 2))))
        elif s.overlays and s.overlays[-1].kind == "end":
            ev = KeyEvent(Key.BACK)  # keep playing
        else:
            ev = KeyEvent(rng.choice(KEYS), repeat=rng.random() < 0.1)
        s.handle(ev)
        yield ev, s
        if s.closed:
            return
