"""Setup: the dealer (chosen or random), Fair Winds, the match length, a solitaire board; starting each game."""
from __future__ import annotations

from companion.rules.sovereigns_chain import SOLITAIRE_POSITIONS, Suit
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import match, solitaire, tokens

from fsm.prompts import Choice, Confirm, Number, Option, Prompt, Random
from fsm.sovereigns_chain.common import ChainBase

#: printed values accepted when a value is typed in
VALUE_LO, VALUE_HI = 0, 30


class SetupPhase(ChainBase):

    def start(self) -> None:
        solo = len(self.players) == 1
        self.data.update(
            solo=solo, fair_winds=bool(self.options["fair_winds"]), match_games=int(self.options["match_games"]),
            game_no=0, dealer=None, first=None, match_wins={str(s): 0 for s in self.seats}, game_winners=[],
            chains={str(s): [] for s in self.seats}, pools={str(s): tokens.empty_pool() for s in self.seats},
            event=None, seven_order=[], first_to_seven=None, reveal=None, scores={}, score_cards={}, scoring=None,
            sd=None, winner=None, winners=[], result=None, fx=None, board=[], ui={})
        self.set_step("fair_winds" if solo else "dealer")

    # ----------------------------------------------------------------- multi-player setup
    def _p_dealer(self) -> Prompt:
        opts = [Option("random", "Random")] + [Option(f"c{s}", self.player_name(s)) for s in self.seats]
        return Choice("Dealer", ("Who deals game 1?", "Dealer's left starts"),
                      options=tuple(opts), default="random")

    def _a_dealer(self, value: str) -> None:
        if value == "random":
            self.set_step("dealer_random")
            return
        self._set_dealer(int(value[1:]))

    def _p_dealer_random(self) -> Prompt:
        return Random("Random dealer", keys=tuple(str(s) for s in self.seats))

    def _a_dealer_random(self, value: str) -> None:
        self._set_dealer(int(value))

    def _set_dealer(self, seat: int) -> None:
        self.data["dealer"] = seat
        self.note(f"Dealer: {self.player_name(seat)}")
        self.set_step("fair_winds")

    def _p_fair_winds(self) -> Prompt:
        return Confirm("Fair Winds?", ("No Event cards; abilities calling for an event are ignored",),
                       default=bool(self.data["fair_winds"]), yes="Fair Winds", no="With events")

    def _a_fair_winds(self, value: bool) -> None:
        self.data["fair_winds"] = value
        self.note("Fair Winds: no events" if value else "Playing with events")
        if self.solo:
            self.data["board"] = []
            self.set_step("sol_value")
        else:
            self.set_step("match_len")

    def _p_match_len(self) -> Prompt:
        return Number("Games in the match", ("Dealer moves one seat left each game",), lo=1, hi=9,
                      default=int(self.data["match_games"]))

    def _a_match_len(self, value: int) -> None:
        self.data["match_games"] = value
        self.begin_game()

    # ----------------------------------------------------------------- solitaire board
    def _board_lines(self) -> tuple[str, ...]:
        codes = [solitaire.position_code(st) for st in self.data["board"]]
        return (" ".join(codes[:4]), " ".join(codes[4:])) if codes else ()

    def _p_sol_value(self) -> Prompt:
        i = len(self.data["board"])
        return Number(f"Card {i + 1} of {SOLITAIRE_POSITIONS}", ("Deal 7 faceup: value", *self._board_lines()),
                      lo=VALUE_LO, hi=VALUE_HI, default=1)

    def _a_sol_value(self, value: int) -> None:
        self.set_step("sol_suit", value=value)

    def _p_sol_suit(self) -> Prompt:
        i = len(self.data["board"])
        return Choice(f"Card {i + 1} suit", (f"Value {self.ui['value']}", "Mercenaries: no suit"),
                      options=(Option("star", "Star"), Option("planet", "Planet"), Option("none", "Mercenary")),
                      default="star", back="back")

    def _a_sol_suit(self, value: str) -> None:
        if value == "back":
            self.set_step("sol_value")
            return
        printed = None if value == "none" else Suit(value)
        self.data["board"].append([ch.new_card(True, self.ui["value"], printed, solo=True)])
        if len(self.data["board"]) < SOLITAIRE_POSITIONS:
            self.set_step("sol_value")
        else:
            self.begin_game()

    # ----------------------------------------------------------------- a game starts
    def begin_game(self) -> None:
        d = self.data
        d["game_no"] += 1
        d.update(event=None, seven_order=[], first_to_seven=None, reveal=None, scores={}, score_cards={},
                 scoring=None, sd=None, winner=None, winners=[], result=None, fx=None, round=1)
        d["pools"] = {str(s): tokens.empty_pool() for s in self.seats}
        if self.solo:
            d["chains"] = {"1": d["board"]}
            d["board"] = []
            d["first"] = d["active"] = 1
            self.note(f"Solitaire game {d['game_no']}")
        else:
            d["chains"] = {str(s): ch.start_chain() for s in self.seats}
            d["first"] = d["active"] = match.first_player(d["dealer"], self.n)
            self.note(f"Game {d['game_no']}: {self.player_name(d['dealer'])} deals, "
                      f"{self.player_name(d['first'])} starts")
        if self.events_on:
            self.fire("draw_event")
            self.set_step("event", ctx="deal")
        else:
            self.start_play()

    def start_play(self) -> None:
        self.fire("begin_turns")
        if self.solo:
            if solitaire.winning_suit(self.chain(1)) is not None:
                self.end_solitaire(True)
                return
            self.set_step("sol_turn")
        else:
            self.set_step("play")

    # ----------------------------------------------------------------- the active event
    def _p_event(self) -> Prompt:
        names = self.event_names()
        opts = [Option("none", "Not recorded")] + [Option(f"e{i}", nm) for i, nm in
                                                   enumerate(names, start=1)]
        deal = self.ui.get("ctx") == "deal"
        lines = ("Draw the first event faceup as active",) if deal else ("New event replaces the active one",)
        return Choice("Active event" if deal else "New event (E)", lines, options=tuple(opts), default="none",
                      back=None if deal else "back", player=None if deal else self.data["active"])

    def _a_event(self, value: str) -> None:
        deal = self.ui.get("ctx") == "deal"
        if value != "back":
            self.data["event"] = None if value == "none" else int(value[1:])
            self.note(f"Event: {self.event_label() or 'new, not recorded'}")
        if deal:
            self.start_play()
        else:
            self.set_step("fx")
