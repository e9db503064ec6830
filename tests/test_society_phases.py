"""Society's phase rules that the other tests leave out (issue 13, item 4): each worked out by hand on a small world.
Ana at A1, Ben at B1, Cleo at F6 on a 6x6 map unless a test says otherwise."""
from __future__ import annotations

from typing import Any

from companion.rules.society.orders import why_not
from companion.rules.society.resolve import resolve
from companion.rules.society.world import new_world
from society_kit import o, small_world


def world(**socs: dict[str, Any]) -> dict[str, Any]:
    """Ana at A1, Ben at B1, Cleo at F6 (the kit's small world)."""
    return small_world(**socs)


def wonder(w: dict[str, Any], key: str, seat: str, square: str) -> None:
    w["wonders"][key] = {"owner": seat, "builder": seat, "square": square, "obsolete": False, "turn": 0, "cost": 0}


def test_spies_stockpile_to_five_and_the_trojan_horse_trains_before_and_after_espionage() -> None:
    w = world(a={"tech": 7, "spies": 5}, b={"tech": 3}, c={"tech": 7, "spies": 2})
    wonder(w, "trojan", "2", "B1")
    w2, _ = resolve(w, [])
    assert w2["soc"]["1"]["spies"] == 5  # 5 + 1, capped
    assert w2["soc"]["2"]["spies"] == 1  # the Trojan Horse before Espionage: one
    w["wonders"]["trojan"]["owner"] = "3"
    w2, _ = resolve(w, [])
    assert w2["soc"]["3"]["spies"] == 2 + 1 + 1  # Espionage and the Trojan Horse: two a turn


def test_a_sabotaged_production_sub_phase_negates_only_its_orders() -> None:
    w = world(a={"tech": 7, "spies": 0}, b={"gold": 100})
    orders = [o(1, "spy", target="2", phase="military"), o(2, "research", levels=1), o(2, "armies", count=3)]
    w2, rep = resolve(w, orders)
    assert rep["results"] == ["ok", "ok", "negated: Military sabotaged by a spy"]
    # research 4 x (3 - 1) / 3 = 2.67 -> 3 (Ana has Iron Working); no armies bought; tax 1 x 2 x 5
    assert w2["soc"]["2"]["tech"] == 2 and w2["soc"]["2"]["armies"] == 0 and w2["soc"]["2"]["gold"] == 100 - 3 + 10


def test_a_spy_against_espionage_voids_that_societys_own_spies() -> None:
    w = world(a={"tech": 7, "gold": 50}, b={"tech": 7}, c={"tech": 7})
    # Ben sabotages Cleo's espionage: Cleo's spy against Ana's trade never leaves, so Ana's trade goes ahead
    orders = [o(3, "spy", target="1", phase="trade"), o(2, "spy", target="3", phase="espionage"),
              o(1, "trade", partner="2")]
    _w, rep = resolve(w, orders)
    assert rep["results"] == ["negated: Espionage sabotaged by a spy", "ok", "ok"]
    assert rep["income"]["1"]["trade"] == 7 * 7


def test_trade_gold_buys_production_but_not_more_caravans() -> None:
    # Ana tech 2 with 4 gold; Ben tech 2 next door: a caravan costs 2 + 2 = 4 and pays 2 x 2 = 4
    w = world(a={"tech": 2, "gold": 4}, b={"tech": 2})
    _w, rep = resolve(w, [o(1, "trade", partner="2"), o(1, "trade", partner="2")])
    assert rep["results"] == ["ok", "refused: 4 gold needed, 0 in the treasury"]
    _w, rep = resolve(w, [o(1, "trade", partner="2"), o(1, "armies", count=2)])
    assert rep["results"] == ["ok", "ok"]  # 4 gold of trade income: 2 armies at tech 2
    _w, rep = resolve(w, [o(1, "trade", partner="2"), o(1, "armies", count=3)])
    assert rep["results"] == ["ok", "cut: not enough gold (cut from the back of the orders)"]


