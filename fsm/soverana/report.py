"""What SOVERANA shows besides prompts: the game-menu pages, the end-of-game report and the state JSON fields."""
from __future__ import annotations

from typing import Any

from companion.rules import soverana as R

from fsm.prompts import View
from fsm.screen_text import plural, wrap, wrap_words
from fsm.soverana.core import SoveranaCore, dept_list, fit, short_dept

PAGE = 6  #: lines per menu page

OUTCOME_TEXT = {"collapse": "The city collapsed", "team-win": "The team saved the city",
                "rounds-complete": "All rounds played"}

PHASES = {"setup_mayor": "setup", "setup_departments": "setup", "setup_figures": "setup",
          "missions": "missions", "major_event": "major event", "minor_event": "minor events",
          "moving": "moving", "distribution": "distribution", "end_of_round": "end of round",
          "confidence": "confidence vote", "finishing": "finishing", "game_over": "game over"}


def pages(title: str, rows: list[str]) -> list[View]:
    chunks = [rows[i:i + PAGE] for i in range(0, len(rows), PAGE)] or [[]]
    if len(chunks) == 1:
        return [View(title=title, lines=tuple(chunks[0]))]
    return [View(title=f"{title} {i + 1}/{len(chunks)}", lines=tuple(c)) for i, c in enumerate(chunks)]


class Reports(SoveranaCore):
    # ----------------------------------------------------------------- menu pages
    def views(self) -> list[View]:
        out = [self._city_view()]
        out += pages("Departments", self._department_rows())
        out += pages("Locations", self._location_rows())
        out += pages("Votes cards", self._votes_rows())
        for info in self.data["summaries"][-1:]:
            out += pages(f"Round {info['round']} summary", self._summary_rows(info))
        if self.data["outcome"] is not None:
            out += pages("Game report", self.report_rows())
        return out

    def _city_view(self) -> View:
        complete = R.complete_departments(self.locs, self.data["assignment"])
        return View(title=f"City, round {self.data['round']}", lines=(
            fit(f"Mayor {self.mayor_name()}, {PHASES.get(self.state, self.state)}"),
            fit(f"Active {self.n_active()}  Crisis {self.n_crisis()}"),
            f"Complete: {len(complete)} of 6", *wrap(dept_list(complete), indent="  "),
            fit(self.specials_line())))

    def _department_rows(self) -> list[str]:
        rows = []
        for d in R.DEPARTMENTS:
            seat = self.seat_of(d)
            rows.append(fit(f"{short_dept(d)} {self.res(d)}" + (f", {self.nm(seat)}" if seat else "")))
        return rows

    def _location_rows(self) -> list[str]:
        rows = []
        for n in R.LOCATION_NAMES:
            mark = "X " if self.locs[n] == R.CRISIS else ""
            who = ", ".join(self.nm(s) for s in self.standing(n))
            rows += wrap(f"{mark}{R.SHORT[n]}" + (f": {who}" if who else ""), indent="  ")
        return rows

    def _votes_rows(self) -> list[str]:
        votes = self.votes_by_seat()
        order = sorted(self.seats, key=lambda s: (-votes[s], s))
        return [fit(f"{self.nm(s)} {votes[s]}{', mayor' if s == self.mayor else ''}") for s in order]

    def _summary_rows(self, info: dict[str, Any]) -> list[str]:
        rows = [f"Active {info['active']}  Crisis {info['crisis']}"]
        for ev in info["events"]:
            if not (ev["crisis"] or ev["restored"]):
                continue
            tag = "Major event" if ev["kind"] == "major" else "Minor event"
            done = [f"{len(ev['crisis'])} into crisis"] if ev["crisis"] else []
            done += [f"{len(ev['restored'])} restored"] if ev["restored"] else []
            rows.append(f"{tag}: {', '.join(done)}")
        rows.append(f"Fixes {len(info['fixes'])}, pool {info['pool']}")
        if info["complete"]:
            rows += ["All 3 active:", dept_list(info["complete"])]
        for f in info["floor"]:
            rows.append(f"{short_dept(f['department'])} at {f['resources']}: {len(f['crisis'])} into crisis")
        v = info["vote"]
        if v:
            rows.append(f"Vote YES {v['yes']} NO {v['no']} {v['result']}")
        if info.get("new_mayor"):
            rows.append(f"Mayor now {self.nm(info['new_mayor'])}")
        gained = [f"{self.nm(int(s))} +{n}" for s, n in sorted(info["gained"].items(), key=lambda x: int(x[0]))]
        if gained:
            rows.append("Votes cards won:")
            rows += wrap_words([g + "," for g in gained[:-1]] + gained[-1:])
        return [x for r in rows for x in wrap(r, indent="  ")]

    def report_rows(self) -> list[str]:
        won = self.data["winners"]
        votes = self.votes_by_seat()
        rows = [OUTCOME_TEXT.get(self.data["outcome"], "")]
        if not won:
            rows.append("Nobody wins")
        elif len(won) == 1:
            rows.append(f"Winner {self.nm(won[0])} ({votes[won[0]]})")
        else:  # every winner shown: the names wrap over as many lines as they need
            rows.append(f"Tie at {plural(votes[won[0]], 'votes card')}:")
            rows += wrap_words([self.nm(s) for s in won])
        rows.append(f"Round {self.data['round']}: active {self.n_active()}")
        rows.append(f"Crisis {self.n_crisis()}, mayor {self.mayor_name()}")
        return [x for r in rows if r for x in wrap(r, indent="  ")]

    # ----------------------------------------------------------------- state JSON
    def player_json(self, seat: int) -> dict[str, Any]:
        dept = self.dept_of(seat)
        return {"department": dept, "resources": self.res(dept) if dept else None,
                "votes": int(self.data["votes"][str(seat)]), "position": self.data["positions"].get(str(seat)),
                "mayor": seat == self.mayor}

    def extra_json(self) -> dict[str, Any]:
        name = self.player_name
        return {
            "mayor": name(self.mayor) if self.mayor is not None else None,
            "departments": {d: self.res(d) for d in R.DEPARTMENTS},
            "locations": dict(self.locs),
            "votes": {name(s): int(self.data["votes"][str(s)]) for s in self.seats},
            "round": self.data["round"],
            "outcome": self.data["outcome"],
            "winners": [name(s) for s in self.data["winners"]],
            "managers": {name(int(s)): d for s, d in self.data["dept"].items()},
            "positions": {name(s): self.data["positions"].get(str(s)) for s in self.seats},
            "department_locations": {d: list(v) for d, v in self.data["assignment"].items()},
            "phase": PHASES.get(self.state, self.state),
        }
