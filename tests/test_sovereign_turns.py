"""Scripted Sovereign turns through prompt()/answer(): roll-off, the five steps, Spend order, gating, bonus timing."""
from __future__ import annotations

import pytest

from fsm.prompts import Choice, Dice, InvalidAnswer, Number
from test_sovereign_kit import finish_turn, give, new_game, ok, option, option_keys, pick, player, roll, started


# ------------------------------------------------------------------------------------------------ setup
def test_rolloff_ties_reroll_among_the_tied_only_and_every_roll_is_shown() -> None:
    g = new_game(3)
    seen = []
    for v in (9, 9, 3, 5, 2):
        p = g.prompt()
        assert isinstance(p, Dice) and p.die == "d12" and p.count == 1
        seen.append(p.player)
        roll(g, v)
    assert seen == [1, 2, 3, 1, 2]  # Cat (3) lost the first pass and does not roll again
    assert g.state == "place_cities"
    assert g.data["order"] == [1, 2, 3]
    log = "\n".join(g.data["log"])
    assert "Ann rolls 9" in log and "Bob rolls 9" in log and "Cat rolls 3" in log and "roll again" in log


def test_rolloff_lines_show_the_tie_and_the_new_pass() -> None:
    g = new_game(3)
    for v in (9, 9, 3, 5):
        roll(g, v)
    p = g.prompt()
    assert p.title == "Tie: roll 2" and p.player == 2
    assert p.lines[0] == "Ann 5"  # the newest rolls first: a dice screen shows one line
    assert "Ann 9 Bob 9 Cat 3" in " ".join(p.lines)


def test_the_winner_starts_and_places_first_then_clockwise() -> None:
    g = new_game(3)
    for v in (4, 11, 7):
        roll(g, v)
    assert g.data["order"] == [2, 3, 1]
    placed = []
    while g.state == "place_cities":
        placed.append(g.prompt().player)
        ok(g)
    assert placed == [2, 3, 1]
    assert g.state == "add" and g.active_seat() == 2
    assert all(player(g, s)["cities"] == [{"name": "City 1", "tiles": 4, "start": 4 if s == 2 else None}]
               for s in (1, 2, 3))


# ------------------------------------------------------------------------------------------------ a simple turn
def test_ok_ok_ok_runs_a_simple_turn_and_hands_over() -> None:
    g = started(2)
    assert g.prompt().title == "Add, round 1"
    ok(g)  # collect 4
    assert g.state == "spend" and player(g, 1)["points"] == 4
    assert g.prompt().default == "research", "one careless OK must not end Spend"
    pick(g, "done")  # the points are lost
    assert g.state == "move" and player(g, 1)["points"] == 0
    ok(g)
    assert g.state == "manoeuvre"
    ok(g)
    assert g.state == "finish"
    ok(g)
    assert g.state == "add" and g.active_seat() == 2 and g.data["round"] == 1
    finish_turn(g)
    assert g.active_seat() == 1 and g.data["round"] == 2


def test_skipping_add_gives_nothing() -> None:
    g = started(2)
    pick(g, "skip")
    assert g.state == "spend" and player(g, 1)["points"] == 0
    assert not option(g, "research").enabled


# ------------------------------------------------------------------------------------------------ spend
def test_research_costs_points_and_an_action() -> None:
    g = started(2)
    ok(g)
    pick(g, "research")
    p = g.prompt()
    assert isinstance(p, Choice) and p.back == "back"
    assert {o.key for o in p.options} == {"pottery", "writing", "road_building", "mining", "horseback_riding",
                                          "seafaring"}
    pick(g, "pottery")
    assert player(g, 1)["points"] == 2 and g.data["spend"]["actions"] == 1
    assert "pottery" in player(g, 1)["techs"]
    pick(g, "research")
    pick(g, "back")  # BACK leaves the list without spending
    assert player(g, 1)["points"] == 2 and g.state == "spend"


def test_spend_order_research_then_expansions_then_units() -> None:
    g = started(2)
    give(g, 1, "pottery", "mining", "horseback_riding", "mathematics", "code_of_laws")
    player(g, 1)["cities"][0]["tiles"] = 6
    ok(g)
    assert player(g, 1)["points"] == 6
    pick(g, "expand")
    pick(g, "river")
    assert player(g, 1)["cities"][0]["tiles"] == 7 and player(g, 1)["points"] == 4
    research = option(g, "research")
    assert not research.enabled and "research comes first" in research.hint
    with pytest.raises(InvalidAnswer, match="research comes first"):
        g.answer("research")
    pick(g, "unit")
    pick(g, "Horseman")
    assert player(g, 1)["points"] == 1
    assert not option(g, "expand").enabled and not option(g, "fort").enabled
    assert "units come last" in option(g, "fort").hint
    with pytest.raises(InvalidAnswer):
        g.answer("fort")


