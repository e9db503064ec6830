"""Society's turn resolution, phase by phase: each rule of the text on a small hand-built world."""
from __future__ import annotations

from typing import Any

from companion.rules.society.formulas import Readings
from companion.rules.society.orders import why_not
from companion.rules.society.resolve import resolve
from society_kit import o, small_world


def world(**socs: dict[str, Any]) -> dict[str, Any]:
    """Ana at A1, Ben at B1, Cleo at F6 on a 6x6 map; ``a=``, ``b=``, ``c=`` override their fields."""
    return small_world(**socs)


def wonder(w: dict[str, Any], key: str, seat: str, square: str) -> None:
    w["wonders"][key] = {"owner": seat, "square": square, "obsolete": False, "turn": 0, "cost": 0}


def test_nukes_sdi_and_wonder_cities_last() -> None:
    w = world(a={"tech": 11, "nukes": 3, "cities": ["A1", "A2"], "gold": 0},
              b={"sdi": 2, "cities": ["B1", "C1", "B2"], "gold": 0})
    wonder(w, "babel", "2", "B1")
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=0, nukes=3)])
    # 3 nukes, 2 stopped by SDI, the third takes the nearest city that has no wonder: B2 (next to A2)
    assert rep["wars"][0]["nukes"] == {"sent": 3, "stopped": 2, "destroyed": ["B2"]}
    assert w2["soc"]["2"]["cities"] == ["B1", "C1"] and w2["nuked"] == ["B2"] and w2["soc"]["1"]["nukes"] == 0
    assert why_not(w2, [], o(1, "city", square="B2")) == "B2 is taken or nuked"
    # Majestic-12: no intercept; Galactic Overlord: 4 nukes a city
    wonder(w, "majestic", "1", "A2")
    w3, rep = resolve(w, [o(1, "attack", target="2", armies=0, nukes=3)])
    # the wonder city goes last, once the others are gone; Ben is eliminated and Babel passes to Ana
    assert rep["wars"][0]["nukes"] == {"sent": 3, "stopped": 0, "destroyed": ["B2", "C1", "B1"]}
    assert not w3["soc"]["2"]["alive"] and w3["wonders"]["babel"]["owner"] == "1"
    wonder(w, "overlord", "2", "C1")
    _w4, rep = resolve(w, [o(1, "attack", target="2", armies=0, nukes=3)])
    assert rep["wars"][0]["nukes"]["destroyed"] == []


def test_colosseum_stops_attacks_but_allows_the_counterattack() -> None:
    w = world(a={"armies": 5}, b={"armies": 1})
    wonder(w, "colosseum", "2", "B1")
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=5)])
    assert rep["results"] == ["stayed home: Ben's Colosseum"] and w2["soc"]["1"]["armies"] == 5
    _w2, rep = resolve(w, [o(2, "attack", target="1", armies=1), o(1, "attack", target="2", armies=5)],
                       arrival={"2": 1, "1": 2})  # Ben's PM first
    assert rep["wars"][0]["two_way"]["winner"] == 2  # Ana's counterattack goes ahead


def test_sneak_attack_takes_only_adjacent_cities_and_elimination_passes_wonders() -> None:
    # Ana A1; Ben B1, C1, D1 in a row: a sneak attack may take B1 only
    w = world(a={"armies": 20, "tech": 2}, b={"cities": ["B1", "C1", "D1"], "armies": 0})
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=20)])
    war = rep["wars"][0]
    assert war["sneak"] and war["C"] == 3 and war["captured"] == ["B1"]  # C = (20 - 0) x 2 = 40 -> 3
    assert w2["wars"] == {"1-2": {"since": 1, "by": "1"}}
    # declared a turn before: the chain goes on, Ben is eliminated and his wonder goes to Ana
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    wonder(w, "mafia", "2", "D1")
    w3, rep = resolve(w, [o(1, "attack", target="2", armies=20)])
    assert rep["wars"][0]["captured"] == ["B1", "C1", "D1"]
    assert not w3["soc"]["2"]["alive"] and w3["wonders"]["mafia"]["owner"] == "1"
    assert w3["soc"]["1"]["conquered"] == 1 and w3["wars"] == {}


