"""Shared helpers of the Sovereign's Chain machine: data access, chain bookkeeping and screen text.

Everything the machine knows sits in ``self.data`` (plain JSON); the phase mixins read and write it through these
helpers. ``data["ui"]`` names the step the next prompt belongs to (``{"step": ..., plus the answers collected so far}``).
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from companion.rules.sovereigns_chain import CHAIN_LIMIT, EVENT_CARDS, Chain, ChainError, TokenKind
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import endgame, tokens

from fsm.base import GameMachine
from fsm.prompts import InvalidAnswer, Option, Prompt

log = logging.getLogger(__name__)

TITLE = 20
LINE = 21
WIDE = 26  #: a line of words the screen measures to the pixel (the body font's letters average under 5 px)


def short(name: str, n: int = 8) -> str:
    return name[:n]


def fit(text: str, n: int = LINE) -> str:
    return text if len(text) <= n else text[: n - 1] + "."


class ChainBase(GameMachine):
    """Helpers every phase of the game uses."""

    # ----------------------------------------------------------------- steps
    @property
    def ui(self) -> dict[str, Any]:
        ui: dict[str, Any] = self.data["ui"]
        return ui

    def set_step(self, step: str, **args: Any) -> None:
        self.data["ui"] = {"step": step, **args}

    def step_prompt(self) -> Prompt:
        fn: Callable[[], Prompt] = getattr(self, "_p_" + self.ui["step"])
        return fn()

    def step_answer(self, value: Any) -> None:
        fn: Callable[[Any], None] = getattr(self, "_a_" + self.ui["step"])
        try:
            fn(value)
        except ChainError as e:
            raise InvalidAnswer(str(e)) from None

    # ----------------------------------------------------------------- players
    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def solo(self) -> bool:
        return bool(self.data["solo"])

    @property
    def events_on(self) -> bool:
        return not self.data["fair_winds"]

    @property
    def respect_shields(self) -> bool:
        return bool(self.options["enforce_shields"])

    def nm(self, seat: int, n: int = 8) -> str:
        return short(self.player_name(seat), n)

    def order(self) -> list[int]:
        first = self.data["first"] or 1
        return endgame.turn_order(first, self.n)

    # ----------------------------------------------------------------- chains and tokens
    def chain(self, seat: int) -> Chain:
        c: Chain = self.data["chains"][str(seat)]
        return c

    def set_chain(self, seat: int, new: Chain) -> None:
        self.data["chains"][str(seat)] = new
        sd = self.data.get("sd")
        if self.state == "sudden_death" and sd is not None and seat not in sd.setdefault("touched", []):
            sd["touched"].append(seat)  # re-scored after this pass, whoever changed the chain
        if self.state == "turn" and not self.solo:
            self.data["seven_order"] = endgame.track_seven(self.data["seven_order"], seat, ch.length(new))

    def lengths(self) -> dict[int, int]:
        return {s: ch.length(self.chain(s)) for s in self.seats}

    def facedowns(self) -> dict[int, int]:
        return {s: ch.facedown(self.chain(s)) for s in self.seats}

    def pool(self, seat: int) -> dict[str, int]:
        p: dict[str, int] = self.data["pools"][str(seat)]
        return p

    def supply(self) -> dict[TokenKind, int]:
        return tokens.supply_left((self.chain(s) for s in self.seats), (self.pool(s) for s in self.seats))

    def forfeit_pools(self) -> None:
        """Tokens held at the game's end go back to the supply."""
        for s in self.seats:
            self.data["pools"][str(s)] = tokens.empty_pool()

    # ----------------------------------------------------------------- events
    def event_names(self) -> list[str]:
        given = [x.strip() for x in str(self.options["event_names"]).split(",") if x.strip()]
        return given or [f"Event {i}" for i in range(1, EVENT_CARDS + 1)]

    def event_label(self) -> str | None:
        ev = self.data["event"]
        if ev is None:
            return None
        names = self.event_names()
        return names[ev - 1] if 1 <= ev <= len(names) else f"Event {ev}"

    # ----------------------------------------------------------------- screen text
    def chain_lines(self) -> list[str]:
        """``Alic 3 (1▼) Bob 4``: cards in play (of them face down: ▼), two players a line (the screen fits it to
        the pixel, so it is not cut by characters here)."""
        def cell(s: int) -> str:
            c = self.chain(s)
            down = ch.facedown(c)
            return f"{self.nm(s, 4)} {ch.length(c)}" + (f" ({down}▼)" if down else "")

        cells = [cell(s) for s in self.seats]
        return [" ".join(cells[i:i + 2]) for i in range(0, len(cells), 2)]

    def supply_line(self) -> str:
        return fit(tokens.supply_line(self.supply()), WIDE)

    def status_lines(self, head: str | None = None) -> tuple[str, ...]:
        """Chains first (a menu shows only the first two lines), then an empty token type, the head, the event."""
        lines = self.chain_lines()
        if tokens.out_of(self.supply()):
            lines.append(self.supply_line())
        if head:
            lines.append(fit(head))
        if self.events_on and self.event_label():
            lines.append(fit("Event: " + str(self.event_label())))
        return tuple(lines[:4])

    def chain_option(self, seat: int, hint_fn: Callable[[Chain], str] | None = None) -> Option:
        c = self.chain(seat)
        why = hint_fn(c) if hint_fn else ""
        label = fit(f"{self.nm(seat, 10)}: {ch.length(c)}, {ch.facedown(c)} down", TITLE)
        return Option(f"c{seat}", label, enabled=not why, hint=why)

    # ----------------------------------------------------------------- provided by the phase mixins
    def begin_game(self) -> None:
        raise NotImplementedError

    def start_play(self) -> None:
        raise NotImplementedError

    def enter_fx(self, ctx: str, actor: int, head: str) -> None:
        raise NotImplementedError

    def end_turn(self) -> None:
        raise NotImplementedError

    def start_reveal(self, first: int) -> None:
        raise NotImplementedError

    def start_scoring(self, ctx: str, seats: list[int]) -> None:
        raise NotImplementedError

    def end_game(self, winners: list[int]) -> None:
        raise NotImplementedError

    def reveal_next(self) -> None:
        raise NotImplementedError

    def sudden_next(self) -> None:
        raise NotImplementedError

    def solo_end_turn(self) -> None:
        raise NotImplementedError

    def end_solitaire(self, won: bool) -> None:
        raise NotImplementedError

    def full_hint(self, c: Chain) -> str:
        return f"that chain holds {CHAIN_LIMIT}: no play may take it past {CHAIN_LIMIT}" \
            if ch.length(c) >= CHAIN_LIMIT else ""


def seat_of(key: str) -> int:
    """``c3`` -> 3."""
    return int(key[1:])
