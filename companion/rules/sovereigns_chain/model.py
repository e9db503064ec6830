"""Sovereign's Chain domain values: suits, token kinds, the component counts and the fixed numbers of the rules."""
from __future__ import annotations

import enum
from typing import Any


class Suit(str, enum.Enum):
    """A Class card's suit. Mercenaries dealt at solitaire setup have none (``None`` where a suit is optional)."""

    STAR = "star"
    PLANET = "planet"


class TokenKind(str, enum.Enum):
    SHIELD = "shield"
    MODIFIER = "modifier"
    SUIT = "suit"


class LastCard(str, enum.Enum):
    """Sudden death: when does a tied player who has just played their last card lose?"""

    #: only if the re-score leaves the tie standing (the scores are looked at first)
    AFTER_SCORING = "after_scoring"
    #: at once, whatever the re-score says
    IMMEDIATELY = "immediately"


class PlayStatus(str, enum.Enum):
    """What a tied player did in one sudden-death pass."""

    PLAYED = "played"  #: played a card and still holds cards
    LAST = "last"  #: played their last card
    EMPTY = "empty"  #: had no card to play


#: tokens in the box
SUPPLY: dict[TokenKind, int] = {TokenKind.SHIELD: 13, TokenKind.MODIFIER: 21, TokenKind.SUIT: 21}
#: token kinds a player may hold in their pool (suit tokens are never held)
POOL_KINDS: tuple[TokenKind, ...] = (TokenKind.SHIELD, TokenKind.MODIFIER)
#: a chain holding this many cards at the end of a turn ends the game; extra plays may not pass it
CHAIN_LIMIT = 7
HAND_SIZE = 5
EVENT_CARDS = 15
CLASS_CARDS = 70
SOLITAIRE_POSITIONS = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: JSON shapes kept in a machine's data
Card = dict[str, Any]
Stack = list[Card]
Chain = list[Stack]


class ChainError(ValueError):
    """A move the rules refuse; the message is one plain line for the table."""
