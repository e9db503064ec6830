"""Shared helpers of the SOVERANA machine: names, resources with visible shortfalls, notices, screen lines.

Everything the game knows is in ``self.data`` (plain JSON); seats are ints in lists and strings as dict keys.
"""
from __future__ import annotations

import logging
from typing import Any, Iterable

from companion.rules import soverana as R

from fsm.base import GameMachine
from fsm.prompts import Info, Prompt
from fsm.screen_text import LINE_PX, TITLE_PX, clip, fits

log = logging.getLogger(__name__)

def fit(text: str, px: int = LINE_PX) -> str:
    """One line measured as drawn: ``text`` if it fits, else shortened with "…" (for a line that must stay one)."""
    return clip(text, px)


def lines(*items: str | None) -> tuple[str, ...]:
    """Context lines: empty items dropped, each kept whole (the phone shows it as written; the OLED wraps it where
    its font needs, and an Info page or a choice scrolls what does not fit: nothing is cut or dropped)."""
    return tuple(item for item in items if item)


def dept_list(depts: list[str]) -> str:
    """Departments in words: "Economy, Education, Health", "all six" or "none" (a line the screen wraps)."""
    if len(depts) == len(R.DEPARTMENTS):
        return "all six"
    return ", ".join(short_dept(d) for d in depts) or "none"


def short_dept(dept: str) -> str:
    """"Health" for Health & Welfare: the department's name in one word."""
    return R.Department(dept).short


