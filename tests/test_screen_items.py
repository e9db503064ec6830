"""The numbered list of issue 14, one test each: what a new user ran into must stay fixed."""
from __future__ import annotations

import json
from pathlib import Path

from PIL import ImageDraw

from companion.events import Key, KeyEvent, RollEvent
from companion.games import load
from companion.session import Session
from companion.ui import draw
from companion.ui.widgets import Item, ListWidget
from conftest import EXAMPLES, run_companion
from screen_walk import NAMES, walk


def keys(s: Session, *names: str) -> None:
    for n in names:
        s.handle(KeyEvent(Key(n)))


def pick(s: Session, label: str) -> None:
    """Move the cursor of the open menu to ``label`` and press OK."""
    w = s.overlays[-1].widget
    for _ in range(len(w.items)):
        if w.items[w.cursor].label == label:
            break
        keys(s, "down")
    assert w.items[w.cursor].label == label, label
    keys(s, "ok")


def texts_drawn(s: Session) -> list[str]:
    got: list[str] = []
    draw.RECORDERS.append(lambda it: got.append(it.text) if it.kind == "text" else None)
    try:
        s.render()
    finally:
        draw.RECORDERS.pop()
    return got


# 5 --------------------------------------------------------------------------------------------------------------
def test_who_starts_keeps_both_lines_and_the_first_city_says_ok_when_placed() -> None:
    s = Session(load("sovereign"), seed=1, presets=NAMES, options={})
    keys(s, "ok", "ok")  # players, start
    shown = texts_drawn(s)
    assert s.prompt().title == "Who starts?"
    assert all(line in shown for line in s.prompt().lines), (s.prompt().lines, shown)
    for v in (12, 9, 6, 3, 2, 1)[:len(s.names)]:
        s.handle(RollEvent("d12", (v,)))
    assert s.prompt().title == "First city" and "OK when placed" in texts_drawn(s)


# 6 --------------------------------------------------------------------------------------------------------------
def test_a_log_entry_opens_whole_and_dice_history_says_what_a_roll_was_for() -> None:
    s = Session(load("sovereign"), seed=1, presets=NAMES, options={})
    keys(s, "ok", "ok")
    s.handle(RollEvent("d12", (9,)))
    keys(s, "hold")
    pick(s, "Game log")
    entries = s.overlays[-1].widget.items
    assert s.overlays[-1].kind == "entries" and entries[-1].label.startswith("roll-off")
    keys(s, "ok")
    page = s.overlays[-1]
    assert page.kind == "page" and " ".join(page.widget.lines).replace("  ", " ") == entries[-1].label
    keys(s, "back", "back")
    pick(s, "Dice history")
    line = s.overlays[-1].widget.items[-1].label
    assert line == "Ana: d12 9 for first player, roller", line


# 9 --------------------------------------------------------------------------------------------------------------
def test_a_greyed_out_entry_is_struck_through_not_marked_with_a_dot() -> None:
    """(Issue 22 replaced the stipple, which made "Redo" read "Kejc", by a dotted line through whole letters.)"""
    def lit(enabled: bool) -> int:
        img, d = draw.new_frame()
        ListWidget([Item("a", "Build a fort", enabled), Item("b", "x")], cursor=1).draw(d, 0)
        return 128 * 10 - img.crop((0, 0, 128, 10)).histogram()[0]  # lit pixels

    assert lit(True) < lit(False) <= lit(True) + draw.LIST_W // 2 + 1  # one dotted line to the row's end, no more
    got: list[str] = []
    draw.RECORDERS.append(lambda it: got.append(it.text))
    try:
        img, d = draw.new_frame()
        ListWidget([Item("a", "Build a fort", False)]).draw(d, 0)
    finally:
        draw.RECORDERS.pop()
    assert "Build a fort" in got and not any("·" in t for t in got)


