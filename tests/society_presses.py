"""Presses per order on the device: the kit's scripted eight-turn game entered with the buttons the way a GM enters
PMs — one society's orders together, the shortest way to each answer (menus wrap round; BACK leaves a menu), counting
only the presses spent entering orders (not processing the turn).

    .venv/bin/python tests/society_presses.py      # prints: orders, presses, presses per order
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fsm.prompts import Choice  # noqa: E402
from society_kit import TURNS, Driver  # noqa: E402


class ShortestDriver(Driver):
    def give(self, value: Any) -> None:
        p = self.session.prompt()
        if isinstance(p, Choice) and value != "back":
            keys = [x.key for x in p.options]
            if value == "done" and p.back is not None and p.title.startswith("Orders:"):
                self.press("back")  # leaving a society's menu
                return
            w = self.session.screen.list
            cur = keys.index(w.items[w.cursor].key)  # where the cursor is (the entry come back to, or the default)
            to = keys.index(value)
            if not p.options[to].enabled:
                raise AssertionError(f"{value!r} is greyed out at {p.title!r}: {p.options[to].hint}")
            n = len(keys)
            down, up = (to - cur) % n, (cur - to) % n
            self.press(*(["down"] * down if down <= up else ["up"] * up))
            self.press("ok")
            if self.session.refused:
                raise AssertionError(f"refused at {p.title!r}: {self.session.refused}")
            return
        super().give(value)

    def pm(self, orders: list[dict[str, Any]]) -> None:
        """One society's orders, entered together from the turn's main menu."""
        from fsm.society.entry import STEPS

        self.give(f"soc:{orders[0]['seat']}")
        for od in orders:
            self.give(od["kind"])
            self._fields(od, STEPS[od["kind"]])
        self.give("done")

    def _fields(self, od: dict[str, Any], steps: tuple[str, ...]) -> None:
        from fsm.prompts import Confirm, Number

        for step in steps:
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


def measure() -> tuple[int, int]:
    d = ShortestDriver(seed=1)
    d.setup()
    orders = presses = 0
    for turn in TURNS:
        seats: list[str] = []
        for od in turn:
            if od["seat"] not in seats:
                seats.append(od["seat"])
        for seat in seats:
            mine = [od for od in turn if od["seat"] == seat]
            before = len(d.keys)
            d.pm(mine)
            presses += len(d.keys) - before
            orders += len(mine)
        d.give("process")
        d.give(True)
        d.give(True)
    return orders, presses


if __name__ == "__main__":
    n, p = measure()
    print(f"{n} orders, {p} presses, {p / n:.1f} presses per order")
