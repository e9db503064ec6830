"""Solitaire turns: play a card exactly one higher than the card it covers (any value on a facedown card or a gap),
resolve its ability, draw; all seven positions one suit wins; declaring no legal play loses."""
from __future__ import annotations

from companion.rules.sovereigns_chain import SOLITAIRE_POSITIONS, Suit
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import solitaire

from fsm.prompts import Choice, Confirm, Number, Option, Prompt
from fsm.sovereigns_chain.common import ChainBase
from fsm.sovereigns_chain.setup import VALUE_HI, VALUE_LO


class SoloPhase(ChainBase):

    def _board(self) -> tuple[str, str]:
        codes = [solitaire.position_code(st) for st in self.chain(1)]
        return " ".join(codes[:4]), " ".join(codes[4:])

    def _p_sol_turn(self) -> Prompt:
        lines = [*self._board(), "S star, P planet, ?? face down"]
        if self.events_on and self.event_label():
            lines.append("Event: " + str(self.event_label()))
        return Choice(f"Solitaire turn {self.data['round']}", tuple(lines),
                      options=(Option("play", "Play a card"), Option("stuck", "No legal play")),
                      default="play", player=1)

    def _a_sol_turn(self, value: str) -> None:
        self.set_step("sol_play_value" if value == "play" else "sol_giveup")

    def _p_sol_play_value(self) -> Prompt:
        return Number("Card value", (*self._board(), "Value of card played"), lo=VALUE_LO, hi=VALUE_HI,
                      default=self._first_legal(), player=1)

    def _first_legal(self) -> int:
        """The smallest value some position takes (any value if there is a gap or a facedown card)."""
        needs = []
        for i in range(SOLITAIRE_POSITIONS):
            top = ch.top(self.chain(1), i)
            v = None if top is None else solitaire.effective_value(top)
            if v is None:
                return 1
            needs.append(v + 1)
        fits = [v for v in needs if VALUE_LO <= v <= VALUE_HI]
        return min(fits) if fits else 1

    def _a_sol_play_value(self, value: int) -> None:
        if all(solitaire.play_refusal(ch.top(self.chain(1), i), value) for i in range(SOLITAIRE_POSITIONS)):
            raise self.refuse(f"no position takes a {value}")
        self.set_step("sol_play_suit", value=value)

    def _p_sol_play_suit(self) -> Prompt:
        return Choice("Card suit", (f"Value {self.ui['value']}", "Mercenary: pick suit"),
                      options=(Option("star", "Star"), Option("planet", "Planet")), default="star", back="back",
                      player=1)

    def _a_sol_play_suit(self, value: str) -> None:
        if value == "back":
            self.set_step("sol_play_value")
            return
        self.set_step("sol_play_pos", value=self.ui["value"], suit=value)

    def _p_sol_play_pos(self) -> Prompt:
        v = self.ui["value"]
        opts = []
        for i in range(SOLITAIRE_POSITIONS):
            top = ch.top(self.chain(1), i)
            why = solitaire.play_refusal(top, v) or ""
            opts.append(Option(f"p{i}", f"{i + 1}: {ch.card_label(top)}", enabled=not why, hint=why))
        default = next((o.key for o in opts if o.enabled), None)
        return Choice(f"Play the {v} on...", self._board(), options=tuple(opts), default=default, back="back",
                      player=1)

    def _a_sol_play_pos(self, value: str) -> None:
        if value == "back":
            self.set_step("sol_play_suit", value=self.ui["value"])
            return
        pos = int(value[1:])
        v, suit = self.ui["value"], Suit(self.ui["suit"])
        why = solitaire.play_refusal(ch.top(self.chain(1), pos), v)
        if why:
            raise self.refuse(why)
        card = ch.new_card(True, v, suit, solo=True)
        self.set_chain(1, ch.cover(self.chain(1), pos, card, respect_shield=False))
        self.note(f"Played a {v} {suit.value} on position {pos + 1}")
        self.enter_fx("solo", 1, f"{v} {suit.value} on {pos + 1}")

    def _p_sol_giveup(self) -> Prompt:
        return Confirm("No legal play?", ("No card in hand fits:", "the game is lost"), default=False,
                       yes="Yes, I lose", no="Back", player=1)

    def _a_sol_giveup(self, value: bool) -> None:
        if value:
            self.end_solitaire(False)
        else:
            self.set_step("sol_turn")

    def solo_end_turn(self) -> None:
        suit = solitaire.winning_suit(self.chain(1))
        if suit is not None:
            self.note(f"All seven are {suit.value}s")
            self.end_solitaire(True)
            return
        self.data["round"] += 1
        self.set_step("sol_turn")
