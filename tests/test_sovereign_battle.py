"""Battles through the machine: screen and odds, removal order, ties, retreat, Medicine, air raids, rolling on,
bonus dice, and a Monte Carlo run of the machine against the exact odds."""
from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Sequence

import pytest

from companion.rules.sovereign.battle import Explode, Field, Where
from companion.rules.sovereign.odds import RollModel, battle_odds
from companion.rules.sovereign.units import parse_specs
from fsm.prompts import Choice, Dice, InvalidAnswer, MultiSelect, Number
from fsm.sovereign import SovereignGame
from test_sovereign_kit import give, ok, option, option_keys, pick, player, roll, started

UNITS = ("mathematics", "horseback_riding", "gunpowder")


def at_manoeuvre(n: int = 2, **options: Any) -> SovereignGame:
    g = started(n, **options)
    for s in range(1, n + 1):
        give(g, s, *UNITS)
    pick(g, "collect")
    pick(g, "done")
    ok(g)
    assert g.state == "manoeuvre"
    return g


def build(g: SovereignGame, units: Sequence[Any]) -> None:
    """Add units to the army on screen: a name from the table, or (attack, defence, move, range)."""
    for u in units:
        if isinstance(u, str):
            pick(g, f"u:{u}")
        else:
            pick(g, "other")
            for v in u:
                p = g.prompt()
                assert isinstance(p, Number)
                g.answer(v)


def battle(g: SovereignGame, att: Sequence[Any], dfn: Sequence[Any], where: str = "field", value: int = 0,
           held: Sequence[Any] = (), defender: int = 2) -> None:
    pick(g, "battle")
    ok(g)  # the active player attacks
    pick(g, str(defender))
    build(g, att)
    if held:
        pick(g, "hold")
        build(g, held)
    pick(g, "done")
    build(g, dfn)
    pick(g, "done")
    pick(g, where)
    if where == "city":
        if g.options["construction_bonus"] == "central":
            pick(g, "yes")  # the defender holds the central tile
        g.answer(value)
    elif where == "fort":
        pick(g, {2: "river", 6: "hill", 9: "desert"}[value])
    assert g.data["battle"]["step"] == "menu"


def one_roll(g: SovereignGame, att: Sequence[int], dfn: Sequence[int]) -> None:
    pick(g, "roll")
    for v in att:
        roll(g, v) if isinstance(v, int) else roll(g, *v)
    for v in dfn:
        roll(g, v) if isinstance(v, int) else roll(g, *v)


def names(g: SovereignGame, key: str) -> list[str]:
    return [u["name"] for u in g.data["battle"][key]]


# ------------------------------------------------------------------------------------------------ the screen
def test_battle_screen_shows_both_sums_last_roll_and_exact_odds() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult"], ["Musketman"])
    p = g.prompt()
    assert isinstance(p, Choice) and p.default == "roll" and p.player == 1
    assert p.lines[0] == "Sums 2 v 3+0: Ann 39%"  # 8119/20736
    assert p.lines[1] == "No roll yet"
    one_roll(g, [9], [4])
    assert g.data["battle"]["def"] == []
    p = g.prompt()
    assert p.lines[1] == "Last 9+2=11 v 4+3=7" and p.lines[0].endswith("Ann 100%")
    assert option_keys(g) == ["end"]
    pick(g, "end")
    assert g.state == "manoeuvre" and player(g, 1)["pending"]["military"] == 1
    log = g.data["battle_log"]
    assert log[0] == "Battle 1, roll 1: Ann 9+2=11 v Bob 4+3+0=7: Ann wins the roll"
    assert "Bob's Musketman 1-3-3 is lost" in log[1] and "Ann earns a Military card" in log[-1]
    pick(g, "done")
    pick(g, "end")
    assert player(g, 1)["cards"]["military"] == 1


def test_odds_update_after_every_roll() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult", "Horseman", "Horseman"], ["Musketman", "Musketman"], "city", 2)
    seen = []
    for a, d in ((3, 10), (10, 2), (5, 5)):
        seen.append(g.prompt().lines[0])
        one_roll(g, [a], [d])
    b = g.data["battle"]
    att, dfn = parse_specs(",".join(names(g, "att"))), parse_specs(",".join(names(g, "def")))
    want = battle_odds(att, dfn, Field(Where.CITY, 2), RollModel(Explode.ONCE)).attacker_float
    assert g.prompt().lines[0].endswith(f"Ann {want * 100:.0f}%")
    assert len(set(seen)) == 3 and b["rolls"] == 3
    assert g.state_json()["battle"]["attacker_wins"] == want


