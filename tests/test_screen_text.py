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
