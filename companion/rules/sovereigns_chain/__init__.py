"""Sovereign's Chain (Robert J. Hudecek, WizKids 2019): chains, tokens, scoring, the end of a game, matches and
solitaire, as pure functions over plain JSON values. Imports nothing from hw/ or fsm/."""
from __future__ import annotations

from companion.rules.sovereigns_chain import chain, endgame, match, scoring, solitaire, tokens
from companion.rules.sovereigns_chain.model import (CHAIN_LIMIT, CLASS_CARDS, EVENT_CARDS, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, POOL_KINDS,
                    SOLITAIRE_POSITIONS, SUPPLY, Card, Chain, ChainError, LastCard, PlayStatus, Stack, Suit,
                    TokenKind)
from companion.rules.sovereigns_chain.scoring import CardEntry, ChainScore, leaders, score_cards, score_totals

__all__ = ["chain", "endgame", "match", "scoring", "solitaire", "tokens", "CHAIN_LIMIT", "CLASS_CARDS",
           "EVENT_CARDS", "HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "POOL_KINDS", "SOLITAIRE_POSITIONS", "SUPPLY",
           "Card", "Chain", "ChainError", "LastCard", "PlayStatus", "Stack", "Suit", "TokenKind", "CardEntry",
           "ChainScore", "leaders", "score_cards", "score_totals"]
