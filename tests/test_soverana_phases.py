"""SOVERANA phase by phase through prompt()/answer(): roll-offs, events and shortfalls, fixes, distribution, the
resource floor, missions, the vote of confidence, the switches, and what the screens and state JSON show."""
from __future__ import annotations

import json

import pytest

from fsm.prompts import Choice, Dice, Info, MultiSelect, Number, SecretVote, validate_answer, InvalidAnswer

from test_soverana_driver import DEPT, Table

ECO, EDU, ENE, HEA, JUS, URB = ("Economy", "Education", "Energy & Environment", "Health & Welfare",
                                "Justice & Safety", "Urban Development")
STARTS = {1: "Press and Media Center", 2: "Electrical Substation", 3: "Police Station", 4: "Fire Station",
          5: "Sewage Plant", 6: "Recycling Plant"}


def started(**options: object) -> Table:
    t = Table(**options)
    t.setup(starts=STARTS)
    return t


def to_moving(t: Table, major: dict[str, object] | None = None, **kw: dict[str, object]) -> None:
    t.intro()
    t.events(major, kw.get("minor1"), kw.get("minor2"))


# ----------------------------------------------------------------- setup
def test_mayor_rolloff_ties_reroll_among_the_tied_only() -> None:
    t = Table()
    t.roll(6, 6, 2, 1, 6, 3)  # Ana, Ben and Eli tie on 6
    p = t.prompt()
    assert isinstance(p, Dice) and p.player == 1 and p.die == "d6"
    assert p.lines[0] == "Tied: Ana Ben Eli"
    t.roll(4)
    assert t.prompt().player == 2
    t.roll(4)
    assert t.prompt().player == 5
    t.roll(2)  # Ana and Ben tie again on 4: Eli is out
    assert t.prompt().lines[0] == "Tied: Ana Ben" and t.prompt().player == 1
    t.roll(1, 5)
    assert t.g.state == "setup_departments" and t.g.mayor == 2
    notice = t.prompt()
    assert isinstance(notice, Info) and notice.lines[0] == "Ben is mayor and assigns the departments"
    assert t.json()["mayor"] == "Ben"


def test_the_mayor_assigns_departments_and_the_last_is_given() -> None:
    t = Table()
    t.roll(1, 1, 6, 1, 1, 1)
    t.skip_notices()
    order = [URB, JUS, HEA, ENE, EDU]
    for seat, dept in enumerate(order, 1):
        p = t.prompt()
        assert isinstance(p, Choice) and p.player == 3 and p.title == "Departments"
        assert p.lines[0] == f"Department for {t.g.player_name(seat)}?"
        assert dept in [o.key for o in p.options] and len(p.options) == 7 - seat
        t.ans(Choice, dept)
    assert t.data["dept"]["6"] == ECO
    js = t.json()
    assert js["players"][5]["department"] == ECO and js["players"][0]["resources"] == 6


@pytest.mark.parametrize("mode", ["entered", "none"])
def test_start_positions_entered_or_untracked(mode: str) -> None:
    t = Table(start_positions=mode)
    t.setup(starts={1: "Hospital"} if mode == "entered" else None)
    pos = t.data["positions"]
    if mode == "none":
        assert set(pos.values()) == {None}
    else:
        assert pos["1"] == "Hospital" and len(set(pos.values())) == 6
        assert not set(pos.values()) & {"City Hall", "Stock Exchange", "Public Transit Authority"}


def test_random_start_positions_are_shown_to_place_the_figures() -> None:
    t = Table()
    t.roll(6, 1, 1, 1, 1, 1)
    for s in range(1, 6):
        t.ans(Choice, DEPT[s])
    for s in range(1, 7):
        t.ans(type(t.prompt()), STARTS[s])
    pages = [t.prompt()]
    t.g.answer(True)
    pages.append(t.prompt())
    assert [p.title for p in pages] == ["Place figures 1/2", "Place figures 2/2"]
    assert pages[0].lines == ("Ana: Press & Media", "Ben: Substation", "Cleo: Police")


