"""Society's formulas, tables and map geometry, each number worked out by hand in the comments."""
from __future__ import annotations

import pytest

from companion.rules.society import data, geo
from companion.rules.society import formulas as f
from companion.rules.society.formulas import Readings


def test_tech_chart_and_noname_levels() -> None:
    assert [data.tech_base_cost(n) for n in (1, 2, 7, 15)] == [0, 4, 52, 2440]
    # 16 = 1508 + 2440; 17 = 2440 + 3948
    assert data.tech_base_cost(16) == 3948 and data.tech_base_cost(17) == 6388
    assert data.tech_name(9) == "Representative Government" and data.tech_name(16) == "Noname"


@pytest.mark.parametrize("args,expected", [
    # ((10/2) - (2/4)) * (3/2) = 6.75 -> 6, but the defender has only 4 cities
    ((10, 2, 3, 2, 4), 4),
    # ((6/3) - (4/2)) * (3/3) = 0
    ((6, 4, 3, 3, 2), 0),
    # ((9/2) - (3/3)) * (2/2) = 3.5 -> 3
    ((9, 3, 2, 2, 3), 3),
    # a negative C is no capture: ((1/2) - (5/1)) * ... < 0
    ((1, 5, 2, 2, 1), 0),
    # ((7/2) - (0/5)) * (4/2) = 7 -> 5 cities at most
    ((7, 0, 4, 2, 5), 5),
])
def test_capture(args: tuple[int, int, int, int, int], expected: int) -> None:
    assert f.capture(*args) == expected


def test_casualties_and_their_rounding() -> None:
    # attacker D/AT = 5/2 = 2.5; defender D/DC * lost = 5/3 * 2 = 3.33
    assert f.casualties(5, 2, 3, 2, 10) == (2, 3)
    assert f.casualties(5, 2, 3, 2, 10, Readings(casualty_rounding="up")) == (3, 4)
    # never more than the army fighting
    assert f.casualties(9, 1, 1, 1, 4) == (4, 9)


def test_tax_caps_and_bonuses() -> None:
    assert f.tax(3, 2, "despotism") == 30  # 3 x 2 x 5
    assert f.tax(8, 2, "despotism") == 60  # capped at 6 cities: 6 x 2 x 5
    assert f.tax(3, 3, "monarchy") == 68  # 45 + 50% = 67.5, rounded up
    assert f.tax(14, 1, "monarchy") == 90  # capped at 12: 60 x 1.5
    assert f.tax(14, 2, "republic") == 280  # no cap, doubled: 14 x 2 x 5 x 2


def test_army_support_and_disbanding() -> None:
    assert f.army_support(9, 2, "despotism") == 0
    assert f.army_support(9, 2, "monarchy") == 4  # 4.5 down
    assert f.army_support(9, 2, "monarchy", r=Readings(support_rounding="up")) == 5
    assert f.army_support(9, 2, "republic") == 9
    assert f.army_support(9, 2, "republic", nra=True) == 4  # a Monarchy's support
    # Republic, income 6, 10 armies: disband until support 6 <= 6
    assert f.settle_support(6, 10, 2, "republic") == (6, 6)


def test_trade_cost_payout_and_nascar() -> None:
    assert f.trade_cost(3, 2) == 5 and f.trade_cost(3, 2, silk_road=True) == 0
    assert f.trade_payout(3, 2) == 6
    assert f.trade_payout(3, 3, "monarchy") == 14  # 9 x 1.5 = 13.5 up
    assert f.trade_payout(3, 2, "republic") == 12
    assert f.nascar_payout(11) == 60  # 121 / 2 = 60.5 down
    assert f.nascar_payout(11, r=Readings(nascar_rounding="up")) == 61


def test_tech_price_readings() -> None:
    # shared: 20 x (3 - 1) / 3 = 13.33 -> 14 (up), 13 (down); literal: 20 x (3 - 1/3) = 53.33 -> 54
    assert f.tech_cost(5, 3, 1) == 14
    assert f.tech_cost(5, 3, 1, Readings(tech_rounding="down")) == 13
    assert f.tech_cost(5, 3, 1, Readings(tech_price="literal")) == 54
    assert f.tech_cost(2, 3, 0) == 4  # nobody has it: the base price
    assert f.tech_cost(2, 4, 2, Readings(tech_rounding="nearest")) == 2  # 4 x 2/4


