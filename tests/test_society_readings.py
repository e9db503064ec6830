"""Society's readings of the ambiguous places (item 7): each that changes numbers is a `[games.society]` switch with
the same default as the rules code, listed in the Society manual (companion/manuals/society.md), and reaches the game
and the calculator."""
from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.rules.society import formulas as f
from companion.rules.society.formulas import Readings
from companion.rules.society.resolve import resolve
from companion.rules.society.world import new_world
from fsm.society import SocietyGame

MANUAL = Path(__file__).resolve().parent.parent / "companion" / "manuals" / "society.md"


def society_section() -> str:
    text = MANUAL.read_text()
    start = text.index("## Readings of the rules text")
    return text[start:]


def test_every_reading_is_a_switch_with_the_same_default_and_in_the_manual() -> None:
    section = society_section()
    for fd in fields(Readings):
        spec = SocietyGame.OPTIONS[fd.name]
        assert spec.default == fd.default, fd.name
        assert re.search(rf"`{fd.name} = ", section), f"{fd.name} is not in the Society manual's readings"
    for name in SocietyGame.OPTIONS:
        assert f"`{name} = " in section, name


def o(seat: int, kind: str, **kw: Any) -> dict[str, Any]:
    return {"seat": str(seat), "kind": kind, **kw}


@pytest.mark.parametrize("how,trade,wonders", [
    # each: 2 caravans x (3 x 3 = 9, +50 % = 13.5 -> 14) = 28; tax 1 x 3 x 5 = 15 -> 22.5 -> 23; Babel 3^2 = 9 ->
    # 13.5 -> 14
    ("each", 2 * 14, 14),
    # together: the turn's trade 2 x 9 = 18 -> 27; tax and wonders (15 + 9) x 1.5 = 36 = 23 + 13
    ("together", 27, 36 - 23),
])
def test_bonus_rounding(how: str, trade: int, wonders: int) -> None:
    w = new_world(["Ana", "Ben"], 4, 4, ["A1", "B1"])
    w["soc"]["1"].update(tech=3, gov="monarchy", gold=20)
    w["soc"]["2"].update(tech=3)
    w["wonders"]["babel"] = {"owner": "1", "builder": "1", "square": "A1", "obsolete": False, "turn": 0, "cost": 1}
    w2, rep = resolve(w, [o(1, "trade", partner="2", count=2)], Readings(bonus_rounding=how))
    assert rep["income"]["1"]["trade"] == trade and rep["income"]["1"]["tax"] == 23
    assert rep["income"]["1"]["wonders"] == wonders
    assert w2["soc"]["1"]["gold"] == 20 - 2 * (3 + 3) + trade + 23 + wonders
    assert rep["income"]["2"]["trade"] == 2 * 3 * 3  # Ben, a Despotism: no bonus either way


def test_survivor_rounding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 4 x 1 = 4 against 3 x 3 = 9: attacker 2 wins, 5 / 3 = 1.67 -> 2 (up, as printed) or 1 (down)
    assert f.two_way(4, 1, 3, 3) == (2, 2)
    assert f.two_way(4, 1, 3, 3, Readings(survivor_rounding="down")) == (2, 1)
    cfg = tmp_path / "c.toml"
    cfg.write_text('[games.society]\nsurvivor_rounding = "down"\n')
    rc = main(["calc", "society", "two-way", "--a1", "4", "--a1-tech", "1", "--a2", "3", "--a2-tech", "3", "--json",
               "--config", str(cfg)])
    assert rc == 0 and json.loads(capsys.readouterr().out) == {"winner": 2, "survivors": 1}


@pytest.mark.parametrize("how,ben", [
    ("start", 4),  # nobody had Iron Working when the turn began: 4 x (3 - 0) / 3
    ("live", 3),  # Ana's order came first: 4 x (3 - 1) / 3 = 2.67 -> 3
])
def test_tech_have(how: str, ben: int) -> None:
    w = new_world(["Ana", "Ben", "Cleo"], 6, 6, ["A1", "C1", "F6"])
    for k in ("1", "2"):
        w["soc"][k]["gold"] = 20
    w2, _rep = resolve(w, [o(1, "research", levels=1), o(2, "research", levels=1)], Readings(tech_have=how))
    assert w2["soc"]["1"]["gold"] == 20 - 4 + 1 * 2 * 5
    assert w2["soc"]["2"]["gold"] == 20 - ben + 1 * 2 * 5


@pytest.mark.parametrize("how,support", [
    ("all", 2),  # 36 armies over all 15 cities: 2.4 -> 2 (down)
    ("capped", 3),  # over the 12 cities a Monarchy is taxed on: 36 / 12 = 3
])
def test_support_cities(how: str, support: int, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert f.settle_support(100, 36, 15, "monarchy", r=Readings(support_cities=how)) == (36, support)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[games.society]\nsupport_cities = "{how}"\n')
    rc = main(["calc", "society", "tax", "--cities", "15", "--tech", "1", "--government", "monarchy", "--armies",
               "36", "--json", "--config", str(cfg)])
    # 12 cities taxed x 1 x 5 = 60, +50 % = 90
    assert rc == 0 and json.loads(capsys.readouterr().out) == {"income": 90, "army_support": support,
                                                               "net": 90 - support}
