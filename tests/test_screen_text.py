"""Issue #22 items 8, 12 and 15: game text measured as drawn, never cut by letters; plurals; every winner shown."""
from __future__ import annotations

from pathlib import Path

from fsm.base import Player, Setup
from fsm.prompts import Info
from fsm.screen_text import LINE_PX, clip, fits, plural, squeeze, wrap
from fsm.soverana import SoveranaGame

from conftest import ROOT

LONG = ("Cleopatra", "Maximilian", "Alexandrina", "Bartholomew", "Wilhelmina", "Konstantin")


def test_soverana_end_screen_shows_every_tied_winner_and_the_whole_outcome() -> None:
    g = SoveranaGame(Setup(tuple(Player(n, i + 1) for i, n in enumerate(LONG)), {}))
    g.data.update(outcome="team-win", winners=[1, 2, 3, 4, 5, 6])
    rows = g.report_rows()
    text = " ".join(rows)
    assert rows[0] == "The team saved the city"
    assert all(name in text for name in LONG), rows  # Fay was dropped from the end screen
    assert all(fits(r, LINE_PX) and not r.endswith(("~", "…")) for r in rows), rows
    g.state = "game_over"
    p = g.prompt()
    assert isinstance(p, Info) and all(name in " ".join(p.lines) for name in LONG), p


def test_a_long_name_gives_way_in_a_title_and_the_question_stays() -> None:
    t = squeeze("{} on Stock Exchange?", "Bartholomew", 110)
    assert t.startswith("Ba") and t.endswith("… on Stock Exchange?") and fits(t, 110), t
    assert squeeze("{} on Police?", "Cleopatra", 126) == "Cleopatra on Police?"  # not "Cleopatr"


def test_text_is_wrapped_and_clipped_by_pixels() -> None:
    text = "The team saved the city and everybody cheered loudly"
    lines = wrap(text)
    assert len(lines) == 3 and " ".join(lines) == text and all(fits(x) for x in lines)
    assert fits(clip("W" * 40)) and clip("W" * 40).endswith("…") and clip("iiii") == "iiii"


def test_plural() -> None:
    assert [plural(1, "army"), plural(2, "army"), plural(0, "city"), plural(1, "player"), plural(3, "player"),
            plural(2, "day"), plural(2, "box")] == ["1 army", "2 armies", "0 cities", "1 player", "3 players",
                                                    "2 days", "2 boxes"]


def test_no_game_code_cuts_text_with_a_tilde() -> None:
    bad = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "fsm").rglob("*.py")
           for i, line in enumerate(p.read_text().splitlines(), 1) if '+ "~"' in line or "'~'" in line]
    assert bad == []


def drawn_texts(screen: object) -> list[str]:
    from companion.ui import draw as D

    got: list[str] = []
    D.RECORDERS.append(lambda p: got.append(p.text) if p.kind == "text" else None)
    try:
        img, d = D.new_frame()
        screen.draw(d)  # type: ignore[attr-defined]
    finally:
        D.RECORDERS.pop()
    return got


def test_a_choice_with_many_lines_and_options_keeps_every_line_reachable() -> None:
    """Issue #22 item 15: three or more options showed only the first two context lines, with no mark."""
    from companion.events import Key
    from companion.ui.prompt_screens import ChoiceScreen
    from fsm.prompts import Choice, Option

    lines = ("First line", "Second line", "Third line", "Fourth line")
    p = Choice(title="Q", lines=lines, options=tuple(Option(k, f"Option {k}") for k in "abc"))
    s = ChoiceScreen(p, ["Ana"])
    seen: set[str] = set()
    for _ in range(4):
        shown = drawn_texts(s)
        seen |= set(shown)
        assert any(t.startswith("Option") for t in shown)  # the row OK acts on is in view
        s.key(Key.DOWN)
    assert set(lines) <= seen and {"Option a", "Option b", "Option c"} <= seen


def test_a_dropped_line_is_marked() -> None:
    from companion.ui.prompt_screens import MultiSelectScreen
    from fsm.prompts import MultiSelect, Option

    p = MultiSelect(title="Q", lines=("Tick: into crisis", "(Done is at the end)"),
                    options=(Option("a", "A"), Option("b", "B")))
    img_lines = drawn_texts(MultiSelectScreen(p, ["Ana"]))
    from companion.ui.draw import ELLIPSIS

    assert any(t.startswith("Tick") and t.endswith(ELLIPSIS) for t in img_lines), img_lines


def test_counts_read_as_words() -> None:
    """Issue #22 item 12: "1 players; OK starts", "(6 res)"."""
    from companion.games import load
    from companion.ui.wizard import SetupWizard

    w = SetupWizard(load("sovereigns-chain"), ["Ana", "Ben"], {})
    w.data.update(step="names", count=1, names=["Ana"])
    assert w.prompt().lines[0] == "1 player: OK starts"
    g = SoveranaGame(Setup(tuple(Player(n, i + 1) for i, n in enumerate(LONG)), {}))
    labels = [o.label for o in g._ask_setup_departments().options] if hasattr(g, "_ask_setup_departments") else []
    assert not any("res)" in x for x in labels)