# ----------------------------------------------------------------- events
def test_events_put_locations_in_crisis_restore_and_show_shortfalls() -> None:
    t = started()
    t.intro()
    t.event(crisis=["Hospital", "Courthouse"], pay={JUS: 7, HEA: 2})
    # Justice had 5: it pays 5 and the table sees the 2 it could not pay
    short = [n for n in t.notices if n.title == "Can't pay in full"]
    assert len(short) == 1 and short[0].player == 5
    assert short[0].lines == ("Justice owes 7 for major event", "has 5: pays 5", "SHORT BY 2")
    assert t.res(JUS) == 0 and t.res(HEA) == 4
    assert any("short 2" in line for line in t.data["log"])
    # a minor event: the Hospital is restored, Economy receives 2 and there is 1 extra for the distribution
    p = t.prompt()
    assert isinstance(p, Choice) and p.title == "Minor event 1/2" and p.player == 1
    t.event(restore=["Hospital"], gain={ECO: 2}, extra=1)
    assert t.loc("Hospital") == "active" and t.loc("Courthouse") == "crisis" and t.res(ECO) == 8
    # the crisis list offers only active locations: those in crisis stay so
    t.ans(Choice, "crisis")
    p = t.prompt()
    assert isinstance(p, MultiSelect) and "Courthouse" not in [o.key for o in p.options]
    t.ans(MultiSelect, [])
    t.ans(Choice, "done")
    assert t.g.state == "moving" and t.data["extras"] == 1


def test_event_menu_defaults_make_the_common_card_quick() -> None:
    t = started()
    t.intro()
    p = t.prompt()
    assert isinstance(p, Choice) and p.default == "crisis"
    assert p.lines[0] == "Mayor turns one card, reads it + real facts"
    t.ans(Choice, "crisis")
    t.ans(MultiSelect, ["Hospital"])
    assert t.prompt().default == "pay"
    assert t.prompt().lines[0] == "Into crisis: Hospital"
    t.ans(Choice, "crisis")
    t.ans(MultiSelect, ["Police Station", "Fire Station", "University"])
    assert t.prompt().lines[0] == "Into crisis: Hospital, Police, Fire Station, University"  # whole: the OLED wraps it
    t.ans(Choice, "pay")
    assert t.ans(Choice, "back") and t.prompt().title == "Major event"
    t.ans(Choice, "pay")
    t.ans(Choice, HEA)
    t.ans(Number, 1)
    assert t.prompt().default == "done"


# ----------------------------------------------------------------- moving and fixing
def test_a_lone_fix_needs_a_manager_on_an_active_city_hall() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital", "City Hall"]})
    t.ans(Choice, "fix")
    t.ans(Choice, "Hospital")
    p = t.prompt()
    assert isinstance(p, MultiSelect) and p.lines == ("Two fixers needed", "None ticked: back")
    assert t.refused(["4"]) == "one manager alone needs another on an active City Hall"
    t.ans(MultiSelect, ["1", "6"])  # fix City Hall first? no: two managers fix the Hospital
    t.on_the_spot()
    assert t.loc("Hospital") == "active" and t.votes(1) == 2 and t.votes(6) == 2
    assert t.data["positions"]["1"] == "Hospital" and t.data["positions"]["6"] == "Hospital"


def test_a_fix_with_city_hall_manned() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital", "Courthouse", "Sewage Plant"]})
    # nobody on City Hall: one manager alone cannot fix
    t.ans(Choice, "fix")
    t.ans(Choice, "Courthouse")
    assert "City Hall" in t.refused(["5"])
    t.ans(MultiSelect, ["3", "5"])
    t.on_the_spot()
    t.move(6, "City Hall")
    assert t.prompt().lines[1] == "Fay on City Hall"
    t.fix("Hospital", 4)
    assert t.seen[-2].lines == ("1 or 2 fixers (Fay on City Hall)", "None ticked: back")  # then: Dev moves there
    assert t.loc("Hospital") == "active" and t.votes(4) == 2 and t.votes(6) == 1
    # Fay on City Hall cannot fix the Sewage Plant alone: her own figure does not count
    t.ans(Choice, "fix")
    t.ans(Choice, "Sewage Plant")
    assert "City Hall" in t.refused(["6"])
    t.ans(MultiSelect, ["2"])  # Ben, with Fay on City Hall (Eli has made his move: to the Courthouse)
    t.on_the_spot()
    assert t.loc("Sewage Plant") == "active"
    assert [f["fixers"] for f in t.data["round_info"]["fixes"]] == [[3, 5], [4], [2]]


