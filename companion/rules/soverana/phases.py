"""SOVERANA's phase rules as pure functions over plain values.

Locations are ``{name: "active" | "crisis"}``, votes cards ``{seat: count}``, the assignment
``{department: [three location names]}``. Nothing here keeps state or asks anyone anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping, Sequence

from companion.rules.soverana.model import (ACTIVE, CITY_HALL, COLLAPSE_OVER, CRISIS, POOL_CAP, RESOURCE_FLOOR, STOCK_EXCHANGE,
                    STOCK_EXCHANGE_BONUS, TEAM_WIN_OVER, Outcome)

States = Mapping[str, str]


# ----------------------------------------------------------------- resources
@dataclass(frozen=True)
class Payment:
    """A department paying ``asked``: it pays what it has, never going below zero."""

    before: int
    asked: int

    @property
    def paid(self) -> int:
        return min(self.before, self.asked)

    @property
    def after(self) -> int:
        return self.before - self.paid

    @property
    def short(self) -> int:
        """How much of the payment could not be met (shown to the table, never hidden)."""
        return self.asked - self.paid


def pay(resources: int, amount: int) -> Payment:
    if amount < 0 or resources < 0:
        raise ValueError("payments and resources are never negative")
    return Payment(resources, amount)


def floor_crisis_count(resources: int) -> int:
    """Locations a department puts into crisis at the round's end: at 2 one, at 1 two, at 0 all three."""
    return max(0, RESOURCE_FLOOR - max(0, resources))


def floor_picks(resources: int, dept_locations: Sequence[str], states: States,
                rule: str = "flip") -> tuple[int, list[str]]:
    """How many of the department's active locations go into crisis, and which may be picked.

    ``rule="flip"``: that many more locations turn (already-crisis ones do not count).
    ``rule="at-least"``: enough turn that at least that many of the three are in crisis.
    """
    need = floor_crisis_count(resources)
    active = [n for n in dept_locations if states[n] == ACTIVE]
    if rule == "at-least":
        need = max(0, need - (len(dept_locations) - len(active)))
    elif rule != "flip":
        raise ValueError(f"unknown floor rule {rule!r}")
    return min(need, len(active)), active


# ----------------------------------------------------------------- locations
def count(states: States, which: str) -> int:
    return sum(1 for s in states.values() if s == which)


def manned(location: str, states: States, positions: Mapping[str, str | None]) -> list[str]:
    """The seats (as keys of ``positions``) standing on ``location`` while it is active — its effect holds."""
    if states.get(location) != ACTIVE:
        return []
    return [seat for seat, where in positions.items() if where == location]


def complete_departments(states: States, assignment: Mapping[str, Sequence[str]]) -> list[str]:
    """Departments whose three locations are all active."""
    return [d for d, locs in assignment.items() if all(states[n] == ACTIVE for n in locs)]


# ----------------------------------------------------------------- distribution
@dataclass(frozen=True)
class Pool:
    """The resources the mayor hands out this round."""

    active: int
    stock_exchange: int
    extras: int
    cap_total: bool = True

    @property
    def uncapped(self) -> int:
        base = min(self.active, POOL_CAP)
        return base + self.stock_exchange + self.extras

    @property
    def total(self) -> int:
        return min(self.uncapped, POOL_CAP) if self.cap_total else self.uncapped

    @property
    def capped(self) -> bool:
        return self.total < self.active + self.stock_exchange + self.extras


def distribution_pool(states: States, positions: Mapping[str, str | None], extras: int = 0,
                      cap_total: bool = True) -> Pool:
    """One resource per active location (at most 20), +2 while a manager stands on an active Stock Exchange,
    + event extras. With ``cap_total`` the whole pool is held to 20 (the rules' "maximum 20 per round")."""
    bonus = STOCK_EXCHANGE_BONUS if manned(STOCK_EXCHANGE, states, positions) else 0
    return Pool(count(states, ACTIVE), bonus, max(0, extras), cap_total)


# ----------------------------------------------------------------- fixing
def fix_refusal(location: str, fixers: Sequence[str], states: States,
                positions: Mapping[str, str | None]) -> str | None:
    """Why ``fixers`` cannot fix ``location`` now, or None if they can.

    Two managers fix a crisis location; one is enough while another manager stands on an active City Hall.
    """
    if states.get(location) != CRISIS:
        return f"{location} is not in crisis"
    if len(set(fixers)) != len(fixers) or not 1 <= len(fixers) <= 2:
        return "a fix takes one or two managers"
    if len(fixers) == 2:
        return None
    helpers = [s for s in manned(CITY_HALL, states, positions) if s not in fixers]
    if location != CITY_HALL and helpers:
        return None
    return "one manager alone needs another on an active City Hall"


def fix_votes(fixers: Sequence[str], mode: str, taker: str | None = None) -> dict[str, int]:
    """Votes cards a fix earns. ``mode="each"``: every fixer gets one; ``"one"``: the fix earns a single card,
    taken by ``taker`` (a pair must name who)."""
    if mode == "each" or len(fixers) == 1:
        return {s: 1 for s in fixers}
    if mode != "one":
        raise ValueError(f"unknown fix scoring {mode!r}")
    if taker is None or taker not in fixers:
        raise ValueError("the card goes to one of the fixers")
    return {taker: 1}


# ----------------------------------------------------------------- votes and elections
class Ballot(str, Enum):
    KEPT = "kept"
    LOST = "lost"
    TIE = "tie"


def ballot_result(yes: int, no: int) -> Ballot:
    """A majority of NO loses the mayoralty; equal counts are a tie."""
    if no > yes:
        return Ballot.LOST
    if no == yes:
        return Ballot.TIE
    return Ballot.KEPT


def most_votes(votes: Mapping[int, int], among: Sequence[int]) -> list[int]:
    """The seats among ``among`` holding the most votes cards (several when tied)."""
    if not among:
        return []
    top = max(votes[s] for s in among)
    return [s for s in among if votes[s] == top]


def successor_candidates(votes: Mapping[int, int], mayor: int, ousted_eligible: bool) -> list[int]:
    """Who can become mayor after a lost vote: the most votes cards (a d6 roll-off settles a tie)."""
    pool = [s for s in votes if ousted_eligible or s != mayor]
    return most_votes(votes, sorted(pool))


def tie_contenders(mode: str, votes: Mapping[int, int], mayor: int) -> list[int]:
    """Who rolls when the ballot is tied: ``"challengers"``: the mayor and the other players with the most votes
    cards; ``"all"``: everyone; ``"keep"``: nobody rolls, the mayor stays."""
    if mode == "keep":
        return []
    if mode == "all":
        return sorted(votes)
    if mode != "challengers":
        raise ValueError(f"unknown tie rule {mode!r}")
    return sorted([mayor, *most_votes(votes, sorted(s for s in votes if s != mayor))])


# ----------------------------------------------------------------- the end
def end_of_round(states: States, round_no: int, rounds: int) -> Outcome | None:
    """The game's end at a round's close: >10 in crisis collapses, >18 active wins, else after the last round."""
    if count(states, CRISIS) > COLLAPSE_OVER:
        return Outcome.COLLAPSE
    if count(states, ACTIVE) > TEAM_WIN_OVER:
        return Outcome.TEAM_WIN
    if round_no >= rounds:
        return Outcome.ROUNDS_COMPLETE
    return None


def winners(outcome: Outcome, votes: Mapping[int, int]) -> list[int]:
    """The seats with the most votes cards (all of them when tied); nobody when the city collapsed."""
    if outcome is Outcome.COLLAPSE:
        return []
    return most_votes(votes, sorted(votes))
