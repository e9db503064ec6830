"""SOVERANA — Running a sustainable city: the phase graph, the rule switches and the prompt/answer dispatch.

Each phase's prompts and answers live in their own module (setup, events, moving, distribution, council); the
phase's sub-steps (a menu, then the number for the chosen department...) are ``data["step"]`` and ``data["ctx"]``.
Screens queued with ``notify`` (a payment that cannot be met, floor flips, the figures' places) come first.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

from companion.rules import soverana as R

from fsm.base import OptionSpec, SeatResult, and_list
from fsm.prompts import Info, InvalidAnswer, Prompt, validate_answer
from fsm.soverana.council import CouncilPhase
from fsm.soverana.distribution import DistributionPhase
from fsm.soverana.events import EventPhase
from fsm.soverana.moving import MovingPhase
from fsm.soverana.report import Reports
from fsm.soverana.setup import new_rolloff

log = logging.getLogger(__name__)

ROUND_STATES = ("missions", "major_event", "minor_event", "moving", "distribution", "end_of_round", "confidence",
                "finishing")


class SoveranaGame(CouncilPhase, DistributionPhase, MovingPhase, EventPhase, Reports):
    game_id = "soverana"
    name = "SOVERANA"
    description = "Cooperative city, 6 managers: departments, 20 locations, votes cards, 5 rounds"
    min_players = 6
    max_players = 6
    default_players = 6

    STATES = ("setup_mayor", "setup_departments", "setup_figures", *ROUND_STATES, "game_over")
    TRANSITIONS = (
        {"trigger": "mayor_elected", "source": "setup_mayor", "dest": "setup_departments"},
        {"trigger": "departments_assigned", "source": "setup_departments", "dest": "setup_figures"},
        {"trigger": "figures_placed", "source": ["setup_departments", "setup_figures"], "dest": "missions"},
        {"trigger": "missions_drawn", "source": "missions", "dest": "major_event"},
        {"trigger": "major_done", "source": "major_event", "dest": "minor_event"},
        {"trigger": "next_minor", "source": "minor_event", "dest": "minor_event"},
        {"trigger": "minors_done", "source": "minor_event", "dest": "moving"},
        {"trigger": "moves_done", "source": "moving", "dest": "distribution"},
        {"trigger": "round_end", "source": ["distribution", "confidence"], "dest": "end_of_round"},
        {"trigger": "vote", "source": ["distribution", "end_of_round"], "dest": "confidence"},
        {"trigger": "close", "source": ["end_of_round", "confidence"], "dest": "finishing"},
        {"trigger": "next_round", "source": "finishing", "dest": "missions"},
        {"trigger": "game_ends", "source": "finishing", "dest": "game_over"},
    )
    INITIAL = "setup_mayor"
    FINAL = ("game_over",)
    OPTIONS = {
        "locations_file": OptionSpec(
            "", "TOML file giving each department's three locations (empty: the companion's default, "
                "companion/data/soverana_locations.toml — check it against your department cards)"),
        "pair_fix_votes": OptionSpec(
            "each", "two managers fixing together: each gets a votes card, or the pair gets one", ("each", "one")),
        "tie_roll": OptionSpec(
            "keep", "tied confidence vote: the mayor and the other player(s) with the most votes cards "
                           "roll off (challengers), everyone rolls off (all), or the mayor stays (keep)",
            ("challengers", "all", "keep")),
        "mayor_votes": OptionSpec(True, "the mayor casts a ballot in the vote of confidence"),
        "ousted_mayor_eligible": OptionSpec(
            True, "a mayor who loses the vote may be chosen again if they hold the most votes cards"),
        "round_end_order": OptionSpec(
            "before-vote", "end-of-round votes cards and resource floor before the confidence vote, or after it",
            ("before-vote", "after-vote")),
        "floor_rule": OptionSpec(
            "flip", "below 3 resources: flip 1/2/3 more active locations (flip), or make sure at least that many "
                    "of the three are in crisis (at-least)", ("flip", "at-least")),
        "pool_cap": OptionSpec(
            "total", "the 20 cap holds the whole pool incl. Stock Exchange and event extras (total), or only the "
                     "active-location part (base)", ("total", "base")),
        "start_positions": OptionSpec(
            "random", "figures' starting locations: drawn by the companion, entered, or not tracked",
            ("random", "entered", "none")),
        "rounds": OptionSpec(R.ROUNDS, "rounds in a game", lo=1, hi=R.ROUNDS),
        "board_file": OptionSpec(
            "", "TOML file giving the board's places, the location card on each and their links (empty: the "
                "companion's default, companion/data/soverana_board.toml — check it against your board)"),
        "check_moves": OptionSpec(True, "refuse a move that does not follow the board file's links"),
    }

    # ----------------------------------------------------------------- new game
    @classmethod
    def resolve_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """The switches, and the locations file checked now, so a bad file is one line before the game starts."""
        out = super().resolve_options(given)
        R.load_locations(out["locations_file"] or None)
        R.load_board(out["board_file"] or None)
        return out

    def start(self) -> None:
        assignment = R.load_locations(self.options["locations_file"] or None)
        board = R.load_board(self.options["board_file"] or None)
        self.data.update({
            "board": board,
            "mayor": None,
            "rolloff": new_rolloff(self.seats, "mayor"),
            "dept": {},
            "resources": dict(R.STARTING_RESOURCES),
            "assignment": assignment,
            "locations": {n: R.ACTIVE for n in R.LOCATION_NAMES},
            "positions": {str(s): None for s in self.seats},
            "votes": {str(s): 1 for s in self.seats},
            "moved": [], "extras": 0, "event": None, "dist": None, "ballots": {},
            "step": "", "ctx": {}, "notices": [], "round_info": None, "summaries": [],
            "outcome": None, "winners": [], "winner": None,
        })
        self.data["active"] = self.prompt().player

    # ----------------------------------------------------------------- dispatch
    def _handler(self, kind: str) -> Callable[..., Any]:
        return getattr(self, f"_{kind}_{self.state}")  # type: ignore[no-any-return]

    def prompt(self) -> Prompt:
        notice = self.notice_prompt()
        if notice is not None:
            return notice
        return self._handler("ask")()  # type: ignore[no-any-return]

    def answer(self, value: Any) -> None:
        validate_answer(self.prompt(), value)
        if self.is_over:
            raise self.refuse("the game is over")
        snap = self.snapshot()
        try:
            if self.data["notices"]:
                self.data["notices"].pop(0)
            else:
                self._handler("take")(value)
        except InvalidAnswer:
            self.restore(snap)
            raise
        self.data["active"] = self.prompt().player

    # ----------------------------------------------------------------- the end
    cooperative = True  #: the city is saved or lost together; the votes cards name the winner
    scored = True  #: the score: votes cards

    def results(self) -> list[SeatResult]:
        """The text's winner: "The player with the highest number of votes cards is the winner" (nobody when the
        city collapses: "the game ends (None winning)"); every seat placed by its votes cards."""
        won = set(self.winner_seats())
        votes = self.votes_by_seat()
        return [SeatResult(s, s in won, votes[s], (1.0 if s in won else 0.0, float(votes[s]))) for s in self.seats]

    def start_seat(self) -> int | None:
        m = self.data.get("first_mayor")
        return m if isinstance(m, int) else None

    def team_won(self) -> bool | None:
        outcome = self.data["outcome"]
        return None if outcome is None else outcome != "collapse"

    def outcome(self) -> tuple[str, str]:
        from fsm.soverana.report import OUTCOME_TEXT

        outcome = self.data["outcome"]
        if outcome is None:
            return super().outcome()
        won = self.winner_seats()
        votes = self.votes_by_seat()
        city = OUTCOME_TEXT.get(outcome, outcome)
        if not won:
            result = f"{city}: nobody wins"
        elif len(won) == 1:
            result = f"{self.player_name(won[0])} wins with {votes[won[0]]} votes cards"
        else:
            result = and_list([self.player_name(s) for s in won]) + f" share the win ({votes[won[0]]} votes cards)"
        decider = f"{city}: {self.n_active()} active, {self.n_crisis()} in crisis after round {self.data['round']}"
        return result, decider

    def _ask_game_over(self) -> Prompt:
        return Info(title="Game over", lines=tuple(self.report_rows()))  # the page scrolls: every winner shown