def test_pair_fix_scored_as_one_card_for_the_pair() -> None:
    t = started(pair_fix_votes="one")
    to_moving(t, {"crisis": ["Hospital"]})
    t.fix("Hospital", 2, 4, taker=4)
    assert t.seen[-1].title == "One votes card"
    assert (t.votes(2), t.votes(4)) == (1, 2)


def test_moving_records_who_stands_where() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital"]})
    t.move(2, "Stock Exchange")
    t.move(3, "Public Transit Authority")
    p = t.prompt()
    assert p.lines[:2] == ("Cleo -> Transit", "Ben on Stock Exchange")
    t.ans(Choice, "move")
    p = t.prompt()
    assert [o.label for o in p.options][:3] == ["Ana Press & Media", "*Ben Stock Exchange", "*Cleo Transit"]
    assert [o.enabled for o in p.options][:3] == [True, False, False]  # one move a round
    t.ans(Choice, "1")
    p = t.prompt()  # the destination list: staying put is not a move
    assert isinstance(p, Choice) and p.lines == ("Transit on: 2 steps",)
    assert p.default == "Stock Exchange" and p.player == 1
    assert not p.options[0].enabled and p.options[0].hint == "already on Press & Media: not a move"
    t.ans(Choice, "back")
    t.ans(Choice, "done")
    rows = [line for v in t.g.views() if v.title.startswith("Locations") for line in v.lines]
    assert "X Hospital" in rows and "Stock Exchange: Ben" in rows and "Press & Media: Ana" in rows


# ----------------------------------------------------------------- distribution
def test_distribution_without_stock_exchange_and_done_only_when_all_given() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital", "Courthouse", "Shopping Mall"]})
    t.moves_done()
    p = t.prompt()
    assert isinstance(p, Choice) and p.player == 1 and p.lines[:2] == ("Left 17 of 17", "17 active")
    done = [o for o in p.options if o.key == "done"][0]
    assert not done.enabled
    with pytest.raises(InvalidAnswer, match="17 still to hand out"):
        validate_answer(p, "done")
    t.ans(Choice, JUS)
    p = t.prompt()
    assert isinstance(p, Number) and (p.lo, p.hi, p.default) == (0, 17, 3)
    t.ans(Number, 10)
    t.ans(Choice, JUS)
    t.ans(Number, 9)  # correcting: Justice gets 9, not 10
    assert t.prompt().lines[0] == "Left 8 of 17"
    t.ans(Choice, HEA)
    t.ans(Number, 8)
    assert t.prompt().default == "done"
    t.ans(Choice, "done")
    assert (t.res(JUS), t.res(HEA), t.res(ECO)) == (14, 14, 6)
    assert t.g.state == "end_of_round"


def test_distribution_with_the_stock_exchange_manned() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital", "Courthouse"]}, minor1={"extra": 1})
    t.move(1, "Stock Exchange")
    t.moves_done()
    assert t.data["dist"]["pool"] == 20  # 18 active + 2 Stock Exchange + 1 event extra = 21, held to 20
    assert t.prompt().lines[:2] == ("Left 20 of 20 (the most)", "18 active + 2 Stock Exchange + 1 from events")
    assert t.data["dist"]["capped"]


def test_distribution_stock_exchange_in_crisis_gives_nothing() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital", "Stock Exchange"]})
    t.move(1, "Stock Exchange")
    t.moves_done()
    assert t.data["dist"]["pool"] == 18 and t.data["dist"]["stock_exchange"] == 0


@pytest.mark.parametrize("cap, pool", [("total", 20), ("base", 22)])
def test_distribution_at_the_20_cap(cap: str, pool: int) -> None:
    t = started(pool_cap=cap)
    to_moving(t)
    t.move(1, "Stock Exchange")
    t.moves_done()
    assert t.data["dist"]["pool"] == pool
    assert t.prompt().lines[:2] == ((f"Left {pool} of {pool}" + (" (the most)" if cap == "total" else "")),
                                    "20 active + 2 Stock Exchange")
    t.distribute({ECO: pool})
    assert t.res(ECO) == 6 + pool


