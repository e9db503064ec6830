"""The new-game wizard: how many players, their names from the presets in seat order, and the game clock when the
game offers one (a ``clock`` option).

It asks through the same prompts as a game, so its inputs are journaled, undoable and scriptable like any other.
"""
from __future__ import annotations

import copy
from typing import Any, Sequence

from fsm.base import GameMachine, Player, Setup
from fsm.clock_option import preset_choices
from fsm.clock_spec import ClockSpec
from fsm.prompts import Choice, InvalidAnswer, Number, Option, Prompt
from fsm.screen_text import plural


class SetupWizard:
    def __init__(self, game_cls: type[GameMachine], presets: Sequence[str], options: dict[str, Any],
                 pass4: bool = True) -> None:
        self.game_cls = game_cls
        self.pass4 = pass4
        self.presets = list(presets)
        self.options = options
        lo, hi = game_cls.min_players, game_cls.max_players
        count = min(hi, max(lo, game_cls.default_players))
        self.data: dict[str, Any] = {"step": "count" if lo != hi else "names", "count": count, "pick": None,
                                     "names": self._default_names(count)}
        if "clock" in game_cls.OPTIONS:
            self.data["clock"] = game_cls.resolve_options(options)["clock"]

    def _default_names(self, count: int) -> list[str]:
        names = list(self.presets[:count])
        names += [f"P{i + 1}" for i in range(len(names), count)]
        return names

    # the same protocol as a game machine
    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)

    def restore(self, snap: dict[str, Any]) -> None:
        self.data = copy.deepcopy(snap)

    @property
    def done(self) -> bool:
        return bool(self.data["step"] == "done")

    def prompt(self) -> Prompt:
        g, d = self.game_cls, self.data
        if d["step"] == "count":
            solo = ("1 player: solitaire",) if g.min_players == 1 else ()
            return Number("Players", lines=(g.name, *solo), lo=g.min_players, hi=g.max_players, default=d["count"])
        if d["step"] == "names":
            opts = [Option("start", g.SETUP_NEXT or "Start game")]
            opts += [Option(f"seat{i + 1}", f"Seat {i + 1}: {n}") for i, n in enumerate(d["names"])]
            if "clock" in d:
                opts.append(Option("clock", f"Clock: {ClockSpec.parse(d['clock']).label}"))
            then = "OK goes on" if g.SETUP_NEXT else "OK starts"
            return Choice(g.name, lines=(f"{plural(d['count'], 'player')}: {then}",), options=tuple(opts),
                          back="back" if g.min_players != g.max_players else None)
        if d["step"] == "clock":
            return Choice("Clock", options=tuple(Option(f"clock:{t}", label) for t, label in
                                                 preset_choices(d["clock"])), back="back")
        seat = d["pick"]
        taken = {n for i, n in enumerate(d["names"]) if i != seat - 1}
        free = [n for n in self.presets if n not in taken]
        current = d["names"][seat - 1]
        if current not in free:
            free.insert(0, current)
        return Choice(f"Seat {seat} name", options=tuple(Option(f"name:{n}", n) for n in free), back="back",
                      default=f"name:{current}")

    def answer(self, value: Any) -> None:
        d = self.data
        if d["step"] == "count":
            d["count"] = int(value)
            d["names"] = (d["names"] + self._default_names(value)[len(d["names"]):])[:value]
            d["step"] = "names"
        elif d["step"] == "names":
            if value == "back":
                d["step"] = "count"
            elif value == "start":
                d["step"] = "done"
            elif value == "clock":
                d["step"] = "clock"
            else:
                d["pick"] = int(str(value)[4:])
                d["step"] = "pick"
        elif d["step"] == "clock":
            if value != "back":
                d["clock"] = str(value)[6:]
            d["step"] = "names"
        else:
            if value != "back":
                name = str(value)[5:]
                if name in [n for i, n in enumerate(d["names"]) if i != d["pick"] - 1]:
                    raise InvalidAnswer(f"{name} already has a seat")
                d["names"][d["pick"] - 1] = name
            d["step"], d["pick"] = "names", None  # as it was before the seat was opened

    def setup(self) -> Setup:
        players = tuple(Player(n, i + 1) for i, n in enumerate(self.data["names"]))
        options = dict(self.options)
        if "clock" in self.data:
            options["clock"] = self.data["clock"]
        return Setup(players=players, options=options, pass4=self.pass4)
