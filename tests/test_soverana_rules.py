"""SOVERANA's pure rules: payments, the resource floor, the distribution pool, fixes, ballots and the end."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import soverana as R

ALL_ACTIVE = {n: "active" for n in R.LOCATION_NAMES}


def city(*crisis: str) -> dict[str, str]:
    return {n: ("crisis" if n in crisis else "active") for n in R.LOCATION_NAMES}


def test_the_fixed_data() -> None:
    assert len(R.LOCATION_NAMES) == 20 and len(set(R.LOCATION_NAMES)) == 20
    assert R.STARTING_RESOURCES == {"Education": 7, "Health & Welfare": 6, "Economy": 6, "Justice & Safety": 5,
                                    "Urban Development": 6, "Energy & Environment": 7}
    assert [d.start for d in R.Department] == [6, 7, 7, 6, 5, 6]
    assert set(R.INDEPENDENT) == {"City Hall", "Press and Media Center"}
    assert set(R.SPECIAL) == {"City Hall", "Public Transit Authority", "Stock Exchange"}
    from companion.ui.draw import text_width

    assert all(text_width(loc.short) <= 70 for loc in R.LOCATIONS)  # plain words, measured as drawn


# ----------------------------------------------------------------- payments never go below zero, shortfall kept
def test_a_payment_that_cannot_be_met_reports_the_shortfall() -> None:
    p = R.pay(1, 3)
    assert (p.before, p.paid, p.after, p.short) == (1, 1, 0, 2)
    p = R.pay(5, 2)
    assert (p.paid, p.after, p.short) == (2, 3, 0)
    with pytest.raises(ValueError):
        R.pay(3, -1)


@given(st.integers(0, 40), st.integers(0, 40))
def test_payment_conserves(res: int, amount: int) -> None:
    p = R.pay(res, amount)
    assert p.after >= 0 and p.paid + p.short == amount and p.after + p.paid == res


# ----------------------------------------------------------------- the resource floor
@pytest.mark.parametrize("res, n", [(7, 0), (3, 0), (2, 1), (1, 2), (0, 3)])
def test_floor_counts(res: int, n: int) -> None:
    assert R.floor_crisis_count(res) == n


HEALTH = ["Hospital", "Social Service", "Sports Complex"]


def test_floor_flip_counts_only_active_locations() -> None:
    assert R.floor_picks(2, HEALTH, ALL_ACTIVE) == (1, HEALTH)
    assert R.floor_picks(1, HEALTH, city("Hospital")) == (2, ["Social Service", "Sports Complex"])
    # at 0 all three; only two are still active
    assert R.floor_picks(0, HEALTH, city("Hospital")) == (2, ["Social Service", "Sports Complex"])
    assert R.floor_picks(1, HEALTH, city(*HEALTH)) == (0, [])
    assert R.floor_picks(3, HEALTH, ALL_ACTIVE) == (0, HEALTH)


def test_floor_at_least_counts_those_already_in_crisis() -> None:
    assert R.floor_picks(2, HEALTH, city("Hospital"), "at-least") == (0, ["Social Service", "Sports Complex"])
    assert R.floor_picks(1, HEALTH, city("Hospital"), "at-least") == (1, ["Social Service", "Sports Complex"])
    assert R.floor_picks(0, HEALTH, city("Hospital"), "at-least") == (2, ["Social Service", "Sports Complex"])
    with pytest.raises(ValueError):
        R.floor_picks(0, HEALTH, ALL_ACTIVE, "other")


# ----------------------------------------------------------------- distribution
def test_pool_is_the_active_count_plus_stock_exchange_and_extras() -> None:
    states = city("Hospital", "Police Station", "Fire Station", "Courthouse", "Shopping Mall")  # 15 active
    assert R.distribution_pool(states, {"1": "Hospital"}).total == 15
    manned = R.distribution_pool(states, {"1": "Stock Exchange"})
    assert (manned.active, manned.stock_exchange, manned.total) == (15, 2, 17)
    assert R.distribution_pool(states, {"1": "Stock Exchange"}, extras=3).total == 20
    # the Stock Exchange in crisis gives nothing, even manned
    assert R.distribution_pool(city("Stock Exchange"), {"1": "Stock Exchange"}).total == 19


def test_pool_cap_at_20() -> None:
    full = R.distribution_pool(ALL_ACTIVE, {"1": "Stock Exchange"}, extras=1)
    assert (full.uncapped, full.total, full.capped) == (23, 20, True)
    base = R.distribution_pool(ALL_ACTIVE, {"1": "Stock Exchange"}, extras=1, cap_total=False)
    assert (base.total, base.capped) == (23, False)
    just = R.distribution_pool(city("Hospital"), {"1": "Stock Exchange"}, extras=0)
    assert (just.total, just.capped) == (20, True)  # 19 + 2 = 21 -> 20
    under = R.distribution_pool(city("Hospital", "Courthouse"), {"1": "Stock Exchange"})
    assert (under.total, under.capped) == (20, False)


# ----------------------------------------------------------------- fixing
def test_two_managers_fix_anywhere() -> None:
    assert R.fix_refusal("Hospital", ["1", "2"], city("Hospital"), {}) is None


def test_one_manager_needs_another_on_an_active_city_hall() -> None:
    states = city("Hospital")
    assert R.fix_refusal("Hospital", ["1"], states, {"1": "Hospital"}) is not None
    assert R.fix_refusal("Hospital", ["1"], states, {"1": "Hospital", "2": "City Hall"}) is None
    # the lone fixer's own figure on City Hall does not count
    assert R.fix_refusal("Hospital", ["2"], states, {"2": "City Hall"}) is not None
    # City Hall in crisis loses its effect
    both = city("Hospital", "City Hall")
    assert R.fix_refusal("Hospital", ["1"], both, {"2": "City Hall"}) is not None
    assert R.fix_refusal("City Hall", ["1"], both, {"2": "City Hall"}) is not None
    assert R.fix_refusal("Courthouse", ["1", "2"], states, {}) == "Courthouse is not in crisis"
    assert R.fix_refusal("Hospital", ["1", "1"], states, {}) is not None
    assert R.fix_refusal("Hospital", ["1", "2", "3"], states, {}) is not None


def test_fix_votes_each_or_one_for_the_pair() -> None:
    assert R.fix_votes(["1", "2"], "each") == {"1": 1, "2": 1}
    assert R.fix_votes(["1", "2"], "one", "2") == {"2": 1}
    assert R.fix_votes(["3"], "one") == {"3": 1}
    with pytest.raises(ValueError):
        R.fix_votes(["1", "2"], "one", None)


def test_complete_departments() -> None:
    assignment = R.load_locations()
    assert R.complete_departments(ALL_ACTIVE, assignment) == list(R.DEPARTMENTS)
    assert "Health & Welfare" not in R.complete_departments(city("Hospital"), assignment)
    # an independent location in crisis completes nobody's department less
    assert len(R.complete_departments(city("City Hall", "Press and Media Center"), assignment)) == 6


# ----------------------------------------------------------------- votes and elections
def test_ballot_results() -> None:
    assert R.ballot_result(4, 2) is R.Ballot.KEPT
    assert R.ballot_result(2, 4) is R.Ballot.LOST
    assert R.ballot_result(3, 3) is R.Ballot.TIE
    assert R.ballot_result(3, 2) is R.Ballot.KEPT  # five ballots when the mayor does not vote


def test_successor_and_tie_contenders() -> None:
    votes = {1: 5, 2: 5, 3: 4, 4: 1, 5: 5, 6: 2}
    assert R.successor_candidates(votes, 1, ousted_eligible=False) == [2, 5]
    assert R.successor_candidates(votes, 1, ousted_eligible=True) == [1, 2, 5]
    assert R.successor_candidates({1: 9, 2: 3, 3: 1}, 1, ousted_eligible=False) == [2]
    assert R.tie_contenders("challengers", votes, 1) == [1, 2, 5]
    assert R.tie_contenders("challengers", {1: 1, 2: 3, 3: 2}, 1) == [1, 2]
    assert R.tie_contenders("all", votes, 1) == [1, 2, 3, 4, 5, 6]
    assert R.tie_contenders("keep", votes, 1) == []


# ----------------------------------------------------------------- the end
def test_end_conditions_are_strictly_more_than() -> None:
    ten = city(*R.LOCATION_NAMES[:10])
    eleven = city(*R.LOCATION_NAMES[:11])
    assert R.end_of_round(ten, 2, 5) is None
    assert R.end_of_round(eleven, 2, 5) is R.Outcome.COLLAPSE
    assert R.end_of_round(eleven, 5, 5) is R.Outcome.COLLAPSE
    assert R.end_of_round(city("Hospital", "Courthouse"), 1, 5) is None  # 18 active
    assert R.end_of_round(city("Hospital"), 1, 5) is R.Outcome.TEAM_WIN  # 19 active
    assert R.end_of_round(city("Hospital", "Courthouse"), 5, 5) is R.Outcome.ROUNDS_COMPLETE


def test_winners() -> None:
    votes = {1: 4, 2: 7, 3: 7, 4: 1, 5: 2, 6: 0}
    assert R.winners(R.Outcome.ROUNDS_COMPLETE, votes) == [2, 3]
    assert R.winners(R.Outcome.TEAM_WIN, {1: 3, 2: 1}) == [1]
    assert R.winners(R.Outcome.COLLAPSE, votes) == []