def test_defender_bonus_city_construction_and_fort() -> None:
    g = at_manoeuvre()
    give(g, 2, "construction")
    battle(g, ["Catapult"], ["Musketman"], "city", 4)
    assert g.prompt().lines[0].startswith("Sums 2 v 3+5:")
    one_roll(g, [12, 4], [1])  # 12 + bonus 4 + 2 = 18 v 1 + 3 + 5 = 9
    assert "Ann 12+4+2=18 v Bob 1+3+5=9" in g.data["battle_log"][0]
    g2 = at_manoeuvre()
    battle(g2, ["Catapult"], ["Musketman"], "fort", 6)
    assert g2.prompt().lines[0].startswith("Sums 2 v 3+6:")


# ------------------------------------------------------------------------------------------------ removal order
def test_range_units_are_destroyed_last_lower_range_first() -> None:
    g = at_manoeuvre(removal_ties="highest_total")
    battle(g, [(1, 0, 1, 2), "Catapult", "Horseman", (3, 1, 1, 0)], [(0, 30, 0, 0)])
    lost = []
    for _ in range(4):
        one_roll(g, [1], [12, 1])
        lost.append(g.data["battle"]["att_lost"][-1]["name"])
    assert lost == ["Unit 3-1-1", "Horseman", "Catapult", "Unit 1-0-1{2}"]
    assert player(g, 1)["pending"]["military"] == 0


def test_defender_loses_its_strongest_defence() -> None:
    g = at_manoeuvre()
    battle(g, [(30, 0, 0, 0)], ["Horseman", "Musketman", "Catapult"])
    one_roll(g, [5], [1])
    assert g.data["battle"]["def_lost"][-1]["name"] == "Musketman"
    one_roll(g, [5], [1])
    one_roll(g, [5], [1])
    assert names(g, "def") == [] and g.data["battle"]["def_lost"][-1]["name"] == "Catapult"


def test_equal_strength_the_loser_chooses() -> None:
    g = at_manoeuvre()  # default: the loser chooses
    battle(g, ["Horseman", "Musketman"], [(0, 30, 0, 0)])
    one_roll(g, [1], [1])
    p = g.prompt()
    assert isinstance(p, Choice) and p.title == "Lose which?" and p.player == 1
    assert [o.label for o in p.options] == ["Horseman 1-1-3", "Musketman 1-3-3"]
    assert p.back is None
    pick(g, "0")
    assert names(g, "att") == ["Musketman"]


def test_equal_strength_highest_total_goes() -> None:
    g = at_manoeuvre(removal_ties="highest_total")
    battle(g, ["Horseman", "Musketman", "Horseman"], [(0, 30, 0, 0)])
    one_roll(g, [1], [1])
    assert names(g, "att") == ["Horseman", "Horseman"]  # Musketman 1+3+3 > Horseman 1+1+3


def test_identical_units_need_no_choice() -> None:
    g = at_manoeuvre()
    battle(g, ["Horseman", "Horseman"], [(0, 30, 0, 0)])
    one_roll(g, [1], [1])
    assert g.data["battle"]["step"] == "menu" and names(g, "att") == ["Horseman"]


# ------------------------------------------------------------------------------------------------ retreat, medicine
def test_attacker_retreat_loses_one_more_unit_and_the_battle() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult", "Horseman", "Horseman"], ["Musketman"])
    pick(g, "ret_att")
    assert g.state == "manoeuvre" and g.data["battle"] is None
    assert player(g, 1)["pending"]["military"] == 0
    assert any("Ann's Horseman 1-1-3 is lost" in e for e in g.data["battle_log"])
    assert "Bob wins the battle (the other side retreats)" in g.data["battle_log"][-1]


def test_defender_retreat_is_a_won_battle_for_the_attacker() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult"], ["Musketman", "Horseman"])
    pick(g, "ret_def")
    assert player(g, 1)["pending"]["military"] == 1
    assert any("Bob's Musketman 1-3-3 is lost" in e for e in g.data["battle_log"])


def test_medicine_revives_one_unit_once_per_game() -> None:
    g = at_manoeuvre()
    give(g, 2, "medicine")
    battle(g, [(30, 0, 0, 0)], ["Musketman", "Horseman"])
    assert "med_def" not in option_keys(g)  # nothing lost yet
    one_roll(g, [5], [1])
    pick(g, "med_def")
    pick(g, "0")
    assert names(g, "def") == ["Horseman", "Musketman"]
    assert "med_def" not in option_keys(g) and "medicine" not in player(g, 2)["oneshot"]
    assert any("Bob uses Medicine: Musketman returns" in e for e in g.data["battle_log"])


