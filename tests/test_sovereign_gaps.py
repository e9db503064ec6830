"""Rules the Sovereign machine enforces beyond the numbers: settlers need Pottery, captures (one reward, the
loser's tile), captured forts, air raids' launch and once a turn, the box's components, and the four readings
that are switches (Code of Laws for forts, Espionage's limit, air raids lost per roll, Construction's +1)."""
from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from companion.rules.sovereign.battle import Field, Where
from companion.rules.sovereign.odds import battle_odds
from companion.rules.sovereign.units import Fighter
from fsm.prompts import Info, InvalidAnswer
from fsm.sovereign import SovereignGame
from test_sovereign_battle import at_manoeuvre, battle, build, names, one_roll
from test_sovereign_kit import give, ok, option, option_keys, pick, player, started


def to_manoeuvre(g: SovereignGame) -> None:
    pick(g, "collect")
    pick(g, "done")
    ok(g)
    assert g.state == "manoeuvre"


# ------------------------------------------------------------------------------------------------ 1 settlers
def test_founding_a_city_needs_the_settler_that_pottery_brings() -> None:
    g = started(2)
    to_manoeuvre(g)
    found = option(g, "found")
    assert not found.enabled and "Pottery" in found.hint
    with pytest.raises(InvalidAnswer, match="no Settler"):
        g.answer("found")
    assert len(player(g, 1)["cities"]) == 1
    give(g, 1, "pottery")
    found = option(g, "found")  # Pottery alone is not a Settler: one must be built first
    assert not found.enabled and found.hint == "no Settler left: build one in Spend"
    player(g, 1)["settlers"] = 1
    pick(g, "found")
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [4, 1]


# ------------------------------------------------------------------------------------------------ 2, 3 captures
def capture(g: SovereignGame, victim: int, city: int, reward: str, then: str | None = None) -> None:
    pick(g, "capture")
    pick(g, str(victim))
    pick(g, str(city))
    pick(g, reward)
    if then is not None:
        pick(g, then)


def test_finish_no_longer_takes_a_technology_unconnected_to_a_capture() -> None:
    g = started(2)
    give(g, 2, "pottery")
    to_manoeuvre(g)
    pick(g, "done")
    assert g.state == "finish" and "take" not in option_keys(g, enabled_only=False)


def test_a_capture_with_the_technology_reward_and_the_losers_tile() -> None:
    g = started(2)
    give(g, 2, "pottery", "mathematics")  # Ann could research Pottery, not Mathematics (tier 2 is shut)
    to_manoeuvre(g)
    pick(g, "capture")
    pick(g, "2")
    pick(g, "0")
    pick(g, "tech")
    assert option_keys(g) == ["pottery"]
    pick(g, "pottery")
    assert "pottery" in player(g, 1)["techs"] and "pottery" in player(g, 2)["techs"]
    assert player(g, 2)["cities"] == []
    # the city is Ann's now, less the one tile Bob removes
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [4, 3]
    assert g.data["sub"] is None and g.state == "manoeuvre"


def test_the_tile_reward_moves_one_tile_then_the_loser_removes_another() -> None:
    g = started(2)
    to_manoeuvre(g)
    pick(g, "capture")
    pick(g, "2")
    pick(g, "0")
    assert not option(g, "tech").enabled  # Bob holds nothing
    capture_tile = option(g, "tile")
    assert capture_tile.enabled
    pick(g, "tile")
    pick(g, "0")  # onto Ann's City 1
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [5, 2]  # 4 - stolen 1 - Bob's 1 = 2


@pytest.mark.parametrize("central, left, says", [
    ({}, [4], "central tile, its last: the city is gone"),  # the default: the text's "central tile ... last"
    ({"captured_central_tile": "kept"}, [4, 1], "down to its central tile"),
])
def test_one_reward_per_capture_and_the_central_tile_goes_last(central: dict[str, str], left: list[int],
                                                               says: str) -> None:
    g = started(2, **central)
    player(g, 2)["cities"][0]["tiles"] = 1
    to_manoeuvre(g)
    pick(g, "capture")
    pick(g, "2")
    pick(g, "0")
    assert not option(g, "tile").enabled and "no tile to steal" in option(g, "tile").hint
    pick(g, "none")
    assert [c["tiles"] for c in player(g, 1)["cities"]] == left
    assert any(says in e for e in g.data["log"])
    # nothing left to capture from Bob, and the reward is not offered again
    assert not option(g, "capture").enabled


