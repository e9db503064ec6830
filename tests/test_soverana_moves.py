"""SOVERANA's moves and fixes against the board: one move a round between connected locations (two steps while
the Public Transit Authority is manned), fixers on the spot, the board file, and the bank's 100 tokens and 80
votes cards."""
from __future__ import annotations

from typing import Any

import pytest

from companion.rules import soverana as R
from fsm.prompts import Choice, Info, InvalidAnswer, MultiSelect

from test_soverana_driver import Table

STARTS = {1: "Press and Media Center", 2: "Electrical Substation", 3: "Police Station", 4: "Fire Station",
          5: "Sewage Plant", 6: "Recycling Plant"}


def moving(crisis: tuple[str, ...] = ("Hospital",), **options: Any) -> Table:
    options.setdefault("check_moves", True)
    t = Table(**options)
    t.setup(starts=STARTS)
    t.intro()
    t.events({"crisis": list(crisis)} if crisis else None)
    return t


def open_move(t: Table, seat: int) -> Choice:
    t.ans(Choice, "move", player=None)
    t.ans(Choice, str(seat))
    p = t.prompt()
    assert isinstance(p, Choice)
    return p


def enabled(p: Any) -> dict[str, bool]:
    return {o.key: o.enabled for o in p.options}


# ----------------------------------------------------------------- 10 the board and Public Transit
def test_the_default_board_is_a_labelled_connected_grid() -> None:
    text = R.DEFAULT_BOARD.read_text()
    assert "NOT THE PRINTED ONE" in text and 'source = "companion default' in text
    g = R.load_board()
    assert sorted(g) == sorted(R.LOCATION_NAMES)
    assert sorted(g["City Hall"]) == ["Community Garden", "Public Transit Authority", "Recycling Plant",
                                      "Sewage Plant"]
    assert R.reach(g, "Press and Media Center", 2) == {"Press and Media Center": 0, "Stock Exchange": 1,
                                                       "Fire Station": 1, "Public Transit Authority": 2,
                                                       "Sewage Plant": 2, "Shopping Mall": 2}


def test_a_move_is_one_step_along_the_board() -> None:
    t = moving()
    p = open_move(t, 1)  # Ana on Press and Media Center
    ok = enabled(p)
    assert ok["Stock Exchange"] and ok["Fire Station"] and not ok["City Hall"]
    assert not ok["Press and Media Center"]  # staying is not a move
    assert t.refused("City Hall") == "City Hall is not next door"
    t.ans(Choice, "Stock Exchange", player=1)
    assert t.data["positions"]["1"] == "Stock Exchange"


def test_public_transit_manned_doubles_every_move() -> None:
    t = moving()
    t.move(2, "Public Transit Authority")  # Ben, from the Substation next door
    p = open_move(t, 3)  # Cleo on the Police Station: two steps reach the Transit Authority, not City Hall
    assert p.lines == ("Transit on: 2 steps",)
    ok = enabled(p)
    assert ok["Public Transit Authority"] and ok["Electrical Substation"] and not ok["City Hall"]
    assert t.refused("City Hall") == "City Hall is 3+ steps away"
    t.ans(Choice, "Recycling Plant", player=3)  # 5 -> 4 -> 9
    assert t.data["positions"]["3"] == "Recycling Plant"


def test_transit_in_crisis_gives_nothing() -> None:
    t = moving(crisis=("Public Transit Authority",))
    t.move(2, "Public Transit Authority")
    p = open_move(t, 3)
    assert p.lines == ("To where? One step",) and not enabled(p)["Recycling Plant"]


def test_check_moves_off_records_any_move_but_still_one_a_round() -> None:
    t = moving(check_moves=False)
    t.move(1, "City Hall")
    t.ans(Choice, "move", player=None)
    p = t.prompt()
    assert not enabled(p)["1"] and p.options[0].hint == "Ana has made their move this round"


# ----------------------------------------------------------------- 8 one move per player per round
def test_one_move_per_player_per_round() -> None:
    t = moving(crisis=("Hospital", "Courthouse"))
    t.move(1, "Stock Exchange")
    t.ans(Choice, "move", player=None)
    assert t.refused("1") == "Ana has made their move this round"
    t.ans(Choice, "back")
    # the next round, Ana moves again
    t.moves_done()
    t.distribute()
    t.end_of_round()
    t.vote()
    t.finish()
    t.intro()
    t.events()
    p = open_move(t, 1)
    assert enabled(p)["Public Transit Authority"]


def test_moving_onto_the_location_is_the_move_and_the_fix_is_not() -> None:
    t = moving(crisis=("Fire Station",))
    t.move(1, "Fire Station")  # Ana's move: Press -> Fire Station, where Dev stands
    t.fix("Fire Station", 1, 4)  # both stand there: nobody is asked, no move is used
    assert t.seen[-1].title == "Fix Fire Station" and t.data["moved"] == [1]
    t.move(4, "Sewage Plant")  # Dev fixed, and still has his move
    assert t.data["moved"] == [1, 4]