class SoveranaCore(GameMachine):
    """Helpers every phase uses. The phases are mixins over this class; ``game.py`` puts them together."""

    # ----------------------------------------------------------------- who is who
    def nm(self, seat: int) -> str:
        """A player's name, whole: lines that hold it are measured as drawn and wrapped, never cut by letters."""
        return self.player_name(seat)

    @property
    def mayor(self) -> int | None:
        m = self.data.get("mayor")
        return m if isinstance(m, int) else None

    def mayor_name(self) -> str:
        m = self.mayor
        return self.nm(m) if m is not None else "-"

    def dept_of(self, seat: int) -> str | None:
        d = self.data["dept"].get(str(seat))
        return d if isinstance(d, str) else None

    def seat_of(self, dept: str) -> int | None:
        for s, d in self.data["dept"].items():
            if d == dept:
                return int(s)
        return None

    def manager_label(self, dept: str) -> str:
        seat = self.seat_of(dept)
        return self.nm(seat) if seat is not None else short_dept(dept)

    # ----------------------------------------------------------------- the city
    @property
    def locs(self) -> dict[str, str]:
        return self.data["locations"]  # type: ignore[no-any-return]

    def n_active(self) -> int:
        return R.count(self.locs, R.ACTIVE)

    def n_crisis(self) -> int:
        return R.count(self.locs, R.CRISIS)

    def standing(self, location: str) -> list[int]:
        return [int(s) for s, where in self.data["positions"].items() if where == location]

    def manned_by(self, location: str) -> list[int]:
        """Seats on a special location whose effect holds (it is active)."""
        return [int(s) for s in R.manned(location, self.locs, self.data["positions"])]

    def specials_line(self) -> str:
        parts = []  # only what matters: who stands on a special location, which one is in crisis
        for loc in (R.CITY_HALL, R.STOCK_EXCHANGE, R.TRANSIT):
            who = self.manned_by(loc)
            if self.locs[loc] == R.CRISIS:
                parts.append(f"{R.SHORT[loc]} in crisis")
            elif who:
                parts.append(f"{self.nm(who[0])} on {R.SHORT[loc]}")
        if not parts:
            return "No one on specials"
        out = parts[0]
        for p in parts[1:]:  # as many as fit a line; a crisis comes first as it is found first
            if not fits(f"{out}, {p}"):
                break
            out += ", " + p
        return out

    def set_location(self, name: str, state: str) -> bool:
        """Set a location's state; True if it changed."""
        if self.locs[name] == state:
            return False
        self.locs[name] = state
        return True

    # ----------------------------------------------------------------- resources and votes
    def res(self, dept: str) -> int:
        return int(self.data["resources"][dept])

    def charge(self, dept: str, amount: int, why: str) -> R.Payment:
        """Take ``amount`` from a department; what it cannot pay is logged and shown to the table."""
        p = R.pay(self.res(dept), amount)
        self.data["resources"][dept] = p.after
        who = self.manager_label(dept)
        if p.short:
            self.note(f"{dept} ({who}) owed {amount} for {why}, had {p.before}: paid {p.paid}, short {p.short}")
            self.notify("Can't pay in full", (f"{short_dept(dept)} owes {amount} for {why}",
                                              f"has {p.before}: pays {p.paid}", f"SHORT BY {p.short}"),
                        self.seat_of(dept))
        else:
            self.note(f"{dept} pays {amount} for {why} ({p.before} -> {p.after})")
        return p

    def tokens_out(self) -> int:
        return sum(int(v) for v in self.data["resources"].values())

    def give(self, dept: str, amount: int, why: str, warn: bool = True, say: bool = True) -> None:
        """``say``: a line in the log (off when the caller says several gifts in one)."""
        if warn:
            self.bank_check("resource tokens", R.BANK_RESOURCES, self.tokens_out(), amount, short_dept(dept),
                             self.seat_of(dept))
        self.data["resources"][dept] = self.res(dept) + amount
        if say:
            self.note(f"{dept} receives {amount} for {why} (now {self.res(dept)})")

    def bank_check(self, what: str, box: int, out: int, amount: int, to: str, player: int | None) -> None:
        """Warn (a screen and the log) when a payout needs more than the bank has left; the payout stands."""
        left = max(0, box - out)
        if amount > left:
            self.note(f"the bank has {left} {what} left of {box}: {to} is owed {amount}")
            unit = what.split()[-1][:-1] if amount == 1 else what.split()[-1]
            self.notify("Bank runs short", (f"{to}: +{amount} {unit}", f"bank has {left} of {box}",
                                            "Use substitutes."), player)

    def add_votes(self, seat: int, n: int, why: str, say: bool = True) -> None:
        self.bank_check("votes cards", R.BANK_VOTES, sum(int(v) for v in self.data["votes"].values()), n,
                         self.nm(seat), seat)
        v = self.data["votes"]
        v[str(seat)] = int(v[str(seat)]) + n
        self.data["round_info"]["gained"][str(seat)] = self.data["round_info"]["gained"].get(str(seat), 0) + n
        if say:
            self.note(f"{self.player_name(seat)} +{n} votes card{'s' if n != 1 else ''} ({why}), now {v[str(seat)]}")

    def votes_by_seat(self) -> dict[int, int]:
        return {int(s): int(n) for s, n in self.data["votes"].items()}

    # ----------------------------------------------------------------- sub-steps and notices
    @property
    def step(self) -> str:
        return str(self.data.get("step") or "")

    def set_step(self, step: str, **ctx: Any) -> None:
        self.data["step"] = step
        self.data["ctx"] = dict(ctx)

    @property
    def ctx(self) -> dict[str, Any]:
        return self.data["ctx"]  # type: ignore[no-any-return]

    def notify(self, title: str, text: Iterable[str], player: int | None = None) -> None:
        """Queue an Info screen: shown before anything else is asked."""
        self.data["notices"].append({"title": fit(title, TITLE_PX), "lines": list(lines(*text)), "player": player})

    def notice_prompt(self) -> Prompt | None:
        if not self.data["notices"]:
            return None
        n = self.data["notices"][0]
        return Info(title=n["title"], lines=tuple(n["lines"]), player=n["player"])

    def event_extras(self) -> int:
        return int(self.data.get("extras", 0))
