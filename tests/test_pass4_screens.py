"""Issue #33, the device's screens, item by item as a table would press them (each failed on the code before it).

1 a game can be left and resumed; End ends it (kept out of Resume, under Ended games); Resume rows told apart; New
game opens on the game played last. 3 a phone's answer counts as activity (no glance view right after it). 5 the
cursor after Done and number entries is on the entry the player came from; BACK from a `--game` TOML setup lands on
its row. 6 no screen where UP/DOWN silently do nothing.
"""
from __future__ import annotations

import time
from pathlib import Path

from companion.events import Key, KeyEvent
from companion.games import load
from companion.session import Session
from companion.ui import draw
from test_app import make_app, press as app_press
from test_interaction_contract import press
from conftest import EXAMPLES

VP = str(EXAMPLES / "vp-tracker.toml")


def texts_of(render: object) -> list[str]:
    """The texts a render draws (``render`` is called with a recorder listening)."""
    out: list[str] = []
    rec = (lambda it: out.append(it.text) if it.kind == "text" else None)
    draw.RECORDERS.append(rec)
    try:
        render()  # type: ignore[operator]
    finally:
        draw.RECORDERS.remove(rec)
    return out


# ------------------------------------------------------------------------------------------------ item 1
def test_leave_game_keeps_it_active_and_resume_plays_it_on(tmp_path: Path) -> None:
    app, _out = make_app(tmp_path, game=VP)
    gid = app.record.id
    app_press(app, "ok", "ok")  # start: Ana goes first
    before = app.session.state_json()
    app_press(app, "hold", "up", "up", "ok")  # the game menu from the bottom: End game, then Leave
    assert app.session is None and app.journal.game(gid).status == "active"
    assert app.home.toast == "Game kept: Resume a saved game has it"
    home = app.home.stack[-1][2]
    assert home.items[home.cursor].key == "resume"
    app_press(app, "ok")  # Resume: the game kept, with when and who
    rows = app.home.stack[-1][2].list.items
    assert rows[0].key == str(gid) and "VP tracker" in rows[0].label and "Ana, Ben" in rows[0].hint
    assert rows[0].hint.split("\n")[0] == "VP tracker"
    app_press(app, "ok", "ok")  # its page, Resume this game
    assert app.session is not None and app.session.state_json()["active_player"] == before["active_player"]
    assert app.journal.game(gid).status == "active"


def test_end_game_ends_it_and_keeps_it_out_of_resume(tmp_path: Path) -> None:
    app, _out = make_app(tmp_path, game=VP)
    gid = app.record.id
    app_press(app, "ok", "ok", "hold", "up", "ok")  # End game?
    texts = texts_of(app.session.render)
    assert "End this game for good?" in texts and "Leave: resume later." in texts
    app_press(app, "up", "ok")
    assert app.session is None and app.journal.game(gid).status == "ended"
    app2, _ = make_app(tmp_path)  # the plug pulled: an ended game is not booted into
    assert app2.session is None
    app_press(app2, "down", "ok")
    assert [it.key for it in app2.home.stack[-1][2].list.items] == ["ended"], "ended games are kept out of Resume"
    app_press(app2, "ok")
    assert app2.home.stack[-1][1] == "Ended games" and app2.home.stack[-1][2].list.items[0].key == str(gid)


def test_resume_rows_tell_two_games_of_a_kind_apart(tmp_path: Path) -> None:
    """Two Sovereign Chess games: each row says when it was played; the line under the list, who and which round."""
    app, _out = make_app(tmp_path)
    j = app.journal
    a = j.new_game("sovereign-chess", "Sovereign Chess", 1, {})
    j.set_status(a, "active", "Sovereign Chess: round 3, Ana's turn; Ana, Ben")
    j.db.execute("UPDATE games SET updated=? WHERE id=?", (time.time() - 7200, a))
    b = j.new_game("sovereign-chess", "Sovereign Chess", 2, {})
    j.set_status(b, "active", "Sovereign Chess: round 12, Dev's turn; Cleo, Dev")
    app.home.reset()
    app_press(app, "down", "ok")
    rows = app.home.stack[-1][2].list.items
    assert [r.key for r in rows] == [str(b), str(a)]
    assert rows[0].label != rows[1].label and rows[0].label.startswith(time.strftime("%H:%M", time.localtime(j.game(b).updated)))
    assert rows[0].hint == "Sovereign Chess\nround 12, Dev's turn; Cleo, Dev"
    assert "round 12, Dev's turn; Cleo, Dev" in texts_of(app.home.render)
    app_press(app, "down")
    assert "round 3, Ana's turn; Ana, Ben" in texts_of(app.home.render)