def test_three_actions_at_most() -> None:
    g = started(2)
    player(g, 1)["cities"][0]["tiles"] = 7
    player(g, 1)["cities"].append({"name": "City 2", "tiles": 7, "start": 7})
    give(g, 1, "code_of_laws")
    ok(g)
    for key in ("pottery", "writing", "mining"):
        pick(g, "research")
        pick(g, key)
    assert player(g, 1)["points"] == 8
    for key in ("research", "expand", "fort"):
        assert option(g, key).hint == "no actions left this turn"


def test_artificial_intelligence_adds_an_action_from_the_next_turn() -> None:
    g = started(2)
    give(g, 1, "artificial_intelligence")  # discovered before this turn
    ok(g)
    assert g.data["spend"]["max"] == 4
    g2 = started(2)
    give(g2, 1, "artificial_intelligence", turn=1)  # this very turn
    ok(g2)
    assert g2.data["spend"]["max"] == 3


def test_wheel_and_electricity_are_free_actions_in_a_selected_turn_once() -> None:
    g = started(2)
    give(g, 1, "wheel", "electricity")
    ok(g)
    pick(g, "wheel")
    pick(g, "electricity")
    assert g.data["spend"]["max"] == 6
    assert "wheel" not in option_keys(g) and "electricity" not in option_keys(g)


def test_terrain_costs_and_no_building_on_sea() -> None:
    g = started(2)
    ok(g)  # 4 points
    pick(g, "expand")
    p = g.prompt()
    assert isinstance(p, Choice)
    costs = {o.key: (o.label, o.enabled) for o in p.options}
    assert costs["river"] == ("River 2", True) and costs["grassland"] == ("Grassland 4", True)
    assert costs["woodland"] == ("Woodland 5", False) and costs["tundra"] == ("Tundra 9", False)
    assert costs["sea"][1] is False
    with pytest.raises(InvalidAnswer, match="sea"):
        g.answer("sea")
    pick(g, "grassland")
    assert player(g, 1)["points"] == 0 and player(g, 1)["cities"][0]["tiles"] == 5


def test_expansion_asks_for_the_city_when_several_can_grow_and_forts_are_kept() -> None:
    g = started(2)
    player(g, 1)["cities"].append({"name": "City 2", "tiles": 1, "start": 1})
    player(g, 1)["cities"].append({"name": "City 3", "tiles": 7, "start": 7})
    give(g, 1, "code_of_laws")
    ok(g)  # 12 points
    pick(g, "expand")
    assert option_keys(g) == ["0", "1"]  # the full city is not offered
    pick(g, "1")
    pick(g, "hill")
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [4, 2, 7]
    pick(g, "fort")
    pick(g, "woodland")
    assert player(g, 1)["forts"] == [5] and player(g, 1)["points"] == 1


def test_units_known_and_unknown_costs() -> None:
    g = started(2)
    give(g, 1, "pottery", "mathematics")
    ok(g)  # 4
    pick(g, "unit")
    assert option(g, "Catapult").label == "Catapult 3" and option(g, "Settler").label == "Settler ?"
    pick(g, "Settler")
    p = g.prompt()
    assert isinstance(p, Number) and p.title == "Unit cost"
    with pytest.raises(InvalidAnswer, match="more than the 4 points"):
        g.answer(5)
    g.answer(2)
    assert player(g, 1)["points"] == 2 and g.data["unit_costs"] == {"Settler": 2}
    pick(g, "unit")
    assert option(g, "Settler").label == "Settler 2" and not option(g, "Catapult").enabled


# ------------------------------------------------------------------------------------------------ gating
def test_tier_gating_four_of_a_tier_before_the_next() -> None:
    g = started(2)
    give(g, 1, "pottery", "writing", "mining")
    player(g, 1)["cities"][0]["tiles"] = 7
    ok(g)
    pick(g, "research")
    assert all(k in ("road_building", "horseback_riding", "seafaring") for k in option_keys(g))
    pick(g, "seafaring")
    pick(g, "research")
    assert "trade" in option_keys(g) and "code_of_laws" not in option_keys(g, enabled_only=False)


