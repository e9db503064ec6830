"""Setup: the mayor's d6 roll-off, the mayor assigning departments, the figures' starting locations."""
from __future__ import annotations

from typing import Any

from companion.rules import soverana as R

from fsm.prompts import Choice, Dice, Option, Prompt, Random
from fsm.turns import rolloff_next, rolloff_record, rolloff_start, rolloff_tie
from fsm.screen_text import plural
from fsm.soverana.core import SoveranaCore, lines, short_dept


class SetupPhase(SoveranaCore):
    # ----------------------------------------------------------------- roll-offs (mayor, successor, tie)
    def rolloff_prompt(self, title: str, why: str) -> Prompt:
        ro = self.data["rolloff"]
        seat = rolloff_next(ro)
        if seat is None:
            raise RuntimeError("invariant: seat is set here")
        done = [f"{self.nm(int(s))} {v}" for s, v in ro["rolls"].items()]
        again = "Tied: " + " ".join(self.nm(s) for s in ro["contenders"]) if ro["pass"] > 1 else why
        # the dice screen shows one context line: the rolls of this pass so far, else why we roll
        first = " ".join(done[-3:]) if done else again
        return Dice(title=title, lines=lines(first, again if done else None, f"{self.nm(seat)} rolls d6"),
                    player=seat, die="d6", count=1, purpose="mayor")

    def rolloff_take(self, value: Any) -> int | None:
        """Record the roll; the winner's seat once settled."""
        ro = self.data["rolloff"]
        seat = rolloff_next(ro)
        if seat is None:
            raise RuntimeError("invariant: seat is set here")
        rolloff_record(ro, seat, int(value["values"][0]))
        if (tied := rolloff_tie(ro)) is not None:
            self.note("Tie: " + ", ".join(self.player_name(t) for t in tied) + " roll again")
        return ro["winner"] if isinstance(ro["winner"], int) else None

    # ----------------------------------------------------------------- mayor
    def _ask_setup_mayor(self) -> Prompt:
        return self.rolloff_prompt("Choose the mayor", "Highest d6 is mayor")

    def _take_setup_mayor(self, value: Any) -> None:
        winner = self.rolloff_take(value)
        if winner is None:
            return
        self.data["mayor"] = winner
        self.data["first_mayor"] = winner  # BG Stats' start player
        self.data["rolloff"] = None
        self.note(f"{self.player_name(winner)} wins the roll-off and is mayor")
        self.notify("Mayor elected", (f"{self.nm(winner)} is mayor", "and assigns the", "departments"), winner)
        self.set_step("assign")
        self.fire("mayor_elected")

    # ----------------------------------------------------------------- departments
    def _unassigned_seat(self) -> int:
        return next(s for s in self.seats if str(s) not in self.data["dept"])

    def _ask_setup_departments(self) -> Prompt:
        seat = self._unassigned_seat()
        taken = set(self.data["dept"].values())
        opts = tuple(Option(d, f"{short_dept(d)}: {plural(R.STARTING_RESOURCES[d], 'resource')}") for d in R.DEPARTMENTS
                     if d not in taken)
        return Choice(title="Departments", lines=lines(f"Department for {self.nm(seat)}?",
                                                       f"Mayor {self.mayor_name()} assigns"),
                      options=opts, default=opts[0].key, player=self.mayor)

    def _take_setup_departments(self, value: Any) -> None:
        self._assign(self._unassigned_seat(), str(value))
        free = [d for d in R.DEPARTMENTS if d not in self.data["dept"].values()]
        if len(free) == 1:
            self._assign(self._unassigned_seat(), free[0])
        if len(self.data["dept"]) < len(self.seats):
            return
        mode = self.options["start_positions"]
        if mode == "none":
            self.note("Figures' starting locations are not tracked")
            self.begin_round()
            self.fire("figures_placed")
        else:
            self.set_step("place")
            self.fire("departments_assigned")

    def _assign(self, seat: int, dept: str) -> None:
        self.data["dept"][str(seat)] = dept
        self.note(f"{self.player_name(seat)} manages {dept} ({R.STARTING_RESOURCES[dept]} resources)")

    # ----------------------------------------------------------------- figures
    def _unplaced_seat(self) -> int:
        return next(s for s in self.seats if self.data["positions"].get(str(s)) is None)

    def _start_spots(self) -> list[str]:
        taken = set(self.data["positions"].values())
        return [n for n in R.LOCATION_NAMES if n not in R.SPECIAL and n not in taken]

    def _ask_setup_figures(self) -> Prompt:
        seat = self._unplaced_seat()
        spots = self._start_spots()
        if self.options["start_positions"] == "random":
            return Random(title="Placing figures", lines=lines(f"Drawing a start for", self.nm(seat)),
                          keys=tuple(spots))
        return Choice(title="Placing figures", lines=lines(f"Start of {self.nm(seat)}?",
                                                           "Not CH, SE or Transit"),
                      options=tuple(Option(n, R.SHORT[n]) for n in spots), default=spots[0], player=seat)

    def _take_setup_figures(self, value: Any) -> None:
        seat = self._unplaced_seat()
        self.data["positions"][str(seat)] = str(value)
        if any(self.data["positions"].get(str(s)) is None for s in self.seats):
            return
        placed = [f"{self.nm(s)}: {R.SHORT[self.data['positions'][str(s)]]}" for s in self.seats]
        self.note("Figures start at " + ", ".join(f"{self.player_name(s)} {self.data['positions'][str(s)]}"
                                                  for s in self.seats))
        if self.options["start_positions"] == "random":
            for i in range(0, len(placed), 3):
                self.notify(f"Place figures {i // 3 + 1}/{(len(placed) + 2) // 3}", placed[i:i + 3])
        self.begin_round()
        self.fire("figures_placed")

    # ----------------------------------------------------------------- used by the round phases
    def begin_round(self) -> None:
        """Clear the per-round records; the round number is already set."""
        self.data["extras"] = 0
        self.data["moved"] = []
        self.data["round_info"] = {"round": self.data["round"], "fixes": [], "events": [], "pool": None,
                                   "vote": None, "gained": {}, "floor": [], "complete": [],
                                   "mayor": self.mayor}
        self.set_step("intro")


def new_rolloff(seats: list[int], purpose: str) -> dict[str, Any]:
    return rolloff_start(seats, "d6", purpose)
