"""Issue 24: orders checked where their phase runs, whatever the typing order; the PM reader (CLI and phone); the
post's new parts; the findings on spies, maps and wording. Each test fails on the code before the issue."""
from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.rules.society.orders import why_not
from companion.rules.society.resolve import resolve
from companion.rules.society.world import map_rows
from conftest import companion_here
from fsm.base import Player, Setup
from fsm.society import SocietyGame
from society_kit import TURNS, Driver, o, small_world

SAMPLE = """Action (cost in Gold)
---------------------
Spy --> Spaced Cowboy, target Production.
Trade with Skanky (6)-->(+9) Note that Trade income can be immediately spent
City of NukeDoc (6) A2, A3, A4, A5
Armies x2 (2)
Colosseum (6) <--important: you must specify exactly how much you want to spend for a Wonder
Give Jamski 1 army
3 Nukes to DrSpike
Targets: D3, E3, D4
Attack Skanky with 4 armies.
Targets: B1, C1, D1, etc.
---------------------
"""
NAMES = "Spaced Cowboy,Skanky,NukeDoc,Jamski,DrSpike"


def wonder(w: dict[str, Any], key: str, seat: str, square: str) -> None:
    w["wonders"][key] = {"owner": seat, "builder": seat, "square": square, "obsolete": False, "turn": 0, "cost": 0}


