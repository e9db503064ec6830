"""`companion calc society FORMULA --json ...`: the issue's flags and JSON keys, one-line errors with exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main


def calc(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["calc", "society", *args])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("args,expected", [
    # ((10/2) - (2/4)) * (3/2) = 6.75 -> 6, only 4 cities; casualties 2/3 -> 0 and 2/4 x 4 = 2
    (["capture", "--attackers", "10", "--defenders", "2", "--attacker-tech", "3", "--defender-tech", "2",
      "--defender-cities", "4"], {"cities_captured": 4, "attacker_casualties": 0, "defender_casualties": 2}),
    # 8 x 3 x 5 = 120, Monarchy +50% = 180; support 7 armies / 8 cities = 0.875 -> 0
    (["tax", "--cities", "8", "--tech", "3", "--government", "monarchy", "--armies", "7"],
     {"income": 180, "army_support": 0, "net": 180}),
    # Republic: 2 x 2 x 5 x 2 = 40; support 50 armies > 40: 10 disbanded, 40 paid
    (["tax", "--cities", "2", "--tech", "2", "--government", "republic", "--armies", "50"],
     {"income": 40, "army_support": 40, "net": 0}),
    (["tax", "--cities", "9", "--tech", "1", "--government", "despotism"],
     {"income": 30, "army_support": 0, "net": 30}),
    (["trade", "--tech", "3", "--partner-tech", "2", "--government", "republic"], {"cost": 5, "payout": 12}),
    (["trade", "--tech", "3", "--partner-tech", "3", "--government", "monarchy"], {"cost": 6, "payout": 14}),
    (["trade", "--tech", "1", "--partner-tech", "1"], {"cost": 2, "payout": 1}),
    (["tech-cost", "--level", "5", "--players", "3", "--have", "1"], {"cost": 14}),  # 20 x 2/3 = 13.3 up
    (["city-cost", "--number", "4"], {"cost": 12}),
    (["city-cost", "--number", "1"], {"cost": 0}),
    (["two-way", "--a1", "5", "--a1-tech", "3", "--a2", "6", "--a2-tech", "2"], {"winner": 1, "survivors": 1}),
    (["two-way", "--a1", "2", "--a1-tech", "3", "--a2", "6", "--a2-tech", "1"], {"winner": None, "survivors": 0}),
])
def test_formulas_print_one_json_object(capsys: pytest.CaptureFixture[str], args: list[str],
                                        expected: dict[str, object]) -> None:
    rc, out, _err = calc(capsys, *args, "--json")
    assert rc == 0
    assert json.loads(out) == expected and out.count("\n") == 1


@pytest.mark.parametrize("args,flag", [
    (["capture", "--attackers", "10"], "--defenders is missing"),
    (["capture", "--attackers", "x", "--defenders", "1"], "--attackers 'x'"),
    (["tax", "--cities", "3", "--tech", "1"], "--government is missing"),
    (["tax", "--cities", "3", "--tech", "1", "--government", "anarchy"], "--government 'anarchy'"),
    (["tax", "--cities", "3", "--tech", "0", "--government", "monarchy"], "--tech '0'"),
    (["trade", "--tech", "2", "--partner-tech"], "--partner-tech needs a value"),
    (["tech-cost", "--level", "5", "--players", "3", "--have", "3"], "--have 3"),
    (["city-cost", "--number", "-1"], "--number '-1'"),
    (["two-way", "--a1", "1", "--a1-tech", "1", "--a2", "1", "--a2-tech", "1", "--a3", "1"], "'--a3'"),
    (["pillage", "--x", "1"], "no formula 'pillage'"),
    ([], "name a formula: capture, tax"),
])
def test_bad_or_missing_values_name_the_flag(capsys: pytest.CaptureFixture[str], args: list[str], flag: str) -> None:
    rc, out, err = calc(capsys, *args, "--json")
    assert rc == 2 and out == ""
    assert flag in err and err.count("\n") == 1


def test_readings_come_from_the_config(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[games.society]\ntech_price = "literal"\n')
    # literal: 20 x (3 - 1/3) = 53.3 -> 54
    rc, out, _ = calc(capsys, "tech-cost", "--level", "5", "--players", "3", "--have", "1", "--json",
                      "--config", str(cfg))
    assert rc == 0 and json.loads(out) == {"cost": 54}
    cfg.write_text('[games.society]\ntech_price = "sideways"\n')
    rc, _, err = calc(capsys, "city-cost", "--number", "2", "--config", str(cfg))
    assert rc == 2 and "tech_price" in err


def test_plain_output_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = calc(capsys, "city-cost", "--number", "3")
    assert rc == 0 and out == "cost: 9\n"


def test_a_flag_given_twice_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = calc(capsys, "city-cost", "--number", "2", "--number=3", "--json")
    assert (rc, out) == (2, "") and err == "companion: --number is given twice\n"