# 10 -------------------------------------------------------------------------------------------------------------
def test_resume_lists_games_not_over_with_a_date_and_opens_a_page_first(tmp_path: Path) -> None:
    from test_app import finish_vp_game, make_app, press

    app, _ = make_app(tmp_path, game=str(EXAMPLES / "vp-tracker.toml"))
    finish_vp_game(app)
    press(app, "ok")  # game over: back to the menu
    app.start_new(str(EXAMPLES / "race-to-ten.toml"))
    press(app, "ok", "ok")
    app.leave_game()
    press(app, "down", "ok")  # Resume
    items = app.home.stack[-1][2].list.items
    assert len(items) == 1 and "Race to ten" in items[0].label and items[0].label[:2].isdigit()
    press(app, "ok")
    page = app.home.stack[-1][2]
    assert page.menu.items[0].label == "Resume this game" and page.lines[0].startswith("Last played")
    assert "Ana, Ben" in " ".join(page.lines)
    press(app, "ok")
    assert app.session is not None and app.session.game_cls.name == "Race to ten"


# 11 -------------------------------------------------------------------------------------------------------------
def test_after_a_restart_the_list_is_scrolled_as_it_was() -> None:
    """A replay after a restart never draws on the way; its first frame must be the frame the table saw."""
    for game in ("sovereign", "soverana", "sovereigns-chain"):
        live = quiet = None
        for live in walk(game, seed=5, steps=400):
            live.render()  # drawn after every input, like at the table
        for quiet in walk(game, seed=5, steps=400):
            pass
        assert live is not None and quiet is not None
        assert quiet.render().tobytes() == live.render().tobytes(), game


# 12 -------------------------------------------------------------------------------------------------------------
def test_companion_games_lists_the_games_folder_and_the_examples(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "mine.toml").write_text((EXAMPLES / "vp-tracker.toml").read_text().replace(
        'id = "vp-tracker"', 'id = "my-tracker"'))
    (folder / "broken.toml").write_text("[game]\n")
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[games]\nfolder = "{folder}"\n')
    r = run_companion("--config", str(cfg), "games")
    assert r.returncode == 0, r.stderr
    assert "my-tracker" in r.stdout and "race-to-ten" in r.stdout and "broken" in r.stdout


# 13 -------------------------------------------------------------------------------------------------------------
def test_the_export_leaves_secret_ballots_out() -> None:
    from test_session import Demo, keys as demo_keys, new

    s = new()
    demo_keys(s, "ok")  # count
    demo_keys(s, "down", "ok")  # roll here
    demo_keys(s, "ok", "down", "down", "down", "ok")  # pick a, done
    demo_keys(s, "ok", "down", "ok")  # Ana: reveal, vote No
    demo_keys(s, "ok", "ok")  # Ben: reveal, vote Yes
    votes = [a for a in s.export()["actions"] if a.get("title") == "Vote"]
    assert len(votes) == 2 and all(a["answer"] == "(secret)" for a in votes)
    assert "no" not in json.dumps(votes) and Demo is not None


# 7, 8, 14, 15 ---------------------------------------------------------------------------------------------------
def test_battle_sums_show_the_army_value() -> None:
    from fsm.sovereign.battle import _last_line, _with_army

    assert _with_army("7+3", 12) == "7+3+2=12" and _with_army("9", 9) == "9=9"
    last = {"a": "7", "at": 9, "d": "12+10", "dt": 24, "w": "Def"}
    assert _last_line(last, ("Ana", "Ben")) == "Last 7+2=9 v 12+10+2=24"
    assert _last_line({**last, "dt": 9, "d": "5"}, ("Ana", "Ben")) == "Last 7+2=9 v 5+4=9: Ben won"  # a tie


def test_no_undecodable_abbreviations() -> None:
    from fsm.sovereign.common import cards_line, pending_line

    cards = {"military": 1, "expansion": 0, "technology": 2}
    assert cards_line({"cards": cards}) == "Cards 1 Mil 0 Exp 2 Tech"
    assert pending_line({"pending": cards}) == "This turn +1 Mil +2 Tech"
    s = Session(load("sovereigns-chain"), seed=1, presets=NAMES, options={})
    keys(s, "up", "ok", "ok")  # 3 players, start
    assert s.game is not None
    lines = s.game.chain_lines()
    assert lines and "dn" not in " ".join(lines) and lines[0].startswith("Ana 0 Ben 0")
    from companion.rules.sovereigns_chain import tokens
    from companion.rules.sovereigns_chain.tokens import TokenKind

    assert tokens.supply_line({TokenKind.SHIELD: 13, TokenKind.MODIFIER: 21, TokenKind.SUIT: 21}) == \
        "Left: 13 shields, 21 mods"  # not "Sh13 Mod21 Suit21"
    chains = next(v for v in s.game.views() if v.title == "Chains").lines
    assert chains[0].startswith("Ana: 0 in play") and not any(" dn" in c or " sh " in c for c in chains), chains