def test_capture_back_steps_change_nothing() -> None:
    g = started(2)
    to_manoeuvre(g)
    before = copy.deepcopy(g.data["players"])
    pick(g, "capture")
    pick(g, "2")
    pick(g, "0")
    pick(g, "tile")
    for _ in range(4):
        pick(g, "back")
    assert g.data["sub"] is None and g.data["players"] == before


def test_whose_city_and_whose_fort_read_in_words() -> None:
    g = started(3)
    player(g, 2)["forts"] = [6]
    player(g, 3)["cities"].append({"name": "City 2", "tiles": 1})
    to_manoeuvre(g)
    pick(g, "capture")
    assert [o.label for o in g.prompt().options] == ["Bob: 1 city", "Cat: 2 cities"]
    pick(g, "back")
    pick(g, "fort")
    assert [(o.label, o.enabled) for o in g.prompt().options] == [("Bob: 1 fort", True), ("Cat: 0 forts", False)]


# ------------------------------------------------------------------------------------------------ 4 forts
@pytest.mark.parametrize("choice, ann, bob", [("keep", [6], [4]), ("remove", [], [4])])
def test_a_captured_fort_is_kept_or_removed(choice: str, ann: list[int], bob: list[int]) -> None:
    g = started(2)
    player(g, 2)["forts"] = [6, 4]
    to_manoeuvre(g)
    pick(g, "fort")
    pick(g, "2")
    pick(g, "0")
    pick(g, choice)
    assert player(g, 1)["forts"] == ann and player(g, 2)["forts"] == bob


def test_no_fort_to_capture_is_refused() -> None:
    g = started(2)
    to_manoeuvre(g)
    with pytest.raises(InvalidAnswer, match="no one else has a fort"):
        g.answer("fort")


# ------------------------------------------------------------------------------------------------ 5 air raids
def raid_battle(g: SovereignGame) -> None:
    pick(g, "battle")
    ok(g)
    pick(g, "2")


def test_air_raids_launch_only_from_a_city_of_six_tiles() -> None:
    g = at_manoeuvre()
    give(g, 1, "rocketry")
    g.data["unit_stats"]["Air raid"] = [4, 0, 6, 2]
    raid_battle(g)
    with pytest.raises(InvalidAnswer, match="air raids need a 6-tile city; Ann has 4"):
        g.answer("u:Air raid")
    player(g, 1)["cities"][0]["tiles"] = 6
    pick(g, "u:Air raid")
    assert names(g, "att") == ["Air raid"]


def test_air_raids_fly_once_a_turn() -> None:
    g = at_manoeuvre()
    give(g, 1, "rocketry")
    player(g, 1)["cities"][0]["tiles"] = 6
    g.data["unit_stats"]["Air raid"] = [4, 0, 6, 2]
    battle(g, ["Air raid", "Air raid"], ["Musketman"])
    one_roll(g, [12, 12], [1])
    pick(g, "end")
    raid_battle(g)
    with pytest.raises(InvalidAnswer, match="Ann's air raids have flown this turn"):
        g.answer("u:Air raid")
    pick(g, "u:Catapult")  # other units may still fight
    assert names(g, "att") == ["Catapult"]


# ------------------------------------------------------------------------------------------------ 6 the box
def test_box_limits() -> None:
    from companion.rules.sovereign import box

    h = box.holdings([7, 4], 6, 66)
    assert (h.cities, h.plain) == (2, 9)
    assert box.over_box(h, box.holdings([7, 4], 7, 66)) == ["7 forts; box has 6"]
    assert box.over_box(h, box.holdings([7, 4], 6, 67)) == ["67 units; box has 66"]
    assert box.over_box(box.holdings([1] * 22, 0, 0), box.holdings([1] * 23, 0, 0)) == ["23 cities; box has 22"]
    assert box.over_box(box.holdings([7] * 8 + [2], 0, 0), box.holdings([7] * 8 + [3], 0, 0)) == \
        ["50 extra tiles; box has 49"]
    assert box.over_box(h, h) == []


def test_a_seventh_fort_warns_that_the_box_holds_six() -> None:
    g = started(2)
    give(g, 1, "code_of_laws")
    player(g, 1)["forts"] = [2, 2, 2, 2, 2, 2]
    pick(g, "collect")
    pick(g, "fort")
    pick(g, "river")
    p = g.prompt()
    assert isinstance(p, Info) and p.title == "Over the box" and p.lines[0] == "7 forts; box has 6"
    ok(g)
    assert g.state == "spend" and player(g, 1)["forts"] == [2] * 7  # a warning: the build stands