# ----------------------------------------------------------------- end of round: missions, votes cards, floor
def test_missions_declared_and_department_votes_cards() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital"]})
    t.moves_done()
    t.distribute()
    p = t.prompt()
    assert isinstance(p, Choice) and p.default == "none" and p.title == "Missions done?"
    t.ans(Choice, "3")
    p = t.prompt()
    assert isinstance(p, Number) and (p.lo, p.hi, p.player) == (1, 4, 3)
    t.ans(Number, 4)
    p = t.prompt()
    cleo = [o for o in p.options if o.key == "3"][0]
    assert not cleo.enabled and cleo.label == "Cleo done +4"
    t.ans(Choice, "none")
    p = t.prompt()
    assert isinstance(p, Info) and p.lines[:3] == ("All 3 active: +1 card", "Economy, Education, Energy, Justice, Urban",
                                               "Every department has 3 or more")
    # Cleo: 1 + 4 (mission) + 1 (Energy complete); Dev (Health, Hospital in crisis) gets nothing
    assert t.votes(3) == 6 and t.votes(4) == 1 and t.votes(1) == 2


@pytest.mark.parametrize("pay, picks, flipped", [
    (4, ["Social Service"], 1),  # Health 6 - 4 = 2: one location, Dev picks
    (5, ["Hospital", "Sports Complex"], 2),  # at 1: two
    (6, None, 3),  # at 0: all three, nothing to pick
])
def test_resource_floor_at_2_1_0(pay: int, picks: list[str] | None, flipped: int) -> None:
    t = started()
    to_moving(t, {"pay": {HEA: pay}})
    t.moves_done()
    t.distribute()
    t.ans(Choice, "none")
    summary = t.prompt()
    assert summary.lines[2] == f"Below 3: Health {6 - pay}"
    t.ans(Info, True)
    health = ["Hospital", "Social Service", "Sports Complex"]
    if picks is not None:
        p = t.prompt()
        assert isinstance(p, MultiSelect) and p.player == 4 and p.title == "Floor: Health"
        assert (p.min_count, p.max_count) == (flipped, flipped)
        assert p.lines[0] == f"Has {6 - pay}: {flipped} into crisis"
        assert [o.key for o in p.options] == health
        t.ans(MultiSelect, picks)
    notice = t.prompt()
    assert isinstance(notice, Info) and notice.title == "Health below 3" and notice.player == 4
    t.skip_notices()
    assert sum(t.loc(n) == "crisis" for n in health) == flipped
    if picks:
        assert all(t.loc(n) == "crisis" for n in picks)
    assert t.g.state == "confidence"
    assert t.data["round_info"]["floor"][0]["department"] == HEA


def test_floor_rule_at_least_counts_locations_already_in_crisis() -> None:
    t = started(floor_rule="at-least")
    to_moving(t, {"crisis": ["Hospital"], "pay": {HEA: 4}})  # at 2, one already in crisis: nothing more
    t.moves_done()
    t.distribute()
    t.end_of_round()
    assert t.loc("Social Service") == "active" and t.loc("Sports Complex") == "active"
    assert t.g.state == "confidence"


# ----------------------------------------------------------------- vote of confidence
def play_to_vote(t: Table, missions: dict[int, int] | None = None) -> None:
    to_moving(t)
    t.moves_done()
    t.distribute()
    t.end_of_round(missions=missions)
    assert t.g.state == "confidence"


def test_ballots_are_secret_until_all_have_voted() -> None:
    t = started()
    play_to_vote(t)
    prompts = []
    for i, b in enumerate(["no", "yes", "no", "no", "yes", "no"]):
        p = t.prompt()
        assert isinstance(p, SecretVote) and p.player == [2, 3, 4, 5, 6, 1][i]
        assert p.voter_name == t.g.player_name(p.player)
        prompts.append(p)
        views = json.dumps([v.lines for v in t.g.views()])
        assert "YES" not in views and "NO " not in views
        t.ans(SecretVote, b)
    assert {p.lines[0] for p in prompts} == {"Keep Ana as mayor?"}
    assert [p.lines[1] for p in prompts] == [f"Ballot {i} of 6" for i in range(1, 7)]
    result = t.prompt()
    assert isinstance(result, Info) and result.lines[0] == "YES 2, NO 4"
    assert t.data["ballots"] == {}  # only the tally is kept


