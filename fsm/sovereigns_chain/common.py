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
from fsm.screen_text import LINE_PX, clip, squeeze, wrap_words

log = logging.getLogger(__name__)



def fit(text: str, px: int = LINE_PX) -> str:
    """A line that must stay one (a page's row, a cell), measured as drawn: shortened with "…" only when it does
    not fit. Context lines of a prompt are given whole instead: the OLED wraps them, the phone shows them as
    written."""
    return clip(text, px)


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

    def nm(self, seat: int) -> str:
        """A player's name, whole: a line that holds it lets the name give way only as far as it must
        (:func:`fsm.screen_text.squeeze`), never cut by letters."""
        return self.player_name(seat)

    def cells(self, cells: list[tuple[int, str]]) -> list[str]:
        """``(seat, text after the name)`` cells, as many to a line as fit the screen ("Ana 3 (1 down) Ben 4"),
        each name shortened only when its cell alone is wider than a line."""
        return wrap_words([squeeze("{}" + rest.replace("{", "{{").replace("}", "}}"), self.nm(s)) for s, rest in cells],
                          indent="")

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

    def chain_story(self) -> None:
        """The story: every chain's length at the end of a round, rounds counted over the whole match."""
        at = self.story().get("chain", {}).get("at", {})
        self.story_point("chain", len(at) + 1, {s: ch.length(self.chain(s)) for s in self.seats})

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
        """``Ana 3 (1 down) Ben 4``: each player's cards in play (and how many of them lie face down), as many
        players to a line as fit it."""
        def cell(s: int) -> tuple[int, str]:
            c = self.chain(s)
            down = ch.facedown(c)
            return s, f" {ch.length(c)}" + (f" ({down} down)" if down else "")

        return self.cells([cell(s) for s in self.seats])

    def supply_line(self) -> str:
        return tokens.supply_line(self.supply())

    def status_lines(self, head: str | None = None) -> tuple[str, ...]:
        """Chains first (a menu shows the first two lines; the others scroll with its options), then an empty token
        type, the head, the event."""
        lines = self.chain_lines()
        if tokens.out_of(self.supply()):
            lines.append(self.supply_line())
        if head:
            lines.append(head)
        if self.events_on and self.event_label():
            lines.append("Event: " + str(self.event_label()))
        return tuple(lines)

    def chain_option(self, seat: int, hint_fn: Callable[[Chain], str] | None = None) -> Option:
        c = self.chain(seat)
        why = hint_fn(c) if hint_fn else ""
        label = squeeze(f"{{}}: {ch.length(c)}, {ch.facedown(c)} down", self.nm(seat))
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
