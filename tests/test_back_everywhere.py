"""BACK everywhere: on every screen the random walk reaches in every game, BACK goes to the previous step (exactly
the screen before the last answer, when it steps back through the undo history), changes the screen the game's own
way, or says in a toast why it cannot."""
from __future__ import annotations

from pathlib import Path

from companion.events import Key, KeyEvent, RollEvent
from companion.games import load
from companion.session import Session
from walk_checks import WALKS, report

import pytest


@pytest.mark.parametrize("game, seed", WALKS)
def test_back_on_every_screen(game: str, seed: int, shared_dir: Path) -> None:
    """The UI fuzz's walks (tests/screen_walk.py): BACK is pressed once (on a copy) on each new game screen they
    reach (tests/walk_checks.py: the check "back")."""
    r = report(game, seed, shared_dir)
    assert r.counts.get("game screens", 0) >= 2, "the walk barely got into the game"
    assert not r.problems["back"], "\n".join(r.problems["back"])


def test_back_steps_back_within_a_players_turn_but_not_over_a_roll() -> None:
    from test_session import keys, new

    s = new()
    keys(s, "back")  # the first screen of the game: back to the setup list it was started from
    assert s.game is None and s.prompt().title == "Demo"
    keys(s, "ok")
    keys(s, "up", "ok")  # How many: 3 -> the roll screen (Ben rolls)
    assert s.game.state == "roll"
    keys(s, "back")  # the count was Ana's step, the roll is Ben's: BACK says why not
    assert s.game.state == "roll" and "Ana's step is done" in (s.toast or "")
    keys(s, "down", "ok")  # Ben: roll here
    assert s.game.state == "pick"
    keys(s, "back")
    assert s.game.state == "pick" and "BACK keeps rolls" in (s.toast or "")


def _pick(s: Session, label: str) -> None:
    """Move the open menu's cursor to ``label`` and press OK."""
    w = s.screen.list
    for _ in range(len(w.items)):
        if w.items[w.cursor].label == label:
            break
        s.handle(KeyEvent(Key.DOWN))
        w = s.screen.list
    assert w.items[w.cursor].label == label, [it.label for it in w.items]
    s.handle(KeyEvent(Key.OK))


def test_back_on_the_number_screens_and_tick_lists_the_issue_names() -> None:
    """Sovereign's Chain Abilities → Tokens → Take shields; SOVERANA's Into-crisis tick list and Extra to hand out."""
    s = Session(load("sovereigns-chain"), seed=5, presets=["Ana", "Ben"], options={})
    for _ in range(12):  # 2 players, start, random dealer, no events, one game, no event, own chain: Abilities
        if s.prompt().title == "Abilities":
            break
        s.handle(KeyEvent(Key.OK))
    assert s.prompt().title == "Abilities"
    _pick(s, "Tokens...")
    _pick(s, "Take shields")
    assert type(s.prompt()).__name__ == "Number"
    s.handle(KeyEvent(Key.BACK))
    assert s.prompt().title == "Tokens"
    s.handle(KeyEvent(Key.BACK))
    assert s.prompt().title == "Abilities"

    s = Session(load("soverana"), seed=5, presets=["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"], options={})
    s.handle(KeyEvent(Key.OK))  # six players: start
    for v in (6, 1, 1, 1, 1, 1):  # the mayor's roll-off
        s.handle(RollEvent("d6", (v,)))
    while s.prompt().title != "Major event":  # departments, figures, missions: the first choice each time
        s.handle(KeyEvent(Key.OK))
    menu = s.prompt()
    _pick(s, "Into crisis...")
    assert type(s.prompt()).__name__ == "MultiSelect"
    s.handle(KeyEvent(Key.OK))  # tick the first location
    s.handle(KeyEvent(Key.BACK))  # Done is twenty rows down: BACK leaves the list
    assert s.prompt() == menu
    _pick(s, "Extra to hand out...")
    assert type(s.prompt()).__name__ == "Number"
    s.handle(KeyEvent(Key.BACK))
    assert s.prompt() == menu
