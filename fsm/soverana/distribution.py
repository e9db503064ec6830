"""Distribution of resources: the mayor splits the pool among the six departments; "Done" only when all is given."""
from __future__ import annotations

from typing import Any

from companion.rules import soverana as R

from fsm.prompts import Choice, Number, Option, Prompt
from fsm.soverana.core import SoveranaCore, lines, short_dept


class DistributionPhase(SoveranaCore):
    def pool_left(self) -> int:
        dist = self.data["dist"]
        return int(dist["pool"]) - int(sum(dist["given"].values()))

    def _pool_line(self) -> str:
        dist = self.data["dist"]
        parts = [f"{dist['active']} active"]
        if dist["stock_exchange"]:  # the Stock Exchange, named as the specials line names it
            parts.append(f"{dist['stock_exchange']} Stock Exchange")
        if dist["extras"]:
            parts.append(f"{dist['extras']} from events")
        return " + ".join(parts)

    def _untouched(self) -> list[str]:
        """The departments the mayor has not handed anything yet (a 0 given on purpose counts as handed)."""
        dist = self.data["dist"]
        done = dist.get("set", [])
        return [d for d in R.DEPARTMENTS if not dist["given"][d] and d not in done]

    def _suggest(self, dept: str) -> int:
        """What a department already has, else an even split of what is left among the departments given
        nothing yet (rounded up, so OK on each in turn hands out the whole pool: 20 over six is 4, 4, 3, 3, 3, 3)."""
        untouched = self._untouched()
        if dept not in untouched:
            return int(self.data["dist"]["given"][dept])
        return -(-self.pool_left() // max(1, len(untouched)))

    def _ask_distribution(self) -> Prompt:
        dist = self.data["dist"]
        left = self.pool_left()
        if self.step == "give":
            d = self.ctx["dept"]
            return Number(title=f"Give {short_dept(d)}", lines=lines(
                f"{short_dept(d)} has {self.res(d)}", f"Left to hand out {left}"),
                lo=0, hi=int(dist["given"][d]) + left, default=self._suggest(d), player=self.mayor)
        opts = [Option(d, f"{short_dept(d)} {self.res(d)} +{dist['given'][d]}") for d in R.DEPARTMENTS]
        opts.append(Option("done", "Done", enabled=left == 0, hint=f"{left} still to hand out"))
        default = "done" if left == 0 else next(iter(self._untouched()), R.DEPARTMENTS[0])
        return Choice(title="Distribution", lines=lines(
            f"Left {left} of {dist['pool']}" + (" (the most)" if dist["capped"] else ""),
            self._pool_line(), f"Mayor {self.mayor_name()} hands out"),
            options=tuple(opts), default=default, player=self.mayor, advance=True)  # the next department in turn

    def _take_distribution(self, value: Any) -> None:
        dist = self.data["dist"]
        if self.step == "give":
            dist["given"][self.ctx["dept"]] = int(value)
            dist.setdefault("set", []).append(self.ctx["dept"])  # handed, even a 0
            self.set_step("hub")
            return
        if value != "done":
            self.set_step("give", dept=str(value))
            return
        left = self.pool_left()
        if left:
            raise self.refuse(f"{left} still to hand out")
        self.bank_check("resource tokens", R.BANK_RESOURCES, self.tokens_out(), sum(dist["given"].values()),
                        "Pool", self.mayor)
        given = [(d, int(n)) for d, n in dist["given"].items() if n]
        for d, n in given:
            self.give(d, n, "the distribution", warn=False, say=False)
        if given:  # one line for the whole hand-out: the table reads it at once
            self.note("Distribution: " + ", ".join(f"{short_dept(d)} +{n} → {self.res(d)}" for d, n in given))
        self.data["round_info"]["given"] = dict(dist["given"])
        self.data["dist"] = None
        self.after_distribution()

    def after_distribution(self) -> None:
        raise NotImplementedError
