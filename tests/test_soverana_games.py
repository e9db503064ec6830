"""Whole scripted SOVERANA games, one per ending: five rounds complete, collapse, team win.

Seats 1..6 are Ana, Ben, Cleo, Dev, Eli, Fay managing Economy, Education, Energy, Health, Justice, Urban.
Every count below is worked out by hand from the rules, round by round.
"""
from __future__ import annotations

from fsm.prompts import Info

from test_soverana_driver import Table

ECO, EDU, ENE, HEA, JUS, URB = ("Economy", "Education", "Energy & Environment", "Health & Welfare",
                                "Justice & Safety", "Urban Development")
STARTS = {1: "Press and Media Center", 2: "Electrical Substation", 3: "Police Station", 4: "Fire Station",
          5: "Sewage Plant", 6: "Recycling Plant"}


def crisis(t: Table) -> set[str]:
    return {n for n, s in t.data["locations"].items() if s == "crisis"}


def test_five_rounds_complete_with_a_single_winner() -> None:
    t = Table(tie_roll="challengers")  # round 3's tied ballot is settled by dice
    t.setup(starts=STARTS)
    assert t.g.mayor == 1

    # ---- round 1: Fire Station fixed by a pair; Ben's mission; three departments complete
    t.round(major={"crisis": ["Hospital", "Police Station", "Fire Station", "Courthouse"], "pay": {JUS: 2, HEA: 1}},
            minor1={"crisis": ["Sewage Plant"]}, minor2={"gain": {EDU: 1}},
            moving=[("fix", "Fire Station", 4, 5)], given={JUS: 6, HEA: 5, URB: 5}, missions={2: 3})
    assert t.data["resources"] == {ECO: 6, EDU: 8, ENE: 7, HEA: 10, JUS: 9, URB: 11}
    assert t.data["votes"] == {"1": 2, "2": 5, "3": 2, "4": 2, "5": 2, "6": 1}
    assert crisis(t) == {"Hospital", "Police Station", "Courthouse", "Sewage Plant"}

    # ---- round 2: a lone fix with Fay on City Hall; Economy's floor; the mayor loses the vote
    t.round(major={"crisis": ["University", "Youth Center", "Cultural Hub", "Shopping Mall"],
                   "pay": {EDU: 6, ECO: 5}},
            minor1={"crisis": ["Train station"]},
            moving=[("move", 6, "City Hall"), ("fix", "Hospital", 4), ("move", 5, "Police Station"),
                    ("move", 1, "Courthouse")], given={JUS: 4, URB: 4, HEA: 4},
            ballots=["no", "no", "no", "no", "yes", "yes"])
    # Economy had 1: both its active locations went into crisis; Education had 2 but nothing active left to flip
    assert {"Stock Exchange", "Business Park"} <= crisis(t)
    assert len(crisis(t)) == 10  # exactly 10 is not "more than 10": the game goes on
    assert t.g.mayor == 2  # Ben, 5 votes cards, the most
    # the election cost 2 each; Economy could pay only 1 and the table was told
    assert t.data["resources"] == {ECO: 0, EDU: 0, ENE: 5, HEA: 12, JUS: 11, URB: 13}
    assert any(n.title == "Can't pay in full" and "SHORT BY 1" in n.lines for n in t.notices)
    assert t.data["votes"] == {"1": 2, "2": 5, "3": 3, "4": 4, "5": 2, "6": 1}

    # ---- round 3: three pair fixes (Eli and Ana each fix where they stand, then move for a second fix: one move
    # a round each), Stock Exchange manned, event extra; a tied ballot settled by dice
    t.round(major={"crisis": ["Social Service"], "pay": {HEA: 3}},
            minor1={"restore": ["University"]}, minor2={"gain": {ECO: 4}, "extra": 2},
            moving=[("fix", "Police Station", 3, 5), ("fix", "Courthouse", 1, 5), ("fix", "Stock Exchange", 1, 2)],
            given={EDU: 8, ECO: 3, ENE: 6}, missions={6: 4, 5: 1},
            ballots=["yes", "yes", "yes", "no", "no", "no"], rolls=[4, 4, 2, 6])
    assert t.data["summaries"][-1]["pool"] == 17  # 13 active + 2 Stock Exchange + 2 event extra
    assert t.g.mayor == 5  # Ben (mayor) and Eli (most votes of the others) rolled off; Eli won the re-roll
    assert t.data["resources"] == {ECO: 5, EDU: 6, ENE: 9, HEA: 7, JUS: 9, URB: 11}
    assert t.data["votes"] == {"1": 4, "2": 6, "3": 5, "4": 4, "5": 6, "6": 5}

    # ---- round 4: Health at 2 must put one location into crisis; Dev picks which
    t.round(major={"crisis": ["Hospital"], "pay": {HEA: 5}}, minor1={"restore": ["Social Service"]},
            moving=[("fix", "Shopping Mall", 1, 6)], given={EDU: 8, URB: 8}, floor={HEA: ["Sports Complex"]})
    assert t.data["summaries"][-1]["pool"] == 16  # 14 active + 2: Ben still stands on the Stock Exchange
    assert t.loc("Sports Complex") == "crisis" and t.loc("Social Service") == "active"
    assert t.data["votes"] == {"1": 5, "2": 6, "3": 6, "4": 4, "5": 7, "6": 6}

    # ---- round 5
    t.round(major={"crisis": ["Community Garden"], "pay": {ENE: 2}}, minor1={"gain": {HEA: 1}},
            moving=[("fix", "Youth Center", 2, 3)], given={HEA: 13}, missions={4: 2})
    assert t.g.state == "game_over"
    js = t.json()
    assert js["outcome"] == "rounds-complete"
    assert js["winners"] == ["Eli"] and js["winner_name"] == "Eli"
    assert js["round"] == 5 and js["mayor"] == "Eli"
    assert js["votes"] == {"Ana": 5, "Ben": 7, "Cleo": 7, "Dev": 6, "Eli": 8, "Fay": 6}
    assert js["departments"] == {ECO: 5, EDU: 14, ENE: 7, HEA: 16, JUS: 9, URB: 19}
    assert sum(1 for s in js["locations"].values() if s == "crisis") == 7
    assert len(t.data["summaries"]) == 5
    final = t.prompt()
    assert isinstance(final, Info) and final.title == "Game over" and "Winner Eli (8)" in final.lines
    assert t.refused(True) == "the game is over"
    report = [v for v in t.g.views() if v.title == "Game report"][0]
    assert "All rounds played" in report.lines


