"""Exact battle odds: hand-computed cases, the closed form for chained 12s, a Monte Carlo cross-check, the CLI."""
from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Sequence

import pytest

from companion.cli import main
from companion.rules.sovereign.battle import (Explode, Field, Side, Where, army_sum, defence_bonus, kept_die,
                                              removal_order, roll_winner, wants_bonus)
from companion.rules.sovereign.odds import RollModel, battle_odds, die_dist, roll_win
from companion.rules.sovereign.units import Fighter, parse_specs

CAT, MUSK, HORSE = parse_specs("Catapult,Musketman,Horseman")
OFF, ONCE, CHAIN = RollModel(Explode.OFF), RollModel(Explode.ONCE), RollModel(Explode.CHAIN)


def pairs_over(t: int) -> Fraction:
    """By hand: P(X - Y > t) for two plain d12s = #pairs / 144."""
    return Fraction(sum(1 for x in range(1, 13) for y in range(1, 13) if x - y > t), 144)


# ------------------------------------------------------------------------------------------------ hand-computed
def test_reference_catapult_against_musketman() -> None:
    once = battle_odds([CAT], [MUSK])
    assert once.attacker == Fraction(8119, 20736)
    assert repr(once.attacker_float) == "0.3915412808641975"
    off = battle_odds([CAT], [MUSK], model=OFF)
    assert off.attacker == Fraction(55, 144) == pairs_over(1)
    assert off.attacker_float == 55 / 144