def test_tax_caps_support_and_disbanding() -> None:
    cities = ["A1", "A2", "A3", "A4", "A5", "A6", "B2", "B3"]
    w = world(a={"cities": cities, "gold": 0, "armies": 9, "gov": "republic"})
    w2, rep = resolve(w, [])
    # Republic: 8 x 1 x 5 x 2 = 80; support 9 -> 71
    assert rep["income"]["1"]["tax"] == 80 and w2["soc"]["1"]["gold"] == 71
    w["soc"]["1"].update(gov="despotism")
    _w, rep = resolve(w, [])
    assert rep["income"]["1"]["tax"] == 30 and rep["income"]["1"]["support"] == 0  # 6 cities at most
    w["soc"]["1"].update(gov="republic", armies=100, cities=["A1"])
    w2, rep = resolve(w, [])
    # 1 x 1 x 5 x 2 = 10: 90 armies disbanded, support 10
    assert rep["income"]["1"] == {"trade": 0, "tax": 10, "wonders": 0, "support": 10, "disbanded": 90, "net": 0}
    assert w2["soc"]["1"]["armies"] == 10


def test_wonder_income_babel_and_mafia_with_the_monarchy_bonus() -> None:
    w = world(a={"tech": 3, "gov": "monarchy", "gold": 0})
    wonder(w, "babel", "1", "A1")
    wonder(w, "mafia", "1", "A1")
    w2, rep = resolve(w, [])
    # tax 1x3x5 = 15 x 1.5 = 22.5 -> 23; wonders 3^2 + 3 cities in the world = 12 x 1.5 = 18
    assert (rep["income"]["1"]["tax"], rep["income"]["1"]["wonders"]) == (23, 18) and w2["soc"]["1"]["gold"] == 41


def test_peace_needs_both_sides_and_trade_resumes_the_same_turn() -> None:
    w = world()
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    # accepted at entry whatever the typing order (Ben's peace may be typed after it); checked at the trade phase
    assert why_not(w, [], o(1, "trade", partner="2")) is None
    _w, rep = resolve(w, [o(1, "trade", partner="2")])
    assert rep["results"] == ["refused: at war with Ben (peace from both sides first)"]
    orders = [o(1, "peace", target="2"), o(2, "peace", target="1")]
    w2, rep = resolve(w, [*orders, o(1, "trade", partner="2")])
    assert w2["wars"] == {} and rep["results"][2] == "ok"
    _w, rep = resolve(w, [o(1, "peace", target="2")])
    assert rep["results"] == ["no effect: peace needs both sides"]


def test_trade_range_caravan_limit_silk_road_and_nascar() -> None:
    w = world(a={"tech": 2, "gold": 100})
    assert why_not(w, [], o(1, "trade", partner="3")) == "Cleo is out of trade range (tech 2)"
    assert why_not(w, [], o(1, "trade", partner="2", count=3)) == "at most 2 caravans a turn (0 ordered)"
    wonder(w, "silk", "1", "A1")
    w2, rep = resolve(w, [o(1, "trade", partner="3", count=2)])
    # free caravans at any distance: 2 x (2 x 1) = 4 to each
    assert w2["soc"]["1"]["gold"] == 100 + 4 + 10 and rep["income"]["3"]["trade"] == 4
    w = world(a={"tech": 11, "gold": 100})
    wonder(w, "nascar", "1", "A1")
    w2, rep = resolve(w, [o(1, "trade", partner="1", count=2)])
    # 2 caravans to itself: cost 2 x 22, income 2 x 60 (121/2 down)
    assert rep["income"]["1"]["trade"] == 120 and w2["soc"]["1"]["gold"] == 100 - 44 + 120 + 55