def test_city_and_wonder_cost() -> None:
    assert [f.city_cost(n) for n in (1, 2, 3, 4, 10)] == [0, 6, 9, 12, 30]
    assert [f.wonder_base_cost(n) for n in (1, 7, 14)] == [1, 49, 196]


def test_two_way() -> None:
    # 5 x 3 = 15 against 6 x 2 = 12: attacker 1 wins, 3 / 3 = 1 survivor
    assert f.two_way(5, 3, 6, 2) == (1, 1)
    # 4 x 1 = 4 against 3 x 3 = 9: attacker 2 wins, 5 / 3 = 1.67 -> 2
    assert f.two_way(4, 1, 3, 3) == (2, 2)
    assert f.two_way(4, 2, 8, 1) == (None, 0)


def test_readings_from_options_ignore_other_switches() -> None:
    r = Readings.from_options({"tech_price": "literal", "squares_per_society": 20})
    assert r.tech_price == "literal" and r.casualty_rounding == "down"


def test_squares_and_adjacency() -> None:
    assert geo.parse("b3", 6, 6) == (1, 2) and geo.name((1, 2)) == "B3"
    for bad in ("3B", "Z1", "A0", "A7", "A²"):
        with pytest.raises(geo.SquareError):
            geo.parse(bad, 6, 6)
    assert sorted(geo.neighbours((0, 0), 6, 6)) == [(0, 1), (1, 0)]
    assert geo.adjacent([(0, 0)], [(1, 0)]) and not geo.adjacent([(0, 0)], [(1, 1)])  # catty-corner
    assert geo.territory_distance([(0, 0), (3, 3)], [(5, 3)]) == 2
    assert geo.side_for(3) == 6 and geo.side_for(20) == 15  # 36; 240 -> 15x15 = 225 is closest


def test_city_placement_minimises_borders() -> None:
    # own B2 and C2 on a 6x6 map. With B1 the border is B1: A1,C1 + B2: A2,B3 + C2: C1,D2,C3 = 7 (the map's
    # edge is no border); with B3 it is B2: B1,A2 + C2: C1,D2,C3 + B3: A3,C3,B4 = 8. B1 and C1 tie at 7: reading
    # order gives B1.
    own = [(1, 1), (2, 1)]
    best = geo.best_city_site(own, set(own), 6, 6)
    assert best == (1, 0)
    assert geo.border({(1, 0), (1, 1), (2, 1)}, 6, 6) == 7 and geo.border({(1, 2), (1, 1), (2, 1)}, 6, 6) == 8
    assert geo.border({(1, 0), (1, 1), (2, 1)}, 6, 6) == min(
        geo.border(set(own) | {s}, 6, 6) for s in geo.city_sites(own, set(own), 6, 6))
    # the Railroad: anywhere free
    assert len(geo.city_sites(own, set(own), 6, 6, anywhere=True)) == 34


def test_capture_order_and_theatre() -> None:
    att = [(0, 0)]  # A1
    dfn = [(1, 0), (2, 0), (3, 0), (0, 3)]  # B1 C1 D1 A4
    assert geo.capture_order(att, dfn, 3, 6, 6) == [(1, 0), (2, 0), (3, 0)]
    # a sneak attack takes only cities next to the territory at the start
    assert geo.capture_order(att, dfn, 3, 6, 6, chain=False) == [(1, 0)]
    assert geo.capture_order(att, dfn, 1, 6, 6, anywhere=True) != []
    assert geo.check_theatre([(1, 0), (2, 0)], att, dfn, 6, 6) is None
    assert geo.check_theatre([(2, 0)], att, dfn, 6, 6) == "C1 does not touch your territory or a city above it"


def test_start_squares_are_spread_and_repeatable() -> None:
    a = geo.start_squares(3, 6, 6, 7)
    assert a == geo.start_squares(3, 6, 6, 7) and len(set(a)) == 3
    assert min(geo.distance(x, y) for i, x in enumerate(a) for y in a[i + 1:]) >= 5
    assert len(set(geo.start_squares(36, 6, 6, 1))) == 36
