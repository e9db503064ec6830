"""Society's game flow on the machine: the end of the game (a dual victory, domination conceded), and the one
plain line an order the treasury refuses gets at entry."""
from __future__ import annotations

import pytest

from fsm.base import Player, Setup
from fsm.prompts import InvalidAnswer
from fsm.society import SocietyGame


def game() -> SocietyGame:
    """Ana, Ben, Cleo on a 6x6 map, the proposed starts, turn 1."""
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")  # the random pick of the start squares
    g.answer("start")
    assert g.state == "orders"
    return g


def process(g: SocietyGame) -> None:
    g.answer("process")
    g.answer(True)
    assert g.state == "report"
    g.answer(True)  # OK on the report page


def test_a_dual_victory_ends_the_game_with_both_winners() -> None:
    g = game()
    w = g.data["world"]
    # Ana builds her 4th spaceship part this turn; Cleo already built 10 wonders
    w["soc"]["1"].update(tech=15, gold=5000, parts=3, part_spent=[1000, 1000, 1000])
    w["soc"]["3"]["built"] = 10
    for v in ("soc:1", "part", 1200, "done"):
        g.answer(v)
    process(g)
    s = g.state_json()
    assert g.state == "game_over" and s["winner"] is None and s["winners"] == ["Ana", "Cleo"]
    assert s["win_reason"] == "Dual victory: Ana (spaceship), Cleo (cultural)"
    with pytest.raises(InvalidAnswer, match="the game is over"):
        g.answer(True)


def test_a_single_winner_is_the_winning_seat() -> None:
    g = game()
    g.data["world"]["soc"]["2"]["built"] = 10
    process(g)
    s = g.state_json()
    assert (s["winner"], s["winner_name"], s["winners"]) == (2, "Ben", ["Ben"])
    assert s["win_reason"] == "Victory: Ben (cultural)"


def test_domination_by_concession_from_the_menu() -> None:
    g = game()
    g.answer("more")
    g.answer("concede")
    g.answer("3")
    g.answer(False)  # No: back to the orders, nothing changes
    assert g.state == "orders" and g.data["entry"] is None
    for v in ("more", "concede", "3", True):
        g.answer(v)
    s = g.state_json()
    assert g.state == "game_over" and (s["winner"], s["winners"]) == (3, ["Cleo"])
    assert s["win_reason"] == "Victory: Cleo (domination, conceded)"


def test_an_order_the_treasury_cannot_pay_now_is_accepted_and_cut_at_production() -> None:
    g = game()
    for v in ("soc:1", "wonder", "babel"):
        g.answer(v)
    g.data["world"]["soc"]["1"]["gold"] = 0  # (a treasury emptied behind the spinner's back)
    g.answer(1)  # trade income typed later may pay for it: only the production phase can tell
    assert [o["kind"] for o in g.data["orders"]] == ["wonder"]
    g.answer("done")
    process(g)
    assert g.data["reports"][-1]["results"] == ["cut: not enough gold (cut from the back of the orders)"]


def test_the_theatre_ranking_greys_the_cities_the_attack_cannot_take_yet() -> None:
    g = game()
    w = g.data["world"]
    w["soc"]["1"].update(cities=["A2"], armies=3)
    w["soc"]["2"]["cities"] = ["B2", "B3", "B1"]
    w["soc"]["3"]["cities"] = ["F6"]
    w["wars"]["1-2"] = {"since": 0, "by": "1"}  # declared on an earlier turn: the chain goes on from B2
    for v in ("soc:1", "attack", "2", 3):
        g.answer(v)
    why = "does not touch your territory or a city above it"
    opts = {o.key: (o.enabled, o.hint) for o in g.prompt().options}
    assert opts == {"done": (True, ""), "B2": (True, ""), "B3": (False, f"B3 {why}"), "B1": (False, f"B1 {why}")}
    g.answer("B2")
    assert all(o.enabled for o in g.prompt().options)
    del w["wars"]["1-2"]  # a sneak attack: only the cities next to Ana's territory, whatever is ranked above
    assert {o.key: o.enabled for o in g.prompt().options} == {"done": True, "B3": False, "B1": False}