def test_the_chart_soveranas_specials_and_the_fairness_page_speak_in_words() -> None:
    import re
    from types import SimpleNamespace

    from companion.ui.menus import fairness_lines
    from fsm.sovereign.views import chart
    from test_sovereign_kit import new_game

    lines = chart(new_game(2), 1).lines
    assert lines[0] == "Tier 1, 2 pts: open" and "Pottery," in lines[1] and "Tier 2, 3 pts: locked" in lines
    assert not any(re.search(r"\bT\d|\d/\d|\d+p\b", line) for line in lines), lines  # not "T2 3p ... T1 0/4"
    s = Session(load("soverana"), seed=1, presets=NAMES, options={})
    keys(s, "ok")
    assert s.game is not None and s.game.specials_line() == "No one on specials"
    rolls = {("pico", "d6"): [1, 2, 3, 4, 5, 6] * 10}
    page = fairness_lines(SimpleNamespace(journal=SimpleNamespace(physical_rolls=lambda: rolls)))  # type: ignore[arg-type]
    assert " Looks fair" in page, page


def test_the_player_count_says_one_is_solitaire_and_counters_say_they_set_the_total() -> None:
    s = Session(load("sovereigns-chain"), seed=1, presets=NAMES, options={})
    assert "1 player: solitaire" in s.prompt().lines
    t = Session(load(str(EXAMPLES / "vp-tracker.toml")), seed=1, presets=NAMES, options={})
    keys(t, "ok", "ok", "ok")  # players, start, first player
    keys(t, "down", "ok")  # the turn's menu: Done, then the VP counter
    assert type(t.prompt()).__name__ == "Number", t.prompt()
    assert t.prompt().lines[0].startswith("New total")


def test_a_unit_with_nothing_is_refused_and_the_add_step_shows_the_round() -> None:
    import pytest

    from fsm.prompts import InvalidAnswer
    from fsm.sovereign.battle_setup import _stats_answer
    from test_sovereign_kit import new_game

    g = new_game(2)
    b = {"entry": {"name": "Blob", "for": "att", "vals": [0, 0]}, "att": []}
    with pytest.raises(InvalidAnswer, match="all 0"):
        _stats_answer(g, b, 0)
    assert b["entry"]["vals"] == [0, 0], "nothing changed before the refusal"
    from test_sovereign_turns import started

    assert started(2).prompt().title == "Add, round 1"


def test_the_examples_shipped_in_the_package_are_the_examples() -> None:
    """A fresh install (not a checkout) still offers the example games: the package carries copies of examples/."""
    from companion.ui.menus import EXAMPLES as SHIPPED

    ours = sorted(p.name for p in EXAMPLES.glob("*.toml"))
    assert ours and sorted(p.name for p in SHIPPED.glob("*.toml")) == ours
    for name in ours:
        assert (SHIPPED / name).read_text() == (EXAMPLES / name).read_text(), f"copy {name} into {SHIPPED}"


def test_sovereign_screens_say_tiles_cities_and_points_in_words() -> None:
    """"Ana 4t", "Ana 1c", "Terrain 4p", "City 1: 4t" were as cryptic as the abbreviations the issue lists."""
    import re

    short = re.compile(r"\b\d+[tcp]\b")
    bad: set[str] = set()
    for seed in (0, 1):
        for s in walk("sovereign", seed=seed, steps=1500):
            if s.game is None or s.overlays:
                continue
            p = s.prompt()
            texts = [p.title, *p.lines, *(o.label for o in getattr(p, "options", ()))]
            bad |= {t for t in texts if short.search(t)}
    assert not bad, sorted(bad)[:10]
