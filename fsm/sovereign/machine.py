"""Sovereign: the table companion's machine. Setup roll-off, then turns of Add -> Spend -> Move -> Manoeuvre ->
Finish (each skippable, never reordered), battles as a sub-flow of Manoeuvre, and the three ways to win.

The rules live in :mod:`companion.rules.sovereign`; this package only asks, records and hands over.
"""
from __future__ import annotations

import logging
from typing import Any, ClassVar, Mapping

from companion.rules.sovereign import techs as rt
from fsm.base import GameMachine, OptionSpec, SeatResult
from fsm.clock_option import ClockOption
from fsm.prompts import Info, Prompt, View, validate_answer

from fsm.sovereign import battle, battle_setup, capture, cities, manoeuvre, spend, story, techpick, turn, views
from fsm.sovereign.common import held, new_player, pl, tiles

log = logging.getLogger(__name__)


class SovereignGame(GameMachine):
    game_id = "sovereign"
    name = "Sovereign"
    description = "Sovereign 1.2: turns, technology, victory cards, d12 battles with exact odds"
    min_players = 2
    max_players = 6
    default_players = 3
    STATES: ClassVar[list[str]] = ["rolloff", "place_cities", "add", "spend", "move", "manoeuvre", "battle",
                                   "finish", "game_over"]
    TRANSITIONS: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "rolled_off", "source": "rolloff", "dest": "place_cities"},
        {"trigger": "cities_placed", "source": "place_cities", "dest": "add"},
        {"trigger": "to_spend", "source": "add", "dest": "spend"},
        {"trigger": "to_move", "source": "spend", "dest": "move"},
        {"trigger": "to_manoeuvre", "source": "move", "dest": "manoeuvre"},
        {"trigger": "open_battle", "source": "manoeuvre", "dest": "battle"},
        {"trigger": "close_battle", "source": "battle", "dest": "manoeuvre"},
        {"trigger": "to_finish", "source": "manoeuvre", "dest": "finish"},
        {"trigger": "next_turn", "source": "finish", "dest": "add"},
        {"trigger": "game_won", "source": ["spend", "finish"], "dest": "game_over"},
    ]
    INITIAL = "rolloff"
    FINAL = ("game_over",)
    OPTIONS: ClassVar[Mapping[str, OptionSpec]] = {
        "air_raid_loss": OptionSpec("one", "a roll lost by an army with air raids destroys one air raid (one) or "
                                           "every air raid in it (all)", choices=("one", "all")),
        "captured_central_tile": OptionSpec("removed", "a captured city down to its central tile: the loser "
                                                       "removes that last tile too, so the city is gone (removed), "
                                                       "or the central tile stays as the captor's city (kept)",
                                            choices=("removed", "kept")),
        "construction_bonus": OptionSpec("central", "Construction's +1 in a city battle: only for the player "
                                                    "holding the central tile (central), or in every city battle "
                                                    "(every_city)", choices=("central", "every_city")),
        "espionage_researchable": OptionSpec(True, "Espionage takes only a technology the spy could research now "
                                                   "(the text sets that limit on captures only)"),
        "forts_need_code_of_laws": OptionSpec(True, "a fort can be built only once Code of Laws is discovered"),
        "explode": OptionSpec("once", "a natural 12 on the kept die earns one more d12: once, chain (again on "
                                      "every 12) or off", choices=("once", "chain", "off")),
        "expansion_tiles": OptionSpec(28, "city tiles a player must control to win with seven Expansion cards "
                                          "(the designer also mentions 23)", choices=(28, 23)),
        "removal_ties": OptionSpec("loser_chooses", "among units of equal strength, who goes: the loser chooses, "
                                                    "or the highest attack+defence+move",
                                   choices=("loser_chooses", "highest_total")),
        "selected_bonus_same_turn": OptionSpec(False, "bonuses used 'in a selected turn' (free discoveries, Wheel, "
                                                      "Electricity, Nationalism, Espionage) may be used in the turn "
                                                      "they are discovered"),
        "space_flight_bonus": OptionSpec("single", "bonus rolls after a 12: a single d12 (single) or, with Space "
                                                   "flight, two dice keeping the higher (extra)",
                                         choices=("single", "extra")),
        "clock": ClockOption(help="a turn timer (the game clock; when it runs out the turn's player is told): "
                             "none, sudden 600, fischer 300+5, ..."),
    }

    # --------------------------------------------------------------------------------------------- lifecycle
    def start(self) -> None:
        self.data.update({
            "turn": 0, "order": [], "placing": 0, "players": {str(s): new_player() for s in self.seats},
            "sub": None, "spend": None, "battle": None, "battles": 0, "battle_log": [],
            "unit_stats": {}, "unit_costs": {}, "winner": None, "win_reason": None,
        })
        turn.start(self)

    # --------------------------------------------------------------------------------------------- dispatch
    def prompt(self) -> Prompt:
        st, sub = self.state, self.data["sub"]
        notice = self.data.get("notice")
        if notice and st != "game_over":
            return Info(title=notice["title"], lines=tuple(notice["lines"]), player=notice["player"])
        if st == "rolloff":
            return turn.rolloff_prompt(self)
        if st == "place_cities":
            return turn.place_prompt(self)
        if st == "game_over":
            w = self.data["winner"]
            return Info(title="Game over", lines=(f"{self.player_name(w)} wins", str(self.data["win_reason"])))
        if st == "battle":
            b = self.data["battle"]
            return battle_setup.prompt(self) if battle.is_setup(b["step"]) else battle.prompt(self)
        if sub is not None:
            kind = sub["kind"]
            if kind == "cities":
                return cities.prompt(self)
            if kind == "take":
                return techpick.prompt(self)
            if kind in capture.KINDS:
                return capture.prompt(self)
            if kind in spend.KINDS:
                return spend.sub_prompt(self)
        return {"add": turn.add_prompt, "spend": spend.menu_prompt, "move": turn.move_prompt,
                "manoeuvre": manoeuvre.prompt, "finish": turn.finish_prompt}[st](self)

    def answer(self, value: Any) -> None:
        if self.state == "game_over":
            raise self.refuse("the game is over")
        validate_answer(self.prompt(), value)
        st, sub = self.state, self.data["sub"]
        if self.data.get("notice"):
            self.data["notice"] = None
        elif st == "rolloff":
            turn.rolloff_answer(self, value)
        elif st == "place_cities":
            turn.place_answer(self, value)
        elif st == "battle":
            if battle.is_setup(self.data["battle"]["step"]):
                battle_setup.answer(self, value)
            else:
                battle.answer(self, value)
        elif sub is not None and sub["kind"] == "cities":
            cities.answer(self, value)
        elif sub is not None and sub["kind"] == "take":
            techpick.answer(self, value)
        elif sub is not None and sub["kind"] in capture.KINDS:
            capture.answer(self, value)
        elif sub is not None and sub["kind"] in spend.KINDS:
            spend.sub_answer(self, value)
        elif st == "manoeuvre":
            manoeuvre.answer(self, value)
        else:
            {"add": turn.add_answer, "spend": spend.menu_answer, "move": turn.move_answer,
             "finish": turn.finish_answer}[st](self, value)

    # --------------------------------------------------------------------------------------------- services
    def start_spend(self) -> None:
        spend.start(self)

    def enter_finish(self) -> None:
        turn.enter_finish(self)

    def leave_battle(self) -> None:
        self.data["battle"] = None
        self.fire("close_battle")

    def check_tech_win(self, seat: int) -> None:
        if rt.has_all_final(held(pl(self, seat))):
            self.declare_winner(seat, "all three tier-7 technologies")

    def declare_winner(self, seat: int, reason: str) -> None:
        self.data["winner"] = seat
        self.data["win_reason"] = reason
        self.data["sub"] = None
        story.turn_done(self, seat)
        self.note(f"{self.player_name(seat)} wins: {reason}")
        log.info("sovereign: %s wins (%s)", self.player_name(seat), reason)
        self.fire("game_won")

    # --------------------------------------------------------------------------------------------- the end
    scored = True  #: the score: victory cards collected (seven of one kind wins)

    def results(self) -> list[SeatResult]:
        won = self.winner_seats()
        out = []
        for s in self.seats:
            cards = sum(int(n) for n in pl(self, s)["cards"].values())
            out.append(SeatResult(s, s in won, cards, (1.0 if s in won else 0.0, float(cards))))
        return out

    def start_seat(self) -> int | None:
        return int(self.data["order"][0]) if self.data["order"] else None

    def battles(self) -> list[dict[str, Any]]:
        """Every battle rolled: its odds at the first roll (``p``, ``exact``, ``args``) and result (``won``)."""
        return story.battles(self)

    def outcome(self) -> tuple[str, str]:
        w = self.winner_seat()
        if w is None:
            return super().outcome()
        reason = str(self.data["win_reason"])
        cards = {s: pl(self, s)["cards"] for s in self.seats}
        rest = [s for s in self.seats if s != w]
        if reason.startswith("seven "):
            kind = reason.split()[1]
            best = max(rest, key=lambda s: int(cards[s].get(kind, 0)), default=None)
            other = f"; next best {self.player_name(best)} with {cards[best].get(kind, 0)}" if best else ""
            extra = f" and {tiles(pl(self, w))} city tiles" if kind == "expansion" else ""
            decider = f"7 {kind.capitalize()} cards{extra} in round {self.data['round']}{other}"
        else:
            decider = f"the third tier-7 technology in round {self.data['round']}"
        return f"{self.player_name(w)} wins: {reason}", decider

    # --------------------------------------------------------------------------------------------- output
    def player_json(self, seat: int) -> dict[str, Any]:
        p = pl(self, seat)
        return {
            "cities": len(p["cities"]),
            "city_tiles": [c["tiles"] for c in p["cities"]],
            "tiles": tiles(p),
            "forts": list(p["forts"]),
            "units": int(p.get("units", 0)),
            "settlers": int(p.get("settlers", 0)),
            "points": p["points"],
            "points_added": p["added"],
            "techs": [rt.tech(k).name for k in rt.sort_keys(p["techs"])],
            "victory_cards": dict(p["cards"]),
            "pending_cards": dict(p["pending"]),
        }

    def extra_json(self) -> dict[str, Any]:
        w = self.data["winner"]
        out: dict[str, Any] = {
            "winner_name": self.player_name(w) if w else None,
            "win_reason": self.data["win_reason"],
            "battles": self.data["battles"],
        }
        b = self.data["battle"]
        if b is not None and b.get("defender") is not None and not battle.is_setup(b["step"]):
            out["battle"] = {"attacker": b["attacker"], "defender": b["defender"], "rolls": b["rolls"],
                             "attack": [u["name"] for u in b["att"]], "defence": [u["name"] for u in b["def"]],
                             "attacker_wins": battle.odds_now(self)}
        return out

    def views(self) -> list[View]:
        return views.all_views(self)
