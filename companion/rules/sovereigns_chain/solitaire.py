"""Solitaire: seven positions, each play exactly one higher than the card it covers; all seven one suit wins."""
from __future__ import annotations

from typing import Sequence

from companion.rules.sovereigns_chain.chain import current_suit, modifier_net
from companion.rules.sovereigns_chain.model import SOLITAIRE_POSITIONS, Card, Chain, Suit


def effective_value(card: Card) -> int | None:
    """Printed value plus modifier tokens; None for a facedown card or one whose value is not known."""
    if not card["up"] or card.get("value") is None:
        return None
    return int(card["value"]) + modifier_net(card)


def play_refusal(target: Card | None, value: int) -> str | None:
    """Why a faceup card of ``value`` may not go on ``target`` (None: it may). Gaps and facedown cards take any value."""
    if target is None or not target["up"]:
        return None
    have = effective_value(target)
    if have is None:
        return None
    if value != have + 1:
        return f"only a {have + 1} may cover this {have}"
    return None


def winning_suit(positions: Chain) -> Suit | None:
    """The suit all seven positions show (faceup, one suit), or None."""
    if len(positions) != SOLITAIRE_POSITIONS:
        return None
    suits: set[Suit | None] = set()
    for stack in positions:
        if not stack or not stack[-1]["up"]:
            return None
        suits.add(current_suit(stack[-1]))
    if len(suits) == 1:
        (only,) = suits
        return only
    return None


def position_code(stack: Sequence[Card]) -> str:
    """Two or three characters for the board line: ``4S`` star, ``3P`` planet, ``2-`` no suit, ``??`` down, ``..`` gap."""
    if not stack:
        return ".."
    card = stack[-1]
    if not card["up"]:
        return "??"
    v = effective_value(card)
    suit = current_suit(card)
    letter = {Suit.STAR: "S", Suit.PLANET: "P", None: "-"}[suit]
    return f"{'?' if v is None else v}{letter}"