def test_new_game_opens_on_the_game_played_last(tmp_path: Path) -> None:
    app, _out = make_app(tmp_path)
    app_press(app, "ok")
    games = app.home.stack[-1][2]
    i = next(n for n, it in enumerate(games.items) if it.key == "sovereign")
    app_press(app, *["down"] * i, "ok", "hold", "up", "up", "ok")  # start Sovereign, leave it
    assert app.session is None
    app_press(app, "up", "ok")  # New game
    games = app.home.stack[-1][2]
    assert games.items[games.cursor].key == "sovereign"


def test_back_from_a_toml_setup_given_by_path_lands_on_its_row(tmp_path: Path) -> None:
    """`make run ARGS="--game examples/vp-tracker.toml"`, BACK on Players: the list opens on VP tracker (the list
    holds the shipped copy of the example, the journal the path given)."""
    from companion.config.load import parse_config
    import queue
    from companion.journal.store import Journal
    from companion.loop.app import App
    from test_app import FakeOutput

    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}})  # no games folder: the shipped examples
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), FakeOutput(), game=VP)
    app.boot()
    app_press(app, "back")
    kind, _title, games = app.home.stack[-1]
    assert kind == "new" and Path(games.items[games.cursor].key).name == "vp-tracker.toml"


# ------------------------------------------------------------------------------------------------ item 3
class QuietHub:
    """The web view's hub as the loop sees it, without a server: what was answered to the phone is kept."""

    address = None

    def __init__(self) -> None:
        from types import SimpleNamespace

        self.said: list[tuple[bool, str]] = []
        self.pairing = SimpleNamespace(pending=lambda: [], phones=lambda: [])

    def publish(self, *args: object) -> None:
        pass

    def wake(self) -> None:
        pass

    def answered(self, ref: str, ok: bool, text: str) -> None:
        self.said.append((ok, text))


def test_a_phone_answer_counts_as_activity_so_the_next_player_is_not_met_by_the_glance_view(tmp_path: Path) -> None:
    """Ben answers on his phone after 40 s with no button pressed: Cleo's turn comes up as the working screen, and
    her first press acts (it used to only bring the screen back from the glance view)."""
    from companion.events import AnswerEvent, TickEvent
    from companion.ui.idle import Level
    from test_idle import waiting_app
    from test_toasts import Clock

    clock = Clock()
    app, _out = waiting_app(tmp_path, clock, glance_seconds=30)
    app.web = QuietHub()
    assert app.session.prompt().player == 2
    clock.t = 40.0
    app.dispatch(AnswerEvent("done", app.session.prompt_seq, "web:seat2", "r1"))
    assert app.web.said == [(True, "")] and app.session.prompt().player == 3
    app.dispatch(TickEvent())
    assert app.idle.level is Level.AWAKE, "the glance view came at once after a phone's answer"
    n = app.session.n_inputs
    app.dispatch(KeyEvent(Key.DOWN))
    assert app.session.n_inputs == n + 1, "Cleo's first press was eaten"


# ------------------------------------------------------------------------------------------------ item 5
def on(s: Session) -> str:
    w = s.screen.list
    return str(w.items[w.cursor].key)


