"""A three-society, six-turn Society game end to end through `companion play society` (button presses as the GM
would press them), every number checked by hand below.

Map 6x6; the GM moves the starting squares to Ana A2, Ben B2, Cleo C2 (a row: Ana-Ben and Ben-Cleo adjacent).
Everyone starts with 6 gold, tech 1, Despotism, one city. P = 3 in the research price, rounded up.

Turn 1  Ana trades with Ben: cost 1+1 = 2, payout 1x1 = 1 to both. Tower of Babel bids: Ana 3 (first), Ben 3,
        Cleo 2 -> the tie goes to the first order: Ana builds it at A2; Ben and Cleo refunded. Cleo researches
        Iron Working: 4 x (3-0)/3 = 4.
        Ana 6-2+1-3 = 2, tax 1x1x5 = 5 + Babel 1^2 = 1 -> 8.  Ben 6+1 = 7, tax 5 -> 12.
        Cleo 6-4 = 2, tax 1x2x5 = 10 -> 12.
Turn 2  Cleo trades with Ben: cost 2+1 = 3, payout 2 each. Ana trades with Ben: cost 2, payout 1 each.
        Cleo researches Monarchy 8 x 3/3 = 8 (tech 3). Ben: city 2 (auto: B1, border 5 against B3's 6) for 6,
        city 3 at B3 for 9. Ana researches Iron Working: 4 x (3-1)/3 = 2.67 -> 3; 2 armies at tech 2 = 4;
        declares war on Ben.
        Ana 8-2+1-3-4 = 0, tax 1x2x5 = 10 + Babel 2^2 = 4 -> 14.  Ben 12+2+1-6-9 = 0, tax 3x5 = 15 -> 15.
        Cleo 12-3+2-8 = 3, tax 1x3x5 = 15 -> 18.
Turn 3  Cleo's revolution to Monarchy keeps Production: Trojan Horse for 9, no tax -> 9, now a Monarchy.
        Ben 3 armies for 3 -> 12. Ana attacks Ben (declared last turn) with 2, ranking B2, B3:
        C = ((2/1) - (3/3)) x (2/1) = 2 -> B2 and B3; casualties: Ana 3/2 = 1.5 -> 1, Ben 3/3 x 2 = 2.
        Ana's captured cities pay no tax: 1x2x5 + 4 = 14 -> 28. Ben 1 city: 5 -> 17.
Turn 4  Cleo's first spy (Trojan Horse) sabotages Ana's trade: her 2 caravans to Cleo are not sent.
        Ana 3 armies x 2 = 6, city 4 (auto: A3) for 12 -> 28-18 = 10. Ben 4 armies for 4 -> 13.
        Two-way attack: Ben 2 x 1 = 2 against Ana 4 x 2 = 8 -> Ana wins, survivors (8-2)/2 = 3; Ben's 2 lost.
        Ana's 3 attack Ben's 3 at home, one city: C = ((3/1) - (3/1)) x 2 = 0; Ana loses 3/2 -> 1; Ana has 2.
        Ana 4x2x5 = 40 + 4 -> 54. Ben 5 -> 18. Cleo Monarchy 15 x 1.5 = 22.5 -> 23 -> 32.
Turn 5  Cleo's second spy goes to Ben as foreign aid. Ana researches Monarchy: 8 x (3-1)/3 = 5.33 -> 6.
        Ana 54-6 = 48, tax 4x3x5 = 60 + 3^2 = 9 -> 117. Ben 18+5 = 23. Cleo 32+23 = 55.
Turn 6  Cleo's spy against Ben's research is stopped by Ben's defending spy. Ben researches Iron Working:
        4 x (3-2)/3 = 1.33 -> 2. Ben 23-2 = 21, tax 1x2x5 = 10 -> 31. Ana 117+69 = 186. Cleo 55+23 = 78.
"""
from __future__ import annotations

import json
from pathlib import Path

from conftest import run_companion
from society_kit import TURNS, Driver