def test_units_are_counted_built_less_lost() -> None:
    g = at_manoeuvre()
    assert player(g, 1)["units"] == 0
    player(g, 1)["units"] = 66
    battle(g, ["Catapult"], ["Musketman"])
    one_roll(g, [1], [12, 1])
    assert player(g, 1)["units"] == 65 and g.state_json()["players"][0]["units"] == 65


# ------------------------------------------------------------------------------------------------ 7 switches
def test_forts_need_code_of_laws_by_default_and_the_switch_lifts_it() -> None:
    g = started(2)
    pick(g, "collect")
    assert option(g, "fort").hint == "forts need Code of Laws"
    with pytest.raises(InvalidAnswer, match="Code of Laws"):
        g.answer("fort")
    g2 = started(2, forts_need_code_of_laws=False)
    pick(g2, "collect")
    assert option(g2, "fort").enabled


def test_espionage_limit_is_a_switch() -> None:
    for limited, offered in ((True, ["seafaring"]), (False, ["seafaring", "trade", "gunpowder"])):
        g = started(2, espionage_researchable=limited)
        give(g, 1, "espionage", "pottery", "writing", "mining")
        give(g, 2, "seafaring", "gunpowder", "trade")
        ok(g)
        pick(g, "spy")
        pick(g, "2")
        assert option_keys(g) == offered


def test_air_raid_loss_all_removes_every_air_raid_in_the_army() -> None:
    for reading, left in (("one", ["Catapult", "Air raid"]), ("all", ["Catapult"])):
        g = at_manoeuvre(air_raid_loss=reading)
        give(g, 1, "rocketry")
        player(g, 1)["cities"][0]["tiles"] = 6
        g.data["unit_stats"]["Air raid"] = [4, 0, 6, 2]
        battle(g, ["Catapult", "Air raid", "Air raid"], ["Musketman"])
        one_roll(g, [1], [12, 1])
        assert names(g, "att") == left


def test_air_raid_loss_all_in_the_odds() -> None:
    raid = Fighter("Air raid", 4, 0, 6, 0, air=True)
    cat = Fighter("Catapult", 2, 1, 2, 1)
    musket = Fighter("Musketman", 1, 3, 3, 0)
    one = battle_odds([raid, raid, cat], [musket]).attacker
    all_ = battle_odds([raid, raid, cat], [musket], air_all=True).attacker
    # with "all", a lost first roll leaves the Catapult alone: exactly p1 + (1 - p1) * P(Catapult wins)
    p1 = battle_odds([raid, raid, cat], [musket]).first_roll
    assert all_ == p1 + (1 - p1) * battle_odds([cat], [musket]).attacker
    assert all_ < one
    assert battle_odds([cat], [musket], air_all=True).attacker == battle_odds([cat], [musket]).attacker
    assert isinstance(all_, Fraction)


def city_battle(g: SovereignGame, central: str | None) -> str:
    pick(g, "battle")
    ok(g)
    pick(g, "2")
    build(g, ["Catapult"])
    pick(g, "done")
    build(g, ["Musketman"])
    pick(g, "done")
    pick(g, "city")
    if central is not None:
        pick(g, central)
    if g.data["battle"]["step"] == "adjacent":
        g.answer(2)
    return str(g.prompt().lines[0])


def test_construction_counts_only_for_the_central_tile_holder_by_default() -> None:
    g = at_manoeuvre()
    give(g, 2, "construction")
    assert city_battle(g, "yes").startswith("Sums 2 v 3+3:")  # 2 adjacent + Construction
    g = at_manoeuvre()
    give(g, 2, "construction")
    assert city_battle(g, "no").startswith("Sums 2 v 3+0:")  # neither bonus away from the central tile
    g = at_manoeuvre(construction_bonus="every_city")
    give(g, 2, "construction")
    assert city_battle(g, None).startswith("Sums 2 v 3+3:")  # no question: today's reading
    assert Field(Where.CITY, construction=True).construction


def test_the_four_readings_are_declared_switches_with_their_defaults() -> None:
    opts = SovereignGame.OPTIONS
    assert opts["forts_need_code_of_laws"].default is True
    assert opts["espionage_researchable"].default is True
    assert opts["air_raid_loss"].default == "one" and opts["air_raid_loss"].choices == ("one", "all")
    assert opts["construction_bonus"].default == "central"
    with pytest.raises(ValueError, match="air_raid_loss"):
        opts["air_raid_loss"].check("sovereign", "air_raid_loss", "some")
