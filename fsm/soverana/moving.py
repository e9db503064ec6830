"""Moving: the table records moves (who stands where) and fixes (location + fixers) on one menu.

Every manager makes one move a round, between connected locations (the board file), two steps while someone
stands on an active Public Transit Authority. A fix needs two managers on the location, or one while another
manager stands on an active City Hall; a fixer the companion does not know to be there is asked about: moving
there now is that manager's move. The fix itself is not a move. Special locations are "manned" while a figure
stands on them and they are active.
"""
from __future__ import annotations

from typing import Any

from companion.rules import soverana as R

from companion.ui.draw import title_room

from fsm.prompts import Choice, MultiSelect, Option, Prompt
from fsm.screen_text import squeeze
from fsm.soverana.core import SoveranaCore, lines, short_dept


class MovingPhase(SoveranaCore):
    def _who_at(self, location: str) -> str:
        return ", ".join(self.nm(s) for s in self.standing(location))

    def _ask_moving(self) -> Prompt:
        step = self.step
        if step == "fix_loc":
            bad = [n for n in R.LOCATION_NAMES if self.locs[n] == R.CRISIS]
            return Choice(title="Record a fix", lines=lines("Which location was", "fixed?"),
                          options=tuple(Option(n, f"{R.SHORT[n]}: {self._who_at(n)}" if self.standing(n) else R.SHORT[n]) for n in bad),
                          back="back", default=bad[0])
        if step == "fix_who":
            loc = self.ctx["loc"]
            there = [str(s) for s in self.standing(loc)][:2]
            ch = self.manned_by(R.CITY_HALL)
            hint = (f"1 or 2 fixers ({self.nm(ch[0])} on City Hall)" if ch and loc != R.CITY_HALL
                    else "Two fixers needed")
            return MultiSelect(title=f"Fix {R.SHORT[loc]}", lines=lines(hint, "None ticked: back"),
                               options=tuple(Option(str(s), f"{self.nm(s)} {short_dept(self.dept_of(s) or '')}")
                                             for s in self.seats if self.dept_of(s)),
                               min_count=0, max_count=2, preselected=tuple(there))
        if step == "fix_taker":
            fixers = self.ctx["fixers"]
            return Choice(title="One votes card", lines=lines("The pair earns one", "card: who takes it?"),
                          options=tuple(Option(s, self.nm(int(s))) for s in fixers), default=fixers[0])
        if step == "fix_where":
            seat = int(self.ctx["asking"])
            loc = self.ctx["loc"]
            here = self.data["positions"].get(str(seat))
            why = self._move_refusal(seat, loc)
            stuck = why is not None and here is not None  # neither answer is possible: say so before a press
            name = self.nm(seat)  # the name gives way, not the question: the title bar shows it at the right too
            return Choice(title=squeeze(f"{{}} on {R.SHORT[loc]}?", name, title_room(name)),
                          lines=lines(f"Was on: {R.SHORT[here] if here else 'not known'}",
                                      "Can't get there: BACK" if stuck else "Fixers stand on it."),
                          options=(Option("move", "Moves there now", enabled=why is None, hint=why or ""),
                                   Option("there", "Was there already", enabled=here is None,
                                          hint=f"{self.nm(seat)} is recorded on {R.SHORT[here] if here else '-'}")),
                          back="back", default="move" if why is None else "there", player=seat)
        if step == "move_who":
            moved = set(self.data["moved"])
            return Choice(title="Move a manager", lines=lines("Who moves? (*: moved)"),
                          options=tuple(Option(str(s), self._pos_label(s, s in moved), enabled=s not in moved,
                                               hint=f"{self.nm(s)} has made their move this round")
                                        for s in self.seats),
                          back="back", default=str(self._first_unmoved()))
        if step == "move_to":
            seat = int(self.ctx["seat"])
            here = self.data["positions"].get(str(seat))
            transit = "Transit on: 2 steps" if self.manned_by(R.TRANSIT) else "To where? One step"
            opts = []
            for n in R.LOCATION_NAMES:
                why = self._move_refusal(seat, n)
                opts.append(Option(n, R.SHORT[n] + (" (crisis)" if self.locs[n] == R.CRISIS else ""),
                                   enabled=why is None, hint=why or ""))
            first = next((o.key for o in opts if o.enabled), here or R.LOCATION_NAMES[0])
            return Choice(title=squeeze("Move {}", self.nm(seat), title_room(self.nm(seat))), lines=lines(transit),
                          options=tuple(opts), back="back", default=first, player=seat)
        fixes = self.data["round_info"]["fixes"]
        last = self.ctx.get("last")
        return Choice(title="Moving", lines=lines(
            last or f"Crisis {self.n_crisis()}, fixed {len(fixes)}", self.specials_line(),
            "Plan, then each moves" if not last else f"Crisis {self.n_crisis()}, fixed {len(fixes)}"),
            options=(Option("fix", "Record a fix", enabled=self.n_crisis() > 0, hint="nothing is in crisis"),
                     Option("move", "Move a manager"), Option("done", "Moving done")),
            default="fix" if self.n_crisis() and self.ctx.get("last") is None else "done")

    def _pos_label(self, seat: int, moved: bool) -> str:
        where = self.data["positions"].get(str(seat))
        return f"{'*' if moved else ''}{self.nm(seat)} {R.SHORT[where] if where else '?'}"

    def steps(self) -> int:
        """Steps in one move: two while a manager stands on an active Public Transit Authority."""
        return 2 if self.manned_by(R.TRANSIT) else 1

    def _move_refusal(self, seat: int, to: str) -> str | None:
        """Why ``seat`` cannot move to ``to`` now: their one move is made, or the board does not link it."""
        if seat in self.data["moved"]:
            return f"{self.nm(seat)} has made their move this round"
        here = self.data["positions"].get(str(seat))
        if not self.options["check_moves"]:
            return None if here != to else f"already on {R.SHORT[to]}: not a move"
        return R.move_refusal(self.data["board"], here, to, self.steps(), R.SHORT)

    def _first_unmoved(self) -> int:
        moved = set(self.data["moved"])
        return next((s for s in self.seats if s not in moved), self.seats[0])

    def _take_moving(self, value: Any) -> None:
        step = self.step
        if step == "hub":
            if value == "done":
                self.note(f"Moving done: {len(self.data['round_info']['fixes'])} fixes")
                self.start_distribution()
                self.fire("moves_done")
            else:
                self.set_step("fix_loc" if value == "fix" else "move_who", last=self.ctx.get("last"))
        elif value == "back":
            self.set_step("hub", last=self.ctx.get("last"))
        elif step == "fix_loc":
            self.set_step("fix_who", loc=str(value), last=self.ctx.get("last"))
        elif step == "fix_who" and not value:  # nobody ticked: the fix was not possible after all
            self.set_step("hub", last=self.ctx.get("last"))
        elif step == "fix_who":
            loc = self.ctx["loc"]
            why = R.fix_refusal(loc, list(value), self.locs, self.data["positions"])
            if why is not None:
                raise self.refuse(why)
            self.set_step("fix_where", loc=loc, fixers=list(value), how={}, asking=None, last=self.ctx.get("last"))
            self._next_fixer()
        elif step == "fix_where":
            self.ctx["how"][str(self.ctx["asking"])] = str(value)
            self._next_fixer()
        elif step == "fix_taker":
            self._fix(self.ctx["loc"], list(self.ctx["fixers"]), str(value), dict(self.ctx["how"]))
        elif step == "move_who":
            self.set_step("move_to", seat=str(value), last=self.ctx.get("last"))
        elif step == "move_to":
            seat = int(self.ctx["seat"])
            why = self._move_refusal(seat, str(value))
            if why is not None:
                raise self.refuse(why)
            self.data["positions"][str(seat)] = str(value)
            if seat not in self.data["moved"]:
                self.data["moved"].append(seat)
            self.note(f"{self.player_name(seat)} moves to {value}")
            self.set_step("hub", last=f"{self.nm(seat)} -> {R.SHORT[str(value)]}")

    def _next_fixer(self) -> None:
        """Ask about the next fixer not known to stand on the location; when none is left, go on with the fix."""
        loc, how = self.ctx["loc"], self.ctx["how"]
        for s in self.ctx["fixers"]:
            if s not in how and self.data["positions"].get(str(s)) != loc:
                self.ctx["asking"] = int(s)
                return
        fixers = list(self.ctx["fixers"])
        if len(fixers) == 2 and self.options["pair_fix_votes"] == "one":
            self.set_step("fix_taker", loc=loc, fixers=fixers, how=dict(how), last=self.ctx.get("last"))
        else:
            self._fix(loc, fixers, None, dict(how))

    def _fix(self, loc: str, fixers: list[str], taker: str | None, how: dict[str, str]) -> None:
        # helpers on City Hall are read before the fixers' figures move onto the location
        self.set_location(loc, R.ACTIVE)
        for s in fixers:
            if how.get(s) == "move":
                self.data["moved"].append(int(s))
                self.note(f"{self.player_name(int(s))} moves to {loc} (their move this round)")
            self.data["positions"][s] = loc
        names = " & ".join(self.player_name(int(s)) for s in fixers)
        self.note(f"{names} fix {loc}")
        for s, n in R.fix_votes(fixers, self.options["pair_fix_votes"], taker).items():
            self.add_votes(int(s), n, f"fixed {loc}")
        self.data["round_info"]["fixes"].append({"location": loc, "fixers": [int(s) for s in fixers]})
        self.set_step("hub", last=f"Fixed {R.SHORT[loc]}")

    def start_distribution(self) -> None:
        pool = R.distribution_pool(self.locs, self.data["positions"], self.event_extras(),
                                   cap_total=self.options["pool_cap"] == "total")
        se = self.manned_by(R.STOCK_EXCHANGE)
        self.data["dist"] = {"pool": pool.total, "active": pool.active, "stock_exchange": pool.stock_exchange,
                             "extras": pool.extras, "capped": pool.capped,
                             "given": {d: 0 for d in R.DEPARTMENTS}}
        self.data["round_info"]["pool"] = pool.total
        self.note(f"Distribution pool {pool.total}: {pool.active} active"
                  + (f" + {pool.stock_exchange} Stock Exchange ({self.player_name(se[0])})" if se else "")
                  + (f" + {pool.extras} from events" if pool.extras else "")
                  + (" (capped at 20)" if pool.capped else ""))
        self.set_step("hub")
