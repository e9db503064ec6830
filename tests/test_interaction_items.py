"""Issue #22, item by item: what a table of newcomers ran into, as they would press it (each failed on the old code).

1 the glance view ambushed readers and swallowed presses; 2 announcements covered the row OK acts on; 3 BACK
ping-pong; 4 BACK and Done lost the cursor; 5 a wrong game pick could not be undone, ended games cluttered Resume;
6 greyed-out entries were stippled unreadable and stopped the cursor; 7 two-button bars were ambiguous; 10 Sovereign
Chess never showed the move just made.
"""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from companion.events import Key, KeyEvent, RollEvent, TickEvent
from companion.games import load
from companion.session import Session
from companion.ui import draw
from companion.ui.draw import BAR, ROW, WIDTH
from companion.ui.idle import Level
from companion.ui.widgets import ConfirmWidget, Item, ListWidget
from fsm.prompts import Dice
from test_app import make_app, press as app_press
from test_interaction_contract import back_loop, chain_abilities_after_event, press, spend_after_collect
from test_toasts import Clock
from conftest import EXAMPLES


def cursor_row(s: Session) -> tuple[int, int]:
    """The pixel rows of the highlighted entry of a plain choice screen, worked out from the layout."""
    w = s.screen.list
    y = BAR + s.screen.n_lines * ROW + (w.cursor - w.top) * ROW
    return y, y + ROW


def band(img: Image.Image, rows: tuple[int, int]) -> bytes:
    return img.crop((0, rows[0], WIDTH, rows[1])).tobytes()


# ------------------------------------------------------------------------------------------------ item 2
def test_an_announcement_leaves_the_row_ok_acts_on_in_view() -> None:
    """Sovereign, "Collect 4 points": the Spend menu comes up under "Ana adds 4 points" with the cursor on "Done: to
    Move". That row must look exactly as it does without the announcement, so the OK is not a blind one."""
    s = spend_after_collect()
    assert s.toast == "Ana adds 4 points" and s.toast_sticky
    rows = cursor_row(s)
    with_toast = s.render()
    toast, s.toast = s.toast, None
    without = s.render()
    s.toast = toast
    assert band(with_toast, rows) == band(without, rows), "the announcement covers the row OK acts on"
    assert with_toast.tobytes() != without.tobytes(), "the announcement is not shown at all"


