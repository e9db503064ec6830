"""The Reveal phase: from the player whose chain reached seven first, one facedown card per player per pass, in
turn order, until no facedown card is in play. Abilities still act (a chain may shrink); events do not."""
from __future__ import annotations

from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import endgame

from fsm.prompts import Choice, Option, Prompt
from fsm.sovereigns_chain.common import ChainBase


class RevealPhase(ChainBase):

    def start_reveal(self, first: int) -> None:
        self.data["reveal"] = {"start": first, "last": None, "pass": 1}
        self.fire("chain_of_seven")
        self.reveal_next()

    def reveal_next(self) -> None:
        r = self.data["reveal"]
        seat = endgame.next_revealer(r["last"], r["start"], self.facedowns(), self.n)
        if seat is None:
            self.note("Every card is revealed: scoring")
            self.start_scoring("game", self.order())
            return
        if r["last"] is not None and self.order_index(seat, r["start"]) <= self.order_index(r["last"], r["start"]):
            r["pass"] += 1
        self.data["active"] = seat
        self.set_step("reveal")

    def order_index(self, seat: int, start: int) -> int:
        return endgame.turn_order(start, self.n).index(seat)

    def _p_reveal(self) -> Prompt:
        seat = self.data["active"]
        c = self.chain(seat)
        opts = tuple(Option(f"p{i}", f"Card {i + 1}") for i in range(len(c))
                     if (t := ch.top(c, i)) is not None and not t["up"])
        left = sum(self.facedowns().values())
        return Choice("Reveal a card",
                      (f"Pass {self.data['reveal']['pass']}: {left} down left", "Pick a card to flip",
                       *self.chain_lines()[:2]),
                      options=opts, default=opts[0].key, player=seat)

    def _a_reveal(self, value: str) -> None:
        seat = self.data["active"]
        pos = int(value[1:])
        self.set_chain(seat, ch.reveal(self.chain(seat), pos))
        self.data["reveal"]["last"] = seat
        self.note(f"{self.player_name(seat)} revealed card {pos + 1}")
        self.enter_fx("reveal", seat, f"Revealed card {pos + 1}")
