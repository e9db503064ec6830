"""Review of issue 24's PM reader: what players really type (unicode dashes and arrows, "2x", several orders on a
line, costs written other ways) is read, and no order on a line is dropped without a word."""
from __future__ import annotations

from typing import Any

import pytest

from companion.rules.society.pm import read

NAMES = ["Ana", "Spaced Cowboy", "Skanky", "NukeDoc", "Jamski", "DrSpike"]


def _only(text: str) -> dict[str, Any]:
    got = read(text, NAMES)
    assert got["unparsed"] == [], got
    assert len(got["orders"]) == 1, got
    x = got["orders"][0]
    return {k: v for k, v in x.items() if k not in ("line", "text")}


@pytest.mark.parametrize("text, want", [
    ("2x trade with Skanky", {"kind": "trade", "count": 2, "target": "Skanky"}),
    ("2x Armies (8)", {"kind": "armies", "count": 2, "stated_cost": 8}),
    ("Armies \u00d72 (8)", {"kind": "armies", "count": 2, "stated_cost": 8}),
    ("Armys x 2", {"kind": "armies", "count": 2}),
    ("Armies: 2", {"kind": "armies", "count": 2}),
    ("Trade with Skanky (6)\u2014>(+9)", {"kind": "trade", "count": 1, "target": "Skanky", "stated_cost": 6,
                                          "stated_payout": 9}),
    ("Trade with Skanky (6) \u2192 (+9)", {"kind": "trade", "count": 1, "target": "Skanky", "stated_cost": 6,
                                           "stated_payout": 9}),
    ("Trade w/ Skanky (6)", {"kind": "trade", "count": 1, "target": "Skanky", "stated_cost": 6}),
    ("Peace w/ Skanky", {"kind": "peace", "target": "Skanky"}),
    ("Attack skanky w/ 4 armies", {"kind": "attack", "target": "Skanky", "count": 4}),
    ("Trojan horse - 9", {"kind": "wonder", "wonder": "Trojan Horse", "stated_cost": 9}),
    ("Silk Road: 25 gold", {"kind": "wonder", "wonder": "Silk Road", "stated_cost": 25}),
    ("Tower of Babel 1g", {"kind": "wonder", "wonder": "Tower of Babel", "stated_cost": 1}),
    ("Bid 10 on Colosseum", {"kind": "wonder", "wonder": "Colosseum", "stated_cost": 10}),
    ("2 cities (9+12)", {"kind": "city", "count": 2, "squares": [], "stated_cost": 21}),
    ("Spy -> Skanky (Trade)", {"kind": "spy", "target": "Skanky", "phase": "trade"}),
    ("Spy --> Skanky, target Production (Cities)", {"kind": "spy", "target": "Skanky", "phase": "cities"}),
    ("Send spy to Skanky, target trade", {"kind": "spy", "target": "Skanky", "phase": "trade"}),
    ("2 Nukes -> DrSpike, targets D3 and E3", {"kind": "nukes", "count": 2, "target": "DrSpike",
                                                "squares": ["D3", "E3"]}),
    ("Nuke DrSpike", {"kind": "nukes", "count": 1, "target": "DrSpike"}),
    ("Trade with Skanky 2x", {"kind": "trade", "count": 2, "target": "Skanky"}),
    ("Trade with Skanky (x2)", {"kind": "trade", "count": 2, "target": "Skanky"}),
    ("Armies 2x", {"kind": "armies", "count": 2}),
    ("Build 2x armies", {"kind": "armies", "count": 2}),
    ("Nukes 2x to DrSpike", {"kind": "nukes", "count": 2, "target": "DrSpike"}),
])
def test_a_variation_players_type_is_read(text: str, want: dict[str, Any]) -> None:
    assert _only(text) == want


def test_several_orders_on_one_line_are_each_read_and_none_dropped() -> None:
    got = read("Armies x2 (8); City B3 (9)\nResearch to 5, then Silk Road (25)\nSpy -> Skanky, target trade; "
               "hello", NAMES)
    rows = [(x["line"], x["kind"], x.get("stated_cost"), x.get("count"), x.get("level")) for x in got["orders"]]
    assert rows == [(1, "armies", 8, 2, None), (1, "city", 9, 1, None), (2, "research", None, None, 5),
                    (2, "wonder", 25, None, None), (3, "spy", None, None, None)]
    assert got["orders"][3]["wonder"] == "Silk Road" and got["orders"][2].get("problems") is None
    assert got["unparsed"] == [{"line": 3, "text": "hello"}]


