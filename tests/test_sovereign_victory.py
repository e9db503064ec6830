"""The three ways to win Sovereign: seven cards of one kind (Expansion only with enough city tiles), and all three
tier-7 technologies at once."""
from __future__ import annotations

from typing import Any

import pytest

from companion.rules.sovereign import techs as rt
from fsm.prompts import InvalidAnswer
from fsm.sovereign import SovereignGame
from test_sovereign_kit import finish_turn, give, ok, pick, player, started
from test_sovereign_battle import at_manoeuvre, battle, one_roll


def test_all_three_final_technologies_win_at_once() -> None:
    g = started(2)
    give(g, 1, *[t.key for t in rt.TECHS if t.tier < 7], "artificial_intelligence", "space_flight")
    player(g, 1)["cities"][0]["tiles"] = 7
    player(g, 1)["cities"].append({"name": "City 2", "tiles": 7, "start": 7})
    player(g, 1)["cities"].append({"name": "City 3", "tiles": 7, "start": 7})
    ok(g)  # 21 + Banking/Trade are not used
    assert player(g, 1)["points"] == 21
    player(g, 1)["points"] = 23
    pick(g, "research")
    pick(g, "globalization")
    assert g.state == "game_over" and g.is_over
    js = g.state_json()
    assert js["winner"] == 1 and js["winner_name"] == "Ann"
    assert js["win_reason"] == "all three tier-7 technologies"
    assert g.prompt().title == "Game over"
    with pytest.raises(InvalidAnswer):
        g.answer(True)


def test_seven_military_cards_win_at_finish() -> None:
    g = at_manoeuvre()
    player(g, 1)["cards"]["military"] = 6
    battle(g, ["Catapult"], ["Horseman"])
    one_roll(g, [10], [1])
    pick(g, "end")
    assert g.state == "manoeuvre" and player(g, 1)["pending"]["military"] == 1
    pick(g, "done")
    assert g.state == "finish"
    pick(g, "end")
    assert g.state == "game_over" and g.data["winner"] == 1
    assert g.state_json()["players"][0]["victory_cards"]["military"] == 7
    assert g.data["win_reason"] == "seven military cards"


def test_the_defender_earns_no_military_card() -> None:
    g = at_manoeuvre()
    player(g, 2)["cards"]["military"] = 6
    battle(g, ["Horseman"], ["Musketman"])
    one_roll(g, [1], [10])
    pick(g, "end")
    assert player(g, 2)["pending"]["military"] == 0
    finish_turn(g)
    assert not g.is_over


def _grow_four_to_seven(g: SovereignGame, city: str = "1") -> None:
    """Three expansions of a 4-tile city in one turn (``city`` is asked for only when several can grow)."""
    for terrain in ("river", "river", "coast"):
        pick(g, "expand")
        if g.prompt().title == "Expand city":
            pick(g, city)
        pick(g, terrain)


def expansion_game(other_tiles: int, **options: Any) -> SovereignGame:
    g = started(2, None, **options)
    p = player(g, 1)
    p["cards"]["expansion"] = 6
    p["cities"].append({"name": "City 2", "tiles": 4, "start": 4})
    extra = other_tiles
    while extra > 0:
        n = min(7, extra)
        p["cities"].append({"name": f"City {len(p['cities']) + 1}", "tiles": n, "start": n})
        extra -= n
    ok(g)
    _grow_four_to_seven(g)
    pick(g, "done")
    ok(g)
    pick(g, "done")
    assert g.state == "finish" and p["pending"]["expansion"] == 1
    return g


def test_seven_expansion_cards_win_with_28_city_tiles() -> None:
    g = expansion_game(other_tiles=17)  # 4 + 7 + 17 = 28
    pick(g, "end")
    assert g.state == "game_over" and g.data["win_reason"] == "seven expansion cards"


def test_seven_expansion_cards_need_the_tiles_and_win_later_when_they_come() -> None:
    g = expansion_game(other_tiles=16)  # 27 tiles
    pick(g, "end")
    assert g.state == "add" and player(g, 1)["cards"]["expansion"] == 7
    finish_turn(g)
    assert g.active_seat() == 1
    ok(g)
    pick(g, "expand")
    pick(g, "0")
    pick(g, "river")
    finish_turn(g)
    assert g.state == "game_over" and g.data["winner"] == 1


def test_expansion_tiles_option_23() -> None:
    g = expansion_game(other_tiles=12, expansion_tiles=23)  # 4 + 7 + 12 = 23
    pick(g, "end")
    assert g.state == "game_over"


def test_expansion_card_is_detected_marked_and_unmarked() -> None:
    g = started(2)
    ok(g)
    player(g, 1)["points"] = 20
    _grow_four_to_seven(g)
    pick(g, "done")
    ok(g)
    pick(g, "done")
    assert player(g, 1)["pending"]["expansion"] == 1
    pick(g, "unmark")
    assert player(g, 1)["pending"]["expansion"] == 0
    pick(g, "mark")
    pick(g, "mark")
    pick(g, "end")
    assert player(g, 1)["cards"]["expansion"] == 2


def test_seven_technology_cards_win() -> None:
    g = started(2)
    p = player(g, 1)
    p["cards"]["technology"] = 6
    give(g, 1, "pottery", "writing", "mining", "horseback_riding", "seafaring")
    ok(g)
    pick(g, "research")
    pick(g, "road_building")
    finish_turn(g)
    assert g.state == "game_over" and g.data["win_reason"] == "seven technology cards"


def test_an_option_value_that_is_not_allowed_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"\[games.sovereign\] expansion_tiles = 25 is not allowed"):
        started(2, expansion_tiles=25)
    with pytest.raises(ValueError, match="explode"):
        started(2, explode="twice")
    with pytest.raises(ValueError, match="no option"):
        started(2, nonsense=1)