def test_completing_a_tier_earns_a_technology_card_at_finish() -> None:
    g = started(2)
    give(g, 1, "pottery", "writing", "mining", "horseback_riding", "seafaring")
    ok(g)
    pick(g, "research")
    pick(g, "road_building")
    assert player(g, 1)["pending"]["technology"] == 1 and player(g, 1)["cards"]["technology"] == 0
    finish_turn(g)
    assert player(g, 1)["cards"]["technology"] == 1 and player(g, 1)["pending"]["technology"] == 0


# ------------------------------------------------------------------------------------------------ bonus timing
def test_trade_discovered_this_turn_applies_from_the_next_turn() -> None:
    g = started(2)
    give(g, 1, "pottery", "writing", "mining", "seafaring")
    player(g, 1)["cities"].append({"name": "City 2", "tiles": 2, "start": 2})
    ok(g)  # 6
    pick(g, "research")
    pick(g, "trade")
    finish_turn(g)  # Ann
    finish_turn(g)  # Bob
    assert g.active_seat() == 1
    assert option(g, "trade").label == "Trade: 8 points"  # 6 tiles + 1 per city
    pick(g, "trade")
    assert player(g, 1)["points"] == 8
    finish_turn(g)
    finish_turn(g)
    assert "trade" not in option_keys(g)  # one selected turn only


def test_banking_then_nothing_the_next_turn_and_globalization_every_turn() -> None:
    g = started(2)
    give(g, 1, "banking", "globalization")
    assert option(g, "collect").label == "Collect 16 points"
    pick(g, "banking")
    assert player(g, 1)["points"] == 4 + 5 + 12
    finish_turn(g)
    finish_turn(g)
    p = g.prompt()
    assert "After Banking: cities 0" in p.lines and "banking" not in option_keys(g)
    pick(g, "collect")
    assert player(g, 1)["points"] == 12
    finish_turn(g)
    finish_turn(g)
    pick(g, "collect")
    assert player(g, 1)["points"] == 16


def test_free_discovery_is_free_not_final_and_from_a_later_turn() -> None:
    g = started(2)
    give(g, 1, "pottery", "mining", "horseback_riding", "seafaring")
    ok(g)
    pick(g, "research")
    pick(g, "writing")  # discovered now: its free discovery waits for a later turn
    assert "free:writing" not in option_keys(g)
    finish_turn(g)
    finish_turn(g)
    ok(g)
    assert option(g, "free:writing").label == "Free: Writing"
    pick(g, "free:writing")
    assert "mathematics" in option_keys(g)
    pick(g, "mathematics")
    assert player(g, 1)["points"] == 4 and g.data["spend"]["actions"] == 0
    assert "free:writing" not in option_keys(g)


def test_free_discovery_never_offers_the_final_three() -> None:
    g = started(2)
    from companion.rules.sovereign import techs as rt

    give(g, 1, "literacy", *[t.key for t in rt.TECHS if t.tier < 7])
    ok(g)
    assert not option(g, "free:literacy").enabled


def test_selected_turn_option_allows_the_free_discovery_at_once() -> None:
    g = started(2, selected_bonus_same_turn=True)
    give(g, 1, "pottery", "mining")
    ok(g)
    pick(g, "research")
    pick(g, "writing")
    assert "free:writing" in option_keys(g)


def test_irrigation_and_religion_give_free_expansions_this_turn_only() -> None:
    g = started(2)
    give(g, 1, "pottery", "writing", "mining", "seafaring")
    player(g, 1)["cities"][0]["tiles"] = 5
    ok(g)  # 5
    pick(g, "research")
    pick(g, "irrigation")
    pick(g, "fexp:irrigation")  # one city: no city question
    assert player(g, 1)["cities"][0]["tiles"] == 6
    assert g.data["spend"]["phase"] == "expansion" and g.data["spend"]["actions"] == 1
    assert not any(k.startswith("fexp") for k in option_keys(g, enabled_only=False))
    # Religion unused at the end of the turn lapses
    g2 = started(2)
    give(g2, 1, "religion", turn=1)
    ok(g2)
    assert option(g2, "fexp:religion").label.startswith("2 free tiles")
    finish_turn(g2)
    assert "religion" not in player(g2, 1)["oneshot"]


def test_industrialisation_is_expansions_or_units_not_both() -> None:
    g = started(2)
    give(g, 1, "industrialisation", "mathematics")
    ok(g)
    pick(g, "funit:industrialisation")
    pick(g, "Catapult")
    assert player(g, 1)["points"] == 4 and g.data["spend"]["phase"] == "units"
    keys = option_keys(g, enabled_only=False)
    assert "funit:industrialisation" in keys and "fexp:industrialisation" not in keys
    pick(g, "funit:industrialisation")
    pick(g, "Catapult")
    assert "funit:industrialisation" not in option_keys(g, enabled_only=False)


