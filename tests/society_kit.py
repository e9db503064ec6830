"""Test kit for Society: drive a real Session with button presses to reach given answers, and the scripted
three-society game (orders per turn) used by the play and report tests."""
from __future__ import annotations

from typing import Any

from companion.events import Key, KeyEvent
from companion.games import load
from companion.session import Session
from fsm.prompts import Choice, Confirm, Info, Number

NAMES = ("Ana", "Ben", "Cleo")


def o(seat: int, kind: str, **kw: Any) -> dict[str, Any]:
    return {"seat": str(seat), "kind": kind, **kw}


def small_world(starts: tuple[str, str, str] = ("A1", "B1", "F6"), **socs: dict[str, Any]) -> dict[str, Any]:
    """Ana, Ben and Cleo on a 6x6 map at ``starts``; ``a=``, ``b=``, ``c=`` override their fields."""
    from companion.rules.society.world import new_world

    w = new_world(list(NAMES), 6, 6, list(starts))
    for key, seat in (("a", "1"), ("b", "2"), ("c", "3")):
        w["soc"][seat].update(socs.get(key, {}))
    return w


#: the scripted game: eight turns of orders in the order received (see test_society_play.py for every number)
TURNS: list[list[dict[str, Any]]] = [
    [o(1, "trade", partner="2", count=1), o(1, "wonder", wonder="babel", gold=3),
     o(2, "wonder", wonder="babel", gold=3), o(3, "research", levels=1), o(3, "wonder", wonder="babel", gold=2)],
    [o(3, "trade", partner="2", count=1), o(3, "research", levels=1), o(1, "trade", partner="2", count=1),
     o(2, "city", square=None), o(2, "city", square="B3"), o(1, "research", levels=1), o(1, "armies", count=2),
     o(1, "declare", target="2")],
    [o(3, "revolution", gov="monarchy", keep="production"), o(3, "wonder", wonder="trojan", gold=9),
     o(1, "attack", target="2", armies=2, ranking=["B2", "B3"]), o(2, "armies", count=3)],
    [o(3, "spy", target="1", phase="trade"), o(1, "trade", partner="3", count=2), o(1, "armies", count=3),
     o(1, "city", square=None), o(2, "armies", count=4), o(2, "attack", target="1", armies=2),
     o(1, "attack", target="2", armies=4)],
    [o(3, "aid", to="2", spies=1), o(1, "research", levels=1)],
    [o(3, "spy", target="2", phase="research"), o(2, "defend", phase="research"), o(2, "research", levels=1)],
    [o(3, "aid", to="2", spies=1)],
    [o(2, "spy", target="3", phase="trade"), o(3, "spy", target="2", phase="war"), o(3, "trade", partner="2", count=1)],
]
START = {"1": "A2", "2": "B2", "3": "C2"}


class Driver:
    """Presses the keys a GM would press to give each answer, and keeps them as a script."""

    def __init__(self, seed: int = 1, options: dict[str, Any] | None = None) -> None:
        self.session = Session(load("society"), seed=seed, presets=NAMES, options=options or {})
        self.keys: list[str] = []
        self.reports: list[dict[str, Any]] = []  #: every turn's report, as each was shown

    def press(self, *names: str) -> None:
        for n in names:
            self.keys.append(n)
            self.session.handle(KeyEvent(Key(n)))

    def give(self, value: Any) -> None:
        """Move the cursor to ``value`` and press OK; fail loudly if the game refuses it."""
        p = self.session.prompt()
        if isinstance(p, Choice):
            keys = [x.key for x in p.options]
            if value == "back":
                self.press("back")
                return
            shown = getattr(getattr(self.session.screen, "list", None), "cursor", None)  # where the cursor stands
            cur = shown if isinstance(shown, int) else (keys.index(p.default) if p.default in keys else 0)
            to = keys.index(value)
            if not p.options[to].enabled:
                raise AssertionError(f"{value!r} is greyed out at {p.title!r}: {p.options[to].hint}")
            self.press(*(["down"] * (to - cur) if to >= cur else ["up"] * (cur - to)))
        elif isinstance(p, Number):
            cur = min(p.hi, max(p.lo, p.default))
            if not p.lo <= value <= p.hi:
                raise AssertionError(f"{value} outside {p.lo}..{p.hi} at {p.title}")
            self.press(*(["up"] * (value - cur) if value >= cur else ["down"] * (cur - value)))
        elif isinstance(p, Confirm):
            if value != p.default:
                self.press("down")
        elif not isinstance(p, Info):
            raise AssertionError(f"unexpected prompt {p!r}")
        self.press("ok")
        if self.session.refused:  # (a toast alone may be an announcement: the game's news)
            raise AssertionError(f"refused at {p.title!r}: {self.session.refused}")

    @property
    def game(self) -> Any:
        return self.session.game

    def setup(self, start: dict[str, str] = START) -> None:
        self.give(3)  # the wizard: three seats
        self.give("start")  # names from the presets
        for seat, square in start.items():
            self.give(f"move:{seat}")
            self.give(square[0])  # the column, then the row
            self.give(int(square[1:]))
        self.give("start")

    def order(self, od: dict[str, Any]) -> None:
        """Enter one order from the turn's main menu, and come back to it."""
        from fsm.society.entry import STEPS

        self.give(f"soc:{od['seat']}")
        kind = od["kind"]
        self.give(kind)
        for step in STEPS[kind]:
            if step == "target":
                self.give(od.get("partner") or od.get("to") or od["target"])
            elif step == "count":
                self.give(od["count"])
            elif step == "square":
                self.give(od["square"] or "auto")
            elif step == "aid_what":
                for item in ("gold", "armies", "spies", "nukes", "sdi", "tech"):
                    if od.get(item):
                        self.give(item)
                        self.give(od[item])
                self.give("done")
            elif step in ("nukes", "nukes_first"):
                if isinstance(self.session.prompt(), Number if step == "nukes" else Confirm):
                    self.give(od.get(step, 0 if step == "nukes" else True))
            elif step == "rank":
                for c in od.get("ranking", []):
                    self.give(c)
                self.give("done")
            else:
                self.give(od[step])
        self.give("done")  # back to the societies

    def arrivals(self, orders: list[dict[str, Any]]) -> None:
        """The PMs arrived in the order the turn's list first names each society: the GM says so where it is not
        seat order (first in, first processed is each PM's arrival, not the typing order)."""
        seen: list[str] = []
        for od in orders:
            if od["seat"] not in seen:
                seen.append(od["seat"])
        if seen != sorted(seen, key=int):
            for rank, seat in enumerate(seen, 1):
                self.give(f"soc:{seat}")
                self.give("arrival")
                self.give(rank)
                self.give("done")

    def turn(self, orders: list[dict[str, Any]]) -> None:
        self.arrivals(orders)
        for od in orders:
            self.order(od)
        self.give("process")
        self.give(True)
        self.reports.append(self.game.data["reports"][-1])
        self.give(True)  # the report page

    def script(self) -> str:
        return "\n".join(self.keys) + "\n"
