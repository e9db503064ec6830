"""Luck: how far a player's battle results ran from the chances they had, and how far chance alone would take them.

For each battle a player fought, ``p`` is the chance their side had when it began (the odds the device showed the
attacker; 1 - that for the defender) and ``won`` 1 or 0. Their luck is ``sum(won - p)``: the two sides of a battle
add up to zero. Under chance alone it has mean 0 and variance ``sum(p (1 - p))``; the band it stays in 95 % of the
time is exact (the number of wins is Poisson-binomial: one Bernoulli convolved at a time) for the first
:data:`EXACT_UP_TO` battles, and the normal ``±1.96 σ`` beyond (by then the two agree to a few hundredths).

Standard library only.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

EXACT_UP_TO = 60  #: battles for which the band is exact; the normal band beyond
Z95 = 1.959963984540054  #: statistics.NormalDist().inv_cdf(0.975)
LO_Q, HI_Q = 0.025, 0.975


def luck(results: Iterable[tuple[float, bool]]) -> float:
    """``sum(won - p)`` over (p, won) pairs."""
    return sum((1.0 if won else 0.0) - p for p, won in results)


def running(results: Sequence[tuple[float, bool]]) -> list[float]:
    """Luck after each battle."""
    out, acc = [], 0.0
    for p, won in results:
        acc += (1.0 if won else 0.0) - p
        out.append(acc)
    return out


def bands(ps: Sequence[float]) -> list[tuple[float, float]]:
    """(low, high) of the luck chance alone gives 95 % of the time, after each battle: the 2.5 % and 97.5 %
    quantiles of the wins (the smallest count whose cumulative chance reaches them) minus the expected wins; exact
    for the first :data:`EXACT_UP_TO` battles, ``±1.96 σ`` after."""
    out: list[tuple[float, float]] = []
    dist = [1.0]
    mu = var = 0.0
    for k, p in enumerate(ps):
        mu += p
        var += p * (1.0 - p)
        if k < EXACT_UP_TO:
            new = [0.0] * (len(dist) + 1)
            for s, w in enumerate(dist):
                new[s] += w * (1.0 - p)
                new[s + 1] += w * p
            dist = new
            lo, hi = _quantile(dist, LO_Q), _quantile(dist, HI_Q)
            out.append((round(lo - mu, 6), round(hi - mu, 6)))
        else:
            half = Z95 * math.sqrt(var)
            out.append((round(-half, 6), round(half, 6)))
    return out


def _quantile(dist: Sequence[float], q: float) -> int:
    acc = 0.0
    for s, w in enumerate(dist):
        acc += w
        if acc >= q - 1e-12:
            return s
    return len(dist) - 1


def sides(p_attacker: float, attacker_won: bool) -> tuple[tuple[float, bool], tuple[float, bool]]:
    """The battle as the attacker's and the defender's (p, won)."""
    return (p_attacker, attacker_won), (1.0 - p_attacker, not attacker_won)


__all__ = ["EXACT_UP_TO", "bands", "luck", "running", "sides"]