EXPECTED = {
    "Ana": {"treasury": 186, "tech": 3, "government": "despotism", "cities": ["A2", "B2", "B3", "A3"],
            "armies": 2, "spies": 0, "wonders": ["Tower of Babel"], "at_war_with": [2]},
    "Ben": {"treasury": 31, "tech": 2, "government": "despotism", "cities": ["B1"], "armies": 3, "spies": 0,
            "wonders": [], "at_war_with": [1]},
    "Cleo": {"treasury": 78, "tech": 3, "techs": ["Masonry", "Iron Working", "Monarchy"], "government": "monarchy",
             "cities": ["C2"], "armies": 0, "spies": 0,
             "wonders": ["Trojan Horse"], "at_war_with": []},
}
TREASURY = {1: (8, 12, 12), 2: (14, 15, 18), 3: (28, 17, 9), 4: (54, 18, 32), 5: (117, 23, 55), 6: (186, 31, 78)}


def drive() -> Driver:
    d = Driver(seed=1)
    d.setup()
    for orders in TURNS:
        d.turn(orders)
    return d


def test_six_turns_by_hand() -> None:
    d = drive()
    reps = d.reports
    assert len(reps) == 6 and len(d.game.data["reports"]) == 3
    for n, rep in enumerate(reps, 1):
        assert tuple(rep["societies"][k]["treasury"] for k in ("1", "2", "3")) == TREASURY[n], n
    t1, t2, t3, t4, t5, t6 = reps
    assert t1["results"] == ["ok", "ok", "refunded: outbid", "ok", "refunded: outbid"]
    assert t1["income"]["1"] == {"trade": 1, "tax": 5, "wonders": 1, "support": 0, "disbanded": 0, "net": 6}
    assert t2["societies"]["2"]["cities"] == ["B2", "B1", "B3"]
    war3 = t3["wars"][0]
    assert (war3["A"], war3["D"], war3["AT"], war3["DT"], war3["DC"], war3["C"]) == (2, 3, 2, 1, 3, 2)
    assert war3["captured"] == ["B2", "B3"] and not war3["sneak"]
    assert (war3["attacker_casualties"], war3["defender_casualties"]) == (1, 2)
    assert t3["income"]["1"]["tax"] == 10  # the two captured cities pay nothing this turn
    assert t4["results"][1] == "negated: Trade sabotaged by a spy"
    assert t4["results"][5] == "destroyed in a two-way attack"
    two = t4["wars"][0]["two_way"]
    assert two == {"a1": 2, "a1_tech": 1, "a2": 4, "a2_tech": 2, "winner": 2, "survivors": 3}
    assert t4["wars"][1]["C"] == 0 and t4["wars"][1]["attacker_casualties"] == 1
    assert t4["societies"]["1"]["cities"][-1] == "A3"
    assert t5["societies"]["2"]["spies"] == 1
    assert t6["results"][0] == "stopped by Ben's defending spy"


def test_companion_play_gives_the_same_game(tmp_path: Path) -> None:
    d = drive()
    script = tmp_path / "society.txt"
    script.write_text(d.script())
    out = tmp_path / "state.json"
    r = run_companion("play", "society", "--script", str(script), "--seed", "1", "--state-json", str(out))
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    assert s["game"] == "society" and s["state"] == "orders" and s["turn"] == 7
    for p in s["players"]:
        got = {k: p[k] for k in EXPECTED[p["name"]]}
        assert got == EXPECTED[p["name"]], p["name"]
    assert s["map"]["width"] == 6 and s["map"]["cities"] == {"A2": 1, "B2": 1, "B3": 1, "A3": 1, "B1": 2, "C2": 3}
    assert s["map"]["rows"][:4] == ["   A B C D E F", " 1 . 2 . . . .", " 2 1+1 3+. . .", " 3 1 1 . . . ."]
    assert s["wonders"]["Trojan Horse"] == {"owner": 3, "square": "C2", "obsolete": False}
    assert s["wars"] == ["1-2"]
