"""Society against its rules text, from an independent review: each case failed on the code before the fix."""
from __future__ import annotations

from typing import Any

from companion.rules.society.resolve import resolve
from society_kit import o, small_world


def world(**socs: dict[str, Any]) -> dict[str, Any]:
    """Ana at A1, Ben at B1, Cleo at C1 on a 6x6 map; ``a=``, ``b=``, ``c=`` override their fields."""
    return small_world(("A1", "B1", "C1"), **socs)


def test_an_eliminated_society_loses_the_army_it_sent_later_in_the_war() -> None:
    # Ana (tech 5, 20 armies) takes Ben's only city first: C = (20/1 - 8/1) x 5 = 60 -> 1. Ben's attack on Cleo,
    # received second, never marches: Ben is gone, and so are his 8 armies (not "home" in a society with no cities)
    w = world(a={"armies": 20, "tech": 5}, b={"armies": 8}, c={"armies": 0})
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=20), o(2, "attack", target="3", armies=8)])
    assert not w2["soc"]["2"]["alive"] and w2["soc"]["2"]["armies"] == 0
    assert rep["results"] == ["ok", "lost: Ben was eliminated"]
    assert w2["soc"]["1"]["cities"] == ["A1", "B1"] and w2["soc"]["3"]["cities"] == ["C1"]


def test_equal_spaceship_engines_go_to_the_first_order_received() -> None:
    parts = {"tech": 15, "parts": 3, "part_spent": [1000, 1000, 1000], "gold": 5000}
    w = world(a=dict(parts), b=dict(parts, part_spent=[1000, 1000, 1000]))
    _w, rep = resolve(w, [o(2, "part", gold=1500), o(1, "part", gold=1500)], arrival={"2": 1, "1": 2})
    assert rep["winners"] == [{"seat": "2", "how": "spaceship"}]  # Ben's PM came first (was: lower seat)
    _w, rep = resolve(w, [o(2, "part", gold=1500), o(1, "part", gold=1501)])
    assert rep["winners"] == [{"seat": "1", "how": "spaceship"}]  # the dearer engine still wins


def test_the_colosseum_owner_s_victim_gets_its_counterattack_on_the_next_turn() -> None:
    # Ben holds the Colosseum and attacks Ana (turn 1); Ana's orders for turn 1 crossed his, so her one
    # counterattack comes on turn 2 and gets past the Colosseum; on turn 3 the Colosseum protects Ben again
    w = world(a={"armies": 6, "tech": 2}, b={"armies": 6, "tech": 2})
    w["wonders"]["colosseum"] = {"owner": "2", "builder": "2", "square": "B1", "obsolete": False, "turn": 0, "cost": 4}
    w["soc"]["2"]["cities"] = ["B1", "B2", "C2"]
    w1, rep = resolve(w, [o(2, "attack", target="1", armies=1)])
    # C = (1/2 - 6/1) x 1 < 0: nothing taken; Ben loses 6/2 = 3 > 1 -> his 1 army
    assert rep["wars"][0]["C"] == 0 and w1["counters"] == [["1", "2"]]
    w2, rep = resolve(w1, [o(1, "attack", target="2", armies=6)])
    # declared (Ben's attack made the war): C = (6/2 - 5/3) x (2/2) = 1.33 -> 1
    assert rep["results"] == ["ok"] and rep["wars"][0]["C"] == 1 and len(w2["soc"]["1"]["cities"]) == 2
    assert w2["counters"] == [["2", "1"]]
    _w3, rep = resolve(w2, [o(1, "attack", target="2", armies=1)])
    assert rep["results"] == ["stayed home: Ben's Colosseum"]


