"""The end of a game: who reached seven first, the reveal order, and sudden death among the tied."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from companion.rules.sovereigns_chain.model import CHAIN_LIMIT, LastCard, PlayStatus


def next_seat(seat: int, n_players: int, step: int = 1) -> int:
    """The seat ``step`` places to the left (clockwise; seats are numbered clockwise 1..n)."""
    return (seat - 1 + step) % n_players + 1


def turn_order(first: int, n_players: int) -> list[int]:
    return [next_seat(first, n_players, i) for i in range(n_players)]


def track_seven(order: Sequence[int], seat: int, new_length: int) -> list[int]:
    """Keep the order in which chains reached seven during a turn: a chain leaving seven drops out of it."""
    out = [s for s in order if s != seat]
    if new_length >= CHAIN_LIMIT:
        out = list(order) if seat in order else out + [seat]
    return out


def game_ends(lengths: Mapping[int, int]) -> bool:
    """At the end of a turn: does any chain hold seven?"""
    return any(n >= CHAIN_LIMIT for n in lengths.values())


def first_to_seven(order: Sequence[int], lengths: Mapping[int, int], active: int, n_players: int) -> int:
    """The seat whose chain reached seven first this turn and still holds it (else the first in turn order)."""
    for s in order:
        if lengths.get(s, 0) >= CHAIN_LIMIT:
            return s
    for s in turn_order(active, n_players):
        if lengths.get(s, 0) >= CHAIN_LIMIT:
            return s
    return active


def next_revealer(after: int | None, start: int, facedown: Mapping[int, int], n_players: int) -> int | None:
    """Who reveals next: from ``start`` (first pass) or the seat after ``after``, the first with a facedown card."""
    first = start if after is None else next_seat(after, n_players)
    for s in turn_order(first, n_players):
        if facedown.get(s, 0) > 0:
            return s
    return None


@dataclass(frozen=True)
class SuddenDeath:
    """The outcome of one sudden-death pass."""

    #: settled: the winner(s); more than one only if every remaining tied player ran out together
    winners: tuple[int, ...]
    #: still tied and holding cards: they play again
    contenders: tuple[int, ...]
    #: lost this pass (no cards left)
    losers: tuple[int, ...]

    @property
    def settled(self) -> bool:
        return bool(self.winners)


def sudden_death_pass(contenders: Sequence[int], scores: Mapping[int, int], status: Mapping[int, PlayStatus],
                      rule: LastCard = LastCard.AFTER_SCORING) -> SuddenDeath:
    """Settle one pass: the tie broken wins; a player with no cards left loses; the rest (still tied) go again."""
    out_now = [s for s in contenders if status.get(s) is PlayStatus.EMPTY
               or (rule is LastCard.IMMEDIATELY and status.get(s) is PlayStatus.LAST)]
    alive = [s for s in contenders if s not in out_now]
    if not alive:
        best = max(scores[s] for s in contenders)
        return SuddenDeath(tuple(s for s in contenders if scores[s] == best), (), ())
    best = max(scores[s] for s in alive)
    top = [s for s in alive if scores[s] == best]
    if len(top) == 1:
        return SuddenDeath((top[0],), (), tuple(out_now))
    empty = [s for s in top if status.get(s) is PlayStatus.LAST]
    still = [s for s in top if s not in empty]
    losers = tuple(out_now + empty)
    if len(still) == 1:
        return SuddenDeath((still[0],), (), losers)
    if not still:
        return SuddenDeath(tuple(top), (), tuple(out_now))
    return SuddenDeath((), tuple(still), losers)