def test_one_roll_closed_form_without_explosions() -> None:
    for t in range(-12, 13):
        if t >= 0:  # sum over d = t+1..11 of (12 - d) pairs
            assert roll_win(t, OFF) == Fraction((11 - t) * (12 - t) // 2 if t <= 11 else 0, 144), t
        assert roll_win(t, OFF) == pairs_over(t), t


def test_two_horsemen_against_a_musketman_by_hand() -> None:
    # win the first roll (sum 2 v 3), or lose a Horseman and win the second (sum 1 v 3)
    hand = Fraction(55, 144) + Fraction(89, 144) * Fraction(45, 144)
    assert hand == Fraction(11925, 20736)
    assert battle_odds([HORSE, HORSE], [MUSK], model=OFF).attacker == hand


def test_space_flight_by_hand() -> None:
    # the attacker keeps the higher of two d12: P(max = r) = (2r - 1)/144; needs max > y + 1
    assert die_dist(2)[11] == Fraction(23, 144)
    hand = sum(Fraction(1, 12) * (1 - Fraction((y + 1) ** 2, 144)) for y in range(1, 11))
    assert hand == Fraction(935, 1728)
    assert battle_odds([CAT], [MUSK], model=RollModel(Explode.OFF, att_dice=2)).attacker == hand


def test_city_fort_and_air_raid_bonuses_shift_the_odds() -> None:
    city = Field(Where.CITY, adjacent=3, construction=True)  # defence 3 + 4
    assert battle_odds([CAT], [MUSK], city, OFF).attacker == pairs_over(3 + 4 - 2)
    assert battle_odds([CAT], [MUSK], Field(Where.FORT, fort=6), OFF).attacker == pairs_over(3 + 6 - 2)
    raid = Fighter("Air raid", 2, 0, 6, air=True)
    assert battle_odds([raid], [MUSK], city, OFF).attacker == pairs_over(3 + 1 - 2)  # only Construction


def test_removal_order_is_what_the_odds_use() -> None:
    # the range unit (Lance, attack 3) is lost last although it is the strongest: after the first lost roll
    # the Lance fights on alone (3 v 4), not the Horseman (1 v 4)
    lance = Fighter("Lance", 3, 0, 1, 1)
    first = pairs_over(4 - 4)
    hand = first + (1 - first) * pairs_over(4 - 3)
    assert battle_odds([lance, HORSE], [Fighter("Wall", 0, 4, 0)], model=OFF).attacker == hand


def test_chain_closed_form_matches_a_deep_truncated_sum() -> None:
    def truncated(first: Sequence[Fraction], bonus: Sequence[Fraction], depth: int) -> dict[int, Fraction]:
        dist = {r: first[r - 1] for r in range(1, 12)}
        p, base = first[11], 12
        for _ in range(depth):
            for r in range(1, 12):
                dist[base + r] = dist.get(base + r, Fraction(0)) + p * bonus[r - 1]
            p, base = p * bonus[11], base + 12
        return dist

    for ad, dd in ((1, 1), (2, 1), (1, 2)):
        model = RollModel(Explode.CHAIN, ad, dd)
        a, d = truncated(die_dist(ad), die_dist(1), 6), truncated(die_dist(dd), die_dist(1), 6)
        for t in (-30, -11, -10, -1, 0, 1, 9, 10, 11, 23, 40):
            approx = sum(pa * pd for x, pa in a.items() for y, pd in d.items() if x - y > t)
            # the truncation leaves out less than 2 * (1/12)^6 of probability mass
            assert abs(roll_win(t, model) - approx) < Fraction(2, 12 ** 6), (ad, dd, t)
    assert battle_odds([CAT], [MUSK], model=CHAIN).attacker == Fraction(56, 143)


def test_explode_modes_order_and_complements() -> None:
    a = [battle_odds([CAT, HORSE], [MUSK, MUSK], model=m) for m in (OFF, ONCE, CHAIN)]
    for o in a:
        assert o.attacker + o.defender == 1
    assert len({o.attacker for o in a}) == 3


# ------------------------------------------------------------------------------------------------ Monte Carlo
def simulate(att: list[Fighter], dfn: list[Fighter], fld: Field, model: RollModel, rng: random.Random) -> bool:
    """One battle played with random dice through the same rules functions the machine uses; ``att`` and ``dfn``
    in their removal_order() (the same for every battle of a test: made once, copied here)."""
    a, d = list(att), list(dfn)
    explode = model.explode

    def side_roll(n: int) -> int:
        dice = [rng.randint(1, 12) for _ in range(n)]
        bonus: list[int] = []
        while wants_bonus(dice, bonus, explode):
            bonus.append(rng.randint(1, 12))
        return kept_die(dice) + sum(bonus)

    while a and d:
        at = side_roll(model.att_dice) + army_sum(a, Side.ATTACK)
        dt = side_roll(model.def_dice) + army_sum(d, Side.DEFEND) + defence_bonus(fld, a)
        if roll_winner(at, dt) is Side.ATTACK:
            d.pop(0)
        else:
            a.pop(0)
    return bool(a)


@pytest.mark.parametrize("model", [ONCE, CHAIN, RollModel(Explode.ONCE, att_dice=2)])
def test_monte_carlo_agrees_with_the_exact_odds(model: RollModel) -> None:
    att = parse_specs("2*Catapult,Horseman,3-1-1")
    dfn = parse_specs("2*Musketman,1-2-1{1}")
    fld = Field(Where.CITY, adjacent=2, construction=True)
    exact = float(battle_odds(att, dfn, fld, model).attacker)
    n = 6000
    rng = random.Random(20240611)
    a, d = removal_order(att, Side.ATTACK), removal_order(dfn, Side.DEFEND)
    wins = sum(simulate(a, d, fld, model, rng) for _ in range(n))
    sigma = math.sqrt(exact * (1 - exact) / n)
    assert abs(wins / n - exact) < 4.5 * sigma, (wins / n, exact, sigma)


# ------------------------------------------------------------------------------------------------ the CLI
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["odds", "sovereign", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_reference_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--attack", "Catapult", "--defend", "Musketman", "--json")
    assert code == 0
    data = json.loads(out)
    assert repr(data["attacker_wins"]) == "0.3915412808641975"
    assert "0.3915412808641975" in out
    assert data["attacker_wins"] + data["defender_wins"] == 1.0
    assert data["attacker_wins_exact"] == "8119/20736"
    code, out, _ = run(capsys, "--attack", "Catapult", "--defend", "Musketman", "--explode", "off", "--json")
    assert json.loads(out)["attacker_wins"] == 55 / 144
    code, out, _ = run(capsys, "--attack", "Catapult", "--defend", "Musketman", "--explode", "off")
    assert code == 0 and "attacker wins 0.3819444444444444  (55/144)" in out


def test_cli_flags_reach_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    def p(*args: str) -> float:
        code, out, err = run(capsys, "--attack", "2*Catapult,Horseman", "--defend", "Musketman,1-2-1{1}",
                             "--explode", "off", "--json", *args)
        assert code == 0, err
        return float(json.loads(out)["attacker_wins"])

    base = p()
    assert p("--city-tiles", "3") < base
    assert p("--city-tiles", "3", "--construction") < p("--city-tiles", "3")
    assert p("--construction") < base
    assert p("--fort", "9") < p("--fort", "2") < base
    assert p("--attacker-space-flight") > base > p("--defender-space-flight")
    att, dfn = parse_specs("2*Catapult,Horseman"), parse_specs("Musketman,1-2-1{1}")
    want = battle_odds(att, dfn, Field(Where.CITY, 3, True), RollModel(Explode.OFF, 2, 1)).attacker_float
    assert p("--city-tiles", "3", "--construction", "--attacker-space-flight") == want


@pytest.mark.parametrize("args, words", [
    (("--attack", "Dragon", "--defend", "Musketman"), "no unit 'Dragon'"),
    (("--attack", "Settler", "--defend", "Musketman"), "statistics unknown"),
    (("--attack", "2-x", "--defend", "Musketman"), "cannot read"),
    (("--attack", "Catapult", "--defend", "Musketman", "--explode", "twice"), "use once, chain or off"),
    (("--attack", "Catapult", "--defend", "Musketman", "--city-tiles", "7"), "0 to 6"),
    (("--attack", "Catapult", "--defend", "Musketman", "--fort", "8"), "one of 2, 3, 4, 5, 6, 7, 9"),
    (("--attack", "Catapult", "--defend", "Musketman", "--fort", "6", "--city-tiles", "2"), "not both"),
    (("--attack", "5*Catapult,4*Horseman", "--defend", "Musketman"), "at most 7 units"),
])
def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("companion: ") and err.count("\n") == 1 and words in err, err


def test_cli_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "chess", "--attack", "1-1", "--defend", "1-1"]) == 2
    assert "no odds for 'chess'" in capsys.readouterr().err
