"""The battle screen's title with names of every length the config allows (1 to 12 characters): it is never cut
into an ellipsis, and the screen always says in full who fights whom and, at the end, who won."""
from __future__ import annotations

import pytest

from companion.ui.draw import title_room
from fsm.prompts import Choice
from fsm.screen_text import ELLIPSIS, fits
from fsm.sovereign import SovereignGame
from fsm.base import Player, Setup
from test_sovereign_battle import UNITS, battle, one_roll
from test_sovereign_kit import give, ok, pick

PAIRS = [("Ann", "Bob"), ("Alexandra", "Charlotte"), ("Christopher", "Jean-Pierre"), ("Bartholomews", "Maximilianne"),
         ("WWWWWWWWWWWW", "MMMMMMMMMMMM")]


def _at_battle(att: str, dfn: str) -> SovereignGame:
    g = SovereignGame(Setup((Player(att, 1), Player(dfn, 2)), {}))
    from test_sovereign_kit import roll
    roll(g, 12)
    roll(g, 1)
    while g.state == "place_cities":
        ok(g)
    for s in (1, 2):
        give(g, s, *UNITS)
    pick(g, "collect")
    pick(g, "done")
    ok(g)
    battle(g, [(1, 0, 1, 0)], [(0, 1, 1, 0)])
    return g


def _readable(g: SovereignGame) -> tuple[str, str]:
    p = g.prompt()
    assert isinstance(p, Choice)
    tag = g.player_name(p.player or 1)
    assert fits(p.title, title_room(tag)), (p.title, tag)  # drawn whole beside the name tag
    assert ELLIPSIS not in p.title, p.title
    return p.title, " ".join((p.title, *p.lines))


@pytest.mark.parametrize("att, dfn", PAIRS)
def test_the_battle_title_is_whole_and_the_screen_names_the_fighters_and_the_winner(att: str, dfn: str) -> None:
    g = _at_battle(att, dfn)
    title, screen = _readable(g)
    assert "roll 1" in title.lower() and att in screen and dfn in screen
    assert screen.index(att) < screen.index(dfn)  # the attacker first
    one_roll(g, [1], [9])  # the defender wins the roll: the attacker's one unit is gone
    title, screen = _readable(g)
    assert ("won" in title or "over" in title) and f"{dfn} won" in screen, screen
