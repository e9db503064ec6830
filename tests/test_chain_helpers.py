"""A table driver for the Sovereign's Chain machine, used by the other test_chain_* files, and its own checks.

Every helper asserts which step the machine is on before answering, so a scripted game also checks the prompt flow.
"""
from __future__ import annotations

from typing import Any

import pytest

from fsm.base import Player, Setup
from fsm.prompts import Choice, InvalidAnswer
from fsm.sovereigns_chain import SovereignsChainGame

NAMES = ("Ann", "Bob", "Cat", "Dan")


class Table:
    def __init__(self, n: int, **options: Any) -> None:
        self.g = SovereignsChainGame(Setup(tuple(Player(NAMES[i], i + 1) for i in range(n)), options))

    # ---------------------------------------------------------------- plumbing
    @property
    def step(self) -> str:
        return str(self.g.data["ui"]["step"])

    def ans(self, step: str, value: Any) -> "Table":
        assert self.step == step, f"expected step {step}, at {self.step} ({self.g.prompt().title})"
        self.g.answer(value)
        return self

    def refused(self, step: str, value: Any) -> str:
        """Answer and expect a refusal that changes nothing; returns the reason."""
        assert self.step == step
        before = self.g.snapshot()
        with pytest.raises(InvalidAnswer) as e:
            self.g.answer(value)
        assert self.g.snapshot() == before
        return str(e.value)

    def option(self, key: str) -> Any:
        p = self.g.prompt()
        assert isinstance(p, Choice)
        return next(o for o in p.options if o.key == key)

    def js(self) -> dict[str, Any]:
        return self.g.state_json()

    def player(self, seat: int) -> dict[str, Any]:
        return dict(self.js()["players"][seat - 1])

    def lengths(self) -> list[int]:
        return [p["chain_length"] for p in self.js()["players"]]

    def downs(self) -> list[int]:
        return [p["facedown"] for p in self.js()["players"]]

    @property
    def active(self) -> int:
        return int(self.g.data["active"])

    # ---------------------------------------------------------------- setup
    def setup(self, dealer: int | None, fair_winds: bool = True, games: int = 1, event: str = "none") -> "Table":
        if dealer is None:
            self.ans("dealer", "random")
        else:
            self.ans("dealer", f"c{dealer}")
        return self.settle_setup(fair_winds, games, event)

    def settle_setup(self, fair_winds: bool, games: int, event: str) -> "Table":
        self.ans("fair_winds", fair_winds).ans("match_len", games)
        if not fair_winds:
            self.ans("event", event)
        assert self.step == "play"
        return self

    # ---------------------------------------------------------------- a turn
    def play(self, target: int | None = None, down: bool = False) -> "Table":
        """The active player plays on ``target``'s chain (own by default), faceup or facedown."""
        target = self.active if target is None else target
        if down:
            self.ans("play", "down").ans("play_chain", f"c{target}")
        else:
            self.ans("play", f"c{target}")
        assert self.step == "fx"
        return self

    def done(self) -> "Table":
        return self.ans("fx", "done")

    def turn(self, target: int | None = None, down: bool = False) -> "Table":
        return self.play(target, down).done()

    def extra(self, chain: int, where: str = "end_up") -> "Table":
        self.ans("fx", "add")
        if len(self.g.players) > 1:
            self.ans("fx_chain", f"c{chain}")
            self.ans("fx_where", where)
        return self

    def remove(self, chain: int, pos: int) -> "Table":
        self.ans("fx", "remove")
        if len(self.g.players) > 1:
            self.ans("fx_chain", f"c{chain}")
        return self.ans("fx_pos", f"p{pos - 1}")

    def flip(self, chain: int, pos: int) -> "Table":
        self.ans("fx", "flip")
        if len(self.g.players) > 1:
            self.ans("fx_chain", f"c{chain}")
        return self.ans("fx_pos", f"p{pos - 1}")

    # ---------------------------------------------------------------- end of game
    def reveal(self, pos: int | None = None) -> "Table":
        """The revealer flips a facedown card (the first one by default) and is done."""
        p = self.g.prompt()
        assert isinstance(p, Choice)
        key = p.options[0].key if pos is None else f"p{pos - 1}"
        return self.ans("reveal", key).done()

    def totals(self, star: int, planet: int) -> "Table":
        if self.step == "score_how":
            self.ans("score_how", "totals")
        return self.ans("score_star", star).ans("score_planet", planet)

    def cards(self, *entries: tuple[int, str, int]) -> "Table":
        self.ans("score_how", "cards")
        for value, suit, mod in entries:
            self.ans("score_value", value).ans("score_suit", suit).ans("score_mod", mod)
        return self

    def sudden(self, what: str = "played") -> "Table":
        self.ans("sd_play", what)
        if what != "empty":
            self.done()
        return self


# -------------------------------------------------------------------- the driver's own checks
def test_new_game_starts_with_the_dealer_choice_and_one_facedown_card_each_after_setup() -> None:
    t = Table(3)
    assert t.step == "dealer" and t.g.state == "setup"
    t.setup(dealer=3)
    assert t.js()["dealer"] == 3 and t.js()["first_player"] == 1 and t.active == 1
    assert t.lengths() == [1, 1, 1] and t.downs() == [1, 1, 1]


def test_refused_answers_leave_the_game_alone() -> None:
    t = Table(2).setup(dealer=1)
    assert "not one of the choices" in t.refused("play", "c9")