# ----------------------------------------------------------------- 9 fixers on the spot
def test_a_fixer_not_on_the_spot_is_asked_and_moving_there_is_their_move() -> None:
    t = moving(crisis=("Fire Station", "Sewage Plant"))
    t.ans(Choice, "fix", player=None)
    t.ans(Choice, "Fire Station")
    t.ans(MultiSelect, ["1", "4"])  # Dev stands on the Fire Station; Ana (Press) is one step away
    p = t.prompt()
    assert isinstance(p, Choice) and p.title == "Ana on Fire Station?" and p.player == 1
    assert p.lines == ("Was on: Press & Media", "Fixers stand on it.")
    assert enabled(p) == {"move": True, "there": False}
    t.ans(Choice, "move", player=1)
    assert t.loc("Fire Station") == "active" and t.data["positions"]["1"] == "Fire Station"
    assert 1 in t.data["moved"] and 4 not in t.data["moved"]  # Dev fixed where he stood: no move used
    # Ana has used her move: she cannot also fix the Sewage Plant next door
    t.ans(Choice, "fix", player=None)
    t.ans(Choice, "Sewage Plant")
    t.ans(MultiSelect, ["1", "5"])
    p = t.prompt()
    assert enabled(p) == {"move": False, "there": False}
    assert p.lines == ("Was on: Fire Station", "Can't get there: BACK")  # said before anyone presses
    assert t.refused("move") == "Ana has made their move this round"
    t.ans(Choice, "back")
    assert t.loc("Sewage Plant") == "crisis" and t.prompt().title == "Moving"
    # Dev has not moved: he fixes the Sewage Plant with Eli, who stands on it
    t.fix("Sewage Plant", 4, 5)
    assert t.loc("Sewage Plant") == "active" and 4 in t.data["moved"]


def test_a_fixer_too_far_away_is_refused_with_the_reason() -> None:
    t = moving()
    t.ans(Choice, "fix", player=None)
    t.ans(Choice, "Hospital")
    t.ans(MultiSelect, ["1", "6"])
    assert t.prompt().lines == ("Was on: Press & Media", "Can't get there: BACK")
    assert t.refused("move") == "Hospital is not next door"
    assert t.refused("there") == "Ana is recorded on Press & Media"


def test_untracked_figures_are_asked_where_they_stand() -> None:
    t = Table(start_positions="none", check_moves=True)
    t.setup()
    t.intro()
    t.events({"crisis": ["Hospital"]})
    t.ans(Choice, "fix", player=None)
    t.ans(Choice, "Hospital")
    t.ans(MultiSelect, ["1", "2"])
    assert enabled(t.prompt()) == {"move": True, "there": True}
    t.ans(Choice, "there", player=1)  # Ana was there: no move used
    t.ans(Choice, "move", player=2)  # Ben walks in: his move
    assert t.data["moved"] == [2] and t.loc("Hospital") == "active"


# ----------------------------------------------------------------- the board file
@pytest.mark.parametrize("change, fault", [
    (lambda raw: raw["places"].pop("8"), "'City Hall' is on no place"),
    (lambda raw: raw["places"].update({"21": "City Hall"}), "place '21' is not a number from 1 to 20"),
    (lambda raw: raw["places"].update({"8": "Hospital"}), "'Hospital' lies on two places"),
    (lambda raw: raw["places"].update({"8": "Town Hall"}), "not one of the twenty locations"),
    (lambda raw: raw["links"].update({"pairs": [[1, 1]]}), "must be two different places"),
    (lambda raw: raw["links"].update({"pairs": [[1, 2]]}), "cannot be reached"),
    (lambda raw: raw.pop("links"), "needs [links] pairs"),
])
def test_a_bad_board_file_is_one_line(change: Any, fault: str) -> None:
    import tomllib

    raw = tomllib.loads(R.DEFAULT_BOARD.read_text())
    change(raw)
    with pytest.raises(R.BoardFileError, match=fault.replace("[", "\\[")):
        R.validate_board(raw, "b.toml")


def test_the_board_file_switch_is_checked_before_the_game(tmp_path: Any) -> None:
    from companion.cli import main

    bad = tmp_path / "board.toml"
    bad.write_text("[places]\n1 = 'City Hall'\n")
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[games.soverana]\nboard_file = "{bad}"\n')
    script = tmp_path / "s.txt"
    script.write_text("ok\n")
    assert main(["--config", str(cfg), "play", "soverana", "--script", str(script)]) != 0


# ----------------------------------------------------------------- 11 the bank
def test_a_payout_past_the_bank_warns_and_stands() -> None:
    t = moving(crisis=("Fire Station",))
    t.data["votes"] = {str(s): 13 for s in range(1, 7)}  # 78 of 80 cards out
    t.data["votes"]["1"] = 15
    t.fix("Fire Station", 4, 5)  # Eli steps over from the Sewage Plant
    t.skip_notices()
    notes = [n for n in t.notices if n.title == "Bank runs short"]
    assert [n.lines for n in notes] == [("Dev: +1 card", "bank has 0 of 80", "Use substitutes."),
                                        ("Eli: +1 card", "bank has 0 of 80", "Use substitutes.")]
    assert t.data["votes"]["5"] == 14  # the payout stands


def test_a_distribution_past_the_bank_warns_once() -> None:
    t = moving(crisis=())
    t.data["resources"] = {d: 15 for d in R.DEPARTMENTS}  # 90 of 100 tokens out
    t.moves_done()
    t.distribute()  # 20 to Economy
    p = t.g.prompt()
    assert isinstance(p, Info) and p.title == "Bank runs short"
    assert p.lines == ("Pool: +20 tokens", "bank has 10 of 100", "Use substitutes.")
    t.skip_notices()
    assert t.data["resources"]["Economy"] == 35 and not t.g.data["notices"]
