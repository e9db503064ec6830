"""The glance view and kindness to the OLED: after a few idle seconds the player being waited on is shown in large
type; later the screen dims, later still it blanks; any press wakes it without acting; the frame shifts a pixel
now and then."""
from __future__ import annotations

from pathlib import Path

from companion.config.load import ScreenConfig, parse_config
from companion.events import Key, KeyEvent, TickEvent
from companion.ui.idle import SHIFTS, Idle, Level, shifted
from companion.ui import draw
from companion.ui.glance import Glance, render_glance
from conftest import EXAMPLES
from test_app import make_app, press
from test_toasts import Clock


def waiting_app(tmp_path: Path, clock: Clock, **screen: int):  # type: ignore[no-untyped-def]
    app, out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"), clock=clock)
    app.apply_config(parse_config({**{"journal": {"path": str(tmp_path / "j.sqlite")}}, "screen": screen}))
    press(app, "ok", "ok", "down", "ok")  # 3 players, start, Ben goes first
    press(app, "down")  # a cursor move: clears the "Ben goes first" announcement
    return app, out


def test_the_glance_view_comes_after_idle_seconds_and_the_next_press_only_wakes(tmp_path: Path) -> None:
    clock = Clock()
    app, out = waiting_app(tmp_path, clock, glance_seconds=8)
    assert app.idle_deadline() == 8.0
    clock.t = 8.0
    app.dispatch(TickEvent())
    assert app.idle.level is Level.GLANCE
    assert out.frames[-1].tobytes() == render_glance(app.glance()).tobytes()  # type: ignore[arg-type]
    inputs, before = app.session.n_inputs, app.session.prompt()
    press(app, "ok")
    assert app.idle.level is Level.AWAKE and app.session.n_inputs == inputs and app.session.prompt() == before, \
        "the press that wakes the screen is not an answer"
    assert out.frames[-1].tobytes() == app.session.render().tobytes()


def test_dim_then_blank_then_any_press_wakes(tmp_path: Path) -> None:
    clock = Clock()
    app, out = waiting_app(tmp_path, clock, glance_seconds=0, dim_minutes=1, blank_minutes=2, shift_minutes=0)
    sent: list[int] = []
    app.output.set_contrast = sent.append  # type: ignore[attr-defined]
    clock.t = 60.0
    app.dispatch(TickEvent())
    assert app.idle.level is Level.DIM and sent[-1] < app.cfg.display.contrast
    clock.t = 120.0
    app.dispatch(TickEvent())
    assert app.idle.level is Level.BLANK and out.frames[-1].getbbox() is None
    n = app.session.n_inputs
    press(app, "down")
    assert app.idle.level is Level.AWAKE and sent[-1] == app.cfg.display.contrast and app.session.n_inputs == n
    assert out.frames[-1].getbbox() is not None


def test_the_frame_shifts_a_pixel_now_and_then(tmp_path: Path) -> None:
    clock = Clock()
    idle = Idle(ScreenConfig(shift_minutes=2), clock)
    seen = set()
    for minute in range(0, 10, 2):
        clock.t = minute * 60.0
        seen.add(idle.offset())
    assert seen == set(SHIFTS)
    img, d = draw.new_frame()
    d.point((5, 5), fill=1)
    assert shifted(img, (1, 1)).getpixel((6, 6)) == 1 and shifted(img, (1, 1)).getpixel((5, 5)) == 0


def test_the_glance_view_names_the_player_in_large_type() -> None:
    img = render_glance(Glance("Cleopatra", 3, "Build", "Roll d6"))
    name_rows = [y for y in range(12, 40) if any(img.getpixel((x, y)) for x in range(128))]
    assert name_rows and name_rows[-1] - name_rows[0] + 1 >= 14


def test_idle_settings_come_from_the_screen_table() -> None:
    cfg = parse_config({"screen": {"glance_seconds": 5, "dim_minutes": 3, "blank_minutes": 0, "shift_minutes": 1}})
    assert cfg.screen == ScreenConfig(glance_seconds=5, dim_minutes=3, blank_minutes=0, shift_minutes=1)
    assert KeyEvent(Key.OK) is not None


def test_an_announcement_too_long_for_the_glance_view_says_a_key_shows_it_all() -> None:
    from companion.ui.glance import GLANCE_MORE
    from companion.ui.widgets import draw_toast

    result = "Battle 1, roll 1: Cleo 9+2=11 v Ben 12+1+3+0=16: Ben wins the roll. Battle 1: Cleo's Unit 2-0-0 is lost"
    img = render_glance(Glance("Ben", 1, "Battle", "Attack 1/7"), result)
    alone, d = draw.new_frame()
    draw_toast(d, GLANCE_MORE, 1)
    assert img.crop((0, 54, 128, 64)).tobytes() == alone.crop((0, 54, 128, 64)).tobytes()
    short = render_glance(Glance("Ben", 1, "Battle", "Attack 1/7"), "Ben goes first")
    assert short.crop((0, 54, 128, 64)).tobytes() != alone.crop((0, 54, 128, 64)).tobytes()


def test_the_press_that_ends_the_glance_view_keeps_the_announcement_up(tmp_path: Path) -> None:
    clock = Clock()
    app, out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"), clock=clock)
    app.apply_config(parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}, "screen": {"glance_seconds": 8}}))
    press(app, "ok", "ok", "down", "ok")  # 3 players, start, Ben goes first: announced
    clock.t = 8.0
    app.dispatch(TickEvent())
    assert app.idle.level is Level.GLANCE
    press(app, "ok")
    assert app.idle.level is Level.AWAKE and "Ben goes first" in (app.session.toast or ""), \
        "the announcement is read on the working screen after the glance"
