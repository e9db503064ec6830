"""The game clock: every mode under a fake clock, the app's deadline, the flag, pause, power cut, the LED, digits."""
from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from companion.loop.app import App
from companion.session.clock import ClockSpec, ClockSpecError, GameClock
from companion.config.load import Config
from companion.events import EntryEvent, Event, Key, KeyEvent, TickEvent
from companion.journal.store import Journal
from fsm.clock_option import ClockOption
from fsm.sovereign_chess import SovereignChessGame


def clock(text: str) -> GameClock:
    return GameClock(ClockSpec.parse(text), [1, 2])


def test_sudden_death_counts_down_and_flags() -> None:
    c = clock("sudden 60")
    c.switch(1, 0.0)
    assert c.shown(1, 0.0) == "1:00" and c.shown(1, 0.4) == "1:00" and c.shown(1, 1.0) == "0:59"
    c.switch(2, 10.0)
    assert c.left[1] == 50_000 and c.shown(1, 99.0) == "0:50"  # stopped while the other seat runs
    c.switch(1, 20.0)
    assert c.flag_due(69.9) is None and c.flag_due(70.0) == 1


def test_fischer_adds_the_increment_after_each_move() -> None:
    c = clock("fischer 60+5")
    c.switch(1, 0.0)
    c.switch(2, 3.0)
    assert c.left[1] == 62_000  # 60 - 3 + 5


def test_bronstein_gives_back_at_most_the_delay() -> None:
    c = clock("bronstein 60+5")
    c.switch(1, 0.0)
    c.switch(2, 3.0)
    assert c.left[1] == 60_000  # used 3, back 3
    c.switch(1, 13.0)
    assert c.left[2] == 55_000  # used 10, back 5


def test_simple_delay_starts_counting_after_the_delay() -> None:
    c = clock("delay 60+5")
    c.switch(1, 0.0)
    assert c.shown(1, 2.0) == "1:00" and c.shown(1, 5.5) == "1:00" and c.shown(1, 6.5) == "0:59"
    assert c.next_change(2.0) == 5.0  # the display stands still through the delay: no wake-ups
    assert c.remaining_ms(1, 4.0) == 60_000
    c.switch(2, 8.0)
    assert c.left[1] == 57_000
    assert c.next_change(8.0) == 13.0


def test_byoyomi_periods() -> None:
    c = clock("byoyomi 10 3x5")
    c.switch(1, 0.0)
    assert c.shown(1, 9.5) == "0:01"
    assert c.shown(1, 12.0) == "3x0:03"  # main time gone, first period running
    c.switch(2, 14.0)  # moved within the period: it is kept, the period resets
    assert (c.left[1], c.periods[1]) == (0, 3)
    c.switch(1, 15.0)
    assert c.shown(1, 21.0) == "2x0:04"  # one period used up
    assert c.flag_due(29.9) is None and c.flag_due(30.0) == 1


def test_pause_stops_the_running_seat() -> None:
    c = clock("sudden 60")
    c.switch(1, 0.0)
    c.pause(10.0)
    assert c.remaining_ms(1, 500.0) == 50_000 and c.next_change(500.0) is None
    c.resume(500.0)
    assert c.remaining_ms(1, 501.0) == 49_000


def test_state_round_trip_charges_nothing_while_off() -> None:
    c = clock("fischer 60+5")
    c.switch(1, 0.0)
    c.switch(2, 4.0)
    saved = c.state(6.0)
    d = clock("fischer 60+5")
    d.load(saved)
    d.resume(10_000.0)
    assert d.remaining_ms(1, 10_000.0) == 61_000 and d.remaining_ms(2, 10_000.0) == 58_000


def test_next_change_is_the_next_second_boundary() -> None:
    c = clock("sudden 60")
    c.switch(1, 0.0)
    assert c.next_change(0.0) == 1.0 and c.next_change(0.25) == pytest.approx(1.0)
    c.left[1] = 500
    assert c.next_change(0.0) == 0.5  # the flag


@pytest.mark.parametrize("text", ["fischer", "sudden x", "byoyomi 60 5", "nonsense 1", "fischer 0+5", ""])
def test_bad_clock_text_is_one_line(text: str) -> None:
    with pytest.raises(ClockSpecError, match="clock"):
        ClockSpec.parse(text)


