"""A round's opening: mission cards, the major event and the two minor events.

An event card is entered on a small menu: which locations go into crisis, which are restored, what each named
department pays or receives, and any extra resources for this round's distribution. Each entry applies at once
(undo takes it back); "Card done" moves on.
"""
from __future__ import annotations

from typing import Any

from companion.rules import soverana as R

from fsm.prompts import Choice, Info, MultiSelect, Number, Option, Prompt
from fsm.soverana.core import SoveranaCore, lines, short_dept

MINOR_EVENTS = 2


class EventPhase(SoveranaCore):
    # ----------------------------------------------------------------- mission cards
    def _ask_missions(self) -> Prompt:
        r = self.data["round"]
        return Info(title=f"Round {r}/{self.options['rounds']}: missions", lines=lines(
            "Managers without a mission draw one and keep it secret.", f"Mayor: {self.mayor_name()}"))

    def _take_missions(self, value: Any) -> None:
        self._start_event("major", 1)
        self.fire("missions_drawn")

    # ----------------------------------------------------------------- events
    def _start_event(self, kind: str, no: int) -> None:
        self.data["event"] = {"kind": kind, "no": no, "crisis": [], "restored": [], "paid": {}, "got": {},
                              "extra": 0}
        self.set_step("hub")

    def _event_title(self) -> str:
        ev = self.data["event"]
        return "Major event" if ev["kind"] == "major" else f"Minor event {ev['no']}/{MINOR_EVENTS}"

    def _event_summary(self) -> list[str]:
        ev = self.data["event"]
        out: list[str] = []
        if ev["crisis"]:
            out += lines("Into crisis: " + ", ".join(R.SHORT[n] for n in ev["crisis"]))
        if ev["restored"]:
            out += lines("Restored: " + ", ".join(R.SHORT[n] for n in ev["restored"]))
        money = ([f"{short_dept(d)} pays {v}" for d, v in ev["paid"].items()]
                 + [f"{short_dept(d)} gets {v}" for d, v in ev["got"].items()])
        if ev["extra"]:
            money.append(f"{ev['extra']} extra to hand out")
        return out + list(lines(*money))

    def _ask_event(self) -> Prompt:
        ev = self.data["event"]
        step = self.step
        title = self._event_title()
        if step == "crisis":
            act = [n for n in R.LOCATION_NAMES if self.locs[n] == R.ACTIVE]
            return MultiSelect(title=title, lines=lines("Tick: into crisis", "(Done is at the end)"),
                               options=tuple(Option(n, R.SHORT[n]) for n in act), player=self.mayor)
        if step == "restore":
            bad = [n for n in R.LOCATION_NAMES if self.locs[n] == R.CRISIS]
            return MultiSelect(title=title, lines=lines("Tick: restored"),
                               options=tuple(Option(n, R.SHORT[n]) for n in bad), player=self.mayor)
        if step in ("pay", "gain"):
            verb = "pays" if step == "pay" else "receives"
            return Choice(title=title, lines=lines(f"Which dept {verb}?"),
                          options=tuple(Option(d, f"{short_dept(d)} ({self.res(d)})") for d in R.DEPARTMENTS),
                          back="back", player=self.mayor)
        if step in ("pay_amount", "gain_amount"):
            d = self.ctx["dept"]
            verb = "pays" if step == "pay_amount" else "receives"
            return Number(title=title, lines=lines(f"{short_dept(d)} {verb}:", f"(it has {self.res(d)})"),
                          lo=1, hi=30, default=1, player=self.seat_of(d))
        if step == "extra":
            return Number(title=title, lines=lines("Extra resources for this round's hand-out"),
                          lo=0, hi=20, default=ev["extra"], player=self.mayor)
        has_crisis = any(s == R.CRISIS for s in self.locs.values())
        opts = (Option("crisis", "Into crisis..."),
                Option("restore", "Restore...", enabled=has_crisis, hint="no location is in crisis"),
                Option("pay", "A dept pays..."), Option("gain", "A dept receives..."),
                Option("extra", "Extra to hand out..."), Option("done", "Card done"))
        summary = self._event_summary()
        if ev["kind"] == "major":
            default = "done" if ev["paid"] else ("pay" if ev["crisis"] else "crisis")
            head = "Mayor turns one card, reads it + real facts" if not summary else None
            head2 = None
        else:
            default = "done" if summary else "crisis"
            head = "Mayor turns a card" if not summary else None
            head2 = None
        return Choice(title=title, lines=(*lines(head, head2), *summary), options=opts, default=default,
                      player=self.mayor)

    def _take_event(self, value: Any) -> None:
        ev = self.data["event"]
        step = self.step
        if step == "hub":
            if value == "done":
                self._event_done()
            else:
                self.set_step(str(value))
            return
        if step == "crisis":
            for n in value:
                if self.set_location(n, R.CRISIS):
                    ev["crisis"].append(n)
            if value:
                self.note(f"{self._event_title()}: into crisis " + ", ".join(value))
        elif step == "restore":
            for n in value:
                if self.set_location(n, R.ACTIVE):
                    ev["restored"].append(n)
            if value:
                self.note(f"{self._event_title()}: restored " + ", ".join(value))
        elif step in ("pay", "gain"):
            if value == "back":
                self.set_step("hub")
            else:
                self.set_step(f"{step}_amount", dept=str(value))
            return
        elif step == "pay_amount":
            d = self.ctx["dept"]
            p = self.charge(d, int(value), self._event_title().lower())
            ev["paid"][d] = ev["paid"].get(d, 0) + p.paid
        elif step == "gain_amount":
            d = self.ctx["dept"]
            self.give(d, int(value), self._event_title().lower())
            ev["got"][d] = ev["got"].get(d, 0) + int(value)
        elif step == "extra":
            self.data["extras"] = self.event_extras() - ev["extra"] + int(value)
            ev["extra"] = int(value)
            self.note(f"{self._event_title()}: {value} extra resources for the distribution")
        self.set_step("hub")

    def _event_done(self) -> None:
        ev = self.data["event"]
        self.data["round_info"]["events"].append(
            {"kind": ev["kind"], "crisis": list(ev["crisis"]), "restored": list(ev["restored"]),
             "paid": dict(ev["paid"]), "got": dict(ev["got"]), "extra": ev["extra"]})
        if ev["kind"] == "major":
            self._start_event("minor", 1)
            self.fire("major_done")
        elif ev["no"] < MINOR_EVENTS:
            self._start_event("minor", ev["no"] + 1)
            self.fire("next_minor")
        else:
            self.data["event"] = None
            self.set_step("hub")
            self.fire("minors_done")

    _ask_major_event = _ask_event
    _ask_minor_event = _ask_event
    _take_major_event = _take_event
    _take_minor_event = _take_event