def test_caravans_are_capped_at_fifteen() -> None:
    w = world(a={"tech": 20, "gold": 10_000}, b={"tech": 20})
    assert why_not(w, [], o(1, "trade", partner="2", count=15)) is None
    assert why_not(w, [], o(1, "trade", partner="2", count=16)) == "at most 15 caravans a turn (0 ordered)"


def test_nukes_and_sdi_prices_and_their_technologies() -> None:
    w = world(a={"tech": 13, "gold": 2600})
    _w, rep = resolve(world(), [o(1, "nukes", count=1)])
    assert rep["results"] == ["refused: nukes need Nuclear Fission (11); tech 1 at 3b"]
    w2, rep = resolve(w, [o(1, "nukes", count=1), o(1, "sdi", count=2)])
    assert rep["results"] == ["ok", "ok"]
    assert (w2["soc"]["1"]["nukes"], w2["soc"]["1"]["sdi"]) == (1, 2)
    assert w2["soc"]["1"]["gold"] == 2600 - 500 - 2 * 1000 + 1 * 13 * 5


def test_the_highest_wonder_bid_wins_whoever_ordered_first() -> None:
    w = world(a={"gold": 20}, b={"gold": 20})
    w2, rep = resolve(w, [o(1, "wonder", wonder="babel", gold=3), o(2, "wonder", wonder="babel", gold=7)])
    assert rep["results"] == ["refunded: outbid", "ok"] and w2["wonders"]["babel"]["owner"] == "2"
    assert (w2["soc"]["1"]["gold"], w2["soc"]["2"]["gold"]) == (20 + 5, 20 - 7 + 5 + 1)


def test_one_spaceship_part_one_attack_one_aid_a_turn() -> None:
    w = world(a={"tech": 15, "gold": 5000, "armies": 4})
    assert why_not(w, [o(1, "part", gold=1000)], o(1, "part", gold=1000)) == "Spaceship part: once a turn"
    assert why_not(w, [o(1, "attack", target="2", armies=1)], o(1, "attack", target="2", armies=1)) == \
        "Attack: once a turn"
    assert why_not(w, [], o(1, "attack", target="3", armies=1)) is None  # judged at the war, after 3c's cities
    _w, rep = resolve(w, [o(1, "attack", target="3", armies=1)])
    assert rep["results"] == ["stayed home: not adjacent to Cleo"]


def test_jihad_lifts_the_sneak_attacks_limit_on_cities() -> None:
    # Ana A1; Ben B1, C1, D1: a sneak attack takes only B1, with the Jihad all three
    w = world(a={"armies": 20, "tech": 2}, b={"cities": ["B1", "C1", "D1"]})
    wonder(w, "jihad", "1", "A1")
    _w, rep = resolve(w, [o(1, "attack", target="2", armies=20)])
    assert rep["wars"][0]["jihad"] and rep["wars"][0]["captured"] == ["B1", "C1", "D1"]


def test_the_silk_road_expires_when_its_owner_reaches_mass_education() -> None:
    w = world(a={"tech": 9, "gold": 1000}, c={"tech": 10})
    wonder(w, "silk", "1", "A1")
    w2, _ = resolve(w, [])
    assert not w2["wonders"]["silk"]["obsolete"]  # Cleo has Mass Education; the owner does not
    w2, rep = resolve(w, [o(1, "research", levels=1)])
    assert w2["wonders"]["silk"]["obsolete"]
    assert {"phase": "end", "text": "The Silk Road is obsolete (Mass Education)"} in rep["events"]


def test_conquest_the_last_society_left_wins() -> None:
    w = new_world(["Ana", "Ben"], 4, 4, ["A1", "B1"])
    w["soc"]["1"].update(armies=5)
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    w2, rep = resolve(w, [o(1, "attack", target="2", armies=5)])
    assert not w2["soc"]["2"]["alive"] and rep["winners"] == [{"seat": "1", "how": "conquest"}]