def test_clock_option_checks_config() -> None:
    assert ClockOption().check("sovereign-chess", "clock", "fischer 300+5") == "fischer 300+5"
    with pytest.raises(ValueError, match=r"^\[games.sovereign-chess\] clock: clock 'fast': write none"):
        SovereignChessGame.resolve_options({"clock": "fast"})


def test_toml_clock_table() -> None:
    spec = ClockSpec.from_table({"mode": "byoyomi", "main": 600, "period": 30, "periods": 5})
    assert spec.text == "byoyomi 600 5x30"
    with pytest.raises(ClockSpecError, match="no key 'incr'"):
        ClockSpec.from_table({"mode": "fischer", "main": 60, "incr": 5})


# ------------------------------------------------------------------ through the app, with a fake monotonic clock
class Out:
    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.leds: list[tuple[int | None, bool, tuple[int, ...]]] = []

    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.frames.append(frame)
        self.leds.append((active, waiting, tuple(alerts)))

    def set_roller(self, *args: Any) -> None:
        pass

    def close(self, farewell: Image.Image | None = None) -> None:
        pass


class Table:
    """An app on a journal file with a fake monotonic clock."""

    def __init__(self, path: Path, t: list[float], cfg: Config | None = None) -> None:
        self.t = t
        self.out = Out()
        self.events: "queue.SimpleQueue[Event]" = queue.SimpleQueue()
        self.app = App(cfg or Config(), Journal(path), self.events, self.out, clock=lambda: self.t[0],
                       game="sovereign-chess")
        self.app.boot()

    def key(self, name: str, dt: float = 0.0) -> None:
        self.t[0] += dt
        self.app.dispatch(KeyEvent(Key(name)))

    def move(self, text: str, dt: float = 0.0) -> None:
        self.t[0] += dt
        self.app.dispatch(EntryEvent("move", text))
        assert self.app.session is not None and self.app.session.refused is None

    def wait(self, dt: float) -> None:
        """Sleep like the loop does: to each deadline in turn."""
        end = self.t[0] + dt
        while True:
            nxt = self.app.clock_deadline()
            if nxt is None or nxt > end:
                break
            self.t[0] = max(self.t[0], nxt)
            self.app.dispatch(TickEvent())
        self.t[0] = end

    @property
    def state(self) -> dict[str, Any]:
        assert self.app.session is not None
        return self.app.session.state_json()


def start_with_clock(tb: Table, preset_downs: int) -> None:
    """The wizard: Clock → the preset ``preset_downs`` below the current one, Start, Ann moves first."""
    for _ in range(3):
        tb.key("down")
    tb.key("ok")
    for _ in range(preset_downs):
        tb.key("down")
    tb.key("ok")
    tb.key("ok")  # start
    tb.key("down")
    tb.key("ok")  # Ann makes the first move


def test_fischer_game_survives_kill_and_resumes_clocks(tmp_path: Path) -> None:
    t = [1000.0]
    tb = Table(tmp_path / "j.sqlite", t)
    start_with_clock(tb, 2)  # fischer 300+3
    assert tb.app.clock_deadline() == pytest.approx(1001.0)  # the loop wakes at the next second, no sooner
    tb.move("wPi2-i4", 7.0)
    tb.move("reject", 5.0)
    tb.move("bPe15-e13", 1.0)
    tb.wait(12.0)  # Ann thinks 12 s: a checkpoint is journaled on the way
    before = tb.state["clocks"]
    assert before == {"1": pytest.approx(284.0, abs=0.01), "2": pytest.approx(297.0, abs=0.01)}
    # kill -9 (nothing closed), power off for an hour, start again
    t[0] += 3600
    again = Table(tmp_path / "j.sqlite", t)
    assert again.state["moves"] == ["wPi2-i4", "reject", "bPe15-e13"]
    after = again.state["clocks"]
    assert after["2"] == before["2"] and before["1"] <= after["1"] <= before["1"] + 10  # at most 10 s not charged
    again.wait(after["1"] + 0.5)  # Ann's flag falls
    st = again.state
    assert (st["termination"], st["winner"], st["result"]) == ("time", 2, "0-1")
    assert again.app.record is not None and again.app.record.status == "finished"
    assert again.app.clock_deadline() is None  # the clock has stopped: the loop sleeps


