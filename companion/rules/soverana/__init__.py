"""SOVERANA — Running a sustainable city: departments, locations and the phase rules as pure functions."""
from __future__ import annotations

from companion.rules.soverana.board import DEFAULT_BOARD, BoardFileError, Graph, load_board, move_refusal, reach, validate_board
from companion.rules.soverana.locfile import DEFAULT_FILE, LocationsFileError, load_locations, validate_assignment
from companion.rules.soverana.model import (ACTIVE, CITY_HALL, CRISIS, DEPARTMENTS, ELECTION_COST, INDEPENDENT, LOCATION_NAMES, LOCATIONS,
                    MISSION_VOTES, POOL_CAP, BANK_RESOURCES, BANK_VOTES, PRESS, ROUNDS, SHORT, SPECIAL, STARTING_RESOURCES, STOCK_EXCHANGE,
                    TRANSIT, Department, Location, Outcome)
from companion.rules.soverana.phases import (Ballot, Payment, Pool, ballot_result, complete_departments, count, distribution_pool,
                     end_of_round, fix_refusal, fix_votes, floor_crisis_count, floor_picks, manned, most_votes, pay,
                     successor_candidates, tie_contenders, winners)

__all__ = [
    "ACTIVE", "CRISIS", "CITY_HALL", "PRESS", "STOCK_EXCHANGE", "TRANSIT", "DEPARTMENTS", "LOCATIONS",
    "LOCATION_NAMES", "SHORT", "SPECIAL", "INDEPENDENT", "STARTING_RESOURCES", "ELECTION_COST", "POOL_CAP", "ROUNDS",
    "MISSION_VOTES", "Department", "Location", "Outcome", "Ballot", "Payment", "Pool", "DEFAULT_FILE",
    "LocationsFileError", "load_locations", "validate_assignment", "pay", "floor_crisis_count", "floor_picks",
    "count", "manned", "complete_departments", "distribution_pool", "fix_refusal", "fix_votes", "ballot_result",
    "most_votes", "successor_candidates", "tie_contenders", "end_of_round", "winners",
    "DEFAULT_BOARD", "BoardFileError", "Graph", "load_board", "move_refusal", "reach", "validate_board",
    "BANK_RESOURCES", "BANK_VOTES",
]
