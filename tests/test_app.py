"""The event loop: journal before draw, boot into the game in progress after a pulled plug, home menus."""
from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

from PIL import Image

from companion.loop.app import App
from companion.config.load import Config, GamesConfig, parse_config
from companion.events import Key, KeyEvent, QuitEvent, RollerState, RollerStatusEvent, RollEvent
from companion.journal.store import Journal
from conftest import EXAMPLES


class FakeOutput:
    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.leds: list[tuple[int | None, bool]] = []
        self.alerts: list[tuple[int, ...]] = []
        self.roller: RollerState | None = None
        self.closed = False

    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.frames.append(frame)
        self.leds.append((active, waiting))
        self.alerts.append(alerts)

    def set_roller(self, state: RollerState, detail: str) -> None:
        self.roller = state

    def close(self, farewell: Image.Image | None = None) -> None:
        self.closed = True


def make_app(tmp_path: Path, game: str | None = None, **kw: Any) -> tuple[App, FakeOutput]:
    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")},
                        "games": {"folder": str(EXAMPLES)}})
    out = FakeOutput()
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), out, game=game, **kw)
    app.boot()
    app.draw()
    return app, out


def press(app: App, *keys: str) -> None:
    for k in keys:
        app.dispatch(KeyEvent(Key(k)))


def test_new_game_from_home_menu_then_plug_pulled_boots_back_exactly(tmp_path: Path) -> None:
    app, out = make_app(tmp_path)
    assert app.session is None
    press(app, "ok")  # New game
    labels = [it.label for it in app.home.stack[-1][2].items]
    assert any("VP tracker" in label for label in labels), labels
    idx = next(i for i, label in enumerate(labels) if "VP tracker" in label)
    press(app, *["down"] * idx, "ok")
    assert app.session is not None
    press(app, "ok", "ok", "down", "ok")  # 3 players, start, Ben goes first
    press(app, "down", "ok", "up", "up", "ok")  # Ben's VP to 2
    press(app, "down")  # move the cursor: not a game action, but resume must keep it
    frame = out.frames[-1].tobytes()
    state = app.session.state_json()
    # pull the plug: no shutdown, the process is gone
    app2, out2 = make_app(tmp_path)
    assert app2.session is not None, "did not boot into the game in progress"
    assert out2.frames[-1].tobytes() == frame
    assert app2.session.state_json() == state
    assert state["active_player"] == 2 and state["players"][1]["vp"] == 2


def test_game_argument_starts_then_resumes_that_game(tmp_path: Path) -> None:
    game = str(EXAMPLES / "race-to-ten.toml")
    app, _ = make_app(tmp_path, game=game)
    assert app.session is not None and app.session.game_cls.game_id == "race-to-ten"
    press(app, "ok", "ok")
    app2, _ = make_app(tmp_path, game=game)
    assert app2.record is not None and app2.record.id == app.record.id
    assert app2.session.n_inputs == 2