def test_a_lost_vote_replaces_the_mayor_and_costs_every_department_2() -> None:
    t = started()
    play_to_vote(t, missions={4: 3})  # Dev: 1 + 3 + 1 (Health complete) = 5, the most
    before = dict(t.data["resources"])
    t.vote(["no", "no", "no", "no", "yes", "yes"])
    assert t.g.mayor == 4
    assert t.seen[-1].lines[:3] == ("Dev is mayor", "most votes cards (5)", "Each dept paid 2")
    after = dict(t.data["resources"])
    assert {d: before[d] - after[d] for d in before} == {d: 2 for d in before}
    assert t.data["round_info"]["vote"] == {"yes": 2, "no": 4, "result": "lost"}


def test_a_lost_vote_with_tied_challengers_rolls_off_among_them() -> None:
    t = started()
    play_to_vote(t, missions={3: 3, 5: 3})  # Cleo and Eli: 1 + 3 (mission) + 1 (department complete) = 5
    assert t.votes(3) == 5 and t.votes(5) == 5
    for b in ["no"] * 6:
        t.ans(SecretVote, b)
    t.ans(Info, True)
    p = t.prompt()
    assert isinstance(p, Dice) and p.player == 3 and p.lines[0] == "Equal votes cards"
    t.roll(2, 5)
    t.skip_notices()
    assert t.g.mayor == 5 and t.prompt().lines[1] == "won the roll-off"


def test_mayor_with_the_most_votes_is_out_unless_the_switch_allows() -> None:
    for eligible, mayor in ((False, 2), (True, 1), (None, 1)):  # None: the default, the text excludes nobody
        t = started(**({} if eligible is None else {"ousted_mayor_eligible": eligible}))
        play_to_vote(t, missions={1: 4, 2: 2})  # Ana 1+4+1 = 6, Ben 1+2+1 = 4
        t.vote("no")
        assert t.g.mayor == mayor
        assert t.res(ECO) == 6 - 2 + t.data["round_info"]["given"][ECO]  # the election cost is paid either way


def test_tied_ballot_challengers_roll_off_mayor_keeps_it_without_cost() -> None:
    t = started(tie_roll="challengers")
    play_to_vote(t, missions={4: 2})  # Dev has the most votes cards among the others
    res = dict(t.data["resources"])
    t.vote(["yes", "no", "yes", "no", "yes", "no"], rolls=[5, 3])
    p = t.seen[-2]
    assert isinstance(p, Dice) and p.player == 4 and p.title == "Mayor roll-off"
    assert t.seen[-3].player == 1
    assert t.g.mayor == 1 and t.data["resources"] == res


def test_tied_ballot_the_challenger_wins_and_the_cost_is_paid() -> None:
    t = started(tie_roll="challengers")
    play_to_vote(t, missions={4: 2})
    t.vote(["yes", "no", "yes", "no", "yes", "no"], rolls=[3, 5])
    assert t.g.mayor == 4 and t.res(JUS) == 5 + t.data["round_info"]["given"][JUS] - 2


def test_tied_ballot_everyone_rolls_with_tie_roll_all() -> None:
    t = started(tie_roll="all")
    play_to_vote(t)
    t.vote(["yes", "no"] * 3, rolls=[1, 2, 3, 4, 6, 5])
    assert t.g.mayor == 5


@pytest.mark.parametrize("options", [{}, {"tie_roll": "keep"}])  # the default: the text rolls only after a lost vote
def test_tied_ballot_keep(options: dict[str, str]) -> None:
    t = started(**options)
    play_to_vote(t)
    t.vote(["yes", "no"] * 3)
    assert t.seen[-1].lines[1] == "Tie: Ana stays" and t.g.mayor == 1 and t.g.state == "finishing"


def test_mayor_without_a_ballot_means_five_votes() -> None:
    t = started(mayor_votes=False)
    play_to_vote(t)
    voters = []
    for _ in range(5):
        voters.append(t.prompt().player)
        t.ans(SecretVote, "no")
    assert voters == [2, 3, 4, 5, 6]
    assert t.prompt().lines[0] == "YES 0, NO 5"


