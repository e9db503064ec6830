"""The round's close: missions declared, department votes cards, the resource floor, the vote of confidence and
finishing the round (the end conditions).

Order: by default (``round_end_order = "before-vote"``) Distribution → end-of-round votes and floor → Vote of
confidence → Finishing; with ``"after-vote"`` the vote comes first and the votes cards and floor follow it.
"""
from __future__ import annotations

from typing import Any

from companion.rules import soverana as R

from fsm.prompts import Choice, Info, MultiSelect, Number, Option, Prompt, SecretVote
from fsm.turns import next_seat, order_from
from fsm.soverana.core import SoveranaCore, dept_list, lines, short_dept
from fsm.soverana.setup import SetupPhase, new_rolloff


class CouncilPhase(SetupPhase, SoveranaCore):
    # ----------------------------------------------------------------- after distribution
    def after_distribution(self) -> None:
        if self.options["round_end_order"] == "before-vote":
            self.set_step("missions")
            self.fire("round_end")
        else:
            self._open_ballot()
            self.fire("vote")

    # ----------------------------------------------------------------- end of round: missions, votes, floor
    def _ask_end_of_round(self) -> Prompt:
        r = self.data["round"]
        if self.step == "missions":
            done = self.ctx.get("done", {})
            opts = [Option("none", "No more missions" if done else "No missions done")]
            opts += [Option(str(s), f"{self.nm(s)}" + (f" done +{done[str(s)]}" if str(s) in done else ""),
                            enabled=str(s) not in done, hint="already declared") for s in self.seats]
            return Choice(title="Missions done?", lines=lines(
                f"Round {r} ends: who proves a mission?"), options=tuple(opts), default="none")
        if self.step == "mission_votes":
            seat = int(self.ctx["seat"])
            return Number(title=f"{self.nm(seat)}: mission", lines=lines(
                "Votes cards printed on", "the mission card", "(then draw a new one)"),
                lo=R.MISSION_VOTES[0], hi=R.MISSION_VOTES[1], default=R.MISSION_VOTES[0], player=seat)
        if self.step == "summary":
            info = self.data["round_info"]
            done = dept_list(info["complete"])
            low = [d for d in R.DEPARTMENTS if R.floor_crisis_count(self.res(d))]
            floor = ("Below 3: " + ", ".join(f"{short_dept(d)} {self.res(d)}" for d in low)) if low \
                else "Every department has 3 or more"
            return Info(title=f"End of round {r}", lines=lines(
                "All 3 active: +1 card", done, floor, "-> crisis as required" if low else None))
        dept = self.ctx["queue"][0]
        need, cands = self._floor_need(dept)
        manager = self.seat_of(dept)
        return MultiSelect(title=f"Floor: {short_dept(dept)}", lines=lines(
            f"Has {self.res(dept)}: {need} into crisis",
            f"{self.nm(manager) if manager else 'manager'} picks which"),
            options=tuple(Option(n, R.SHORT[n]) for n in cands), min_count=need, max_count=need, player=manager)

    def _take_end_of_round(self, value: Any) -> None:
        if self.step == "missions":
            if value == "none":
                self._department_votes()
            else:
                self.set_step("mission_votes", seat=str(value), done=self.ctx.get("done", {}))
        elif self.step == "mission_votes":
            seat = str(self.ctx["seat"])
            self.add_votes(int(seat), int(value), "mission")
            self.set_step("missions", done={**self.ctx.get("done", {}), seat: int(value)})
        elif self.step == "summary":
            queue = []
            for d in R.DEPARTMENTS:
                need, cands = self._floor_need(d)
                if need and need == len(cands):
                    self._floor_apply(d, cands)
                elif need:
                    queue.append(d)
            if queue:
                self.set_step("floor", queue=queue)
            else:
                self._end_of_round_done()
        else:
            queue = list(self.ctx["queue"])
            self._floor_apply(queue.pop(0), list(value))
            if queue:
                self.set_step("floor", queue=queue)
            else:
                self._end_of_round_done()

    def _department_votes(self) -> None:
        complete = R.complete_departments(self.locs, self.data["assignment"])
        self.data["round_info"]["complete"] = complete
        got = [(d, seat) for d in complete if (seat := self.seat_of(d)) is not None]
        for _d, seat in got:
            self.add_votes(seat, 1, "all three locations active", say=False)
        if got:  # one line for them all
            self.note("+1 votes card, all 3 locations active: " + ", ".join(
                f"{self.player_name(seat)} → {self.data['votes'][str(seat)]}" for _d, seat in got))
        self.set_step("summary")

    def _floor_need(self, dept: str) -> tuple[int, list[str]]:
        return R.floor_picks(self.res(dept), self.data["assignment"][dept], self.locs, self.options["floor_rule"])

    def _floor_apply(self, dept: str, picked: list[str]) -> None:
        for n in picked:
            self.set_location(n, R.CRISIS)
        self.data["round_info"]["floor"].append({"department": dept, "resources": self.res(dept),
                                                 "crisis": list(picked)})
        self.note(f"{dept} has {self.res(dept)} resources: {', '.join(picked)} into crisis")
        self.notify(f"{short_dept(dept)} below 3", (f"{short_dept(dept)} has {self.res(dept)}:",
                                                    *(f"{R.SHORT[n]} -> crisis" for n in picked)),
                    self.seat_of(dept))

    def _end_of_round_done(self) -> None:
        if self.options["round_end_order"] == "before-vote":
            self._open_ballot()
            self.fire("vote")
        else:
            self.close_round()

    # ----------------------------------------------------------------- vote of confidence
    def _voters(self) -> list[int]:
        if self.mayor is None:
            raise RuntimeError("invariant: self.mayor is set here")
        order = order_from(next_seat(self.mayor, len(self.seats)), len(self.seats))
        return [s for s in order if self.options["mayor_votes"] or s != self.mayor]

    def _open_ballot(self) -> None:
        self.data["ballots"] = {}
        self.set_step("ballot")

    def _ask_confidence(self) -> Prompt:
        step = self.step
        mayor = self.mayor_name()
        if step == "ballot":
            voters = self._voters()
            seat = voters[len(self.data["ballots"])]
            return SecretVote(title="Vote of confidence", lines=lines(
                f"Keep {mayor} as mayor?", f"Ballot {len(self.data['ballots']) + 1} of {len(voters)}",
                "Secret: nobody looks"),
                options=(Option("yes", "YES - keep"), Option("no", "NO - replace")),
                voter_name=self.player_name(seat), player=seat)
        if step == "result":
            t = self.ctx
            return Info(title="Confidence result", lines=lines(f"YES {t['yes']}, NO {t['no']}",
                                                               self._outcome(t["result"])))
        if step == "rolloff":
            why = "Tie: who is mayor?" if self.ctx["result"] == "tie" else "Equal votes cards"
            return self.rolloff_prompt("Mayor roll-off", why)
        new = int(self.ctx["new"])
        return Info(title="New mayor", lines=lines(
            f"{self.nm(new)} is mayor", self.ctx["how"],
            f"Each dept paid {R.ELECTION_COST}" if self.ctx["cost"] else None), player=new)

    def _take_confidence(self, value: Any) -> None:
        step = self.step
        if step == "ballot":
            voters = self._voters()
            self.data["ballots"][str(voters[len(self.data["ballots"])])] = str(value)
            if len(self.data["ballots"]) == len(voters):
                self._count_ballots()
        elif step == "result":
            self._settle()
        elif step == "rolloff":
            winner = self.rolloff_take(value)
            if winner is not None:
                self.data["rolloff"] = None
                self._elect(winner, "won the roll-off")
        else:
            self._vote_done()

    def _count_ballots(self) -> None:
        ballots = list(self.data["ballots"].values())
        yes, no = ballots.count("yes"), ballots.count("no")
        result = R.ballot_result(yes, no)
        self.data["ballots"] = {}  # secret: only the tally is kept
        self.data["round_info"]["vote"] = {"yes": yes, "no": no, "result": result.value}
        self.note(f"Vote of confidence on {self.player_name(self.mayor or 1)}: YES {yes}, NO {no} ({result.value}). "
                  + self._outcome(result.value))
        self.set_step("result", yes=yes, no=no, result=result.value)

    def _outcome(self, result: str) -> str:
        """What the vote decides, in words naming the new mayor (or who rolls off for it): the result is read once."""
        mayor = self.mayor
        if mayor is None:
            raise RuntimeError("invariant: mayor is set here")
        votes = self.votes_by_seat()
        if result == "kept" or (result == "tie" and self.options["tie_roll"] == "keep"):
            return f"Tie: {self.player_name(mayor)} stays" if result == "tie" else f"{self.player_name(mayor)} stays mayor"
        if result == "lost":
            seats = R.successor_candidates(votes, mayor, self.options["ousted_mayor_eligible"])
            head = f"{self.player_name(mayor)} is out"
        else:
            seats = R.tie_contenders(self.options["tie_roll"], votes, mayor)
            head = "Tied"
        cost = f"each department pays {R.ELECTION_COST}"
        if len(seats) == 1:
            again = " again" if seats[0] == mayor else ""
            return f"{head}: {self.player_name(seats[0])} is mayor{again} (most votes cards, {votes[seats[0]]}); {cost}"
        return f"{head}: a d6 roll-off for mayor between {', '.join(self.player_name(x) for x in seats)}"

    def _settle(self) -> None:
        result = self.ctx["result"]
        mayor = self.mayor
        if mayor is None:
            raise RuntimeError("invariant: mayor is set here")
        votes = self.votes_by_seat()
        if result == "kept" or (result == "tie" and self.options["tie_roll"] == "keep"):
            self._vote_done()
            return
        if result == "lost":
            seats = R.successor_candidates(votes, mayor, self.options["ousted_mayor_eligible"])
        else:
            seats = R.tie_contenders(self.options["tie_roll"], votes, mayor)
        if len(seats) == 1:
            self._elect(seats[0], f"most votes cards ({votes[seats[0]]})")
            return
        self.data["rolloff"] = new_rolloff(seats, "mayor")
        self.set_step("rolloff", result=result)

    def _elect(self, seat: int, how: str) -> None:
        lost = self.ctx["result"] == "lost"
        old = self.mayor
        cost = lost or seat != old
        self.data["mayor"] = seat
        self.data["round_info"]["new_mayor"] = seat
        self.note(f"{self.player_name(seat)} is mayor ({how})")
        if cost:
            for d in R.DEPARTMENTS:
                self.charge(d, R.ELECTION_COST, "the election")
        self.set_step("elected", new=seat, how=how if seat != old else "again", cost=cost)

    def _vote_done(self) -> None:
        if self.options["round_end_order"] == "before-vote":
            self.close_round()
        else:
            self.set_step("missions")
            self.fire("round_end")

    # ----------------------------------------------------------------- finishing the round
    def close_round(self) -> None:
        info = self.data["round_info"]
        info.update(active=self.n_active(), crisis=self.n_crisis(), mayor_after=self.mayor)
        self.data["summaries"].append(info)
        r = int(self.data["round"])  # the story: the city's figures at the round's close (the vote counted by now)
        self.story_point("resources", r, {d: self.res(d) for d in R.DEPARTMENTS})
        self.story_point("locations", r, {"active": info["active"], "crisis": info["crisis"]})
        self.story_point("votes_cards", r, self.votes_by_seat())
        if info.get("vote"):
            self.story_point("confidence", r, {"yes": info["vote"]["yes"], "no": info["vote"]["no"]})
        outcome = R.end_of_round(self.locs, int(self.data["round"]), self.options["rounds"])
        if outcome is not None:
            won = R.winners(outcome, self.votes_by_seat())
            self.data["outcome"] = outcome.value
            self.data["winners"] = won
            self.data["winner"] = won[0] if len(won) == 1 else None
            from fsm.soverana.report import OUTCOME_TEXT

            self.note(f"Game over: {OUTCOME_TEXT[outcome.value].lower()}; "
                      + (f"winners: {', '.join(self.player_name(s) for s in won)}" if len(won) > 1
                         else f"winner: {self.player_name(won[0])}" if won else "nobody wins"))
        self.set_step("summary")
        self.fire("close")

    def _ask_finishing(self) -> Prompt:
        info = self.data["summaries"][-1]
        r = info["round"]
        gained = sum(info["gained"].values())
        v = info["vote"]
        vote = f"vote {v['yes']}-{v['no']}" if v else ""
        outcome = self.data["outcome"]
        nxt = {None: f"OK: round {r + 1}", "collapse": "City collapses!", "team-win": "Team wins the city!",
               "rounds-complete": f"All {self.options['rounds']} rounds done"}[outcome]
        return Info(title=f"Round {r} summary", lines=lines(
            f"Active {info['active']} Crisis {info['crisis']}", f"Fixes {len(info['fixes'])} pool {info['pool']}",
            f"+{gained} cards, {vote}".rstrip(", "), nxt))

    def _take_finishing(self, value: Any) -> None:
        if self.data["outcome"] is not None:
            self.set_step("report")
            self.fire("game_ends")
            return
        self.data["round"] = int(self.data["round"]) + 1
        self.begin_round()
        self.fire("next_round")
