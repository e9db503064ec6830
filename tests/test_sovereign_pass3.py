"""Issue 27 (Sovereign) and issue 22 item 9: the battle screens say when an army is bigger than the units built,
the cost spinner never builds a unit for 0, a unit typed by its statistics is named once, the battle title reads
attacker first and says who won, and BACK inside the statistics entry shows the value typed."""
from __future__ import annotations

import pytest

from fsm.prompts import Choice, InvalidAnswer, Number
from test_sovereign_battle import at_manoeuvre, battle, build, one_roll
from test_sovereign_kit import give, ok, option, pick, player, started


def test_an_army_bigger_than_the_units_built_is_said_on_the_battle_screen() -> None:
    g = at_manoeuvre()
    player(g, 1)["units"] = 1
    pick(g, "battle")
    ok(g)
    pick(g, "2")
    build(g, ["Catapult"])
    assert not any("built" in line for line in g.prompt().lines)  # 1 unit of 1 built: nothing to say
    build(g, ["Horseman"])
    p = g.prompt()
    assert "Ann built only 1" in p.lines[:2]  # among the lines a three-option menu shows
    pick(g, "done")
    build(g, ["Musketman"])
    assert "Bob built only 0" in g.prompt().lines[:2]


def test_the_cost_spinner_for_an_unknown_unit_never_builds_for_0() -> None:
    g = started(2)
    give(g, 1, "pottery")
    pick(g, "skip")  # no points at all: Build a unit is not offered (issue 33), as a list of greyed units was
    assert option(g, "unit").enabled is False and option(g, "unit").hint == "no unit for 0 points"
    g.pass4 = False  # a game saved before it offers it: the spinner still never builds for 0
    pick(g, "unit")
    pick(g, "Settler")
    p = g.prompt()
    assert isinstance(p, Number) and p.lo == 1 and p.default == 1
    with pytest.raises(InvalidAnswer):
        g.answer(0)
    with pytest.raises(InvalidAnswer, match="more than the 0 points left"):
        g.answer(1)
    assert player(g, 1)["units"] == 0 and player(g, 1)["settlers"] == 0


def test_a_unit_typed_by_its_statistics_is_named_once_and_the_title_says_who_won() -> None:
    g = at_manoeuvre()
    battle(g, [(2, 1, 2, 0)], [(0, 4, 2, 0), "Musketman"])
    p = g.prompt()
    assert isinstance(p, Choice) and p.title == "Ann v Bob: roll 1"
    one_roll(g, [9], [1])  # Ann wins the roll: Bob's strongest defender goes
    one_roll(g, [9], [1])
    assert any(e.endswith("Bob's Unit 0-4-2 is lost") for e in g.data["log"]), g.data["log"][-4:]
    assert g.prompt().title == "Ann won battle 1"


def test_back_from_defence_shows_the_attack_typed() -> None:
    g = at_manoeuvre()
    pick(g, "battle")
    ok(g)
    pick(g, "2")
    pick(g, "other")
    g.answer(4)  # Attack 4
    assert g.prompt().title == "Unit's defence" and g.prompt().lines[1] == "A-D-M 4-?-?"
    g.answer("back")
    p = g.prompt()
    assert isinstance(p, Number) and p.title == "Unit's attack" and p.default == 4
    g.answer(5)
    g.answer(2)  # Defence 2
    g.answer("back")
    g.answer("back")
    assert g.prompt().default == 5
    g.answer("back")  # out of the entry, back to the army
    assert g.data["battle"]["step"] == "army_att" and g.data["battle"]["att"] == []
