"""Matches: several games in a row, the dealer moving one seat to the left each game, wins tallied."""
from __future__ import annotations

from typing import Mapping, Sequence

from companion.rules.sovereigns_chain.endgame import next_seat


def first_player(dealer: int, n_players: int) -> int:
    """The player to the dealer's left starts."""
    return next_seat(dealer, n_players)


def next_dealer(dealer: int, n_players: int) -> int:
    return next_seat(dealer, n_players)


def tally(wins: Mapping[str, int], winners: Sequence[int]) -> dict[str, int]:
    """Add a game's result; a shared result (everyone left tied ran out together) counts for each of them."""
    out = dict(wins)
    for s in winners:
        out[str(s)] = out.get(str(s), 0) + 1
    return out


def match_leaders(wins: Mapping[str, int]) -> list[int]:
    if not wins:
        return []
    best = max(wins.values())
    return sorted(int(s) for s, n in wins.items() if n == best)
