"""Society: the game master's companion. Set-up (map, starting squares), then each turn the GM enters every
society's orders as they arrive, the companion processes the turn in the text's phase order and shows the report.

The rules live in :mod:`companion.rules.society`; this package only asks, records and hands over.
"""
from __future__ import annotations

import copy
import logging
from typing import Any, ClassVar, Mapping

from companion.rules.society.data import WONDER_BY_KEY
from companion.rules.society.orders import describe
from companion.rules.society.resolve import resolve
from companion.rules.society.world import map_rows
from fsm.base import GameMachine, OptionSpec
from fsm.prompts import Info, Prompt, View, validate_answer

from fsm.society import entry, report, setup
from fsm.society.common import readings, soc, summary, world, wrap

log = logging.getLogger(__name__)

KEEP_REPORTS = 3  #: turn reports kept in the game's data


class SocietyGame(GameMachine):
    game_id = "society"
    name = "Society"
    description = "Society (forum game): the GM's desk: orders, six-phase turns, the map, the turn report"
    min_players = 2
    max_players = 20
    default_players = 3
    STATES: ClassVar[list[str]] = ["setup", "orders", "report", "game_over"]
    TRANSITIONS: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "setup", "dest": "orders"},
        {"trigger": "processed", "source": "orders", "dest": "report"},
        {"trigger": "next_turn", "source": "report", "dest": "orders"},
        {"trigger": "game_won", "source": ["report", "orders"], "dest": "game_over"},
    ]
    INITIAL = "setup"
    FINAL = ("game_over",)
    OPTIONS: ClassVar[Mapping[str, OptionSpec]] = {
        "squares_per_society": OptionSpec(12, "map area per society at set-up (the text: about 12)", lo=4, hi=40),
        "tech_price": OptionSpec("shared", "research price: shared = Base*(P-R)/P; literal = Base*(P - R/P) as "
                                           "printed", choices=("shared", "literal")),
        "tech_rounding": OptionSpec("up", "rounding of the research price", choices=("up", "down", "nearest")),
        "tech_players": OptionSpec("alive", "P in the research price: societies still alive, or all that started",
                                   choices=("alive", "all")),
        "tech_have": OptionSpec("start", "R in the research price: who had the level at the turn's start, or also "
                                         "those who bought it earlier this turn (live)", choices=("start", "live")),
        "casualty_rounding": OptionSpec("down", "rounding of casualties (D/AT and D/DC x cities lost)",
                                        choices=("down", "up")),
        "support_rounding": OptionSpec("down", "rounding of a Monarchy's army support (armies / cities)",
                                       choices=("down", "up")),
        "support_cities": OptionSpec("all", "the cities a Monarchy's army support is divided by: all, or only the 12 "
                                            "it is taxed on (capped)", choices=("all", "capped")),
        "nascar_rounding": OptionSpec("down", "rounding of NASCAR's 0.5 x tech squared per caravan",
                                      choices=("down", "up")),
        "two_way_tie": OptionSpec("both_destroyed", "two attacking armies of equal strength: both destroyed, or "
                                                    "both go home", choices=("both_destroyed", "both_return")),
        "bonus_rounding": OptionSpec("each", "Monarchy's +50 %: rounded up on each caravan, the tax and the wonder "
                                           "income (each), or once on a turn's trade and once on tax plus wonders "
                                           "(together)", choices=("each", "together")),
        "survivor_rounding": OptionSpec("up", "rounding of a two-way winner's survivors (difference / its tech); the "
                                              "text says up", choices=("up", "down")),
        "spaceship_parts": OptionSpec(4, "spaceship parts needed to win (4 in Special Units, 3 in Victory)",
                                      choices=(4, 3)),
        "trade_range": OptionSpec("tech", "trade reach: tech = as many squares as the tech level; adjacent = "
                                          "neighbours only", choices=("tech", "adjacent")),
        "silk_road_expiry": OptionSpec("owner", "the Silk Road expires when its owner (owner) or anyone (anyone) "
                                                "reaches Mass Education", choices=("owner", "anyone")),
        "obsolete_culture": OptionSpec(True, "obsolete wonders still count toward a cultural victory"),
        "revolution_tax": OptionSpec(False, "a society in revolution still collects tax (false: only if it kept "
                                            "Tax as its phase)"),
        "open_orders": OptionSpec(False, "the orders entered this turn show on every phone (false: only the game "
                                         "master's host phone and the device see them until the turn is processed)"),
    }

    # ------------------------------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self.data.update({"world": None, "orders": [], "entry": None, "reports": [], "winner": None,
                          "winners": [], "win_reason": None, "view_report": None, "sent": [], "arrival": {}})
        self.history: dict[int, dict[str, Any]] = {}  #: every turn's report and world, for export (not undo data)
        setup.start(self)

    def prompt(self) -> Prompt:
        st = self.state
        if st == "setup":
            return setup.prompt(self)
        if st == "orders":
            return entry.prompt(self)
        if st == "report":
            rep = self.data["reports"][-1]
            lines = [x for e in rep["events"] for x in wrap(e["text"])] or ["nothing happened"]
            return Info(f"Turn {rep['turn']} report", lines=tuple(lines))
        return Info("Game over", lines=tuple(wrap(str(self.data["win_reason"]))))

    def answer(self, value: Any) -> None:
        if self.state == "game_over":
            raise self.refuse("the game is over")
        validate_answer(self.prompt(), value)
        if self.state == "setup":
            setup.answer(self, value)
        elif self.state == "orders":
            entry.answer(self, value)
        else:
            self.after_report()

    # ------------------------------------------------------------------------------------------ turns
    def process_turn(self) -> None:
        w = world(self)
        new, rep = resolve(w, list(self.data["orders"]), readings(self), self.data.get("arrival") or {})
        rep["orders"] = [{**o, "text": describe(o, w, full=True)} for o in rep["orders"]]
        rep["societies"] = {k: summary(new, k) for k in new["soc"]}
        rep["map"] = map_rows(new)
        self.data["world"] = new
        turn = int(rep["turn"])  # the story: each society's treasury, cities and armies once the turn is processed
        socs = {int(k): v for k, v in new["soc"].items()}
        self.story_point("treasury", turn, {k: v["gold"] for k, v in socs.items()}, by="turn")
        self.story_point("cities", turn, {k: len(v["cities"]) for k, v in socs.items()}, by="turn")
        self.story_point("armies", turn, {k: int(v["armies"]) for k, v in socs.items()}, by="turn")
        # the latest few turns only: every answer snapshots ``data`` for undo (older turns replay from the journal)
        self.data["reports"] = [*self.data["reports"][-(KEEP_REPORTS - 1):], rep]
        self.data["orders"] = []
        self.data["entry"] = None
        self.data.update(sent=[], arrival={}, last_seat=None)
        self.data["round"] = int(new["turn"])
        if not hasattr(self, "history"):
            self.history = {}
        self.history[int(rep["turn"])] = {"report": rep, "world": copy.deepcopy(new)}
        self.note(f"Turn {rep['turn']} processed: {len(rep['orders'])} orders, {len(rep['events'])} events")
        log.info("society: turn %s processed", rep["turn"])
        self.fire("processed")

    def after_report(self) -> None:
        rep = self.data["reports"][-1]
        wins = rep["winners"]
        if wins:
            w = world(self)
            names = [str(w["soc"][x["seat"]]["name"]) for x in wins]
            seats = {x["seat"] for x in wins}
            self.data["winners"] = names
            self.data["winner"] = int(wins[0]["seat"]) if len(seats) == 1 else None
            how = ", ".join(f"{n} ({x['how']})" for n, x in zip(names, wins))
            self.data["win_reason"] = ("Dual victory: " if len(seats) > 1 else "Victory: ") + how
            self.note(str(self.data["win_reason"]))
            self.fire("game_won")
            return
        self.fire("next_turn")

    def concede(self, seat: str) -> None:
        name = str(soc(self, seat)["name"])
        self.data["winner"] = int(seat)
        self.data["winners"] = [name]
        self.data["win_reason"] = f"Victory: {name} (domination, conceded)"
        self.data["entry"] = None
        self.note(str(self.data["win_reason"]))
        self.fire("game_won")

    def winner_seats(self) -> list[int]:
        """The winning societies' seats (``data["winners"]`` names the societies, not the players)."""
        if (w := self.winner_seat()) is not None:
            return [w]
        socs = (self.data["world"] or {}).get("soc", {})
        return sorted(int(k) for k, v in socs.items() if v["name"] in self.data["winners"])

    def outcome(self) -> tuple[str, str]:
        if not self.is_over:
            return super().outcome()
        return str(self.data["win_reason"]), f"turn {self.data['round']}"

    # ------------------------------------------------------------------------------------------ output
    def player_json(self, seat: int) -> dict[str, Any]:
        w = self.data["world"]
        if w is None:
            sq = self.data["setup"]["squares"]
            return {"start_square": sq[seat - 1] if sq else None}
        return summary(w, str(seat))

    def extra_json(self) -> dict[str, Any]:
        w = self.data["world"]
        out: dict[str, Any] = {"winners": list(self.data["winners"]), "win_reason": self.data["win_reason"]}
        if w is None:
            s = self.data["setup"]
            out["map"] = {"width": s["w"], "height": s["h"], "start_squares": list(s["squares"])}
            return out
        out.update({
            "turn": w["turn"],
            "map": {"width": w["w"], "height": w["h"], "nuked": list(w["nuked"]),
                    "cities": {c: int(k) for k, v in w["soc"].items() for c in v["cities"]},
                    "rows": map_rows(w)},
            "wonders": {WONDER_BY_KEY[k].name: {"owner": int(v["owner"]), "square": v["square"],
                                                "obsolete": v["obsolete"]} for k, v in w["wonders"].items()},
            "wars": sorted(w["wars"]),
            "orders": [{**o, "text": describe(o, w)} for o in self.data["orders"]],
            "entry": self.data["entry"],
            "last_report": self.data["reports"][-1] if self.data["reports"] else None,
        })
        return out

    def views(self) -> list[View]:
        return report.views(self)

    def sealed(self) -> str | None:
        """While this turn's orders are hidden (the default; ``open_orders`` shows them), one plain line the web view
        shows instead of the game; only the host phone and the device see the orders until the turn is processed."""
        if self.state != "orders" or self.options["open_orders"]:
            return None
        return f"Turn {self.data['round']}: the game master is entering orders. They show here once the turn is processed."

    def report(self, fmt: str = "markdown", turn: int | str | None = None) -> str:
        """The forum post of the latest turn, of turn ``turn``, or (``"all"``) of every turn, one after another."""
        return report.render(self, fmt, turn)


__all__ = ["SocietyGame", "summary"]
