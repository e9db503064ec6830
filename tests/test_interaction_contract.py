"""The interaction contract ("How the buttons behave"), held on every screen the UI fuzz reaches in every game:

(a) the row an OK would act on is always fully visible: no toast or announcement box covers it;
(b) no press is swallowed silently: an UP or DOWN that changes nothing on the screen says what moves on;
(c) BACK pressed again and again never goes round in a circle (no BACK ping-pong in and out of a submenu);
(d) after Done or a number entry that brings the player back to a choice they left by one of its entries, the cursor
    is on that entry (unless the choice moves on by design: ``Choice.advance``);
(e) an announcement names its subject whole when the screen has room: it is cut ("…") only when the screen, less
    the row OK acts on, could not hold one more line of it;
(f) a toast over the question's lines hides whole lines of it: never the start of a sentence with its end left
    showing ("other city." under "Ana places City 1 (4 tiles)").

The widgets say where the row OK acts on lies (``draw.focus``, reported to ``draw.RECORDERS`` as a "focus" piece);
a toast box is reported as a "cover". The walks are tests/screen_walk.py's (the games, seeds and steps of
tests/test_ui_fuzz.py). The last tests break each rule on purpose and check that the checks catch it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from companion.events import Key, KeyEvent
from companion.session import Session
from companion.ui import draw
from walk_checks import WALKS, Recorder, back_loop, covered_focus, left_tail, report


@pytest.fixture
def pieces() -> Iterator[Recorder]:
    rec = Recorder()
    draw.RECORDERS.append(rec)
    try:
        yield rec
    finally:
        draw.RECORDERS.remove(rec)


@pytest.mark.parametrize("game, seed", WALKS)
def test_contract_on_every_screen(game: str, seed: int, shared_dir: Path) -> None:
    """Every frame of the walk is drawn: no toast covers the row OK acts on, no UP/DOWN is silent, an announcement
    is cut only when there is no room, the cursor comes back to the entry left; from each new screen BACK is pressed
    (on a copy) until it stops, and it never goes round in a circle, a toast leaves no stray end of a line
    (tests/walk_checks.py: the checks "contract", "silent", "announce", "cursor" and "tail"). With -s it prints the
    walk's frames and distinct screens."""
    r = report(game, seed, shared_dir)
    print(f"walk {Path(game).name} seed {seed}: {r.frames} frames, {r.counts.get('screens', 0)} screens")
    assert r.frames > 50 and r.counts.get("screens", 0) >= 2, "the walk barely got into the game"
    found = [p for name in ("contract", "silent", "announce", "cursor", "tail") for p in r.problems[name]]
    assert not found, "\n".join(sorted(set(found))[:20])


# ------------------------------------------------------------------------------------------------ the checks bite
def test_the_check_catches_a_toast_over_the_cursor(pieces: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
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
    assert covered_focus(pieces.items) == []
    monkeypatch.setattr(widgets, "_toast_place", lambda focus, want: (draw.HEIGHT - draw.ROW * want - 4, want))
    pieces.clear()
    s.render()
    assert covered_focus(pieces.items), "the check missed a toast over the cursor's row"


def test_a_toast_over_the_start_of_a_line_hides_the_rest_of_it(pieces: Recorder,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Sovereign's First city for Ben under "Ana places City 1 (4 tiles)": the toast hid the first two rows of "Place
    a 4-tile city, 8+ empty hexes from every other city." and left "other city." alone under it. Now the line goes
    whole; with the screens no longer saying where their lines begin (the old way), the check catches it."""
    from companion.games import load
    from companion.ui import prompt_screens, widgets

    s = Session(load("sovereign"), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    press(s, "ok", "ok", "roll d12 12", "roll d12 1", "roll d12 1", "ok")
    assert s.prompt().title == "First city" and s.toast == "Ana places City 1 (4 tiles)"
    s.render()
    assert left_tail(s.prompt(), pieces.items, pieces.visible(whole=True)) is None
    texts = [it.text for it in pieces.visible(whole=True) if it.kind == "text"]
    assert "other city." not in texts and "OK when placed" in texts
    for module in (widgets, prompt_screens):
        monkeypatch.setattr(module, "line_starts", lambda *a: None)
    pieces.clear()
    s.render()
    assert "other city." in left_tail(s.prompt(), pieces.items, pieces.visible(whole=True)) or "", \
        "the check missed a stray end of a line"


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
