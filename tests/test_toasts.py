"""Toasts and announcements: each new message restarts the timer; what the game announces (who starts, a tie and a
re-roll, the dealer, a result) stays until the next press; the undo toast names the action undone."""
from __future__ import annotations

from pathlib import Path

from companion.loop.app import TOAST_SECONDS, toast_seconds
from companion.events import Key, KeyEvent, RollerState, RollerStatusEvent, RollEvent, TickEvent
from companion.games import load
from companion.session import Session
from conftest import EXAMPLES
from test_app import make_app, press


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_new_toast_restarts_the_timer(tmp_path: Path) -> None:
    clock = Clock()
    app, _ = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"), clock=clock)
    app.dispatch(RollerStatusEvent(RollerState.CONNECTED, "pico"))
    assert app.toast_until == TOAST_SECONDS
    clock.t = 2.0  # a second message before the first one's time is up
    app.dispatch(RollerStatusEvent(RollerState.OFFLINE, ""))
    assert app.toast_until == 2.0 + toast_seconds(app.session.toast)
    clock.t = TOAST_SECONDS + 0.1
    app.dispatch(TickEvent())
    assert app.session.toast and app.session.toast.startswith("Roller offline"), "the second toast got its full time"
    clock.t = app.toast_until
    app.dispatch(TickEvent())
    assert app.session.toast is None


def test_a_second_roll_shown_soon_after_the_first_gets_its_full_time(tmp_path: Path) -> None:
    clock = Clock()
    app, _ = make_app(tmp_path, game=str(EXAMPLES / "race-to-ten.toml"), clock=clock)
    press(app, "ok", "ok")  # 2 players, start: the roll-off
    app.dispatch(RollEvent("d6", (2,), roller="pico"))
    first = app.session.toast
    assert first and "2" in first
    clock.t = 1.0
    app.dispatch(RollEvent("d6", (5,), roller="pico"))
    assert app.session.toast != first
    assert app.toast_until is None or app.toast_until >= 1.0 + TOAST_SECONDS


def test_who_starts_and_a_tie_are_announced_until_the_next_press() -> None:
    s = Session(load(str(EXAMPLES / "race-to-ten.toml")), seed=1, presets=["Ana", "Ben"], options={})
    s.handle(KeyEvent(Key.OK))  # 2 players
    s.handle(KeyEvent(Key.OK))  # start
    s.handle(RollEvent("d6", (4,)))
    s.handle(RollEvent("d6", (4,)))
    assert s.toast_sticky and "Tie: Ana, Ben roll again" in (s.toast or "")
    s.handle(RollEvent("d6", (6,)))
    s.handle(RollEvent("d6", (1,)))
    assert s.toast_sticky and "Ana goes first" in (s.toast or "")
    assert "6" in (s.toast or ""), "the roll itself is still said first"
    s.handle(KeyEvent(Key.DOWN))
    assert s.toast is None and not s.toast_sticky


def test_an_announcement_does_not_time_out(tmp_path: Path) -> None:
    clock = Clock()
    app, _ = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"), clock=clock)
    press(app, "ok", "ok", "down", "ok")  # 3 players, start, Ben goes first
    assert app.session.toast_sticky and "Ben goes first" in (app.session.toast or "")
    assert app.toast_until is None
    clock.t = 600.0
    app.dispatch(TickEvent())
    assert app.session.toast and "Ben goes first" in app.session.toast


def test_the_dealer_is_announced() -> None:
    s = Session(load("sovereigns-chain"), seed=4, presets=["Ana", "Ben", "Cleo"], options={})
    s.handle(KeyEvent(Key.UP))  # 3 players
    for _ in range(40):
        s.handle(KeyEvent(Key.OK))  # the first option each time: "Random" on the dealer screen
        dealt = [n for n in (s.game.data["log"] if s.game is not None else []) if n.startswith("Dealer:")]
        if dealt:
            assert s.toast_sticky and dealt[0] in (s.toast or "")
            return
    raise AssertionError("never got to the dealer")


def test_undo_names_the_action_not_the_screen() -> None:
    s = Session(load(str(EXAMPLES / "vp-tracker.toml")), seed=1, presets=["Ana", "Ben", "Cleo"], options={})
    for k in ("ok", "ok", "down", "ok"):
        s.handle(KeyEvent(Key(k)))
    assert s.undo() == "Undone: Ben (Who goes first?)"


def test_a_battle_result_is_announced_whole() -> None:
    """The roll summary gives way rather than push the game's own result out of the box (it was cut at "wins…")."""
    from companion.ui.draw import ELLIPSIS, wrap
    from companion.ui.widgets import ANNOUNCE_LINES, TOAST_W
    from test_sovereign_play import SCRIPT

    s = Session(load("sovereign"), seed=5, presets=["Ana", "Ben", "Cleo"], options={})
    seen = []
    for line in SCRIPT.splitlines():
        if not line or line.startswith("#"):
            continue
        word, *rest = line.split()
        s.handle(RollEvent(rest[0], tuple(int(v) for v in rest[1:])) if word == "roll" else KeyEvent(Key(word)))
        if s.toast_sticky and "wins the roll" in (s.toast or ""):
            seen.append(s.toast or "")
    assert seen, "the battle roll was announced"
    for toast in seen:
        lines = wrap(toast, TOAST_W)
        assert len(lines) <= ANNOUNCE_LINES and not lines[-1].endswith(ELLIPSIS), lines


def test_an_announcement_too_long_for_its_box_says_where_the_rest_is() -> None:
    from PIL import Image

    from companion.ui.draw import new_frame
    from companion.ui.widgets import ANNOUNCE_LINES, ANNOUNCE_MORE, draw_toast

    long = ". ".join(f"Dev captures Ben's City {i} (5 tiles) as City {i + 20}" for i in range(3))
    img, d = new_frame()
    draw_toast(d, long, ANNOUNCE_LINES, ANNOUNCE_MORE)
    img2, d2 = new_frame()
    draw_toast(d2, ANNOUNCE_MORE, 1)
    # the last row of the box is the "more" line, drawn exactly as it is alone
    assert img.crop((0, 54, 128, 64)).tobytes() == img2.crop((0, 54, 128, 64)).tobytes()
    assert isinstance(img, Image.Image)