def test_spies_cancel_defend_and_die_in_revolutions() -> None:
    w = world(a={"tech": 7, "spies": 1}, b={"tech": 7, "spies": 1})
    # each trains one (2 each); spying on each other cancels, whatever the phase
    w2, rep = resolve(w, [o(1, "spy", target="2", phase="trade"), o(2, "spy", target="1", phase="war")])
    assert rep["results"] == ["cancelled: both sides spied on each other"] * 2 and w2["soc"]["1"]["spies"] == 1
    # a spy against a society in revolution is lost unless it targets the kept phase
    orders = [o(2, "revolution", gov="monarchy", keep="production"), o(1, "spy", target="2", phase="trade"),
              o(1, "spy", target="2", phase="research")]
    _w, rep = resolve(w, orders)
    assert rep["results"][1:] == ["lost: the target is in revolution", "ok"]
    # a defending spy stops one attacker only
    w["soc"]["3"].update(tech=7, spies=2)
    orders = [o(2, "defend", phase="war"), o(1, "spy", target="2", phase="war"), o(3, "spy", target="2", phase="war")]
    _w, rep = resolve(w, orders)
    assert rep["results"] == ["ok", "stopped by Ben's defending spy", "ok"]
    assert {"phase": "espionage", "text": "Cleo's spy sabotages Ben's War"} in rep["events"]


def test_sabotaged_trade_cuts_production_from_the_back() -> None:
    # Ana tech 3 trades with Ben tech 7: cost 10, payout 21 -> 10 - 10 + 21 = 21 = 3 armies x 3 + 4 armies x 3
    w = world(a={"gold": 10, "tech": 3}, b={"tech": 7})
    orders = [o(1, "trade", partner="2"), o(1, "armies", count=3)]
    assert why_not(w, orders, o(1, "armies", count=5)) is None  # gold is the production phase's to judge
    orders.append(o(1, "armies", count=4))
    # Ben's spy (Espionage) stops the trade: 10 gold; 9 + 12 > 10, so the last order is cut, 9 fits
    w2, rep = resolve(w, [o(2, "spy", target="1", phase="trade"), *orders])
    assert rep["results"] == ["ok", "negated: Trade sabotaged by a spy", "ok",
                              "cut: not enough gold (cut from the back of the orders)"]
    assert w2["soc"]["1"]["armies"] == 3 and w2["soc"]["1"]["gold"] == 1 + 15


def test_revolution_loses_the_turn_but_the_kept_phase() -> None:
    w = world(a={"tech": 3, "gold": 20})
    orders = [o(1, "revolution", gov="monarchy", keep="trade"), o(1, "trade", partner="2"), o(1, "armies", count=2)]
    w2, rep = resolve(w, orders)
    assert rep["results"] == ["ok", "ok", "lost: the society is in revolution"]
    assert w2["soc"]["1"]["gov"] == "monarchy" and rep["income"]["1"]["tax"] == 0
    assert why_not(w, [], o(1, "revolution", gov="republic", keep="war")).startswith("Republic needs")
    wonder(w, "acropolis", "1", "A1")
    assert why_not(w, [], o(1, "revolution", gov="republic", keep="war")) is None


def test_kgb_and_obsolete_wonders() -> None:
    w = world(a={"tech": 12})
    wonder(w, "kgb", "1", "A1")
    wonder(w, "babel", "2", "B1")
    w2, rep = resolve(w, [o(1, "kgb", wonder="babel")])
    assert w2["wonders"]["babel"]["obsolete"] and w2["wonders"]["kgb"]["obsolete"]
    assert rep["income"]["2"]["wonders"] == 0
    w = world(a={"tech": 7, "gold": 100}, b={"tech": 7})
    wonder(w, "colosseum", "2", "B1")
    w2, _rep = resolve(w, [o(1, "research", levels=1)])  # Industrialization: the Colosseum expires
    assert w2["wonders"]["colosseum"]["obsolete"]


def test_an_army_beaten_to_its_target_stays_home_and_defends() -> None:
    # Cleo (C1, order first) takes Ben's only city B1: C = (9/1 - 0/1) x 3/1 -> 1. Ana's army meant for Ben stays
    # home (and defends for the rest of the war phase)
    w = world(a={"armies": 4}, b={"armies": 0}, c={"armies": 9, "cities": ["C1"], "tech": 3})
    w["wars"] = {"2-3": {"since": 0, "by": "3"}, "1-2": {"since": 0, "by": "1"}}
    w2, rep = resolve(w, [o(3, "attack", target="2", armies=9), o(1, "attack", target="2", armies=4)],
                      arrival={"3": 1, "1": 2})  # Cleo's PM arrived first
    assert not w2["soc"]["2"]["alive"]
    assert rep["results"] == ["ok", "stayed home: the target is gone"] and w2["soc"]["1"]["armies"] == 4


