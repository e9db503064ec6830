"""The issue's "Done when": a three-society, eight-turn Society game end to end through `companion play society`
(button presses as the GM would press them) with trades, research, a wonder bidding war, spies on both sides, a
declared war with captures, a two-way attack and a revolution. Every number is worked out below from the rules
text's formulas (small helpers written here, not the program's), and the report is rendered in both formats.

Map 6x6; the GM moves the starting squares to Ana A2, Ben B2, Cleo C2 (a row: Ana-Ben and Ben-Cleo adjacent).
Everyone starts with 6 gold, tech 1, Despotism, one city. P = 3 in the research price, rounded up.
"""
from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import run_companion
from society_kit import TURNS, Driver

P = 3  #: societies, for the research price


# ---- the text's formulas, by hand -------------------------------------------------------------------------
def up(n: int, d: int) -> int:
    return -(-n // d)


def tax(cities: int, tech: int) -> int:
    """Income = Cities x Tech Level x 5."""
    return cities * tech * 5


def monarchy(x: int) -> int:
    """+50 %, rounded up."""
    return up(3 * x, 2)


def price(base: int, have: int) -> int:
    """The research price Base x (P - R) / P, rounded up (the manual's reading)."""
    return up(base * (P - have), P)


def city(n: int) -> int:
    """The n-th city costs 3n."""
    return 3 * n


def capture(a: int, d: int, at: int, dt: int, dc: int) -> int:
    """C = ((A / DT) - (D / DC)) x (AT / DT), rounded down (never below 0)."""
    return max(0, math.floor((Fraction(a, dt) - Fraction(d, dc)) * Fraction(at, dt)))


# ---- the game, turn by turn ---------------------------------------------------------------------------------
def hand() -> dict[str, Any]:
    """Each turn's treasuries (Ana, Ben, Cleo) and the war numbers, worked out from the orders in society_kit."""
    t: dict[int, tuple[int, int, int]] = {}
    # Turn 1: Ana trades with Ben (cost 1+1, payout 1x1 to both). Babel bids Ana 3, Ben 3, Cleo 2: the tie goes to
    # the first order (Ana); Ben and Cleo are refunded. Cleo researches Iron Working (2) for 4 x 3/3.
    ana = 6 - (1 + 1) + 1 * 1 - 3 + tax(1, 1) + 1 ** 2  # Babel pays tech squared
    ben = 6 + 1 * 1 + tax(1, 1)
    cleo = 6 - price(4, 0) + tax(1, 2)
    t[1] = (ana, ben, cleo)
    # Turn 2: Cleo (tech 2) trades with Ben (1): cost 3, payout 2. Ana trades with Ben again. Cleo researches
    # Monarchy (3) for 8; Ben builds cities 2 and 3; Ana researches Iron Working (Cleo has it: R = 1), buys 2
    # armies at her new tech 2 and declares war on Ben.
    cleo += -(2 + 1) + 2 * 1 - price(8, 0) + tax(1, 3)
    ana += -(1 + 1) + 1 * 1 - price(4, 1) - 2 * 2 + tax(1, 2) + 2 ** 2
    ben += 2 * 1 + 1 * 1 - city(2) - city(3) + tax(3, 1)
    t[2] = (ana, ben, cleo)
    # Turn 3: Cleo's revolution (to Monarchy, keeping Production) builds the Trojan Horse for 9 and loses her tax.
    # Ben buys 3 armies. Ana attacks Ben (declared last turn) with her 2 armies against his 3, three cities.
    cleo += -(3 ** 2)
    ben += -3 * 1
    c3 = capture(2, 3, 2, 1, 3)
    war3 = {"A": 2, "D": 3, "AT": 2, "DT": 1, "DC": 3, "C": c3, "attacker_casualties": 3 // 2,
            "defender_casualties": math.floor(Fraction(3, 3) * c3)}
    ana += tax(3 - c3, 2) + 2 ** 2  # cities captured this turn pay no tax
    ben += tax(3 - c3, 1)
    t[3] = (ana, ben, cleo)
    ana_armies = 2 - war3["attacker_casualties"]
    ben_armies = 3 - war3["defender_casualties"]
    # Turn 4: Cleo's spy (Trojan Horse) sabotages Ana's trade: her caravans are not sent and cost nothing. Ana buys
    # 3 armies (tech 2) and city 4; Ben 4 armies. Ben attacks Ana with 2, Ana attacks Ben with 4: the armies meet.
    ana += -3 * 2 - city(4)
    ben += -4 * 1
    ana_armies += 3
    ben_armies += 4
    s_ben, s_ana = 2 * 1, 4 * 2
    survivors = up(s_ana - s_ben, 2)  # the winner's survivors: difference / its tech level, rounded up
    two_way = {"a1": 2, "a1_tech": 1, "a2": 4, "a2_tech": 2, "winner": 2, "survivors": survivors}
    ben_armies -= 2
    ana_armies -= 4
    # Ana's survivors attack Ben's armies at home, one city left
    c4 = capture(survivors, ben_armies, 2, 1, 1)
    war4 = {"A": survivors, "D": ben_armies, "C": c4, "attacker_casualties": ben_armies // 2,
            "defender_casualties": math.floor(Fraction(ben_armies, 1) * c4)}
    ana_armies += survivors - war4["attacker_casualties"]
    ana += tax(4, 2) + 2 ** 2
    ben += tax(1, 1)
    cleo += monarchy(tax(1, 3))
    t[4] = (ana, ben, cleo)
    # Turn 5: Cleo gives Ben her spy; Ana researches Monarchy (Cleo has it: R = 1).
    ana += -price(8, 1) + tax(4, 3) + 3 ** 2
    ben += tax(1, 1)
    cleo += monarchy(tax(1, 3))
    t[5] = (ana, ben, cleo)
    # Turn 6: Ben's spy defends Research against Cleo's; Ben researches Iron Working (Ana and Cleo have it: R = 2).
    ben += -price(4, 2) + tax(1, 2)
    ana += tax(4, 3) + 3 ** 2
    cleo += monarchy(tax(1, 3))
    t[6] = (ana, ben, cleo)
    # Turn 7: Cleo gives Ben another spy.
    ana, ben, cleo = ana + tax(4, 3) + 3 ** 2, ben + tax(1, 2), cleo + monarchy(tax(1, 3))
    t[7] = (ana, ben, cleo)
    # Turn 8: Ben and Cleo spy on each other: both spies are stopped, so Cleo's caravan to Ben (tech 3 and 2,
    # two squares apart) goes ahead: cost 3+2, payout 3x2 (Monarchy +50 % for Cleo).
    cleo += -(3 + 2) + monarchy(3 * 2) + monarchy(tax(1, 3))
    ben += 3 * 2 + tax(1, 2)
    ana += tax(4, 3) + 3 ** 2
    t[8] = (ana, ben, cleo)
    return {"treasury": t, "war3": war3, "two_way": two_way, "war4": war4, "armies": (ana_armies, ben_armies, 0)}


@pytest.fixture(scope="module")
def played() -> Driver:
    d = Driver(seed=1)
    d.setup()
    for orders in TURNS:
        d.turn(orders)
    return d


@pytest.fixture(scope="module")
def cli(played: Driver, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The same presses as a script through `companion play society`: the state JSON and the journal."""
    folder = tmp_path_factory.mktemp("society_play")
    script = folder / "society.txt"
    script.write_text(played.script())
    out, journal = folder / "state.json", folder / "journal.sqlite"
    r = run_companion("play", "society", "--script", str(script), "--seed", "1", "--state-json", str(out),
                      "--journal", str(journal))
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text()), journal


def test_every_turn_matches_the_hand_computation(played: Driver) -> None:
    h = hand()
    reps = played.reports
    assert len(reps) == 8 >= 5 and len(played.game.data["reports"]) == 3
    for n, rep in enumerate(reps, 1):
        assert tuple(rep["societies"][k]["treasury"] for k in ("1", "2", "3")) == h["treasury"][n], n
    war3 = {k: reps[2]["wars"][0][k] for k in h["war3"]}
    assert war3 == h["war3"] and h["war3"]["C"] == 2
    tw = h["two_way"]  # the same battle seen from Ana's side: her PM arrived before Ben's, her attack opens the war
    assert reps[3]["wars"][0]["two_way"] == {"a1": tw["a2"], "a1_tech": tw["a2_tech"], "a2": tw["a1"],
                                             "a2_tech": tw["a1_tech"], "winner": 3 - tw["winner"],
                                             "survivors": tw["survivors"]}
    assert {k: reps[3]["wars"][-1][k] for k in h["war4"]} == h["war4"]  # her survivors then attack
    assert tuple(reps[-1]["societies"][k]["armies"] for k in ("1", "2", "3")) == h["armies"]


def res(rep: dict[str, Any], seat: str, kind: str) -> str:
    """The outcome of the society's (only) order of that kind (the report lists orders in processing order)."""
    got = [r for o, r in zip(rep["orders"], rep["results"]) if o["seat"] == seat and o["kind"] == kind]
    assert len(got) == 1, got
    return str(got[0])


def test_each_event_of_the_issue_happens(played: Driver) -> None:
    t1, t2, t3, t4, t5, t6, t7, t8 = played.reports
    # trades, both ways paid
    assert t1["income"]["2"]["trade"] == 1 and t2["income"]["2"]["trade"] == 2 + 1
    # research
    assert (t1["societies"]["3"]["tech"], t2["societies"]["1"]["tech"], t6["societies"]["2"]["tech"]) == (2, 2, 2)
    # the wonder bidding war: three bids, the tie to the first order, the losers refunded
    assert res(t1, "2", "wonder") == res(t1, "3", "wonder") == "refunded: outbid" and res(t1, "1", "wonder") == "ok"
    assert t1["societies"]["1"]["wonders"] == ["Tower of Babel"]
    # a declared war (turn 2) with captures on turn 3, in the theatre ranking given
    assert "Ana declares war on Ben" in [e["text"] for e in t2["events"]]
    assert t3["wars"][0]["captured"] == ["B2", "B3"] and not t3["wars"][0]["sneak"]
    assert t3["income"]["1"]["tax"] == tax(1, 2)  # the two captured cities pay nothing this turn
    # a revolution: Cleo loses her tax on turn 3 and is a Monarchy from turn 4
    assert t3["income"]["3"]["tax"] == 0 and t3["societies"]["3"]["government"] == "monarchy"
    # the two-way attack: Ben's army destroyed
    assert res(t4, "2", "attack") == "destroyed in a two-way attack"
    # spies on both sides: Cleo's sabotage, Ben's defender, then each spying on the other
    assert res(t4, "1", "trade") == "negated: Trade sabotaged by a spy"
    assert t5["societies"]["2"]["spies"] == 1 and {"phase": "aid", "text": "Cleo gives Ben 1 spy"} in t5["events"]
    assert res(t6, "3", "spy") == "stopped by Ben's defending spy"
    assert t7["societies"]["2"]["spies"] == 1
    assert res(t8, "2", "spy") == res(t8, "3", "spy") == "cancelled: both sides spied on each other"
    assert res(t8, "3", "trade") == "ok"
    assert [e["text"] for e in t8["events"] if e["phase"] == "espionage"] == ["Ben's spy and Cleo's spy cancel out"]
    assert t8["societies"]["2"]["spies"] == t8["societies"]["3"]["spies"] == 0


EXPECTED = {
    "Ana": {"tech": 3, "techs": ["Masonry", "Iron Working", "Monarchy"], "government": "despotism",
            "cities": ["A2", "B2", "B3", "A3"], "spies": 0, "wonders": ["Tower of Babel"], "at_war_with": [2]},
    "Ben": {"tech": 2, "techs": ["Masonry", "Iron Working"], "government": "despotism", "cities": ["B1"],
            "spies": 0, "wonders": [], "at_war_with": [1]},
    "Cleo": {"tech": 3, "techs": ["Masonry", "Iron Working", "Monarchy"], "government": "monarchy",
             "cities": ["C2"], "spies": 0, "wonders": ["Trojan Horse"], "at_war_with": []},
}


def test_companion_play_state_json(cli: tuple[dict[str, Any], Path]) -> None:
    s, _journal = cli
    h = hand()
    assert s["game"] == "society" and s["state"] == "orders" and s["turn"] == 9
    for i, p in enumerate(s["players"]):
        assert {k: p[k] for k in EXPECTED[p["name"]]} == EXPECTED[p["name"]], p["name"]
        assert (p["treasury"], p["armies"]) == (h["treasury"][8][i], h["armies"][i]), p["name"]
    assert s["map"]["width"] == 6 and s["map"]["cities"] == {"A2": 1, "B2": 1, "B3": 1, "A3": 1, "B1": 2, "C2": 3}
    assert s["map"]["rows"][:4] == ["   A B C D E F", " 1 . 2 . . . .", " 2 1+1 3+. . .", " 3 1 1 . . . ."]
    assert s["wonders"]["Trojan Horse"] == {"owner": 3, "square": "C2", "obsolete": False}
    assert s["wars"] == ["1-2"]


@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
def test_the_last_turn_report_in_both_formats(cli: tuple[dict[str, Any], Path], fmt: str) -> None:
    _s, journal = cli
    r = run_companion("export", "1", "--journal", str(journal), "--report", "--format", fmt)
    assert r.returncode == 0, r.stderr
    text = r.stdout
    head = "## Society: turn 8 results" if fmt == "markdown" else "[b][size=150]Society: turn 8 results[/size][/b]"
    item = "- " if fmt == "markdown" else "[*]"
    treasury = hand()["treasury"][8]
    assert text.startswith(head + "\n")
    for part in ("Ben's spy and Cleo's spy cancel out", "Cleo -> Ben x1: cost 5, +9 / +6",
                 f"Treasury {treasury[0]} gold", f"Treasury {treasury[1]} gold", f"Treasury {treasury[2]} gold",
                 "Cities (4): A2, B2, B3, A3", "Tech 3 (Monarchy), Monarchy", "At war with: Ben",
                 " 2 1+1 3+. . .", "Seats: 1 Ana, 2 Ben, 3 Cleo"):
        assert f"{item}{part}" in text or part in text, part
    assert f"{item}Cleo: spy Ben war: cancelled: both sides spied on each other" in text