def test_set_up_map_size_and_the_starting_resources() -> None:
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("5")
    s = g.data["setup"]
    assert (s["w"], s["h"]) == (6, 6)  # 3 x 12 = 36 squares
    g.answer("width")
    g.answer(9)
    g.answer("height")
    g.answer(4)
    assert (s["w"], s["h"]) == (9, 4) and len(set(s["squares"])) == 3
    assert all(q[0] in "ABCDEFGHI" and 1 <= int(q[1:]) <= 4 for q in s["squares"])
    g.answer("start")
    for k, name in (("1", "Ana"), ("2", "Ben"), ("3", "Cleo")):
        p = g.state_json()["players"][int(k) - 1]
        assert (p["society"], p["treasury"], p["government"], p["techs"], p["cities"]) == (
            name, 6, "despotism", ["Masonry"], [s["squares"][int(k) - 1]])
        assert (p["armies"], p["spies"], p["nukes"], p["sdi"], p["spaceship_parts"]) == (0, 0, 0, 0, 0)


def test_a_map_too_small_for_the_societies_is_refused() -> None:
    g = SocietyGame(Setup(tuple(Player(f"P{i}", i) for i in range(1, 21))))
    g.answer("1")
    assert (g.data["setup"]["w"], g.data["setup"]["h"]) == (15, 15)  # 20 x 12 = 240: 15 x 15 = 225 is closest
    g.answer("width")
    g.answer(2)
    g.answer("height")
    with pytest.raises(InvalidAnswer, match="20 societies need at least 20 squares"):
        g.answer(2)
    assert (g.data["setup"]["w"], g.data["setup"]["h"]) == (2, 15)


def test_the_report_before_the_first_turn_shows_the_set_up() -> None:
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("5")
    sq = g.data["setup"]["squares"]
    assert g.report("markdown") == f"## Society: set-up, 6x6 map\n\n- Ana: {sq[0]}\n- Ben: {sq[1]}\n- Cleo: {sq[2]}\n"
    g.answer("start")
    md, bb = g.report("markdown"), g.report("bbcode")
    assert md.startswith("## Society: turn 1 about to start\n") and "### Ana\n- Treasury 6 gold\n" in md
    assert "```\n   A B C D E F\n" in md
    assert bb.startswith("[b][size=150]Society: turn 1 about to start[/size][/b]\n")
    assert "[b]Ana[/b]\n[list]\n[*]Treasury 6 gold\n" in bb and "[code]\n   A B C D E F\n" in bb


def test_a_society_in_revolution_orders_only_its_kept_phase() -> None:
    g = game()
    g.data["world"]["soc"]["1"].update(tech=3, gold=50)
    for v in ("soc:1", "declare", "2"):  # entered before the revolution: kept in the list, reported lost
        g.answer(v)
    for v in ("revolution", "monarchy", "production"):
        g.answer(v)
    assert g.data["log"][-2:] == ["Ana's revolution: 1 of its orders this turn will be lost",
                                  "Turn 1: Ana: revolt: monarchy"]
    kinds = {o.key: (o.enabled, o.hint) for o in g.prompt().options}
    assert kinds["declare"] == (False, "in revolution: only Production") and kinds["armies"] == (True, "")
    # the same refusal if the order gets that far
    g.data["entry"] = {"seat": "1", "kind": "declare", "step": "target", "o": {"seat": "1", "kind": "declare"}}
    with pytest.raises(InvalidAnswer, match="^Ana is in revolution: only Production acts this turn$"):
        g.answer("3")
    assert [o["kind"] for o in g.data["orders"]] == ["declare", "revolution"]
    g.data["entry"] = None
    process(g)
    rep = g.data["reports"][-1]
    assert rep["results"] == ["lost: the society is in revolution", "ok"]
    assert g.data["world"]["soc"]["1"]["gov"] == "monarchy" and g.data["world"]["wars"] == {}


def test_only_the_last_spaceship_part_may_cost_more() -> None:
    g = game()
    g.data["world"]["soc"]["1"].update(tech=15, gold=9000, parts=1, part_spent=[1000])
    for v in ("soc:1", "part"):
        g.answer(v)
    p = g.prompt()
    assert (p.hi, p.default, p.lines[1]) == (1000, 1000, "part 2 1000g; 0: none")
    g.answer(0)  # 0 cancels
    g.data["world"]["soc"]["1"].update(parts=3, part_spent=[1000] * 3)
    g.answer("part")
    p = g.prompt()
    assert (p.lo, p.default, p.lines[1]) == (0, 1000, "min 1000 gold; 0: none") and p.hi >= 9000