def test_pause_and_resume_from_the_game_menu(tmp_path: Path) -> None:
    t = [0.0]
    tb = Table(tmp_path / "j.sqlite", t)
    start_with_clock(tb, 1)  # sudden 600
    tb.wait(5)
    assert tb.app.session is not None
    tb.key("hold")
    items = [it.key for it in tb.app.session.overlays[-1].widget.items]
    for _ in range(items.index("clock")):
        tb.key("down")
    tb.key("ok")
    assert tb.app.clock_deadline() is None  # paused: no wake-ups at all
    tb.wait(1000)
    assert tb.state["clocks"]["1"] == pytest.approx(595.0)
    tb.key("hold")
    for _ in range(items.index("clock")):
        tb.key("down")
    tb.key("ok")
    tb.wait(5)
    assert tb.state["clocks"]["1"] == pytest.approx(590.0)


def test_a_tick_changes_only_the_digits_that_changed(tmp_path: Path) -> None:
    t = [0.0]
    tb = Table(tmp_path / "j.sqlite", t)
    start_with_clock(tb, 1)
    tb.wait(1.0)
    a = tb.out.frames[-1]
    tb.wait(1.0)
    b = tb.out.frames[-1]
    box = ImageChops.difference(a.convert("L"), b.convert("L")).getbbox()
    assert box is not None and box[0] >= 118 and box[2] - box[0] <= 8  # one digit cell: "9:58" → "9:57"


def test_led_flashes_in_the_last_seconds(tmp_path: Path) -> None:
    t = [0.0]
    tb = Table(tmp_path / "j.sqlite", t)
    start_with_clock(tb, 1)  # sudden 600
    tb.wait(585)
    assert tb.out.leds[-1] == (1, True, ())  # waiting for Ann: the usual blink
    tb.wait(6)
    assert tb.out.leds[-1] == (1, True, (1,))  # the last ten seconds: Ann's LED flashes fast


def test_a_toml_game_with_a_clock_table_runs_a_turn_timer(tmp_path: Path) -> None:
    from companion.games.toml_game import load_toml_game
    from companion.session import Session
    from conftest import EXAMPLES

    text = (EXAMPLES / "vp-tracker.toml").read_text() + '\n[clock]\nmode = "sudden"\nmain = 30\n'
    path = tmp_path / "timed.toml"
    path.write_text(text.replace('id = "vp-tracker"', 'id = "timed-vp"'))
    s = Session(load_toml_game(path), seed=1, presets=["Ann", "Bo"], options={})
    for _ in range(3):  # three players, start, the first player: seat 1
        s.handle(KeyEvent(Key.OK), now=0.0)
    assert s.timekeeper is not None and s.game is not None
    seat = s.game.active_seat()
    assert seat is not None and s.timekeeper.clock.running == seat
    flag = s.clock_flag(31.0)
    assert flag is not None and flag.detail == str(seat)
    s.handle(flag, now=31.0)
    assert s.game.data["log"][-1].endswith("time is up") and not s.game.is_over  # a turn timer only says so
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('id = "vp-tracker"', 'id = "bad-vp"').replace('main = 30', 'main = "x"'))
    from companion.errors import GameFileError

    with pytest.raises(GameFileError, match=r"bad.toml: \[clock\] main = 'x' must be a whole number"):
        load_toml_game(bad)


def test_sovereign_offers_a_turn_timer() -> None:
    from companion.games import load
    from companion.session import Session

    s = Session(load("sovereign"), seed=1, presets=["Ann", "Bo"], options={"clock": "sudden 120"})
    from companion.events import RollEvent
    from fsm.prompts import Dice

    values = iter(range(12, 0, -1))  # distinct rolls: no ties
    for _ in range(20):
        if s.game is not None and s.game.active_seat() is not None:
            break
        p = s.prompt()
        if isinstance(p, Dice):
            s.handle(RollEvent(p.die, (next(values) % p.sides + 1,)), now=0.0)
        else:
            s.handle(KeyEvent(Key.OK), now=0.0)
    assert s.game is not None and s.timekeeper is not None
    assert s.timekeeper.clock.running == s.game.active_seat() is not None