def test_a_strike_with_nukes_only_is_no_two_way_attack() -> None:
    # Ana sends 1 nuke and no armies at Ben while Ben attacks her with 3 armies: no armies meet, so the nuke
    # flies (B1, nearest to Ana) and Ben's 3 then attack: C = (3/11 - 0/2) x (1/11) -> 0
    w = world(a={"tech": 11, "nukes": 1, "armies": 0, "cities": ["A1", "A2"]},
              b={"armies": 3, "cities": ["B1", "B2", "C2"]})
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=0, nukes=1), o(2, "attack", target="1", armies=3)])
    assert rep["results"] == ["ok", "ok"]
    assert rep["wars"][0]["nukes"] == {"sent": 1, "stopped": 0, "destroyed": ["B1"]} and "two_way" not in rep["wars"][0]
    assert w2["nuked"] == ["B1"] and w2["soc"]["1"]["nukes"] == 0
    assert (rep["wars"][1]["A"], rep["wars"][1]["D"], rep["wars"][1]["C"]) == (3, 0, 0)
    assert "two_way" not in rep["wars"][1] and w2["soc"]["2"]["armies"] == 3


def test_an_order_the_treasury_cannot_pay_is_cut_at_production_and_the_gold_left_is_known() -> None:
    from companion.rules.society.orders import why_not
    from companion.rules.society.resolve import spendable

    # 6 gold; Iron Working 4 x (3-0)/3 = 4 and Monarchy 8: 12 needed; after the trade (-2 +1) and a first level,
    # a Tower of Babel bid of 2 finds 1 gold left
    w = world()
    assert why_not(w, [], o(1, "research", levels=2)) is None  # the production phase judges the gold
    _w, rep = resolve(w, [o(1, "research", levels=2)])
    assert rep["results"] == ["cut: not enough gold (cut from the back of the orders)"]
    orders = [o(1, "trade", partner="2"), o(1, "research", levels=1)]
    assert spendable(w, orders, "1") == 1
    _w, rep = resolve(w, [*orders, o(1, "wonder", wonder="babel", gold=2)])
    assert rep["results"] == ["ok", "ok", "cut: not enough gold (cut from the back of the orders)"]


def test_the_nukes_of_an_army_beaten_in_a_two_way_attack_still_fly() -> None:
    # Ana (tech 11) sends 1 army and 1 nuke, nukes first; Ben's 5 armies attack her the same turn.
    # Two-way: 1 x 11 = 11 against 5 x 3 = 15 -> Ben wins, (15 - 11) / 3 = 1.33 -> 2 survive; Ana's army is
    # destroyed, but her nuke still takes B1 (nearest her, no wonder). Then Ben's 2 attack her (no armies home):
    # C = (2/11 - 0/2) x 3/11 -> 0
    w = world(a={"tech": 11, "nukes": 1, "armies": 1, "cities": ["A1", "A2"]},
              b={"tech": 3, "armies": 5, "cities": ["B1", "B2", "C2"]})
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=1, nukes=1), o(2, "attack", target="1", armies=5)])
    assert rep["results"] == ["destroyed in a two-way attack", "ok"]
    assert rep["wars"][0]["two_way"]["winner"] == 2 and rep["wars"][0]["two_way"]["survivors"] == 2
    assert rep["wars"][0]["nukes"]["destroyed"] == ["B1"] and w2["soc"]["1"]["nukes"] == 0
    assert rep["wars"][1]["A"] == 2 and rep["wars"][1]["C"] == 0
    # the other way round: Ben's order first, Ben loses; Ben's nuke flies when his own order is reached
    w = world(a={"tech": 11, "armies": 5, "cities": ["A1", "A2"]},
              b={"tech": 11, "nukes": 1, "armies": 1, "cities": ["B1", "B2", "C2"]})
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=5), o(2, "attack", target="1", armies=1, nukes=1)])
    # 5 x 11 = 55 against 11: Ana wins, 44/11 = 4 survive; C = (4/11 - 0/3) x 1 -> 0
    assert rep["results"] == ["ok", "destroyed in a two-way attack"]
    assert rep["wars"][1]["nukes"] == {"sent": 1, "stopped": 0, "destroyed": ["A1"]}
    assert w2["nuked"] == ["A1"] and w2["soc"]["2"]["nukes"] == 0 and w2["soc"]["1"]["armies"] == 4
