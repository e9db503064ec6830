"""Every Sovereign battle's ``odds_args`` make `companion odds sovereign` give the very chance the battle screen
showed: for any armies, field and rule switches (the two flags the command lacked — ``--air-raid-loss all`` and
``--space-flight-bonus extra`` — included), and for every battle of scripted games as `companion stats` lists them."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.sovereign.battle import Explode, Field, Where
from companion.rules.sovereign.odds import RollModel, battle_odds
from companion.rules.sovereign.odds_args import odds_args
from companion.rules.sovereign.terrain import FORT_VALUES
from companion.rules.sovereign.units import Fighter
from stats_kit import cli, journal_of, stats

TABLE = [Fighter("Catapult", 2, 1, 2, 1), Fighter("Horseman", 2, 1, 3), Fighter("Air raid", 4, 0, 6, 2, air=True),
         Fighter("Frigate", 3, 2, 4, ship=True), Fighter("Unit 1-4-1", 1, 4, 1), Fighter("Musketman", 1, 3, 3)]


def cli_odds(args: list[str]) -> dict:
    status, text = cli("odds", "sovereign", *args, "--json")
    assert status == 0, (args, text)
    return json.loads(text)


@st.composite
def battles(draw: st.DrawFn) -> tuple:
    att = draw(st.lists(st.sampled_from(TABLE), min_size=1, max_size=4))
    dfn = draw(st.lists(st.sampled_from([f for f in TABLE if not f.air]), min_size=1, max_size=3))
    where = draw(st.sampled_from(list(Where)))
    fld = Field(where, adjacent=draw(st.integers(0, 6)) if where is Where.CITY else 0,
                construction=draw(st.booleans()) if where is Where.CITY else False,
                fort=draw(st.sampled_from(FORT_VALUES)) if where is Where.FORT else 0)
    a2, d2, extra = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    model = RollModel(draw(st.sampled_from(list(Explode))), 2 if a2 else 1, 2 if d2 else 1,
                      2 if a2 and extra else 1, 2 if d2 and extra else 1)
    return att, dfn, fld, model, where is Where.SEA, draw(st.booleans())


@settings(max_examples=60, deadline=None)
@given(battles())
def test_the_arguments_give_the_same_exact_chance(b: tuple) -> None:
    att, dfn, fld, model, at_sea, air_all = b
    want = battle_odds(att, dfn, fld, model, at_sea=at_sea, air_all=air_all)
    got = cli_odds(odds_args(att, dfn, fld, model, at_sea, air_all))
    assert Fraction(got["attacker_wins_exact"]) == want.attacker


def test_the_two_new_flags_change_the_chance_as_the_switches_do() -> None:
    raids = ["--attack", "2*Air raid:4-0-6{2},Catapult", "--defend", "2*Catapult"]
    one, every = cli_odds(raids), cli_odds(raids + ["--air-raid-loss", "all"])
    assert Fraction(every["attacker_wins_exact"]) < Fraction(one["attacker_wins_exact"])
    flight = ["--attack", "Catapult", "--defend", "Catapult", "--attacker-space-flight"]
    single, extra = cli_odds(flight), cli_odds(flight + ["--space-flight-bonus", "extra"])
    assert Fraction(extra["attacker_wins_exact"]) > Fraction(single["attacker_wins_exact"])
    status, _ = cli("odds", "sovereign", *flight, "--space-flight-bonus", "double")
    assert status == 2


@pytest.fixture(scope="module")
def sovereign_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # the generator's two Sovereign kinds in turn: the second with air_raid_loss = all, extra bonus dice, chained 12s
    return journal_of(tmp_path_factory.mktemp("sovereign"), games=4, distinct=None, seed=3, game="sovereign")


def test_every_battle_of_scripted_games_recomputes_to_its_chance(sovereign_journal: Path) -> None:
    doc = stats(sovereign_journal, "--game", "sovereign")
    fights = doc["battles"]
    assert len(fights) >= 20 and {g["game"] for g in doc["games"]} == {"sovereign"}
    assert any("--air-raid-loss" in b["odds_args"] for b in fights)
    assert any("--air-raid-loss" not in b["odds_args"] for b in fights)
    for b in fights:
        got = cli_odds(b["odds_args"])
        assert got["attacker_wins"] == b["p_attacker_wins"], b
        assert got["attacker_wins_exact"] == b["p_attacker_wins_exact"], b
        assert {"game_id", "attacker", "defender", "p_attacker_wins", "attacker_won", "odds_args"} <= set(b)
        assert b["attacker"] != b["defender"] and isinstance(b["attacker_won"], bool)