# ----------------------------------------------------------------- order switch, screens, JSON
def test_after_vote_order_puts_votes_cards_and_floor_after_the_vote() -> None:
    t = started(round_end_order="after-vote")
    to_moving(t)
    t.moves_done()
    t.distribute()
    assert t.g.state == "confidence"
    t.vote("yes")
    assert t.g.state == "end_of_round"
    t.end_of_round()
    assert t.g.state == "finishing" and t.votes(1) == 2  # the Economy card came after the vote


def test_after_vote_order_floor_sees_the_election_cost() -> None:
    t = started(round_end_order="after-vote", ousted_mayor_eligible=False)
    to_moving(t, {"pay": {HEA: 2}})  # Health at 4
    t.moves_done()
    t.distribute()
    for b in ["no"] * 6:
        t.ans(SecretVote, b)
    t.ans(Info, True)
    t.roll(6, 1, 1, 1, 1)  # Ben wins among the five others
    t.skip_notices()
    t.ans(Info, True, title="New mayor")
    assert t.g.state == "end_of_round" and t.res(HEA) == 2
    t.end_of_round(floor={HEA: ["Hospital"]})
    assert t.loc("Hospital") == "crisis" and t.g.state == "finishing"


def test_state_json_and_views() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital", "Courthouse"]})
    t.move(6, "City Hall")
    js = t.json()
    for key in ("mayor", "departments", "locations", "votes", "round", "outcome", "winners"):
        assert key in js
    assert js["mayor"] == "Ana" and js["round"] == 1 and js["outcome"] is None and js["winners"] == []
    assert js["departments"] == {ECO: 6, EDU: 7, ENE: 7, HEA: 6, JUS: 5, URB: 6}
    assert len(js["locations"]) == 20 and js["locations"]["Hospital"] == "crisis"
    assert set(js["locations"].values()) == {"active", "crisis"}
    assert js["votes"] == {n: 1 for n in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")}
    assert js["positions"]["Fay"] == "City Hall" and js["active_player"] is None
    views = {v.title: v.lines for v in t.g.views()}
    assert views["City, round 1"] == ("Mayor Ana, moving", "Active 18  Crisis 2", "Complete: 4 of 6",
                                      "Economy, Education,", "  Energy, Urban", "Fay on City Hall")
    assert views["Departments"][3] == "Health 6, Dev"
    assert views["Votes cards"][0] == "Ana 1, mayor"
    t.moves_done()
    t.distribute()
    t.end_of_round()
    t.vote()
    summary = [line for v in t.g.views() if v.title.startswith("Round 1 summary") for line in v.lines]
    assert summary == ["Active 18 Crisis 2", "Major event: 2 into crisis", "Fixes 0, pool 18",
                       "All 3 active:", "Economy, Education,", "  Energy, Urban", "Vote YES 6 NO 0 kept", "Votes cards won:",
                       "Ana +1, Ben +1, Cleo +1,", "Fay +1"]
    summary = t.prompt()
    assert summary.title == "Round 1 summary" and summary.lines[-1] == "OK: round 2"


def test_the_acting_player_is_lit() -> None:
    t = started()
    t.intro()
    assert t.g.active_seat() == 1  # the mayor turns the event cards
    t.event(pay={JUS: 1})
    t.event()
    t.event()
    assert t.g.active_seat() is None  # moving: everyone


def test_a_shorter_game_with_the_rounds_switch() -> None:
    t = started(rounds=1)
    assert t.prompt().title == "Round 1/1: missions"
    t.round(major={"crisis": ["Hospital", "Courthouse"]})
    js = t.json()
    assert t.g.state == "game_over" and js["outcome"] == "rounds-complete" and js["round"] == 1
    # Economy, Education, Energy and Urban are complete (+1 each); Health and Justice are not
    assert js["winners"] == ["Ana", "Ben", "Cleo", "Fay"]


def test_a_fix_that_turns_out_impossible_can_be_left_without_undo() -> None:
    t = started()
    to_moving(t, {"crisis": ["Hospital"]})
    t.ans(Choice, "fix")
    t.ans(Choice, "Hospital")
    assert "City Hall" in t.refused(["4"])
    t.ans(MultiSelect, [])  # nobody ticked: back to the Moving menu, nothing recorded
    assert t.prompt().title == "Moving" and t.loc("Hospital") == "crisis"
    assert t.data["round_info"]["fixes"] == []