def test_end_game_returns_home_and_keeps_it_saved(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    gid = app.record.id
    press(app, "hold", "up", "ok", "up", "ok")  # menu → last item "End game" → confirm "End"
    assert app.session is None
    assert app.journal.game(gid).status == "ended"
    app2, _ = make_app(tmp_path)
    assert app2.session is None, "an ended game must not be resumed at boot"


def test_roll_without_a_game_counts_for_fairness(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path)
    app.dispatch(RollEvent("d6", (4, 2), roller="pico"))
    assert app.journal.physical_rolls() == {("pico", "d6"): [4, 2]}
    assert app.home.toast and "no game" in app.home.toast


def test_roller_roll_answers_the_dice_prompt_and_is_journaled(tmp_path: Path) -> None:
    app, out = make_app(tmp_path, game=str(EXAMPLES / "race-to-ten.toml"))
    app.dispatch(RollerStatusEvent(RollerState.CONNECTED, "/dev/ttyACM0"))
    assert out.roller is RollerState.CONNECTED
    press(app, "ok", "ok")  # 2 players, start: roll-off
    assert out.leds[-1] == (1, True), "Ana's LED must blink while the companion waits for her roll"
    app.dispatch(RollEvent("d6", (5,), roller="pico"))
    app.dispatch(RollEvent("d6", (2,), roller="pico"))
    assert app.session.game.state == "playing"
    assert app.journal.physical_rolls() == {("pico", "d6"): [5, 2]}
    assert [d["values"] for d in app.session.dice_history] == [[5], [2]]


def test_loop_blocks_then_quits_and_pings_the_watchdog(tmp_path: Path) -> None:
    class Notifier:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def watchdog_interval(self) -> float:
            return 0.05

        def ready(self, status: str = "") -> None:
            self.calls.append("ready")

        def ping(self) -> None:
            self.calls.append("ping")

        def stopping(self) -> None:
            self.calls.append("stopping")

    n = Notifier()
    app, out = make_app(tmp_path, notifier=n)
    t = threading.Thread(target=app.run)
    t.start()
    threading.Event().wait(0.3)
    app.events.put(QuitEvent())
    t.join(5)
    assert not t.is_alive()
    app.shutdown()
    assert n.calls[0] == "ready" and n.calls.count("ping") >= 3 and n.calls[-1] == "stopping"
    assert out.closed


def test_config_defaults_make_a_working_config() -> None:
    cfg = Config()
    assert cfg.dice.sources == ("roller", "typed", "rng") and isinstance(cfg.games, GamesConfig)


def test_a_display_fault_mid_game_loses_nothing(tmp_path: Path) -> None:
    from companion.errors import HardwareError

    app, out = make_app(tmp_path, game=str(EXAMPLES / "race-to-ten.toml"))
    real = out.present
    out.present = lambda *a: (_ for _ in ()).throw(HardwareError("no OLED answered"))  # type: ignore[method-assign]
    press(app, "ok", "ok")
    assert app.session.n_inputs == 2 and app.journal.count_inputs(app.record.id) == 2
    out.present = real  # type: ignore[method-assign]
    press(app, "down")
    assert out.frames[-1].tobytes() == app.frame().tobytes()


def test_dice_fairness_page_lists_each_roller_and_die(tmp_path: Path) -> None:
    from companion.journal.store import RollRecord
    from companion.ui.menus import fairness_lines

    app, _ = make_app(tmp_path)
    app.journal.record_rolls([RollRecord("pico", "roller", "d6", v) for v in [6] * 40])
    app.journal.record_rolls([RollRecord("pico", "roller", "d20", 3)])
    lines = fairness_lines(app)
    assert lines[0].startswith("pico d20: not checked")
    assert lines[1] == "pico d6: n=40  SUSPECT", "forty sixes in a row must be flagged"
    press(app, "down", "down", "ok")  # the page opens from the home menu
    assert app.home.stack[-1][1] == "Dice fairness"


def test_roller_coming_and_going_shows_on_screen(tmp_path: Path) -> None:
    app, out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    app.dispatch(RollerStatusEvent(RollerState.CONNECTED, "pico on /dev/ttyACM0"))
    assert app.session.toast == "Roller connected" and out.roller is RollerState.CONNECTED
    app.dispatch(RollerStatusEvent(RollerState.OFFLINE, ""))
    assert app.session.toast.startswith("Roller offline") and out.roller is RollerState.OFFLINE
    press(app, "ok")
    assert app.session.toast is None, "a toast goes at the next press"


def finish_vp_game(app: App) -> None:
    """2 players, Ana first, five rounds of OK, OK: game over."""
    press(app, "down", "ok", "ok", "ok")
    press(app, *["ok", "ok"] * 5)
    assert app.session.game.is_over


def test_undo_out_of_game_over_is_resumed_after_a_power_cut(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    finish_vp_game(app)
    assert app.journal.game(app.record.id).status == "finished"
    press(app, "hold", "down", "ok")  # undo the last turn
    assert not app.session.game.is_over
    assert app.journal.game(app.record.id).status == "active"
    app2, _ = make_app(tmp_path)
    assert app2.session is not None and app2.session.state_json() == app.session.state_json()


def test_an_ended_game_resumed_from_the_list_stays_open(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    gid = app.record.id
    press(app, "ok", "ok", "hold", "up", "ok", "up", "ok")  # start, then End game
    assert app.session is None and app.journal.game(gid).status == "ended"
    press(app, "ok", "ok", "ok", "ok")  # Resume a saved game → Ended games → the game → Play it on again
    assert app.session is not None and app.journal.game(gid).status == "active"
    press(app, "down")
    assert app.session is not None, "the replayed End must not throw the table out again"
