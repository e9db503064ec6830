"""Chains as plain JSON: a chain is a list of positions, each a stack of cards (bottom first, the top one in play).

A card is ``{"up": bool, "shield": bool, "mods": [+1/-1 ...], "suit": None | "star" | "planet"}``; solitaire adds
``"value"`` (printed value, None while unknown) and ``"printed"`` (printed suit, None for a suitless mercenary).
Every function returns a new chain and leaves its arguments alone. Positions are 0-based here.
"""
from __future__ import annotations

import copy
from typing import Any

from companion.rules.sovereigns_chain.model import CHAIN_LIMIT, Card, Chain, ChainError, Suit, TokenKind


def new_card(up: bool, value: int | None = None, printed: Suit | None = None, *, solo: bool = False) -> Card:
    card: Card = {"up": up, "shield": False, "mods": [], "suit": None}
    if solo:
        card["value"] = value
        card["printed"] = printed.value if printed is not None else None
    return card


def start_chain() -> Chain:
    """Every chain starts with one facedown card."""
    return [[new_card(False)]]


def top(chain: Chain, pos: int) -> Card | None:
    """The card in play at ``pos`` (None for a gap or a position off the chain)."""
    if 0 <= pos < len(chain) and chain[pos]:
        return chain[pos][-1]
    return None


def length(chain: Chain) -> int:
    """Cards in play: one per occupied position (covered cards do not count)."""
    return sum(1 for stack in chain if stack)


def facedown(chain: Chain) -> int:
    """Facedown cards in play (a facedown card under another card is not in play and cannot be revealed)."""
    return sum(1 for stack in chain if stack and not stack[-1]["up"])


def covered(chain: Chain) -> int:
    return sum(max(0, len(stack) - 1) for stack in chain)


def _in_play(chain: Chain, pos: int, respect_shield: bool, what: str) -> Card:
    card = top(chain, pos)
    if card is None:
        raise ChainError(f"no card at position {pos + 1}")
    if respect_shield and card["shield"]:
        raise ChainError(f"the card at position {pos + 1} is shielded: it cannot be {what}")
    return card


def append(chain: Chain, card: Card, cap: int | None = CHAIN_LIMIT) -> Chain:
    """Play ``card`` to the right of the last card; ``cap`` refuses taking the chain past it."""
    if cap is not None and length(chain) >= cap:
        raise ChainError(f"that chain already holds {length(chain)}; no play may take it past {cap}")
    out = copy.deepcopy(chain)
    out.append([dict(card)])
    return out


def cover(chain: Chain, pos: int, card: Card, respect_shield: bool = True) -> Chain:
    """Play ``card`` on top of position ``pos`` (on a gap it fills the gap)."""
    if not 0 <= pos < len(chain):
        raise ChainError(f"no position {pos + 1} in that chain")
    if chain[pos]:
        _in_play(chain, pos, respect_shield, "covered")
    out = copy.deepcopy(chain)
    out[pos].append(dict(card))
    return out


def remove_top(chain: Chain, pos: int, close_gap: bool = True, respect_shield: bool = True) -> tuple[Chain, Card]:
    """Remove only the card in play at ``pos`` (its tokens go with it). The gap closes unless ``close_gap`` is off."""
    _in_play(chain, pos, respect_shield, "removed")
    out = copy.deepcopy(chain)
    gone = out[pos].pop()
    if close_gap and not out[pos]:
        del out[pos]
    return out, gone


def flip(chain: Chain, pos: int, respect_shield: bool = True, **known: Any) -> Chain:
    """Turn the card in play at ``pos`` over. ``known`` sets fields learnt on the way up (solitaire value, printed)."""
    _in_play(chain, pos, respect_shield, "flipped")
    out = copy.deepcopy(chain)
    card = out[pos][-1]
    card["up"] = not card["up"]
    card.update(known)
    return out