def test_medicine_can_save_a_destroyed_army() -> None:
    g = at_manoeuvre()
    give(g, 1, "medicine")
    battle(g, ["Catapult"], [(0, 30, 0, 0)])
    one_roll(g, [1], [1])
    assert option_keys(g) == ["end", "med_att"]
    pick(g, "med_att")
    pick(g, "0")
    assert names(g, "att") == ["Catapult"] and "roll" in option_keys(g)


# ------------------------------------------------------------------------------------------------ air raids
def test_air_raid_flow() -> None:
    g = at_manoeuvre()
    give(g, 1, "rocketry")
    player(g, 1)["cities"][0]["tiles"] = 6  # air raids launch from a city of six tiles or more
    give(g, 2, "construction")
    pick(g, "battle")
    ok(g)
    pick(g, "2")
    pick(g, "u:Air raid")
    for v in (4, 0, 6, 2):
        g.answer(v)
    assert g.data["unit_stats"] == {"Air raid": [4, 0, 6, 2]}
    assert option(g, "u:Air raid").label == "Air raid 4-0-6{2}"
    pick(g, "u:Air raid")
    pick(g, "done")
    build(g, ["Musketman"])
    pick(g, "done")
    pick(g, "city")
    pick(g, "yes")
    g.answer(5)
    assert g.prompt().lines[0].startswith("Sums 8 v 3+1:")  # Construction only: no adjacency against air raids
    one_roll(g, [1], [12, 1])
    assert any("Ann's Air raid 4-0-6{2} is destroyed (air raid)" in e for e in g.data["battle_log"])
    one_roll(g, [12, 12], [1])
    pick(g, "end")
    assert player(g, 1)["pending"]["military"] == 1


def test_air_raid_in_a_mixed_army_is_lost_first_and_removed_at_the_end() -> None:
    g = at_manoeuvre()
    give(g, 1, "rocketry")
    player(g, 1)["cities"][0]["tiles"] = 6
    g.data["unit_stats"]["Air raid"] = [4, 0, 6, 2]
    battle(g, ["Catapult", "Air raid", "Air raid"], ["Musketman", "Musketman"], "city", 3)
    assert g.prompt().lines[0].startswith("Sums 10 v 6+3:")  # a mixed army: the city bonus stays
    one_roll(g, [1], [12, 1])
    assert names(g, "att") == ["Catapult", "Air raid"]
    one_roll(g, [12, 12], [1])
    one_roll(g, [12, 12], [1])
    pick(g, "end")
    assert any("1 air raid(s) of Ann end their mission" in e for e in g.data["battle_log"])


# ------------------------------------------------------------------------------------------------ rolling battles
def test_rolling_battle_add_held_back_units_and_roll_on_for_one_card() -> None:
    g = at_manoeuvre(3)
    battle(g, ["Catapult"], ["Horseman"], held=["Horseman", "Horseman", "Musketman"])
    assert g.prompt().lines[2] == "Units: 1 +3 held v 1"
    pick(g, "add")
    p = g.prompt()
    assert isinstance(p, MultiSelect) and [o.label for o in p.options][0] == "Horseman 1-1-3"
    g.answer(["0"])
    assert names(g, "att") == ["Catapult", "Horseman"] and len(g.data["battle"]["res"]) == 2
    one_roll(g, [10], [1])
    pick(g, "end")
    assert g.data["battle"]["step"] == "rollon" and player(g, 1)["pending"]["military"] == 1
    pick(g, "rollon")
    assert g.data["battle"]["step"] == "defender" and names(g, "att") == ["Horseman", "Musketman"]
    pick(g, "3")
    assert g.data["battle"]["step"] == "army_def"
    build(g, ["Horseman"])
    pick(g, "done")
    pick(g, "field")
    one_roll(g, [10], [1])
    pick(g, "end")
    assert g.state == "manoeuvre"
    assert player(g, 1)["pending"]["military"] == 1  # one card for the whole rolling battle


# ------------------------------------------------------------------------------------------------ dice
def test_a_natural_twelve_earns_one_bonus_die_by_default() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult"], ["Musketman"])
    pick(g, "roll")
    roll(g, 12)
    p = g.prompt()
    assert isinstance(p, Dice) and p.title == "Bonus d12" and p.player == 1
    roll(g, 12)
    assert g.prompt().title == "Defence roll"  # once: the bonus die does not explode again


def test_chain_and_off() -> None:
    g = at_manoeuvre(explode="chain")
    battle(g, ["Catapult"], ["Musketman"])
    pick(g, "roll")
    roll(g, 12)
    roll(g, 12)
    roll(g, 12)
    roll(g, 3)
    roll(g, 12)
    roll(g, 5)
    assert "Ann 12+12+12+3+2=41 v Bob 12+5+3+0=20" in g.data["battle_log"][0]
    g2 = at_manoeuvre(explode="off")
    battle(g2, ["Catapult"], ["Musketman"])
    pick(g2, "roll")
    roll(g2, 12)
    assert g2.prompt().title == "Defence roll"