# ---------------------------------------------------------------------------------------------- the PM reader
def test_the_texts_sample_orders_read_as_they_say(tmp_path: Path) -> None:
    f = tmp_path / "pm.txt"
    f.write_text(SAMPLE)
    r = companion_here("society", "orders", str(f), "--societies", NAMES, "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["unparsed"] == []
    keys = ("kind", "line", "target", "phase", "count", "squares", "wonder", "stated_cost")
    rows = [{k: x[k] for k in keys if k in x} for x in got["orders"]]
    assert rows == [
        {"kind": "spy", "line": 3, "target": "Spaced Cowboy", "phase": "production"},
        {"kind": "trade", "line": 4, "target": "Skanky", "count": 1, "stated_cost": 6},
        {"kind": "city", "line": 5, "count": 1, "squares": ["A2", "A3", "A4", "A5"], "stated_cost": 6},
        {"kind": "armies", "line": 6, "count": 2, "stated_cost": 2},
        {"kind": "wonder", "line": 7, "wonder": "Colosseum", "stated_cost": 6},
        {"kind": "aid", "line": 8, "target": "Jamski", "count": 1},
        {"kind": "nukes", "line": 9, "target": "DrSpike", "count": 3, "squares": ["D3", "E3", "D4"]},
        {"kind": "attack", "line": 11, "target": "Skanky", "count": 4, "squares": ["B1", "C1", "D1"]},
    ]
    assert all(x["text"] for x in got["orders"]) and got["orders"][1]["stated_payout"] == 9


def test_what_players_really_type_is_read_and_the_rest_kept(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    f = tmp_path / "pm.txt"
    f.write_text("spy -> skanky target trade\n  TRADE  with  skanky x2 (12)\narmy x3\n3 armies\nresearch to 4 (12)\n"
                 "tower of babel\nRevolution to Monarchy, keep production\npeace with jamski\ndeclare war on drspike\n"
                 "2 SDI\nspaceship part (1000)\nResearch +2\nhello GM!\n")
    assert main(["society", "orders", str(f), "--societies", NAMES, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert [x["kind"] for x in got["orders"]] == ["spy", "trade", "armies", "armies", "research", "wonder",
                                                  "revolution", "peace", "declare-war", "sdi", "spaceship",
                                                  "research"]
    assert got["orders"][1]["count"] == 2 and got["orders"][1]["target"] == "Skanky"
    assert got["orders"][5]["problems"] == ["no amount given: a wonder or an engine needs the gold to spend"]
    assert got["unparsed"] == [{"line": 13, "text": "hello GM!"}]


def home(journal: Path) -> dict[str, str]:
    """The data folder the module's journal was played with: its resume snapshots' key is there (a module-wide
    journal outlives each test's own data folder)."""
    return {"XDG_DATA_HOME": str(journal.parent / "xdg-data")}


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = Driver(seed=1)
    d.setup()
    for orders in TURNS[:5]:
        d.turn(orders)
    folder = tmp_path_factory.mktemp("society24")
    (folder / "s.txt").write_text(d.script())
    path = folder / "journal.sqlite"
    r = companion_here("play", "society", "--script", str(folder / "s.txt"), "--seed", "1", "--journal", str(path),
                       env=home(path))
    assert r.returncode == 0, r.stderr
    return path


def test_with_the_journal_a_stated_cost_that_differs_is_flagged(journal: Path, tmp_path: Path) -> None:
    f = tmp_path / "pm.txt"
    f.write_text("Trade with Ben (5)-->(+2)\nArmies x2 (2)\nCity B4 (15)\nNukes x1 (500)\n")
    r = companion_here("society", "orders", str(f), "--journal", str(journal), "--from", "ana", "--json", env=home(journal))
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["orders"]
    # turn 6: Ana tech 3 (Ben tech 1): a caravan costs 3 + 1 = 4 and pays 3; an army 3; her 5th city 15
    assert rows[0]["problems"] == ["payout stated 2, the companion makes it 3", "cost stated 5, the companion makes it 4"]
    assert rows[1]["problems"] == ["cost stated 2, the companion makes it 6"] and rows[1]["cost"] == 6
    assert rows[2]["problems"] == [] and rows[2]["cost"] == 15
    assert rows[3]["problems"] == ["needs Nuclear Fission (11); tech 3 after this PM's research"]


def test_a_sender_the_game_does_not_know_gets_one_line_naming_the_societies(journal: Path, tmp_path: Path) -> None:
    f = tmp_path / "pm.txt"
    f.write_text("Armies x2\n")
    r = companion_here("society", "orders", str(f), "--journal", str(journal), "--from", "zed", "--json", env=home(journal))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "companion: --from 'zed': no such society in this game; it has Ana, Ben, Cleo"


# ---------------------------------------------------------------------------------------------- where orders are checked
@pytest.mark.parametrize("orders, check", [
    # research to 4, then bid on the Acropolis
    ([o(1, "research", levels=1), o(1, "wonder", wonder="acropolis", gold=16)],
     lambda w: w["wonders"]["acropolis"]["owner"] == "1"),
    # research to 11, then build a nuke
    ([o(1, "research", levels=1, ), o(1, "nukes", count=1)], lambda w: w["soc"]["1"]["nukes"] == 1),
    # build a city next to Ben, then attack Ben
    ([o(1, "city", square="B1"), o(1, "attack", target="2", armies=5)], lambda w: w["soc"]["2"]["cities"] == []),
], ids=["acropolis", "nuke", "city-then-attack"])
def test_orders_the_turn_makes_legal_are_accepted_and_carried_out(orders: list[dict[str, Any]], check: Any) -> None:
    tech = 10 if orders[1]["kind"] == "nukes" else 3
    w = small_world(("A1", "C1", "F6"), a={"tech": tech, "gold": 5000, "armies": 5})
    for i, od in enumerate(orders):
        assert why_not(w, orders[:i], od) is None, od
    w2, rep = resolve(w, orders)
    assert rep["results"] == ["ok", "ok"] and check(w2)


def _beside(square: str) -> str:
    """A square next to ``square`` on the 6x6 map."""
    col = square[0]
    return (chr(ord(col) + 1) if col < "F" else chr(ord(col) - 1)) + square[1:]


def _typed(order_of_typing: list[dict[str, Any]]) -> SocietyGame:
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    g.data["world"]["soc"]["1"].update(gold=10, tech=3, cities=["A1"])
    g.data["world"]["soc"]["2"].update(tech=7, cities=["B1"])
    from fsm.society.entry import commit

    for od in order_of_typing:
        commit(g, dict(od))
    g.answer("process")
    g.answer(True)
    return g


def test_a_spy_typed_first_or_last_gives_the_same_turn() -> None:
    ana = [o(1, "trade", partner="2"), o(1, "armies", count=2), o(1, "city", square=None), o(1, "armies", count=1)]
    spy = o(2, "spy", target="1", phase="trade")
    first, last = _typed([spy, *ana]), _typed([*ana, spy])
    assert first.data["reports"][-1] == last.data["reports"][-1]
    assert first.data["world"] == last.data["world"]
    rep = last.data["reports"][-1]
    # the spy stops the trade: 10 gold for 2 armies (6), a city (6), 1 army (3): the back two are cut
    assert rep["results"][2:4] == ["cut: not enough gold (cut from the back of the orders)"] * 2
    assert last.data["world"]["soc"]["1"]["armies"] == 2
    assert "3. Production: what the treasury cannot pay" in last.report()


def test_a_five_turn_game_typed_in_two_orders_gives_identical_turns() -> None:
    runs = []
    for flip in (False, True):
        d = Driver(seed=1)
        d.setup()
        for orders in TURNS[:5]:
            seats = sorted({x["seat"] for x in orders}, key=int, reverse=flip)
            typed = [x for s in seats for x in orders if x["seat"] == s]  # each society's own order kept
            for od in typed:
                d.order(od)
            d.give("process")
            d.give(True)
            d.reports.append(d.game.data["reports"][-1])
            d.give(True)
        runs.append((d.reports, d.game.data["world"]))
    assert runs[0][0] == runs[1][0] and runs[0][1] == runs[1][1]
    assert [typed["seat"] for typed in runs[0][0][3]["orders"]] == sorted(o["seat"] for o in TURNS[3])


# ---------------------------------------------------------------------------------------------- findings 6-8
def test_two_spies_against_one_cancel_one_for_one() -> None:
    w = small_world(a={"tech": 7, "spies": 1}, b={"tech": 7, "spies": 1, "gold": 50}, c={"tech": 1})
    orders = [o(1, "spy", target="2", phase="trade"), o(1, "spy", target="2", phase="war"),
              o(2, "spy", target="1", phase="trade")]
    w2, rep = resolve(w, orders)
    assert rep["results"] == ["cancelled: both sides spied on each other", "ok",
                              "cancelled: both sides spied on each other"]
    texts = [e["text"] for e in rep["events"] if e["phase"] == "espionage"]
    assert texts == ["Ana's spy and Ben's spy cancel out", "Ana's spy sabotages Ben's War"]
    assert (w2["soc"]["1"]["spies"], w2["soc"]["2"]["spies"]) == (0, 1)


def test_a_sabotaged_espionage_phase_trains_no_spy() -> None:
    w = small_world(a={"tech": 7, "spies": 1}, b={"tech": 7})
    w2, rep = resolve(w, [o(2, "spy", target="1", phase="espionage")])
    assert rep["results"] == ["ok"] and w2["soc"]["1"]["spies"] == 1  # was 2: trained despite the sabotage
    assert "Ana trains no spy this turn (Espionage sabotaged)" in [e["text"] for e in rep["events"]]


def test_wording_names_wonders_and_counts_in_the_right_form() -> None:
    w = small_world(a={"armies": 30, "tech": 3, "gold": 100}, b={"cities": ["B1"]})
    wonder(w, "colosseum", "2", "B1")
    wonder(w, "trojan", "2", None)  # type: ignore[arg-type]
    w["wars"]["1-2"] = {"since": 0, "by": "1"}
    w["soc"]["2"]["cities"] = ["B1"]
    del w["wonders"]["colosseum"]
    _w2, rep = resolve(w, [o(1, "armies", count=1), o(1, "attack", target="2", armies=30)])
    texts = [e["text"] for e in rep["events"]]
    assert "Ana builds 1 army for 3" in texts
    assert "Ben is eliminated; Ana takes Trojan Horse" in texts
    assert all("support 0" not in t and "1 armies" not in t for t in texts)


def test_the_map_marks_a_wonder_city_only_while_its_owner_holds_it() -> None:
    w = small_world(b={"cities": ["B1", "B2"]})
    wonder(w, "babel", "2", "B2")
    assert map_rows(w)[2].startswith(" 2 . 2+")
    w["soc"]["2"]["cities"] = ["B1"]
    w["soc"]["1"]["cities"] = ["A1", "B2"]  # Ana took the city; Ben keeps the wonder until he is eliminated
    assert map_rows(w)[2].startswith(" 2 . 1 ")


def test_calc_says_have_must_be_fewer_than_players(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["calc", "society", "tech-cost", "--level", "3", "--players", "3", "--have", "3"])
    err = capsys.readouterr().err
    assert rc == 2 and "--have 3: must be fewer than --players 3" in err


# ---------------------------------------------------------------------------------------------- the post
def test_any_turn_and_all_turns_export_with_the_next_turn_sheet(journal: Path) -> None:
    r = companion_here("export", "1", "--journal", str(journal), "--report", "--turn", "2", env=home(journal))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("## Society: turn 2 results\n") and "## Turn 3: the sheet for your orders" in r.stdout
    for part in ("### Research prices (for a society without the level)", "| Level | Technology | Base | R of P |",
                 "### Wonders still free", "| 2 | Colosseum | 4 |", "### Next turn, each society",
                 "Start of turn"):
        assert part in r.stdout or part == "Start of turn", part
    r = companion_here("export", "1", "--journal", str(journal), "--report", "--turn", "all", "--format", "bbcode", env=home(journal))
    assert r.returncode == 0, r.stderr
    assert [ln for ln in r.stdout.splitlines() if ln.endswith("results[/size][/b]")] == [
        f"[b][size=150]Society: turn {n} results[/size][/b]" for n in range(1, 6)]
    assert "[code]\nLevel" in r.stdout and "| Level |" not in r.stdout
    r = companion_here("export", "1", "--journal", str(journal), "--report", "--turn", "9", env=home(journal))
    assert r.returncode == 2 and "turn 9 has no post; processed turns: 1, 2, 3, 4, 5" in r.stderr


def test_ten_societies_are_one_table_and_the_eliminated_have_no_treasury() -> None:
    names = [f"Soc{i}" for i in range(1, 12)]
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(names, 1))))
    g.answer("3")
    g.answer("start")
    g.data["world"]["soc"]["11"]["alive"] = False
    g.answer("process")
    g.answer(True)
    text = g.report()
    assert "| Society | Gold | Income | Tech |" in text and "| Soc1 | " in text
    assert "Eliminated: Soc11" in text and "| Soc11 |" not in text


# ---------------------------------------------------------------------------------------------- the GM's desk
def test_a_pasted_pm_shows_each_reading_and_keeps_unread_lines_as_notes() -> None:
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    g.data["world"]["soc"]["2"]["cities"] = ["B" + g.data["world"]["soc"]["1"]["cities"][0][1:]]  # next door
    g.data["world"]["soc"]["2"]["cities"] = [_beside(g.data["world"]["soc"]["1"]["cities"][0])]
    g.answer("soc:1")
    g.answer("paste")
    assert g.prompt().text  # the phone shows a text box
    g.answer({"text": "Trade with Ben (9)\nArmies x2 (2)\nplease be kind\nAttack Zed with 2 armies"})
    p = g.prompt()
    labels = [x.label for x in p.options]
    assert labels[0] == "Add 2 orders, 1 note"
    assert any(x.startswith("1. Trade with Ben (9) -> trade Ben x1 (2g) !") for x in labels)
    assert [x.hint for x in p.options if x.key == "l1"] == ["cost stated 9, the companion makes it 2"]
    assert "3. please be kind -> a note" in labels
    g.answer("add")
    kinds = [(x["kind"], x.get("text", "")) for x in g.data["orders"]]
    assert kinds == [("trade", ""), ("armies", ""), ("note", "please be kind (not read)"),
                     ("note", "Attack Zed with 2 armies (no society called 'Zed')")]
    main_menu = (g.answer("done"), g.prompt())[1]
    assert main_menu.lines[0] == "1 of 3 sent, 4 orders" and main_menu.options[0].label.endswith("[4 sent]")
    g.answer("process")
    g.answer(True)
    assert "### Lines the GM kept as notes\n- Ana: PM line 3 not read as an order (the GM has it)" in g.report()


def test_an_order_can_be_moved_within_its_society_and_edited() -> None:
    g = SocietyGame(Setup(tuple(Player(n, i) for i, n in enumerate(("Ana", "Ben", "Cleo"), 1))))
    g.answer("3")
    g.answer("start")
    from fsm.society.entry import commit

    for od in (o(1, "armies", count=1), o(2, "armies", count=1), o(1, "research", levels=1)):
        commit(g, od)
    assert [(x["seat"], x["kind"]) for x in g.data["orders"]] == [("1", "armies"), ("1", "research"),
                                                                   ("2", "armies")]
    for v in ("list", "1", "up"):
        g.answer(v)
    assert [x["kind"] for x in g.data["orders"]] == ["research", "armies", "armies"]
    g.answer("edit")  # the research, now first: its levels come back as the default
    assert g.prompt().default == 1
    g.answer(2)
    assert g.data["orders"][0] == {"seat": "1", "kind": "research", "levels": 2}
    assert g.data["entry"] == {"step": "list"}


def test_presses_per_order_on_the_device_went_down() -> None:
    from society_presses import measure

    n, presses = measure()
    assert presses / n <= 8.5  # 10.2 before issue 24 (the same walk: tests/society_presses.py)


def test_the_rules_modules_import_no_module_above_them() -> None:
    root = Path(__file__).resolve().parents[1] / "companion" / "rules" / "society"
    for mod in ("turn", "early", "production", "later", "war", "orders", "text"):
        tree = ast.parse((root / f"{mod}.py").read_text())
        names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "companion.rules.society.resolve" not in names, mod
    assert all(len((root / f).read_text().splitlines()) < 400 for f in ("resolve.py", "early.py", "production.py"))