def test_collapse_ends_the_game_with_no_winner() -> None:
    t = Table()
    t.setup(starts=STARTS)
    t.round(major={"crisis": ["Hospital", "Police Station", "Fire Station"]}, given={})
    assert len(crisis(t)) == 3
    t.round(major={"crisis": ["University", "Youth Center", "Cultural Hub", "Shopping Mall"]},
            minor1={"crisis": ["Train station", "Sewage Plant"]}, given={})
    assert len(crisis(t)) == 9 and t.g.state == "missions"
    # round 3: two more in crisis -> 11 > 10 at the round's end
    t.intro()
    t.events(major={"crisis": ["Recycling Plant", "Community Garden"]})
    t.moves_done()
    assert t.data["dist"]["pool"] == 9
    t.distribute()
    t.end_of_round()
    t.vote("yes")
    assert t.json()["outcome"] == "collapse" and t.g.state == "finishing"
    summary = t.prompt()
    assert isinstance(summary, Info) and "City collapses!" in summary.lines
    t.finish()
    js = t.json()
    assert t.g.state == "game_over" and js["round"] == 3
    assert js["outcome"] == "collapse" and js["winners"] == [] and js["winner"] is None
    assert "Nobody wins" in t.prompt().lines


def test_team_win_with_tied_winners() -> None:
    t = Table()
    t.setup(starts=STARTS)
    # round 1 ends with exactly 18 active: not "more than 18"
    t.round(major={"crisis": ["Hospital", "Police Station"]}, given={})
    assert t.json()["outcome"] is None and t.g.state == "missions"
    # round 2: one more in crisis, two fixed -> 19 active
    t.round(major={"crisis": ["Fire Station"]}, moving=[("fix", "Hospital", 1, 2), ("fix", "Police Station", 3, 4)],
            given={})
    js = t.json()
    assert t.g.state == "game_over"
    assert js["outcome"] == "team-win"
    assert js["votes"] == {"Ana": 4, "Ben": 4, "Cleo": 4, "Dev": 3, "Eli": 1, "Fay": 3}
    assert js["winners"] == ["Ana", "Ben", "Cleo"] and js["winner"] is None
    assert any(v.title == "Game report" and "Ana Ben Cleo" in v.lines for v in t.g.views())