def test_arts_grows_cities_of_five_and_six() -> None:
    g = started(2)
    give(g, 1, "arts")
    player(g, 1)["cities"] += [{"name": "City 2", "tiles": 5, "start": 5}, {"name": "City 3", "tiles": 6,
                                                                             "start": 6},
                               {"name": "City 4", "tiles": 7, "start": 7}]
    ok(g)
    pick(g, "arts")
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [4, 6, 7, 7]
    assert "arts" not in option_keys(g, enabled_only=False)


def test_nationalism_turns_two_tiles_into_two_units() -> None:
    g = started(2)
    give(g, 1, "nationalism", "horseback_riding")
    ok(g)
    pick(g, "nat")
    pick(g, "Horseman")
    pick(g, "Horseman")
    assert player(g, 1)["cities"][0]["tiles"] == 2 and player(g, 1)["points"] == 4
    assert "nat" not in option_keys(g, enabled_only=False)


def test_espionage_takes_only_what_could_be_researched() -> None:
    g = started(2)
    give(g, 1, "espionage", "pottery", "writing", "mining")
    give(g, 2, "seafaring", "gunpowder", "trade")
    ok(g)
    pick(g, "spy")
    pick(g, "2")
    assert option_keys(g) == ["seafaring"]  # tier 2 and 3 are not open to Ann
    pick(g, "seafaring")
    assert "seafaring" in player(g, 1)["techs"] and "espionage" not in player(g, 1)["oneshot"]


# ------------------------------------------------------------------------------------------------ board changes
def test_cities_menu_adjusts_tiles_and_adds_cities_but_never_hands_one_over() -> None:
    g = started(2)
    pick(g, "cities")
    pick(g, "2")
    pick(g, "0")
    pick(g, "remove")
    assert "give" not in option_keys(g, enabled_only=False)  # captures have their own flow (Manoeuvre)
    pick(g, "raze")
    assert player(g, 2)["cities"] == []
    pick(g, "new")  # Bob gets a new city
    pick(g, "add")
    assert [c["tiles"] for c in player(g, 2)["cities"]] == [2]
    pick(g, "back")
    pick(g, "back")
    pick(g, "back")
    assert g.state == "add" and g.data["sub"] is None
    assert option(g, "collect").label == "Collect 4 points"


def test_settler_founds_a_city_and_seafaring_adds_a_coastal_tile() -> None:
    g = started(2)
    give(g, 1, "pottery")
    player(g, 1)["settlers"] = 2
    ok(g)
    pick(g, "done")
    ok(g)
    pick(g, "found")
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [4, 1]
    give(g, 1, "seafaring")
    pick(g, "found")
    pick(g, "coast")
    assert [c["tiles"] for c in player(g, 1)["cities"]] == [4, 1, 2]
    assert player(g, 1)["cities"][2]["name"] == "City 3"


def test_state_json_has_the_contract_keys() -> None:
    g = started(2)
    give(g, 1, "writing", "pottery")
    ok(g)
    js = g.state_json()
    assert js["game"] == "sovereign" and js["active_player"] == 1 and js["winner"] is None
    p1 = js["players"][0]
    assert {"cities", "tiles", "points", "techs", "victory_cards"} <= set(p1)
    assert p1["cities"] == 1 and p1["tiles"] == 4 and p1["points"] == 4
    assert p1["techs"] == ["Pottery", "Writing"]
    assert p1["victory_cards"] == {"military": 0, "expansion": 0, "technology": 0}


def test_views_status_chart_and_battle_log() -> None:
    g = started(2)
    give(g, 1, "pottery", "writing", "mining", "seafaring")
    views = {v.title: v for v in g.views()}
    assert set(views) == {"Chart: Ann", "Ann status", "Bob status", "Battle log"}
    chart = views["Chart: Ann"].lines
    assert chart[0] == "Tier 1, 2 pts: open" and "Road building" in " ".join(chart[1:3])
    t2 = chart.index("Tier 2, 3 pts: open")
    assert "Trade" in " ".join(chart[t2 + 1:t2 + 4])
    assert chart[chart.index("Tier 3, 5 pts: locked") + 1] == "  tier 2: 0 of 4 needed"
    status = views["Ann status"].lines
    assert status[0] == "Cities 1: 4 = 4 tiles" and "Tier 1: 4 of 6" in status
    assert views["Battle log"].lines == ("No battles yet",)
    assert all(len(line) <= 24 for v in views.values() for line in v.lines)
