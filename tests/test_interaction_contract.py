"""The interaction contract ("How the buttons behave"), held on every screen the UI fuzz reaches in every game:

(a) the row an OK would act on is always fully visible: no toast or announcement box covers it;
(b) no press is swallowed silently: an UP or DOWN that changes nothing on the screen says what moves on;
(c) BACK pressed again and again never goes round in a circle (no BACK ping-pong in and out of a submenu);
(d) after Done or a number entry that brings the player back to a choice they left by one of its entries, the cursor
    is on that entry (unless the choice moves on by design: ``Choice.advance``);
(e) an announcement names its subject whole when the screen has room: it is cut ("…") only when the screen, less
    the row OK acts on, could not hold one more line of it.

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
from companion.ui.draw import ELLIPSIS, HEIGHT, ROW, Drawn, wrap
from companion.ui.widgets import ANNOUNCE_LINES, TOAST_W
from fsm.prompts import Choice
from screen_walk import GAMES, SEEDS, STEPS, walk_events


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


def silent_move(ev: KeyEvent, before: bytes, after: bytes, s: Session) -> str | None:
    """(b): UP or DOWN left the frame exactly as it was and said nothing."""
    if ev.key in (Key.UP, Key.DOWN) and before == after and not s.toast:
        where = s.overlays[-1].title if s.overlays else s.prompt().title
        return f"{ev.key.value.upper()} on {where!r} ({type(s.overlays[-1].widget if s.overlays else s.screen).__name__})" \
            " changed nothing and said nothing"
    return None


def came_from(s: Session, depth: int = 4) -> str | None:
    """(d): the entry of this choice the player left it by, a few steps back in their own step (None: none)."""
    p = s.prompt()
    if not isinstance(p, Choice) or getattr(p, "advance", False) or p.board is not None:
        return None
    for _snap, g in s.undo_stack[:-depth - 1:-1]:
        if g.nav or g.rolled or p.player is not None and g.player != p.player:
            return None
        if g.title == p.title:
            key = g.answers[0][0] if g.answers else None
            return key if any(o.key == key and o.enabled and not o.in_menu for o in p.options) else None
    return None


def cut_with_room(s: Session, items: list[Drawn]) -> str | None:
    """(e): the announcement drawn cut ("…") while the screen, less the row OK acts on, had room for another line."""
    if not (s.toast and s.toast_sticky) or s.prompt().board is not None and not s.overlays:
        return None
    covers = [it for it in items if it.kind == "cover"]
    if not covers:
        return None
    box = covers[-1].box
    shown = [it for it in items if it.kind == "text" and box[1] <= it.box[1] < box[3]]
    if not any(it.text.endswith(("…", ELLIPSIS)) for it in shown):
        return None
    foci = [it for it in items if it.kind == "focus"]
    band = foci[-1].box[3] - foci[-1].box[1] if foci else 0
    if len(shown) < ANNOUNCE_LINES and HEIGHT - band - (box[3] - box[1]) >= ROW:
        need = len(wrap(s.toast, TOAST_W))
        return f"announcement cut to {len(shown)} of {need} lines with room for more: {s.toast!r}"
    return None


#: what the walks drew: (frames, distinct screens) per (game, seed), printed with -s
COUNTS: dict[tuple[str, int], tuple[int, int]] = {}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_contract_on_every_screen(game: str, seed: int, pieces: Pieces) -> None:
    """Every frame of the walk is drawn: no toast covers the row OK acts on, no UP/DOWN is silent, an announcement
    is cut only when there is no room, the cursor comes back to the entry left; from each new screen BACK is pressed
    until it stops, and it never goes round in a circle."""
    problems: list[str] = []
    probed: set[tuple[str, str]] = set()
    frames = 0
    before = b""
    seq, depth, menu = -1, 0, False
    for ev, s in walk_events(game, seed=seed, steps=STEPS):
        pieces.clear()
        after = s.render().tobytes()
        frames += 1
        where = s.overlays[-1].title if s.overlays else s.prompt().title
        problems += [f"{where} (toast {s.toast!r}): {p}" for p in covered_focus(list(pieces))]
        if isinstance(ev, KeyEvent) and (err := silent_move(ev, before, after, s)):
            problems.append(err)
        if (err := cut_with_room(s, list(pieces))) is not None:
            problems.append(f"{where}: {err}")
        if isinstance(ev, KeyEvent) and ev.key is Key.OK and s.prompt_seq != seq and len(s.undo_stack) == depth + 1 \
                and not menu and not s.overlays and type(s.screen).__name__ == "ChoiceScreen" \
                and (key := came_from(s)) is not None:  # an answer (not the menu's Redo), not a round trip
            at = s.screen.list.items[s.screen.list.cursor].key
            if at != key:
                problems.append(f"{where}: back from {key!r}, the cursor is on {at!r}")
        before, seq, depth, menu = after, s.prompt_seq, len(s.undo_stack), bool(s.overlays)
        key2 = (type(s.prompt()).__name__, s.prompt().title)
        if not s.overlays and key2 not in probed:
            probed.add(key2)
            err = back_loop(s)
            if err:
                problems.append(err)
    COUNTS[(game, seed)] = (frames, len(probed))
    print(f"walk {game} seed {seed}: {frames} frames, {len(probed)} screens")
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