def test_nukes_and_an_attack_on_the_same_society_in_one_pm_are_one_war() -> None:
    """"3 Nukes to X / Targets" and "Attack X with 4 armies / Targets" in one PM: the turn's one war, with the
    nukes and the armies ("the person initiating the war can decide whether to use armies or nukes first": the line
    written first goes first)."""
    from companion.rules.society.pm_check import check
    from society_kit import small_world

    w = small_world(("A1", "B1", "F6"), a={"tech": 11, "gold": 3000, "armies": 6, "nukes": 3},
                    b={"cities": ["B1", "C1", "D1", "E1"]})
    names = [str(s["name"]) for s in w["soc"].values()]
    for pm, first in (("3 Nukes to Ben\nTargets: C1, D1\nAttack Ben with 4 armies.\nTargets: B1", True),
                      ("Attack Ben with 4 armies.\nTargets: B1\n3 Nukes to Ben\nTargets: C1, D1", False)):
        out = check(read(pm, names)["orders"], w, "1", [])
        made = [o for _rd, m in out for o in m]
        assert made == [{"seat": "1", "kind": "attack", "target": "2", "armies": 4, "nukes": 3, "nukes_first": first,
                         "ranking": ["B1"], "nuke_targets": ["C1", "D1"]}]
        assert [rd["problems"] for rd, _m in out] == [[], []]
        assert out[1][0]["joined"] == 1


def test_a_pasted_pm_with_nukes_and_an_attack_adds_one_attack_and_no_note() -> None:
    from fsm.base import Player, Setup
    from fsm.society import SocietyGame

    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    w = g.data["world"]
    w["soc"]["1"].update(tech=11, gold=3000, armies=6, nukes=3, cities=["A1"])
    w["soc"]["2"].update(cities=["B1", "C1"])
    w["soc"]["3"].update(cities=["F6"], tech=7, spies=1)
    g.answer("soc:1")
    g.answer("paste")
    g.answer({"text": "Attack Ben with 4 armies.\n2 Nukes to Ben"})
    assert g.prompt().options[0].label == "Add 1 order"
    g.answer("add")
    assert [(x["kind"], x.get("armies"), x.get("nukes")) for x in g.data["orders"]] == [("attack", 4, 2)]


def test_a_pm_line_the_companion_cannot_read_stays_out_of_the_public_post() -> None:
    """A PM is private: chatter the reader could not read ("Hi GM, I'll turn on Ben next turn") is kept for the GM
    in the order list, and the forum post only says that a line was not read."""
    from fsm.base import Player, Setup
    from fsm.society import SocietyGame

    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    g.answer("soc:1")
    g.answer("paste")
    g.answer({"text": "Hi GM, keep it quiet: I turn on Ben next turn\nArmies x1 (1)"})
    g.answer("add")
    assert [x["text"] for x in g.data["orders"] if x["kind"] == "note"] == [
        "Hi GM, keep it quiet: I turn on Ben next turn (not read)"]
    g.answer("done")
    g.answer("process")
    g.answer(True)
    post = g.report() + g.report("bbcode")
    assert "turn on Ben" not in post
    assert "- Ana: PM line 1 not read as an order (the GM has it)" in g.report()


def test_the_post_names_societies_and_wonders_in_full_and_a_nuke_strike_plainly() -> None:
    """The post is read on the forum: "Spaced Cowboy", "Trojan Horse" (not "Spaced C", "Trojan"); a strike with
    nukes alone "with 1 nuke" (not "with 0 armies and 1 nuke"), no "0 stopped by SDI" against no SDI."""
    from fsm.base import Player, Setup
    from fsm.society import SocietyGame
    from fsm.society.entry import commit
    from society_kit import o

    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Spaced Cowboy", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    w = g.data["world"]
    w["soc"]["1"].update(cities=["A1"], tech=11, gold=20, nukes=1)
    w["soc"]["2"].update(cities=["B1", "C1"], tech=7, gold=10)
    w["soc"]["3"].update(cities=["F6"], tech=7, spies=1)
    for od in (o(2, "trade", partner="1", count=1), o(2, "wonder", wonder="trojan", gold=20),
               o(3, "spy", target="2", phase="trade"),
               {**o(1, "attack", target="2", armies=0, nukes=1), "nukes_first": True, "ranking": []}):
        commit(g, od)
    g.answer("process")
    g.answer(True)
    post = g.report()
    assert "- Spaced Cowboy: Trojan Horse 20 gold cut, not enough gold" in post
    assert "- Spaced Cowboy: trade Ana x1: negated: Trade sabotaged by a spy" in post
    assert "- Ana launches a sneak attack on Spaced Cowboy with 1 nuke\n" in post
    assert "- 1 nuke on Spaced Cowboy: destroyed B1" in post


