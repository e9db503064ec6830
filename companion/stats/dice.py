"""Dice fairness as a picture: per die, how often each face came up, what a fair die gives on average, and the band
a fair die keeps every face in 95 % of the time (all faces at once: Bonferroni over the faces), with the one-line
verdict of :mod:`companion.records.fairness` (the anytime-valid Bayes factor)."""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from companion.records.fairness import assess_counts, face_counts, sides_of


def band(n: int, faces: int, level: float = 0.95) -> tuple[float, float, float]:
    """(expected, low, high) count of one face in ``n`` rolls of a fair die with ``faces`` faces."""
    z = NormalDist().inv_cdf(1 - (1 - level) / (2 * faces))
    mean = n / faces
    half = z * math.sqrt(n * (1 / faces) * (1 - 1 / faces))
    return round(mean, 3), round(max(0.0, mean - half), 3), round(mean + half, 3)


def dice_doc(rolls: dict[tuple[str, str], list[int]]) -> dict[str, Any]:
    """``{"d6": {"counts", "n", "expected", "band": [lo, hi], "flagged", "verdict", "rollers"}, "d12": ...}``
    from :meth:`Journal.physical_rolls` (the roller's and typed dice; the companion's own RNG is not a die)."""
    by_die: dict[str, list[int]] = {}
    rollers: dict[str, list[str]] = {}
    for (roller, die), values in sorted(rolls.items()):
        try:
            sides_of(die)
        except ValueError:  # not a die the companion knows (an edited row): not drawn
            continue
        by_die.setdefault(die, []).extend(values)
        rollers.setdefault(die, []).append(roller)
    out = {}
    for die in sorted(by_die, key=lambda d: sides_of(d)):
        k = sides_of(die)
        counts = face_counts(by_die[die], k)
        n = sum(counts)
        mean, lo, hi = band(n, k)
        res = assess_counts(counts, die)
        verdict = (f"{die}: the rolls so far look loaded (Bayes factor {res.bayes_factor:.0f} ≥ 20)" if res.flagged
                   else f"{die}: {n} rolls, nothing a fair die would not do")
        out[die] = {"counts": list(counts), "n": n, "expected": mean, "band": [lo, hi], "flagged": res.flagged,
                    "verdict": verdict, "rollers": rollers[die]}
    return out


__all__ = ["band", "dice_doc"]