def test_spend_opens_on_what_can_be_done_and_comes_back_to_the_entry_used() -> None:
    """After Collect the cursor is not on "Done: to Move" (one careless OK ended the step); after a purchase it is
    on the entry just used, and on Done only when nothing else can be done."""
    from test_interaction_contract import spend_after_collect

    s = spend_after_collect()
    assert s.prompt().title == "Spend" and on(s) == "research"
    press(s, "down", "ok", "ok")  # Expand a city, the first terrain: River 2
    assert s.prompt().title == "Spend" and on(s) == "expand"
    press(s, "ok", "ok")  # again: 0 points left
    assert on(s) == "done", "nothing else can be done: Done"


def test_after_a_number_entry_the_cursor_is_on_the_row_adjusted() -> None:
    s = Session(load(str(EXAMPLES / "race-to-ten.toml")), seed=0, presets=["Ana", "Ben"], options={})
    press(s, "ok", "ok", "roll d6 6", "roll d6 1")
    assert s.prompt().title == "Income" and on(s) == "done"
    press(s, "down", "ok", "up", "up", "ok")  # Ana Gold 3 -> 5
    assert s.prompt().title == "Income" and on(s) == "adj:1:gold"


def test_a_screen_that_moves_on_by_design_keeps_its_next_entry() -> None:
    """SOVERANA's Distribution suggests the next department in turn: OK, OK on each hands the pool out."""
    s = Session(load("soverana"), seed=0, presets=["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"], options={})
    script = Path(__file__).parent / "scripts" / "soverana_tied_ballot_keeps_the_mayor.txt"
    from companion.session.headless import parse_script

    for ln in parse_script(script.read_text())[:49]:
        s.handle(ln.event)
    assert s.prompt().title == "Distribution", s.prompt().title
    first = on(s)
    press(s, "ok", "ok")
    assert on(s) != first and s.prompt().title == "Distribution"


# ------------------------------------------------------------------------------------------------ promise 2
def test_back_on_the_home_menu_says_there_is_nothing_to_go_back_to(tmp_path: Path) -> None:
    """BACK on the home menu changed nothing and said nothing (found by a random walk of the home menus): now it
    says why in one line, and changes nothing else (the cursor stays; a second BACK says it again)."""
    app, out = make_app(tmp_path)
    app_press(app, "down")
    home = app.home.stack[-1][2]
    before = out.frames[-1].tobytes()
    app_press(app, "back")
    assert app.home.toast == "The home menu: nothing to go back to"
    assert out.frames[-1].tobytes() != before, "the press changed nothing on the screen"
    assert len(app.home.stack) == 1 and home.cursor == 1 and app.session is None
    app_press(app, "up")
    assert app.home.toast is None and home.cursor == 0


def test_back_on_the_society_desk_after_a_look_at_a_society_goes_on() -> None:
    """The game master opens Ana's orders, BACKs out to the turn's list, and presses BACK again: it took back the
    look at Ana (the desk notes the last society opened, so it was not dropped as a round trip) and showed the same
    list, the same cursor, no word. Now a BACK that changes nothing in view goes on to the screen before."""
    from companion.session import Session

    s = Session(load("society"), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    press(s, "ok", "ok", "ok", "ok", "back")
    assert s.prompt().title == "Turn 1 orders" and s.toast is None
    frame = s.render().tobytes()
    press(s, "back")
    assert s.render().tobytes() != frame, "BACK changed nothing and said nothing"
    assert s.prompt().title == "Society set-up"


def test_a_held_ok_on_the_home_menus_says_there_is_no_game_menu(tmp_path: Path) -> None:
    """OK held (the game menu) on the home menu, the game list or Settings changed nothing and said nothing."""
    app, out = make_app(tmp_path)
    for opened in ((), ("ok",), ("back", "up", "ok")):  # the home menu, New game's list, Settings
        app_press(app, *opened)
        stack = [kind for kind, _t, _w in app.home.stack]
        before = out.frames[-1].tobytes()
        app_press(app, "hold")
        assert app.home.toast == "No game in play: no game menu", stack
        assert out.frames[-1].tobytes() != before and [k for k, _t, _w in app.home.stack] == stack
        assert app.session is None