def test_the_post_reads_in_order_and_in_words() -> None:
    """A defending spy is set before it stops anyone; an attack that stayed home reads "attack Ana with 4 armies"
    (not the device's "attack Ana 4a"); the sheet says a partner in reach is at war rather than "nobody in range"."""
    from fsm.base import Player, Setup
    from fsm.society import SocietyGame
    from fsm.society.entry import commit
    from society_kit import o

    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    w = g.data["world"]
    w["soc"]["1"].update(cities=["A1", "A2"], tech=5, armies=3)
    w["soc"]["2"].update(cities=["B1", "B2"], tech=7, armies=6, spies=1)
    w["soc"]["3"].update(cities=["F6"], tech=7)
    w["wonders"]["colosseum"] = {"owner": "1", "builder": "1", "square": "A1", "obsolete": False, "turn": 0,
                                 "cost": 4}
    w["wars"]["1-2"] = {"since": 0, "by": "2"}
    for od in (o(3, "spy", target="2", phase="wonders"), o(2, "defend", phase="wonders"),
               {**o(2, "attack", target="1", armies=4, nukes=0), "nukes_first": True, "ranking": []}):
        commit(g, od)
    g.answer("process")
    g.answer(True)
    post = g.report()
    assert ("- Ben sets a spy to defend Wonders\n- Ben's spy stops Cleo's spy at Wonders\n") in post
    assert "- Ben: attack Ana with 4 armies: stayed home: Ana's Colosseum" in post
    assert "| Ana | 9 | 5 | 0 | 5: no partner at peace (at war: Ben) |" in post


def test_editing_a_pasted_order_keeps_what_the_device_has_no_step_for() -> None:
    """A pasted strike's nuke targets and a pasted city's squares have no field on the device: editing the order
    (here: OK on every default) must not drop them silently."""
    from fsm.base import Player, Setup
    from fsm.prompts import Choice
    from fsm.society import SocietyGame

    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    w = g.data["world"]
    w["soc"]["1"].update(cities=["A1"], tech=11, nukes=2, gold=100)
    w["soc"]["2"].update(cities=["B1", "C1", "D1"])
    w["soc"]["3"].update(cities=["F6"])
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    g.answer("soc:1")
    g.answer("paste")
    g.answer({"text": "2 Nukes to Ben\nTargets: D1, C1\nCity A3, A2 (6)"})
    g.answer("add")
    g.answer("done")
    before = [dict(x) for x in g.data["orders"]]
    for i in (0, 1):
        g.answer("list")
        g.answer(str(i))
        g.answer("edit")
        while g.data["entry"] != {"step": "list"}:
            p = g.prompt()
            keys = [x.key for x in p.options] if isinstance(p, Choice) else []
            g.answer("done" if "done" in keys else (p.default if not keys or p.default in keys else keys[0]))
        g.answer("back")
    assert g.data["orders"] == before
    assert before[0]["nuke_targets"] == ["D1", "C1"] and before[1]["squares"] == ["A3", "A2"]


def test_orders_joined_by_and_are_each_read_and_a_second_society_is_flagged() -> None:
    got = read("Research to 5 and build Silk Road (25)\nCity B3 and 2 armies\nDeclare war on Skanky and attack him "
               "with 3 armies\nColosseum (6) and Trojan Horse (9)\nTrade with Skanky and Jamski\n"
               "Give Jamski 10 gold and Skanky 5 gold\nGive Jamski 1 army and 10 gold", NAMES)
    rows = [(x["line"], x["kind"], x.get("target"), x.get("wonder"), x.get("stated_cost")) for x in got["orders"]]
    assert rows == [(1, "research", None, None, None), (1, "wonder", None, "Silk Road", 25),
                    (2, "city", None, None, None), (2, "armies", None, None, None), (3, "declare-war", "Skanky", None, None),
                    (3, "attack", "him", None, None), (4, "wonder", None, "Colosseum", 6),
                    (4, "wonder", None, "Trojan Horse", 9), (5, "trade", "Skanky", None, None),
                    (6, "aid", "Jamski", None, None), (7, "aid", "Jamski", None, None)]
    probs = [x.get("problems", []) for x in got["orders"]]
    assert probs[5] == ["no society called 'him'"]
    assert probs[8] == ["read as Skanky; 'and Jamski' not read (one society an order)"]
    assert probs[9] == ["read as Jamski; 'Skanky' not read (one society an order)"]
    assert probs[10] == [] and got["orders"][10]["gifts"] == {"armies": 1, "gold": 10}


def test_the_sheets_free_wonders_count_the_university_and_say_when_the_colosseum_has_expired() -> None:
    """"Can build now" counts the University of California (build what someone else has discovered); a Colosseum
    bought once anyone has Industrialization is obsolete on arrival, and the sheet says so."""
    from companion.rules.society.formulas import DEFAULT
    from fsm.society.sheet import sheet
    from society_kit import small_world

    w = small_world(("A1", "C1", "F6"), a={"tech": 3}, b={"tech": 2}, c={"tech": 9})
    w["wonders"]["uc"] = {"owner": "2", "builder": "2", "square": "C1", "obsolete": False, "turn": 0, "cost": 100}
    rows = {r[1]: r for title, _h, rs in sheet(w, DEFAULT) if title == "Wonders still free" for r in rs}
    assert rows["Mafia"][3] == "Ben, Cleo"
    assert rows["Colosseum (obsolete: Industrialization reached)"][3] == "Ana, Ben, Cleo"
