"""Scoring entry: card by card (value, suit, modifiers) or the two totals; score = |star - planet|. Then the winner,
or sudden death among the tied (no draws: each plays on their own chain, re-scores, until the tie breaks or a
player has no card left)."""
from __future__ import annotations

from typing import Any

from companion.rules.sovereigns_chain import (CardEntry, LastCard, PlayStatus, Suit, leaders, score_cards,
                                              score_totals)
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import endgame

from fsm.prompts import Choice, Number, Option, Prompt
from fsm.sovereigns_chain.common import ChainBase
from fsm.sovereigns_chain.setup import VALUE_HI, VALUE_LO

TOTAL_LO, TOTAL_HI = -99, 299
MOD_LO, MOD_HI = -21, 21


class ScoringPhase(ChainBase):

    # ----------------------------------------------------------------- entry
    def start_scoring(self, ctx: str, seats: list[int]) -> None:
        self.data["scoring"] = {"ctx": ctx, "queue": list(seats), "cards": []}
        self.fire("score_chains")
        self._score_seat()

    @property
    def sc(self) -> dict[str, Any]:
        sc: dict[str, Any] = self.data["scoring"]
        return sc

    def _score_seat(self) -> None:
        seat = self.sc["queue"][0]
        self.data["active"] = seat
        self.sc["cards"] = []
        how = self.options["score_entry"]
        if how == "ask":
            self.set_step("score_how")
        else:
            self._score_by(how)

    def _score_by(self, how: str) -> None:
        if how == "totals":
            self.set_step("score_star")
        elif ch.length(self.chain(self.data["active"])) == 0:
            self._scored(score_cards(()), [])
        else:
            self.set_step("score_value")

    def _p_score_how(self) -> Prompt:
        seat = self.data["active"]
        n = ch.length(self.chain(seat))
        return Choice("Score your chain",
                      (f"{n} cards in play", "Score = star - planet", "(the difference)"),
                      options=(Option("cards", "Card by card"), Option("totals", "The two totals")),
                      default="cards", player=seat)

    def _a_score_how(self, value: str) -> None:
        self._score_by(value)

    def _slots(self) -> list[int]:
        c = self.chain(self.data["active"])
        return [i for i in range(len(c)) if c[i]]

    def _prev(self, i: int) -> dict[str, Any] | None:
        prev = self.data["score_cards"].get(str(self.data["active"])) or []
        return prev[i] if i < len(prev) else None

    def _tracked(self, i: int) -> dict[str, Any]:
        c = self.chain(self.data["active"])
        card = ch.top(c, self._slots()[i])
        if card is None:
            raise RuntimeError("invariant: card is set here")
        return card

    def _card_title(self) -> str:
        i, n = len(self.sc["cards"]), len(self._slots())
        return f"Card {i + 1} of {n}"

    def _p_score_value(self) -> Prompt:
        prev = self._prev(len(self.sc["cards"]))
        return Number(self._card_title(), ("Printed value", "Tracked: " + ch.card_label(self._tracked(len(self.sc["cards"])))),
                      lo=VALUE_LO, hi=VALUE_HI, default=prev["value"] if prev else 0, player=self.data["active"])

    def _a_score_value(self, value: int) -> None:
        self.sc["cards"].append({"value": value})
        self.set_step("score_suit")

    def _p_score_suit(self) -> Prompt:
        token = self._tracked(len(self.sc["cards"]) - 1)["suit"]
        prev = self._prev(len(self.sc["cards"]) - 1)
        default = token or (prev["suit"] if prev else "star")
        lines = (f"Value {self.sc['cards'][-1]['value']}", "Suit now" + (" (suit token)" if token else ""))
        return Choice(self._card_title_last(), lines,
                      options=(Option("star", "Star"), Option("planet", "Planet")), default=default,
                      player=self.data["active"])

    def _card_title_last(self) -> str:
        i, n = len(self.sc["cards"]), len(self._slots())
        return f"Card {i} of {n}"

    def _a_score_suit(self, value: str) -> None:
        self.sc["cards"][-1]["suit"] = value
        self.set_step("score_mod")

    def _p_score_mod(self) -> Prompt:
        i = len(self.sc["cards"]) - 1
        card = self._tracked(i)
        prev = self._prev(i)
        default = ch.modifier_net(card) if card["mods"] else (prev["modifier"] if prev else 0)
        return Number(self._card_title_last(), (f"Modifier tokens, net (count on {self.sc['cards'][-1]['suit']})",),
                      lo=MOD_LO, hi=MOD_HI, default=max(MOD_LO, min(MOD_HI, default)), player=self.data["active"])

    def _a_score_mod(self, value: int) -> None:
        self.sc["cards"][-1]["modifier"] = value
        if len(self.sc["cards"]) < len(self._slots()):
            self.set_step("score_value")
            return
        cards = list(self.sc["cards"])
        self._scored(score_cards(CardEntry(c["value"], Suit(c["suit"]), c["modifier"]) for c in cards), cards)

    def _p_score_star(self) -> Prompt:
        seat = self.data["active"]
        prev = self.data["scores"].get(str(seat))
        return Number("Star total", ("Stars in your chain, modifiers included",),
                      lo=TOTAL_LO, hi=TOTAL_HI, default=prev["star"] if prev else 0, player=seat)

    def _a_score_star(self, value: int) -> None:
        self.set_step("score_planet", star=value)

    def _p_score_planet(self) -> Prompt:
        seat = self.data["active"]
        prev = self.data["scores"].get(str(seat))
        return Number("Planet total", (f"Stars {self.ui['star']}; planets, modifiers included",),
                      lo=TOTAL_LO, hi=TOTAL_HI, default=prev["planet"] if prev else 0, player=seat)

    def _a_score_planet(self, value: int) -> None:
        self._scored(score_totals(self.ui["star"], value), None)

    def _scored(self, result: Any, cards: list[dict[str, Any]] | None) -> None:
        seat = self.data["active"]
        self.data["scores"][str(seat)] = {"star": result.star, "planet": result.planet, "score": result.score}
        if cards is not None:
            self.data["score_cards"][str(seat)] = cards
        self.note(f"{self.player_name(seat)}: stars {result.star}, planets {result.planet}, score {result.score}")
        self.sc["queue"].pop(0)
        if self.sc["queue"]:
            self._score_seat()
        elif self.sc["ctx"] == "game":
            self._settle_game()
        else:
            self._settle_sudden()

    def score_of(self, seat: int) -> int:
        return int(self.data["scores"][str(seat)]["score"])

    # ----------------------------------------------------------------- who won
    def _settle_game(self) -> None:
        top = leaders({s: self.score_of(s) for s in self.seats})
        if len(top) == 1:
            self.end_game(top)
            return
        self.note("Tied at " + str(self.score_of(top[0])) + ": sudden death for "
                  + ", ".join(self.player_name(s) for s in top))
        order = [s for s in self.order() if s in top]
        self.data["sd"] = {"contenders": order, "queue": list(order), "status": {}, "pass": 1, "out": [],
                           "touched": []}
        self.fire("tie")
        self._sd_turn()

    def _settle_sudden(self) -> None:
        sd = self.data["sd"]
        status = {int(s): PlayStatus(v) for s, v in sd["status"].items()}
        res = endgame.sudden_death_pass(sd["contenders"], {s: self.score_of(s) for s in sd["contenders"]}, status,
                                        LastCard(self.options["last_card"]))
        for s in res.losers:
            sd["out"].append(s)
            self.note(f"{self.player_name(s)} has no cards left and loses")
        if res.settled:
            self.end_game(list(res.winners))
            return
        sd.update(contenders=list(res.contenders), queue=list(res.contenders), status={}, touched=[])
        sd["pass"] += 1
        if self.state != "sudden_death":
            self.fire("tie")
        self._sd_turn()

    # ----------------------------------------------------------------- sudden death plays
    def _sd_turn(self) -> None:
        self.data["active"] = self.data["sd"]["queue"][0]
        self.set_step("sd_play")

    def _p_sd_play(self) -> Prompt:
        sd = self.data["sd"]
        seat = self.data["active"]
        tied = ", ".join(self.nm(s) for s in sd["contenders"])
        return Choice(f"Sudden death {sd['pass']}",
                      (f"{self.player_name(seat)}: play on own chain, no draw",
                       f"Tied at {self.score_of(seat)}: {tied}"),
                      options=(Option("played", "Played a card"), Option("last", "Played my last card"),
                               Option("empty", "No cards left")),
                      default="played", player=seat)

    def _a_sd_play(self, value: str) -> None:
        seat = self.data["active"]
        self.data["sd"]["status"][str(seat)] = value
        if value == "empty":
            self.note(f"{self.player_name(seat)} has no card to play")
            self.sudden_next()
            return
        self.set_chain(seat, ch.append(self.chain(seat), ch.new_card(True), cap=None))
        self.note(f"{self.player_name(seat)} played on their own chain" + (" (last card)" if value == "last" else ""))
        self.enter_fx("sudden", seat, "Played on own chain")

    def sudden_next(self) -> None:
        sd = self.data["sd"]
        sd["queue"].pop(0)
        if sd["queue"]:
            self._sd_turn()
            return
        # every tied player whose chain changed this pass is re-scored: their own play, or another's ability
        # (a player with no card left too: when all run out together, the scores decide)
        touched = set(sd.get("touched", []))
        again = [s for s in sd["contenders"]
                 if sd["status"].get(str(s)) != PlayStatus.EMPTY.value or s in touched]
        if again:
            self.start_scoring("sudden", again)
        else:
            self._settle_sudden()