def test_a_per_turn_timer_gives_every_turn_the_same_time(tmp_path: Path) -> None:
    """``byoyomi 0 1x30`` (TOML: main 0, one period of 30 s): each turn has 30 s; running out is only said, and the
    next turn of that player has the 30 s again."""
    from companion.games.toml_game import load_toml_game
    from companion.session import Session
    from conftest import EXAMPLES

    timer = '\n[clock]\nmode = "byoyomi"\nmain = 0\nperiod = 30\nperiods = 1\n'
    text = (EXAMPLES / "vp-tracker.toml").read_text() + timer
    path = tmp_path / "timed.toml"
    path.write_text(text.replace('id = "vp-tracker"', 'id = "turn-vp"'))
    s = Session(load_toml_game(path), seed=1, presets=["Ann", "Bo"], options={})
    for _ in range(3):
        s.handle(KeyEvent(Key.OK), now=0.0)
    assert s.game is not None and s.timekeeper is not None
    first = s.game.active_seat()
    assert first is not None and s.timekeeper.clock.shown(first, 0.0) == "1x0:30"
    flag = s.clock_flag(30.0)
    assert flag is not None and flag.detail == str(first)
    s.handle(flag, now=30.0)
    assert s.game.data["log"][-1].endswith("time is up") and not s.game.is_over
    seen = []
    for _ in range(60):  # play on, turn by turn, until the first player's turn comes again
        s.handle(KeyEvent(Key.OK), now=40.0)
        seen.append(s.game.active_seat())
        if seen[-1] == first and len(set(seen)) > 1:
            break
    assert seen[-1] == first and len(set(seen)) > 1
    assert s.timekeeper.clock.shown(first, 40.0) == "1x0:30" and s.clock_flag(69.0) is None
    assert s.clock_flag(70.0) is not None  # 30 s again, no more


def test_a_clock_game_killed_while_its_clock_runs_resumes_from_a_snapshot_as_the_full_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Byo-yomi, played at the table with a snapshot every 16 inputs; the companion is killed (nothing closed) while
    a clock runs, between two checkpoints. It comes back from its latest snapshot (not by replaying everything) to
    exactly what the full replay gives — periods, the running seat, its time used — and plays on."""
    from companion.config.load import parse_config
    from companion.session import snapshot
    from companion.session.headless import replay

    monkeypatch.setattr(snapshot, "EVERY", 16)
    snapshot._SNAPSHOTTERS.clear()
    restored: list[Any] = []
    restore = snapshot.restore
    monkeypatch.setattr(snapshot, "restore", lambda *a: restored.append(restore(*a)) or restored[-1])
    cfg = parse_config({"games": {"sovereign-chess": {"clock": "byoyomi 20 3x10"}}})
    t = [1000.0]
    tb = Table(tmp_path / "j.sqlite", t, cfg)
    for k in ("ok", "down", "ok"):  # start with the configured clock; Ann makes the first move
        tb.key(k)
    for _ in range(30):  # moves entered on the buttons, a press every 2 s
        tb.key("ok", 2.0)
    tb.wait(14.0)  # a period used up on the way, and checkpoints
    for _ in range(20):
        tb.key("ok", 2.0)
    tb.wait(7.0)  # killed 7 s into a turn, its clock running
    live = tb.app.session
    assert live is not None and live.timekeeper is not None and live.timekeeper.clock.running is not None
    before = tb.state["clocks"]
    assert sorted(live.timekeeper.clock.periods.values())[0] < 3 and len(tb.state["moves"]) >= 10
    t[0] += 3600
    again = Table(tmp_path / "j.sqlite", t, cfg)
    s = again.app.session
    assert s is not None and s.timekeeper is not None and again.app.record is not None
    taken = restored[-1]
    assert taken is not None and taken[1] > live.n_inputs - 16, "resumed from its latest snapshot"
    with monkeypatch.context() as m:
        m.setattr(snapshot, "restore", lambda *a: None)
        full = replay(again.app.journal, again.app.record, cfg)[0]
    full.restart_clock(t[0])
    assert s.state_json() == full.state_json() and s.render().tobytes() == full.render().tobytes()
    for a, b in ((s.timekeeper.clock, full.timekeeper.clock), (s.timekeeper.journaled, full.timekeeper.journaled)):
        assert (a.state(t[0]), a.since, a.paused, a.flagged) == (b.state(t[0]), b.since, b.paused, b.flagged)
    after = again.state["clocks"]
    seat = str(s.timekeeper.clock.running)
    assert all(after[k] == v for k, v in before.items() if k != seat)
    assert before[seat] <= after[seat] <= before[seat] + 10  # at most the time since the last checkpoint is lost
    again.wait(after[seat] + 0.5)  # played on: its flag falls when its time, periods included, is up
    st = again.state
    assert (st["termination"], st["winner"]) == ("time", 3 - int(seat))