def reveal(chain: Chain, pos: int, **known: Any) -> Chain:
    """Turn a facedown card in play faceup (the end-of-game reveal: not an ability, so shields do not stop it)."""
    card = top(chain, pos)
    if card is None or card["up"]:
        raise ChainError(f"position {pos + 1} holds no facedown card")
    return flip(chain, pos, respect_shield=False, **known)


def add_token(chain: Chain, pos: int, kind: TokenKind, side: int | Suit | None = None,
              respect_shield: bool = True) -> Chain:
    """Place a token on the card in play at ``pos``. ``side``: +1/-1 for a modifier, the suit for a suit token."""
    card = _in_play(chain, pos, respect_shield, "given tokens")
    if kind is TokenKind.SHIELD and card["shield"]:
        raise ChainError("that card already has a shield")
    if kind is TokenKind.MODIFIER and side not in (1, -1):
        raise ChainError("a modifier is +1 or -1")
    if kind is TokenKind.SUIT and not isinstance(side, Suit):
        raise ChainError("a suit token shows a star or a planet")
    out = copy.deepcopy(chain)
    c = out[pos][-1]
    if kind is TokenKind.SHIELD:
        c["shield"] = True
    elif kind is TokenKind.MODIFIER:
        c["mods"].append(side)
    else:
        if not isinstance(side, Suit):
            raise TypeError(f"invariant: side is a Suit, not {side!r}")
        c["suit"] = side.value
    return out


def remove_token(chain: Chain, pos: int, kind: TokenKind, side: int | None = None,
                 respect_shield: bool = True) -> Chain:
    """Take a token off the card in play at ``pos`` (back to the supply)."""
    card = top(chain, pos)
    if card is None:
        raise ChainError(f"no card at position {pos + 1}")
    if respect_shield and card["shield"] and kind is not TokenKind.SHIELD:
        raise ChainError(f"the card at position {pos + 1} is shielded")
    out = copy.deepcopy(chain)
    c = out[pos][-1]
    if kind is TokenKind.SHIELD:
        if not c["shield"]:
            raise ChainError("that card has no shield")
        c["shield"] = False
    elif kind is TokenKind.MODIFIER:
        if side not in c["mods"]:
            raise ChainError(f"that card has no {side:+d} modifier")
        c["mods"].remove(side)
    else:
        if c["suit"] is None:
            raise ChainError("that card has no suit token")
        c["suit"] = None
    return out


def card_tokens(card: Card) -> dict[TokenKind, int]:
    return {TokenKind.SHIELD: int(bool(card["shield"])), TokenKind.MODIFIER: len(card["mods"]),
            TokenKind.SUIT: int(card["suit"] is not None)}


def chain_tokens(chain: Chain) -> dict[TokenKind, int]:
    """Tokens on a chain, covered cards included (covered tokens stay covered, out of the supply)."""
    out = {k: 0 for k in TokenKind}
    for stack in chain:
        for card in stack:
            for k, n in card_tokens(card).items():
                out[k] += n
    return out


def modifier_net(card: Card) -> int:
    return sum(int(m) for m in card["mods"])


def card_label(card: Card | None) -> str:
    """A short label for a position menu: ``up``, ``down S +1 *``..."""
    if card is None:
        return "empty"
    parts = ["up" if card["up"] else "down"]
    if card.get("value") is not None and card["up"]:
        parts = [str(card["value"])]
        suit = current_suit(card)
        parts.append(suit.value if suit else "no suit")
    if card["mods"]:
        parts.append(f"{modifier_net(card):+d}")
    if card["suit"] is not None and card.get("value") is None:
        parts.append(card["suit"])
    if card["shield"]:
        parts.append("shield")
    return " ".join(parts)


def current_suit(card: Card) -> Suit | None:
    """A suit token wins over the printed suit; a suitless mercenary without a token has none."""
    if card["suit"] is not None:
        return Suit(card["suit"])
    printed = card.get("printed")
    return Suit(printed) if printed else None
