"""Scoring: |star total - planet total|, modifiers counted on the suit the card shows now.

The rulebook's worked example (two stars totalling 10 and four planets totalling 16, "26 - 10 = 16") contradicts its
own rule; the companion scores by the rule: 16 - 10 = 6.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from companion.rules.sovereigns_chain.model import Suit


@dataclass(frozen=True)
class CardEntry:
    """One card in play at scoring: printed value, the suit it shows now, and its net modifier tokens."""

    value: int
    suit: Suit
    modifier: int = 0


@dataclass(frozen=True)
class ChainScore:
    star: int
    planet: int

    @property
    def score(self) -> int:
        return abs(self.star - self.planet)


def score_cards(cards: Iterable[CardEntry]) -> ChainScore:
    star = planet = 0
    for c in cards:
        if c.suit is Suit.STAR:
            star += c.value + c.modifier
        else:
            planet += c.value + c.modifier
    return ChainScore(star, planet)


def score_totals(star: int, planet: int) -> ChainScore:
    """The two totals as the player added them up (modifiers included)."""
    return ChainScore(star, planet)


def leaders(scores: Mapping[int, int]) -> list[int]:
    """The seats with the highest score (more than one: a tie, sudden death)."""
    if not scores:
        return []
    best = max(scores.values())
    return sorted(s for s, v in scores.items() if v == best)