def test_cultural_victory_counts_wonders_built_and_held() -> None:
    w = world()
    for k in ("babel", "colosseum", "trojan", "acropolis", "silk", "jihad", "mafia"):
        wonder(w, k, "1", "A1")
        w["wonders"][k]["builder"] = "1"
    _w, rep = resolve(w, [])
    assert rep["winners"] == [{"seat": "1", "how": "cultural"}]
    w["wonders"]["mafia"]["builder"] = "2"  # conquered, not built: 6 built and held, 7 built or conquered
    _w, rep = resolve(w, [])
    assert rep["winners"] == []


def test_wonder_rules() -> None:
    w = world(a={"gold": 50})
    assert why_not(w, [], o(1, "wonder", wonder="colosseum", gold=4)) is None  # research in 3a may reach it
    _w, rep = resolve(w, [o(1, "wonder", wonder="colosseum", gold=4)])
    assert rep["results"] == ["refused: Colosseum needs Iron Working (2); tech 1 at 3d"]
    assert why_not(w, [], o(1, "wonder", wonder="babel", gold=0)) == "Tower of Babel costs at least 1"
    # one wonder a city: Ana's only city gets Babel; her Colosseum bid (via the UC) is refunded
    w["soc"]["2"]["tech"] = 2
    wonder(w, "uc", "1", "A1")
    w["wonders"]["uc"]["square"] = None
    w2, rep = resolve(w, [o(1, "wonder", wonder="babel", gold=5), o(1, "wonder", wonder="colosseum", gold=4)])
    assert rep["results"] == ["ok", "refunded: no city without a wonder"]
    assert w2["soc"]["1"]["gold"] == 50 - 5 + 5 + 1  # tax 5, Babel 1


def test_spaceship_culture_and_a_dual_victory() -> None:
    w = world(a={"tech": 15, "parts": 3, "part_spent": [1000, 1000, 1000], "gold": 5000},
              b={"tech": 15, "parts": 3, "part_spent": [1000, 1000, 1000], "gold": 5000})
    assert why_not(w, [], o(1, "part", gold=1500)) is None
    _w, rep = resolve(w, [o(1, "part", gold=1500), o(2, "part", gold=2000)])
    assert rep["winners"] == [{"seat": "2", "how": "spaceship"}]  # the dearer last part
    assert why_not(w, [], o(1, "part", gold=1500), Readings(spaceship_parts=4)) is None
    w["soc"]["1"]["parts"] = 1
    assert why_not(w, [], o(1, "part", gold=1500)) == "a part costs 1000; only the last part may cost more"
    w["soc"]["1"]["parts"] = 3
    w["soc"]["3"]["built"] = 10
    _w, rep = resolve(w, [o(1, "part", gold=1000)])
    assert rep["winners"] == [{"seat": "1", "how": "spaceship"}, {"seat": "3", "how": "cultural"}]


def test_foreign_aid_rules() -> None:
    w = world(a={"armies": 3, "gold": 10, "tech": 3})
    assert why_not(w, [], o(1, "aid", to="3", armies=1)) is None  # a city built in 3c may make Cleo a neighbour
    _w, rep = resolve(w, [o(1, "aid", to="3", armies=1)])
    assert rep["results"] == ["refused: military aid only to an adjacent nation (Cleo is not)"]
    assert why_not(w, [], o(1, "aid", to="3", gold=5, tech=2)) is None
    w2, _rep = resolve(w, [o(1, "aid", to="3", gold=5, tech=2)])
    assert w2["soc"]["3"]["tech"] == 3 and w2["soc"]["3"]["gold"] == 6 + 5 + 15
    assert why_not(w, [o(1, "aid", to="2", gold=1)], o(1, "aid", to="3", gold=1)) == "Foreign aid: once a turn"