def test_space_flight_rolls_two_dice_and_keeps_the_higher() -> None:
    g = at_manoeuvre()
    give(g, 1, "space_flight")
    battle(g, ["Catapult"], ["Musketman"])
    pick(g, "roll")
    p = g.prompt()
    assert isinstance(p, Dice) and p.count == 2
    roll(g, 2, 12)
    p = g.prompt()
    assert isinstance(p, Dice) and p.count == 1  # the bonus roll is one d12 by default
    roll(g, 6)
    roll(g, 4)
    assert "Ann 12+6(2,12)+2=20" in g.data["battle_log"][0]
    g2 = at_manoeuvre(space_flight_bonus="extra")
    give(g2, 1, "space_flight")
    battle(g2, ["Catapult"], ["Musketman"])
    pick(g2, "roll")
    roll(g2, 12, 1)
    p = g2.prompt()
    assert isinstance(p, Dice) and p.count == 2


# ------------------------------------------------------------------------------------------------ setup details
def test_army_limits_seven_or_eight_with_atomic_energy() -> None:
    g = at_manoeuvre()
    pick(g, "battle")
    ok(g)
    pick(g, "2")
    build(g, ["Horseman"] * 5)
    pick(g, "hold")
    build(g, ["Horseman"] * 2)
    assert not option(g, "u:Horseman").enabled and "at most 7" in option(g, "u:Horseman").hint
    with pytest.raises(InvalidAnswer):
        g.answer("u:Horseman")
    give(g, 1, "atomic_energy")
    assert option(g, "u:Horseman").enabled


def test_back_steps_through_the_setup_and_out() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult"], ["Musketman"])
    pick(g, "back")  # before the first roll BACK returns to "where"
    assert g.data["battle"]["step"] == "where"
    pick(g, "back")
    pick(g, "back")  # removes the Musketman
    assert names(g, "def") == []
    pick(g, "back")
    pick(g, "back")
    assert names(g, "att") == []
    pick(g, "back")
    pick(g, "back")
    pick(g, "back")
    assert g.state == "manoeuvre" and g.data["battle"] is None


def test_no_back_after_the_first_roll() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult", "Catapult"], ["Musketman", "Musketman"])
    one_roll(g, [5], [5])
    p = g.prompt()
    assert isinstance(p, Choice) and p.back is None


# ------------------------------------------------------------------------------------------------ Monte Carlo
def test_machine_battles_match_the_exact_odds_in_a_monte_carlo_run() -> None:
    """Many battles through the machine with random dice: the attacker's win rate matches the exact odds."""
    g = at_manoeuvre(explode="off")
    give(g, 2, "construction")
    battle(g, ["Catapult", "Horseman"], ["Musketman"], "city", 1)
    att, dfn = parse_specs("Catapult,Horseman"), parse_specs("Musketman")
    exact = battle_odds(att, dfn, Field(Where.CITY, 1, True), RollModel(Explode.OFF)).attacker
    # by hand: 3 v 3+1+1 needs X - Y > 2 (45 of 144 pairs); else the Horseman goes and the Catapult (range,
    # kept) needs X - Y > 3 (36 of 144)
    assert exact == Fraction(45, 144) + Fraction(99, 144) * Fraction(36, 144) == Fraction(10044, 20736)
    snap = g.snapshot()
    rng = random.Random(7)
    n, wins = 1500, 0
    for _ in range(n):
        g.restore(snap)
        while g.data["battle"]["att"] and g.data["battle"]["def"]:
            g.answer("roll")
            while isinstance(p := g.prompt(), Dice):
                g.answer({"values": [rng.randint(1, 12) for _ in range(p.count)], "source": "rng"})
        wins += not g.data["battle"]["def"]
    sigma = math.sqrt(float(exact) * (1 - float(exact)) / n)
    assert abs(wins / n - float(exact)) < 4.5 * sigma, (wins / n, float(exact))


def test_a_battle_ended_by_a_retreat_before_any_roll_is_counted() -> None:
    g = at_manoeuvre()
    battle(g, ["Catapult"], ["Musketman", "Horseman"])
    pick(g, "ret_def")  # the defender retreats at once: a won battle (and a Military card) without a roll
    assert player(g, 1)["pending"]["military"] == 1
    assert g.data["battles"] == 1 and g.state_json()["battles"] == 1
    battle(g, ["Catapult"], ["Musketman"])
    assert g.data["battle"]["no"] == 2  # the next battle has a number of its own
