"""The interaction contract ("How the buttons behave"), held on every screen the UI fuzz reaches in every game:

(a) the row an OK would act on is always fully visible: no toast or announcement box covers it;
(c) BACK pressed again and again never goes round in a circle (no BACK ping-pong in and out of a submenu).

The widgets say where the row OK acts on lies (``draw.focus``, reported to ``draw.RECORDERS`` as a "focus" piece);
a toast box is reported as a "cover". The walks are tests/screen_walk.py's (the games, seeds and steps of
tests/test_ui_fuzz.py). The last tests break each rule on purpose and check that the checks catch it.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

import pytest

from companion.events import Key, KeyEvent
from companion.session import Session
from companion.ui import draw
from companion.ui.draw import Drawn
from screen_walk import GAMES, SEEDS, STEPS, walk


class Pieces(list):  # type: ignore[type-arg]
    def __call__(self, item: Drawn) -> None:
        self.append(item)


@pytest.fixture
def pieces() -> Iterator[Pieces]:
    rec = Pieces()
    draw.RECORDERS.append(rec)
    try:
        yield rec
    finally:
        draw.RECORDERS.remove(rec)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def covered_focus(items: list[Drawn]) -> list[str]:
    """(a): a box painted over the row OK acts on after that row was drawn."""
    out, focus = [], None
    for it in items:
        if it.kind == "focus":
            focus = it
        elif it.kind == "cover" and focus is not None and _overlap(it.box, focus.box):
            out.append(f"a toast {it.box} covers the row OK acts on {focus.box}")
    return out


def _signature(s: Session) -> Any:
    snap = s._snapshot()
    return (repr(s.prompt()), snap[0], snap[1] if snap[0] == "game" else repr(snap[1]), len(s.overlays))


def back_loop(s: Session, presses: int = 12) -> str | None:
    """(c): BACK pressed up to ``presses`` times on a copy of ``s``; the circle it went round, or None.

    Coming back once to a screen is fine (a page BACK opened closes again; BACK takes back the Done that left a
    submenu, then leaves it by its own BACK); going round the same screens again and again is the ping-pong."""
    c = copy.deepcopy(s)
    sigs, titles = [_signature(c)], [c.prompt().title]
    for _ in range(presses):
        c.handle(KeyEvent(Key.BACK))
        sigs.append(_signature(c))
        titles.append(c.prompt().title)
        if sigs[-1] == sigs[-2]:  # BACK stopped here (and said why): no circle
            return None
        for period in range(2, len(sigs) // 2 + 1):
            if sigs[-period:] == sigs[-2 * period:-period]:
                return "BACK went round in a circle: " + " -> ".join(titles)
    return None


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_contract_on_every_screen(game: str, seed: int, pieces: Pieces) -> None:
    """Every frame of the walk is drawn: no toast covers the row OK acts on; from each new screen BACK is pressed
    until it stops, and it never goes round in a circle."""
    problems: list[str] = []
    probed: set[tuple[str, str]] = set()
    frames = 0
    for s in walk(game, seed=seed, steps=STEPS):
        pieces.clear()
        s.render()
        frames += 1
        where = s.overlays[-1].title if s.overlays else s.prompt().title
        problems += [f"{where} (toast {s.toast!r}): {p}" for p in covered_focus(list(pieces))]
        key = (type(s.prompt()).__name__, s.prompt().title)
        if not s.overlays and key not in probed:
            probed.add(key)
            err = back_loop(s)
            if err:
                problems.append(err)
    assert frames > 50 and len(probed) >= 2, "the walk barely got into the game"
    assert not problems, "\n".join(sorted(set(problems))[:20])


# ------------------------------------------------------------------------------------------------ the checks bite
def test_the_check_catches_a_toast_over_the_cursor(pieces: Pieces, monkeypatch: pytest.MonkeyPatch) -> None:
    """A toast put back at the bottom whatever it covers (the old way) is caught on a real screen: Sovereign's Spend
    menu right after "Collect 4 points", with the cursor on its last row under "Ana adds 4 points"."""
    from companion.ui import widgets

    s = spend_after_collect()
    assert s.toast and s.toast_sticky
    toast = s.toast
    press(s, "up")  # the cursor on "Done: to Move", the last row, under the same announcement
    s.toast, s.toast_sticky = toast, True
    pieces.clear()
    s.render()
    assert covered_focus(list(pieces)) == []
    monkeypatch.setattr(widgets, "_toast_place", lambda focus, want: (draw.HEIGHT - draw.ROW * want - 4, want))
    pieces.clear()
    s.render()
    assert covered_focus(list(pieces)), "the check missed a toast over the cursor's row"


def test_the_check_catches_back_ping_pong(monkeypatch: pytest.MonkeyPatch) -> None:
    """With BACK undoing just the last step again (the old way: no round trip dropped from the undo history, no
    submenu left by its BACK taken back with the step that entered it), BACK from Sovereign's Chain's Abilities menu
    goes into New event and out again forever: caught."""
    from companion.session import core

    s = chain_abilities_after_event()
    assert back_loop(s) is None
    monkeypatch.setattr(core, "round_trip", lambda *a, **k: None)
    monkeypatch.setattr(core, "back_span", lambda *a: (1, ""))
    s = chain_abilities_after_event()
    err = back_loop(s)
    assert err is not None and "Abilities -> New event (E) -> Abilities" in err, err


def chain_abilities_after_event() -> Session:
    """The issue's keys: 2 players, a dealer, with events, 1 game; Ana plays on her own chain; Ben plays, then opens
    New event from Abilities and picks "Not recorded": back on Abilities."""
    from companion.games import load

    s = Session(load("sovereigns-chain"), seed=0, presets=["Ana", "Ben"], options={})
    for k in ("ok", "ok", "down", "ok", "ok", "ok", "ok", "ok"):
        s.handle(KeyEvent(Key[k.upper()]))
    for _ in range(6):
        if s.screen.list.items[s.screen.list.cursor].key == "event":
            break
        s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    s.handle(KeyEvent(Key.OK))
    assert s.prompt().title == "Abilities", s.prompt().title
    return s


def press(s: Session, *keys: str) -> None:
    from companion.events import RollEvent

    for k in keys:
        if k.startswith("roll"):
            _, die, v = k.split()
            s.handle(RollEvent(die, (int(v),)))
        else:
            s.handle(KeyEvent(Key[k.upper()]))


def spend_after_collect() -> Session:
    """Sovereign, 3 players: Ana starts, the first cities placed, Ana collects 4 points: the Spend menu under the
    announcement "Ana adds 4 points", the cursor on Research (the first thing she can do)."""
    from companion.games import load

    s = Session(load("sovereign"), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    press(s, "ok", "ok", "roll d12 12", "roll d12 1", "roll d12 1", "ok", "ok", "ok", "ok")
    assert s.prompt().title.startswith("Spend"), s.prompt().title
    return s
