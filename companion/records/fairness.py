"""Is this die fair? Counts per face, Pearson's chi-square with its p-value, and an anytime-valid Bayes factor.

Standard library only.

* ``chi2``/``p_value``: the classic goodness-of-fit test against the uniform die. The upper tail of the chi-square
  distribution has a closed form for integer degrees of freedom (:func:`chi2_sf`). It is valid for one look at a
  fixed number of rolls; looking again after every roll inflates its false alarms.
* ``bayes_factor``: the Dirichlet-multinomial marginal likelihood of the rolls (prior Dirichlet(α, …, α)) over
  their likelihood under the fair die. Under a fair die it is a nonnegative martingale with mean 1, so by Ville's
  inequality the chance that it *ever* reaches 20 is at most 1/20 — however often it is looked at. A die is
  ``flagged`` while its Bayes factor is at :data:`BF_THRESHOLD` or above; with the rolls in their order,
  :func:`assess` also reports the peak and ``flagged_at``, the roll at which it first got there.

α = :data:`PRIOR_ALPHA` puts the prior's mass on moderately loaded dice (the ones a table would not notice);
the false-alarm and detection rates measured by simulation are in tests/test_roller_fairness.py (run it as a
script to print them) and docs/dice.md.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from fsm.prompts import DIE_SIDES

BF_THRESHOLD = 20.0
PRIOR_ALPHA = 16.0
#: JSON cannot carry infinity; Bayes factors are reported up to this (the log is always exact)
_MAX_LOG = 700.0


@dataclass(frozen=True)
class FairnessResult:
    die: str
    n: int
    counts: tuple[int, ...]  #: counts[i] is how often face i+1 came up
    chi2: float
    dof: int
    p_value: float
    log_bayes_factor: float  #: natural log, now
    peak_log_bayes_factor: float  #: the largest it has been (equal to the current one when the order is unknown)
    flagged: bool  #: the Bayes factor is at the threshold now
    flagged_at: int | None = None  #: the roll (1-based) at which it first reached the threshold, if ever

    @property
    def sides(self) -> int:
        return len(self.counts)

    @property
    def bayes_factor(self) -> float:
        return math.exp(min(self.log_bayes_factor, _MAX_LOG))

    @property
    def peak_bayes_factor(self) -> float:
        return math.exp(min(self.peak_log_bayes_factor, _MAX_LOG))

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "n": self.n, "counts": {str(i + 1): c for i, c in enumerate(self.counts)},
                "chi2": round(self.chi2, 6), "dof": self.dof, "p_value": self.p_value,
                "bayes_factor": self.bayes_factor, "peak_bayes_factor": self.peak_bayes_factor,
                "threshold": BF_THRESHOLD, "flagged": self.flagged,
                "flagged_at": self.flagged_at}


def sides_of(die: str) -> int:
    try:
        return DIE_SIDES[die]
    except KeyError:
        raise ValueError(f"die must be one of {', '.join(DIE_SIDES)}, not {die!r}") from None


def face_counts(values: Iterable[int], sides: int) -> tuple[int, ...]:
    """How often each face 1..sides came up. ValueError for a value outside 1..sides."""
    counts = [0] * sides
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides:
            raise ValueError(f"{v!r} is not a face of a d{sides} (1..{sides})")
        counts[v - 1] += 1
    return tuple(counts)


def chi_square(counts: Sequence[int]) -> float:
    """Pearson's statistic against equal probabilities (0 for no rolls)."""
    n = sum(counts)
    if n == 0:
        return 0.0
    expected = n / len(counts)
    return sum((c - expected) ** 2 for c in counts) / expected


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X ~ chi-square with integer ``dof`` >= 1, in closed form."""
    if dof < 1:
        raise ValueError("degrees of freedom must be >= 1")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if dof % 2 == 0:
        term = total = 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    tail = math.erfc(math.sqrt(half))
    if dof == 1:
        return tail
    term = total = 1.0
    for r in range(2, (dof - 1) // 2 + 1):
        term *= x / (2 * r - 1)
        total += term
    return min(1.0, tail + math.sqrt(2.0 * x / math.pi) * math.exp(-half) * total)


def log_bayes_factor(counts: Sequence[int], alpha: float = PRIOR_ALPHA) -> float:
    """ln of the Dirichlet-multinomial marginal likelihood over the fair-die likelihood of these counts."""
    k = len(counts)
    n = sum(counts)
    lg = math.lgamma
    return (lg(k * alpha) - lg(k * alpha + n) + sum(lg(alpha + c) - lg(alpha) for c in counts)
            + n * math.log(k))


_LOG_THRESHOLD = math.log(BF_THRESHOLD)


def _result(die: str, counts: tuple[int, ...], peak: float, flagged_at: int | None) -> FairnessResult:
    n = sum(counts)
    chi2 = chi_square(counts)
    dof = len(counts) - 1
    lbf = log_bayes_factor(counts)
    peak = max(peak, lbf)
    flagged = lbf >= _LOG_THRESHOLD
    if flagged_at is None and peak >= _LOG_THRESHOLD:
        flagged_at = n
    return FairnessResult(die, n, counts, chi2, dof, chi2_sf(chi2, dof), lbf, peak, flagged, flagged_at)


def assess_counts(counts: Sequence[int], die: str) -> FairnessResult:
    """The verdict from counts alone (the order is unknown: no peak, ``flagged_at`` is n when flagged)."""
    sides = sides_of(die)
    if len(counts) != sides or any(c < 0 for c in counts):
        raise ValueError(f"a {die} needs {sides} non-negative counts")
    return _result(die, tuple(counts), -math.inf, None)


def assess(values: Iterable[int], die: str) -> FairnessResult:
    """The verdict for these rolls, in the order they were made (with the Bayes factor's peak and first crossing)."""
    sides = sides_of(die)
    counts = [0] * sides
    k, log_k, log = sides, math.log(sides), math.log  # (locals: this loop runs once per roll of an evening)
    alpha, k_alpha, threshold = PRIOR_ALPHA, sides * PRIOR_ALPHA, _LOG_THRESHOLD
    lbf = peak = 0.0
    flagged_at: int | None = None
    for n, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= k:
            raise ValueError(f"{v!r} is not a face of a {die} (1..{sides})")
        # one roll multiplies the Bayes factor by its predictive probability over 1/k
        lbf += log((alpha + counts[v - 1]) / (k_alpha + n)) + log_k
        counts[v - 1] += 1
        if lbf > peak:
            peak = lbf
            if flagged_at is None and lbf >= threshold:
                flagged_at = n + 1
    return _result(die, tuple(counts), peak, flagged_at)


ENOUGH_ROLLS = 30  #: before this many rolls an unflagged die is "too few rolls to tell", not "fair so far"


def in_words(r: FairnessResult) -> str:
    """The verdict as the table reads it (the phone's Dice): a flagged die names the face it favours (or shuns) and
    how often that face came up; the p-value and Bayes factor stay with the details."""
    if r.flagged:
        fair = r.n / r.sides
        off = [c - fair for c in r.counts]
        worst = max(off, key=abs)
        faces = [str(i + 1) for i, d in enumerate(off) if d == worst]
        count = r.counts[int(faces[0]) - 1]
        said = " and ".join(faces)
        where = f"{count} of {r.n} rolls{' each' if len(faces) > 1 else ''}, where a fair die gives about {fair:.0f}"
        return (f"Looks loaded toward {said}: {where}." if worst > 0 else
                f"Looks loaded against {said}: only {where}.")
    if r.n < ENOUGH_ROLLS:
        return f"Too few rolls to tell yet: {r.n} so far, about {ENOUGH_ROLLS} are needed."
    return f"Fair so far: {r.n} rolls, nothing unusual."


__all__ = ["BF_THRESHOLD", "ENOUGH_ROLLS", "PRIOR_ALPHA", "FairnessResult", "face_counts", "chi_square", "chi2_sf",
           "log_bayes_factor", "assess", "assess_counts", "in_words", "sides_of"]
