"""Sovereign's pure rules: the chart and its gating, terrain, the unit table and notation, scoring, removal order."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.rules.sovereign import bonuses as rb
from companion.rules.sovereign import scoring
from companion.rules.sovereign import techs as rt
from companion.rules.sovereign.battle import (Field, Side, Where, defence_bonus, distinct_candidates, is_air_raid,
                                              removal_candidates, removal_order, roll_total, roll_winner,
                                              wants_bonus, Explode)
from companion.rules.sovereign.terrain import BY_KEY, FORT_VALUES, NoBuilding, build_cost
from companion.rules.sovereign.units import (DATA_FILE, Fighter, UnitSpecError, UnitStats, UnitTableError,
                                             default_table, load_table, norm_name, parse_notation, parse_spec,
                                             parse_specs)

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------------------------------------ chart
def test_chart_has_seven_tiers_with_the_printed_costs() -> None:
    assert rt.TIER_COST == {1: 2, 2: 3, 3: 5, 4: 8, 5: 12, 6: 17, 7: 23}
    assert [len(rt.in_tier(t)) for t in rt.TIERS] == [6, 6, 6, 6, 6, 6, 3]
    assert [t.name for t in rt.in_tier(7)] == ["Artificial Intelligence", "Space flight", "Globalization"]
    assert len({t.short for t in rt.TECHS}) == len(rt.TECHS)


def test_four_of_a_tier_open_the_next() -> None:
    held = {"pottery", "writing", "mining"}
    assert not rt.tier_open(held, 2)
    assert all(t.tier == 1 for t in rt.researchable(held))
    held.add("seafaring")
    assert rt.tier_open(held, 2) and not rt.tier_open(held, 3)
    assert {t.tier for t in rt.researchable(held)} == {1, 2}
    with pytest.raises(rt.UnknownTech):
        rt.tech("warp_drive")


def test_tier_completion_and_the_final_three() -> None:
    held = {t.key for t in rt.in_tier(1)} - {"seafaring"}
    assert rt.completes_tier(held, "seafaring") and not rt.completes_tier(held, "mathematics")
    assert not rt.completes_tier(held | {"seafaring"}, "seafaring")
    final = {t.key for t in rt.in_tier(7)}
    assert rt.has_all_final(final) and not rt.has_all_final(final - {"globalization"})
    assert scoring.technology_win(final)


def test_free_discoveries_skip_the_final_tier() -> None:
    held = {t.key for t in rt.TECHS if t.tier < 7}
    assert [t.tier for t in rt.researchable(held)] == [7, 7, 7]
    assert rt.researchable(held, allow_final=False) == ()


def test_units_come_with_their_technologies() -> None:
    assert rt.units_of({"mathematics", "pottery"}) == ("Settler", "Catapult")
    assert rt.units_of({"metallurgy", "refining"}) == ("Frigate",)
    assert rt.chart_units() == ("Settler", "Pikeman", "Horseman", "Catapult", "Galley", "Musketman", "Frigate",
                                "Cavalry", "Infantry", "Tank", "Transport", "Artillery", "Battleship", "Air raid")


# ------------------------------------------------------------------------------------------------ bonus timing
@pytest.mark.parametrize("key, same_turn, next_turn", [
    ("trade", False, True), ("banking", False, True), ("globalization", False, True),
    ("artificial_intelligence", False, True), ("wheel", False, True), ("writing", False, True),
    ("irrigation", True, False), ("religion", True, False),
    ("industrialisation", True, True), ("arts", True, True), ("medicine", True, True),
    ("space_flight", True, True), ("construction", True, True),
])
def test_bonus_timing(key: str, same_turn: bool, next_turn: bool) -> None:
    assert rb.usable_now(key, 5, 5) is same_turn
    assert rb.usable_now(key, 5, 9) is next_turn


def test_selected_turn_option_allows_the_same_turn_only_for_selected_bonuses() -> None:
    assert rb.usable_now("writing", 5, 5, selected_same_turn=True)
    assert not rb.usable_now("trade", 5, 5, selected_same_turn=True)
    assert rb.uses("religion") == 2 and rb.uses("mass_production") == 3 and rb.uses("writing") == 1
    assert rb.uses("construction") == 0


# ------------------------------------------------------------------------------------------------ terrain
def test_terrain_values() -> None:
    assert {k: t.value for k, t in BY_KEY.items()} == {
        "river": 2, "coast": 3, "grassland": 4, "woodland": 5, "hill": 6, "jungle": 6, "mountain": 7,
        "desert": 9, "tundra": 9, "sea": None}
    assert FORT_VALUES == (2, 3, 4, 5, 6, 7, 9)
    assert build_cost("hill") == 6
    with pytest.raises(NoBuilding, match="sea"):
        build_cost("sea")


# ------------------------------------------------------------------------------------------------ units
def test_notation_parses_every_optional_part() -> None:
    assert parse_notation("2-1-2(3){1}") == UnitStats(2, 1, 2, 3, 0, 1)
    assert parse_notation("1-3-3(4)") == UnitStats(1, 3, 3, 4)
    assert parse_notation("4-4-5(10)[2]{3}") == UnitStats(4, 4, 5, 10, 2, 3)
    assert parse_notation("3-2") == UnitStats(3, 2)
    assert parse_notation(" 2 \u2013 1 \u2013 2 (3) {1} ") == UnitStats(2, 1, 2, 3, 0, 1)
    assert parse_notation("2-1-2(3){1}").notation() == "2-1-2(3){1}"


@pytest.mark.parametrize("bad", ["", "2", "2-", "a-b-c", "2-1-2(3", "2-1-2{1}(3)", "2-1-2(3)x", "100-1", "-1-2"])
def test_bad_notation_is_one_clear_line(bad: str) -> None:
    with pytest.raises(UnitSpecError) as e:
        parse_notation(bad)
    msg = str(e.value)
    assert "\n" not in msg and "A-D-M(C)[T]{R}" in msg or "up to" in msg


def test_the_shipped_table_lists_every_chart_unit_and_guesses_none() -> None:
    table = default_table()
    assert {norm_name(u) for u in rt.chart_units()} == set(table)
    known = {u.name: u.stats for u in table.values() if u.stats is not None}
    assert known == {"Catapult": UnitStats(2, 1, 2, 3, 0, 1), "Musketman": UnitStats(1, 3, 3, 4),
                     "Horseman": UnitStats(1, 1, 3, 3)}
    assert table["air raid"].air and not table["catapult"].air
    for u in table.values():
        for t in u.techs:
            assert u.name in next(x for x in rt.TECHS if x.name == t).units


def test_table_errors_name_the_file_and_unit(tmp_path: Path) -> None:
    bad = tmp_path / "u.toml"
    bad.write_text('[[unit]]\nname = "Tank"\nstats = "x-y"\n')
    with pytest.raises(UnitTableError, match=r"u\.toml: unit 'Tank'"):
        load_table(bad)
    bad.write_text('[[unit]]\nname = "Tank"\nstats = "unknown"\n[[unit]]\nname = "tank"\nstats = "1-1"\n')
    with pytest.raises(UnitTableError, match="listed twice"):
        load_table(bad)
    bad.write_text("not toml [")
    with pytest.raises(UnitTableError, match="not valid TOML"):
        load_table(bad)
    with pytest.raises(UnitTableError, match="cannot read"):
        load_table(tmp_path / "missing.toml")
    assert DATA_FILE.name == "sovereign_units.toml"


def test_specs() -> None:
    assert parse_spec("Catapult") == [Fighter("Catapult", 2, 1, 2, 1)]
    assert parse_spec("3*horseman") == [Fighter("Horseman", 1, 1, 3)] * 3
    assert parse_spec("2-1-2(3){1}") == [Fighter("2-1-2(3){1}", 2, 1, 2, 1)]
    assert parse_spec("Air raid:4-0-6{2}") == [Fighter("Air raid", 4, 0, 6, 2, air=True)]
    assert parse_spec("air_raid:4-0") [0].air
    assert parse_spec("Hero:5-5-1") == [Fighter("Hero", 5, 5, 1)]
    assert len(parse_specs("2*Catapult, Musketman,1-1")) == 4


@pytest.mark.parametrize("bad, words", [("Settler", "statistics unknown"), ("Dragon", "no unit 'Dragon'"),
                                        ("9*Catapult", "from 1 to 8"), ("", "empty unit spec"),
                                        ("Tank:x", "cannot read")])
def test_bad_specs(bad: str, words: str) -> None:
    with pytest.raises(UnitSpecError, match=words):
        parse_specs(bad)


# ------------------------------------------------------------------------------------------------ scoring
def test_add_points() -> None:
    assert scoring.add_points([4, 3]).total == 7
    assert scoring.add_points([4, 3], trade=True).total == 9
    assert scoring.add_points([4, 3], banking=True).total == 17
    assert scoring.add_points([4, 3], dry=True, globalization=True).total == 12
    assert scoring.add_points([4, 3], trade=True, banking=True, globalization=True).total == 31


def test_winning_cards() -> None:
    assert scoring.winning_card({"military": 7}, 4, 28) is scoring.Card.MILITARY
    assert scoring.winning_card({"expansion": 7}, 27, 28) is None
    assert scoring.winning_card({"expansion": 7}, 28, 28) is scoring.Card.EXPANSION
    assert scoring.winning_card({"expansion": 7}, 23, 23) is scoring.Card.EXPANSION
    assert scoring.winning_card({"technology": 6, "military": 6}, 50, 28) is None
    assert scoring.grew_four_to_seven(4, 7) and not scoring.grew_four_to_seven(5, 7)
    assert not scoring.grew_four_to_seven(None, 7)


# ------------------------------------------------------------------------------------------------ battle rules
CAT, MUSK, HORSE = Fighter("Catapult", 2, 1, 2, 1), Fighter("Musketman", 1, 3, 3), Fighter("Horseman", 1, 1, 3)


def test_removal_strongest_first_range_units_last_lower_range_first() -> None:
    lance = Fighter("Lance", 3, 0, 1, 2)
    army = [lance, CAT, HORSE, MUSK, Fighter("Brute", 4, 4, 1)]
    order = removal_order(army, Side.ATTACK)
    # Horseman and Musketman both attack 1: the higher attack+defence+move (Musketman) goes first
    assert [f.name for f in order] == ["Brute", "Musketman", "Horseman", "Catapult", "Lance"]
    order = removal_order(army, Side.DEFEND)
    assert [f.name for f in order] == ["Brute", "Musketman", "Horseman", "Catapult", "Lance"]


def test_equal_strength_candidates_and_tie_rules() -> None:
    army = [HORSE, MUSK, HORSE]
    assert removal_candidates(army, Side.ATTACK) == [0, 1, 2]
    assert distinct_candidates(army, [0, 1, 2]) == [0, 1]
    # highest attack + defence + move goes first: the Musketman (7) before the Horseman (5)
    assert removal_order(army, Side.ATTACK)[0] == MUSK


def test_air_raids_go_first_ships_last_at_sea() -> None:
    raid, ship = Fighter("Air raid", 5, 0, 6, 3, air=True), Fighter("Galley", 1, 1, 3, ship=True)
    assert removal_order([CAT, raid, HORSE], Side.ATTACK)[0] == raid
    assert removal_order([ship, HORSE], Side.DEFEND, at_sea=True) == [HORSE, ship]
    assert removal_order([ship, HORSE], Side.DEFEND, at_sea=False) == [ship, HORSE]  # on land: first listed
    assert is_air_raid([raid, raid]) and not is_air_raid([raid, HORSE]) and not is_air_raid([])


def test_defence_bonus() -> None:
    raid = Fighter("Air raid", 5, 0, 6, 3, air=True)
    city = Field(Where.CITY, adjacent=4, construction=True)
    assert defence_bonus(city, [CAT]) == 5
    assert defence_bonus(city, [raid]) == 1  # no adjacency against an air raid; Construction stays
    assert defence_bonus(Field(Where.FORT, fort=6), [CAT]) == 6
    assert defence_bonus(Field(), [CAT]) == 0
    with pytest.raises(ValueError):
        Field(Where.CITY, adjacent=7)


def test_rolls_and_bonus_dice() -> None:
    assert roll_total([12], [5], 3, 2) == 22
    assert roll_total([4, 9], [], 1) == 10  # Space flight keeps the higher
    assert wants_bonus([12], [], Explode.ONCE) and not wants_bonus([12], [12], Explode.ONCE)
    assert wants_bonus([12], [12], Explode.CHAIN) and not wants_bonus([12], [3], Explode.CHAIN)
    assert not wants_bonus([12], [], Explode.OFF) and not wants_bonus([11, 3], [], Explode.ONCE)
    assert wants_bonus([3, 12], [], Explode.ONCE)
    assert roll_winner(10, 10) is Side.DEFEND and roll_winner(11, 10) is Side.ATTACK


# ------------------------------------------------------------------------------------------------ layering
def test_rules_and_machine_import_nothing_from_hw() -> None:
    for folder in (ROOT / "companion" / "rules" / "sovereign", ROOT / "fsm" / "sovereign"):
        for path in folder.glob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                for n in names:
                    assert not n.startswith("hw"), f"{path.name} imports {n}"
                    if folder.parent.name == "rules":
                        assert not n.startswith("fsm"), f"{path.name} imports {n}"