def test_the_first_city_announcement_keeps_ok_when_placed_in_view() -> None:
    """"Ana starts" came up over "OK when placed" (the line OK answers on Sovereign's First city)."""
    from companion.games import load

    s = Session(load("sovereign"), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    press(s, "ok", "ok", "roll d12 12", "roll d12 1", "roll d12 1")
    assert s.prompt().title == "First city" and "Ana starts" in (s.toast or "")
    img = s.render()
    y = BAR + (len(s.prompt().lines) - 1) * ROW
    toast, s.toast = s.toast, None
    assert band(img, (y, y + ROW)) == band(s.render(), (y, y + ROW))
    s.toast = toast


def test_up_and_down_dismiss_an_announcement_in_the_app(tmp_path: Path) -> None:
    """"Until the next press": UP or DOWN clears it too (a cursor move is a press)."""
    app, _out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    app_press(app, "ok", "ok", "down", "ok")
    assert app.session.toast == "Ben goes first"
    app_press(app, "down")
    assert app.session.toast is None
    app_press(app, "ok", "up", "ok")  # VP 1 for Ben: announced; UP dismisses it
    assert app.session.toast and app.session.toast_sticky
    app_press(app, "up")
    assert app.session.toast is None


# ------------------------------------------------------------------------------------------------ item 1
def waiting(tmp_path: Path, clock: Clock):  # type: ignore[no-untyped-def]
    app, out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"), clock=clock)
    app_press(app, "ok", "ok", "down", "ok")  # 3 players, start, Ben goes first: Ben's turn has just begun
    app_press(app, "down")
    return app, out


def test_the_default_glance_waits_thirty_seconds_and_only_on_a_turns_first_screen(tmp_path: Path) -> None:
    clock = Clock()
    app, out = waiting(tmp_path, clock)
    assert app.cfg.screen.glance_seconds == 30
    clock.t = 29.0
    app.dispatch(TickEvent())
    assert app.idle.level is Level.AWAKE, "a reader is not ambushed after a few seconds"
    clock.t = 30.0
    app.dispatch(TickEvent())
    assert app.idle.level is Level.GLANCE, "the turn has just passed to Ben: the glance shows whose turn it is"
    app_press(app, "down")  # wakes the screen only, and says so
    assert app.idle.level is Level.AWAKE and app.session.toast and "did nothing else" in app.session.toast
    app_press(app, "ok", "up", "ok")  # Ben sets his VP: he is part-way through his turn now
    assert app.session.prompt().title.endswith("Turn") and app.session.prompt().player == 2
    clock.t = 1000.0
    app.dispatch(TickEvent())
    assert app.idle.level is not Level.GLANCE and app.glance() is None, "the glance ambushed a player mid-step"


def test_no_glance_while_dice_are_being_typed(tmp_path: Path) -> None:
    s = Session(load("sovereign"), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    press(s, "ok", "ok")
    assert isinstance(s.prompt(), Dice)
    from companion.ui.glance import glance_for

    assert glance_for(s) is not None
    press(s, "ok")  # Type dice: the spinner for the first value
    assert glance_for(s) is None


# ------------------------------------------------------------------------------------------------ item 3
def test_back_from_the_chains_abilities_menu_never_goes_into_a_submenu_again() -> None:
    """The issue's keys: BACK six times from Abilities after a visit to New event walks back through the game, and
    the cursor stands on New event (E) on the way."""
    s = chain_abilities_after_event()
    titles = []
    for _ in range(6):
        s.handle(KeyEvent(Key.BACK))
        titles.append(s.prompt().title)
    assert titles.count("Abilities") <= 1 and "New event (E)" not in titles[1:], titles
    assert back_loop(chain_abilities_after_event()) is None


# ------------------------------------------------------------------------------------------------ item 4
def soverana_hub() -> Session:
    """SOVERANA, 4 players, Ana the mayor: the first Major event's menu (Into crisis..., ..., Card done)."""
    s = Session(load("soverana"), seed=0, presets=["Ana", "Ben", "Cleo", "Dev"], options={})
    value = 6
    for _ in range(200):
        p = s.prompt()
        if "extra" in [o.key for o in getattr(p, "options", ())]:
            return s
        if isinstance(p, Dice):
            s.handle(RollEvent(p.die, (value,) * p.count))
            value = 1
        else:
            s.handle(KeyEvent(Key.OK))
    raise AssertionError("never reached the event menu")


def on(s: Session) -> str:
    return s.screen.list.items[s.screen.list.cursor].key


def move_to(s: Session, key: str) -> None:
    for _ in range(len(s.screen.list.items)):
        if on(s) == key:
            return
        s.handle(KeyEvent(Key.DOWN))
    raise AssertionError(f"no {key} in the menu")


def test_back_from_extra_to_hand_out_lands_on_extra_to_hand_out() -> None:
    s = soverana_hub()
    move_to(s, "extra")
    press(s, "ok")
    assert s.prompt().title == s.prompt().title and type(s.prompt()).__name__ == "Number"
    press(s, "back")
    assert "extra" in [o.key for o in s.prompt().options] and on(s) == "extra"


def test_done_on_into_crisis_with_nothing_ticked_comes_back_on_into_crisis_and_back_goes_on() -> None:
    s = soverana_hub()
    assert on(s) == "crisis"
    press(s, "ok", "up", "ok")  # into the list, up to Done (at the end), Done with nothing ticked
    assert on(s) == "crisis"
    before = s.prompt().title
    press(s, "back")
    assert s.prompt().title != before or "crisis" not in [o.key for o in getattr(s.prompt(), "options", ())], \
        "BACK went into the crisis list again"


def test_societys_back_from_an_order_list_stands_on_that_society() -> None:
    s = Session(load("society"), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    for _ in range(60):
        if s.prompt().title.startswith("Turn 1 orders"):
            break
        s.handle(KeyEvent(Key.OK))
    press(s, "down")
    assert on(s) == "soc:2"
    press(s, "ok", "back")
    assert s.prompt().title == "Turn 1 orders" and on(s) == "soc:2"


def test_a_number_back_returns_to_shows_the_value_typed() -> None:
    """BACK to a number screen shows what was typed there, not the default again."""
    s = Session(load(str(EXAMPLES / "vp-tracker.toml")), seed=0, presets=["Ana", "Ben", "Cleo"], options={})
    press(s, "ok", "ok", "down", "ok", "down", "ok", "up", "up", "up", "ok")  # Ben: VP 3
    assert "VP: 3" in [it.label for it in s.screen.list.items]
    press(s, "back")
    assert s.screen.spin.value == 3


# ------------------------------------------------------------------------------------------------ item 5
def test_back_on_the_player_count_goes_back_to_the_game_list_and_hides_the_pick(tmp_path: Path) -> None:
    app, _out = make_app(tmp_path)
    app_press(app, "ok")  # New game
    games = app.home.stack[-1][2]
    app_press(app, "down", "ok")  # the second game: its setup starts
    picked = games.items[1].key
    assert app.session is not None and app.session.game is None
    app_press(app, "ok", "back")  # the names screen, then BACK: the player count (or straight out)
    if app.session is not None:
        app_press(app, "back")
    assert app.session is None, "BACK on the first setup screen goes back to the game list"
    kind, _title, widget = app.home.stack[-1]
    assert kind == "new" and widget.items[widget.cursor].key == picked
    assert app.home.stack[0][2].items[1].enabled is False, "the wrong pick is not offered to Resume"
    recs = app.journal.games()
    assert len(recs) == 1 and recs[0].status == "hidden", "kept in the journal, hidden"


def test_an_ended_game_can_be_hidden_from_resume_and_is_still_exported(tmp_path: Path) -> None:
    app, _out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    app_press(app, "ok", "ok")
    app_press(app, "hold", "up", "ok", "up", "ok")  # the game menu: End game, End
    assert app.session is None and app.journal.games()[0].status == "ended"
    assert app.home.toast == "Game ended: Resume, Ended games has it"
    app_press(app, "ok")  # the cursor is on Resume: the ended game is not in it, only under Ended games
    assert [it.label for it in app.home.stack[-1][2].list.items] == ["Ended games (1)"]
    app_press(app, "ok", "ok")  # Ended games, the ended game's page
    kind, _t, page = app.home.stack[-1]
    assert kind.startswith("open:") and [it.label for it in page.menu.items] == ["Play it on again",
                                                                                "Hide from this list"]
    assert page.lines[0].startswith("Ended ")
    app_press(app, "down", "ok")
    assert app.home.toast and "Hidden" in app.home.toast
    assert app.journal.games()[0].status == "hidden" and app.home.stack[-1][0] == "home"
    from companion.session.headless import replay

    assert replay(app.journal, app.journal.games()[0], app.cfg)[0].export()["game"] == "vp-tracker"


def test_the_resume_page_reads_as_plain_text(tmp_path: Path) -> None:
    """Its date and players are text, drawn whole (they were greyed-out list rows, stippled)."""
    app, out = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    app_press(app, "ok", "ok")
    app.leave_game()
    app_press(app, "down", "ok", "ok")
    img = app.home.render()
    lines = app.home.stack[-1][2].lines
    plain, d = draw.new_frame()
    draw.text_row(d, BAR, lines[0])
    assert band(img, (BAR, BAR + ROW)) == band(plain, (BAR, BAR + ROW))


# ------------------------------------------------------------------------------------------------ item 6
def test_a_greyed_out_entry_keeps_every_pixel_of_its_letters_and_says_why_on_ok() -> None:
    """Struck through, not stippled, on a plain row and on the highlighted one; the cursor still stops on it (scripts
    and saved games press as before) and OK says why not."""
    items = [Item("undo", "Undo"), Item("redo", "Redo", False, "nothing to redo"), Item("log", "Game log")]
    for cursor in (0, 1):
        w = ListWidget(items, cursor=cursor)
        img, d = draw.new_frame()
        w.draw(d, BAR)
        plain, d2 = draw.new_frame()
        draw.text_row(d2, BAR + ROW, "Redo", width=draw.LIST_W, inverse=cursor == 1)
        row = (BAR + ROW, BAR + 2 * ROW)
        ink = 0 if cursor == 1 else 255  # the letters' pixels: dark on the highlight bar, lit on a plain row
        bar = draw.text_width("Redo") + 3 if cursor == 1 else WIDTH  # dark letters: on the bar only
        letters = [(x, y) for x in range(bar) for y in range(ROW)
                   if plain.crop((0, row[0], WIDTH, row[1])).convert("L").getpixel((x, y)) == ink]
        drawn = img.crop((0, row[0], WIDTH, row[1])).convert("L")
        assert all(drawn.getpixel(p) == ink for p in letters), f"letters lost pixels (cursor {cursor})"
        assert band(img, row) != band(plain, row), "a greyed-out entry looks like any other"
    w = ListWidget(items)
    w.key(Key.DOWN)
    out = w.key(Key.OK)
    assert getattr(out, "text", "") == "nothing to redo"


# ------------------------------------------------------------------------------------------------ item 7
def test_the_button_ok_takes_is_pointed_at_and_the_other_has_no_box() -> None:
    """"Fair Winds?" with the cursor on With events: "▶ With events" filled; "Fair Winds" plain, no outline."""
    texts: list[str] = []
    draw.RECORDERS.append(lambda it: texts.append(it.text) if it.kind == "text" else None)
    try:
        img, d = draw.new_frame()
        ConfirmWidget("Fair Winds", "With events", value=False).draw(d, BAR)
    finally:
        draw.RECORDERS.pop()
    assert "Fair Winds" in texts and "With events" in texts, texts
    y = 64 - ROW - 2
    left = img.crop((0, y, WIDTH // 2, y + ROW + 1))
    assert left.getpixel((2, 0)) == 0 and left.getpixel((2, ROW)) == 0, "the other button has a box"
    right = img.crop((WIDTH // 2, y + 1, WIDTH, y + 1 + ROW))  # the filled box's rows
    dark = [sum(right.getpixel((x, yy)) == 0 for yy in range(ROW)) for x in range(WIDTH // 2)]
    first = next(x for x, n in enumerate(dark) if 0 < n < ROW)  # past the black outside the box
    assert dark[first:first + 5] == [7, 5, 3, 1, 0], "no pointer (a triangle, then a gap) before the label OK takes"


# ------------------------------------------------------------------------------------------------ item 10
def test_sovereign_chess_shows_the_move_just_made_to_the_player_who_answers_it() -> None:
    s = Session(load("sovereign-chess"), seed=0, presets=["Ana", "Ben"], options={})
    for _ in range(20):  # start, draw who moves first, the opening; on to the first move made on the board
        made = s.undo_stack[-1][1] if s.undo_stack else None
        if made is not None and any(c.isdigit() for c in str(made.answers[0][0])) and s.prompt().title == "Move":
            break
        press(s, "ok")
    assert made.player != s.prompt().player
    texts: list[str] = []
    draw.RECORDERS.append(lambda it: texts.append(it.text) if it.kind == "text" else None)
    try:
        s.render()
    finally:
        draw.RECORDERS.pop()
    name = s.names[made.player - 1]
    assert any(t.startswith(f"{name}:") for t in texts) and any(made.answers[0][0] in t for t in texts), texts


# ------------------------------------------------------------------------------------------------ saved games
def test_a_game_saved_before_these_rules_replays_with_the_old_ones(tmp_path: Path) -> None:
    """The journal keeps presses, not answers: a game saved before issue 22 must mean what was pressed then. New
    games record ``"contract": true`` in their setup; without it the replay keeps the old BACK and cursor rules."""
    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.session.headless import new_record, replay

    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}})
    journal = Journal(cfg.journal_path())
    rec = new_record(journal, "sovereigns-chain", cfg, 0)
    assert rec.setup["contract"] is True
    old = journal.new_game(rec.game, rec.title, 0, {k: v for k, v in rec.setup.items() if k != "contract"})
    s, _brk = replay(journal, journal.game(old), cfg)
    assert s.contract is False
    s, _brk = replay(journal, rec, cfg)
    assert s.contract is True
