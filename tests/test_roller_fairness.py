"""The fairness monitor: chi-square tail, Bayes factor, and its false-alarm and detection rates by simulation.

Run as a script to print the rates quoted in docs/dice.md:  .venv/bin/python tests/test_roller_fairness.py
"""
from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

import pytest

from companion.records.fairness import (BF_THRESHOLD, PRIOR_ALPHA, assess, assess_counts, chi2_sf, chi_square,
                                face_counts, log_bayes_factor)

# chi-square critical values (upper 5% and 1% points), from the standard tables
CRITICAL = {1: (3.841, 6.635), 2: (5.991, 9.210), 3: (7.815, 11.345), 4: (9.488, 13.277), 5: (11.070, 15.086),
            6: (12.592, 16.812), 7: (14.067, 18.475), 8: (15.507, 20.090), 9: (16.919, 21.666),
            10: (18.307, 23.209), 11: (19.675, 24.725), 12: (21.026, 26.217)}


@pytest.mark.parametrize("dof", sorted(CRITICAL))
def test_chi2_tail_matches_the_tables(dof: int) -> None:
    x05, x01 = CRITICAL[dof]
    assert chi2_sf(x05, dof) == pytest.approx(0.05, abs=2e-4)
    assert chi2_sf(x01, dof) == pytest.approx(0.01, abs=1e-4)


def test_chi2_tail_edges() -> None:
    assert chi2_sf(0.0, 5) == 1.0 and chi2_sf(-1.0, 11) == 1.0
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1))  # dof 2 is exponential
    assert chi2_sf(1000.0, 5) < 1e-200 and chi2_sf(1000.0, 11) < 1e-200
    values = [chi2_sf(x / 2, 5) for x in range(60)]
    assert values == sorted(values, reverse=True)
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_chi_square_statistic() -> None:
    assert chi_square((10, 10, 10, 10, 10, 10)) == 0.0
    assert chi_square((0,) * 6) == 0.0
    assert chi_square((20, 10, 10, 10, 10, 0)) == pytest.approx((100 + 100) / 10)


def _brute_force_log_bf(seq: list[int], k: int, alpha: float) -> float:
    """The Bayes factor as the product of the prior-predictive probabilities, roll by roll."""
    counts = [0] * k
    total = 0.0
    for n, v in enumerate(seq):
        total += math.log((alpha + counts[v]) / (k * alpha + n)) - math.log(1 / k)
        counts[v] += 1
    return total


def test_bayes_factor_closed_form_matches_the_sequential_product() -> None:
    rng = random.Random(1)
    for k in (6, 12):
        seq = [rng.randrange(k) for _ in range(200)]
        counts = [seq.count(i) for i in range(k)]
        assert log_bayes_factor(counts) == pytest.approx(_brute_force_log_bf(seq, k, PRIOR_ALPHA))
        assert log_bayes_factor(counts, 1.0) == pytest.approx(_brute_force_log_bf(seq, k, 1.0))


def test_bayes_factor_is_order_free_but_the_peak_is_not() -> None:
    values = [6] * 40 + [1, 2, 3, 4, 5] * 60
    a = assess(values, "d6")
    shuffled = values[:]
    random.Random(3).shuffle(shuffled)
    b = assess(shuffled, "d6")
    assert a.log_bayes_factor == pytest.approx(b.log_bayes_factor)
    assert a.flagged_at is not None and a.flagged_at <= 40  # the run of sixes was caught ...
    assert not a.flagged and a.bayes_factor < 20 < a.peak_bayes_factor  # ... and 300 even rolls outweigh it
    assert b.flagged_at is None and b.peak_bayes_factor < 20  # the same rolls, well mixed, never looked loaded


def test_flagged_at_is_the_first_crossing() -> None:
    values = [3] * 30
    r = assess(values, "d6")
    first = next(n for n in range(1, 31) if log_bayes_factor(face_counts(values[:n], 6)) >= math.log(20))
    assert r.flagged_at == first


def test_perfectly_even_counts_are_evidence_for_fairness() -> None:
    r = assess_counts([100] * 6, "d6")
    assert r.bayes_factor < 1 and not r.flagged and r.chi2 == 0 and r.p_value == 1.0


def test_results_and_their_json() -> None:
    r = assess([1, 2, 3, 4, 5, 6, 6], "d6")
    j = r.to_json()
    assert {"n", "chi2", "p_value", "bayes_factor", "flagged", "counts", "die"} <= set(j)
    assert j["n"] == 7 and j["counts"]["6"] == 2 and j["flagged"] is False
    with pytest.raises(ValueError):
        assess([7], "d6")
    with pytest.raises(ValueError):
        assess([1], "d20")
    with pytest.raises(ValueError):
        assess_counts([1, 2, 3], "d6")
    huge = assess_counts([0, 0, 0, 0, 0, 5000], "d6")
    assert math.isfinite(huge.bayes_factor) and huge.flagged


# --- simulation -------------------------------------------------------------------------------------------------

LOADED_D6 = [0.25] + [0.15] * 5  # one face 25% of the time, the rest share 75%


@dataclass
class Sim:
    first: list[int | None]  #: per session: the roll at which the Bayes factor first reached 20 (None: never)
    now: dict[int, float]  #: per look after N rolls: the share of sessions flagged at that moment

    def ever(self, within: int) -> float:
        """The share of sessions flagged at some roll up to ``within`` (a look after every roll)."""
        return sum(1 for f in self.first if f is not None and f <= within) / len(self.first)


def simulate(weights: list[float], rolls: int, sessions: int, seed: int, looks: tuple[int, ...] = ()) -> Sim:
    rng = random.Random(seed)
    sides = len(weights)
    die = f"d{sides}"
    faces = list(range(1, sides + 1))
    first: list[int | None] = []
    now = dict.fromkeys(looks, 0.0)
    for _ in range(sessions):
        values = rng.choices(faces, weights, k=rolls)
        first.append(assess(values, die).flagged_at)
        for n in looks:  # flagged at a look is a function of the counts so far: assess_counts, not a replay
            now[n] += assess_counts([values[:n].count(f) for f in faces], die).flagged / sessions
    return Sim(first, now)


def test_fair_dice_are_rarely_flagged() -> None:
    for sides, seed in ((6, 11), (12, 12)):
        sim = simulate([1 / sides] * sides, 500, 200, seed, looks=(100, 300, 500))
        assert sim.ever(500) <= 0.06  # looked at after every roll
        assert max(sim.now.values()) <= 0.015  # looked at once


def test_a_loaded_d6_is_caught_within_a_few_hundred_rolls() -> None:
    sim = simulate(LOADED_D6, 500, 200, 13, looks=(500,))
    assert sim.ever(500) >= 0.8 and sim.now[500] >= 0.75
    assert statistics.median(f if f is not None else 10**9 for f in sim.first) <= 300


@pytest.mark.slow
def test_rates_measured_at_scale() -> None:
    """Ville's inequality bounds the chance a fair die is ever flagged at 1/20, however long and often it is
    looked at. Measure that and the detection of the loaded d6."""
    fair = simulate([1 / 6] * 6, 2000, 1000, 21, looks=(300, 1000, 2000))
    assert fair.ever(2000) <= 0.06 and max(fair.now.values()) <= 0.01
    loaded = simulate(LOADED_D6, 1000, 1000, 22, looks=(300, 500))
    assert loaded.ever(300) >= 0.6 and loaded.ever(500) >= 0.85 and loaded.ever(1000) >= 0.98
    assert loaded.now[500] >= 0.8


def report() -> None:  # pragma: no cover - prints the docs/dice.md numbers
    print(f"threshold {BF_THRESHOLD:g}, prior Dirichlet({PRIOR_ALPHA:g}, ...)")
    for sides, seed in ((6, 31), (12, 32)):
        sim = simulate([1 / sides] * sides, 2000, 10000, seed, looks=(100, 300, 1000, 2000))
        ever = ", ".join(f"{sim.ever(m):.1%} by roll {m}" for m in (100, 300, 1000, 2000))
        now = ", ".join(f"{v:.2%} at roll {m}" for m, v in sim.now.items())
        print(f"fair d{sides}, 10000 sessions: ever flagged {ever}; flagged when looked at once: {now}")
    for name, weights in (("d6", LOADED_D6), ("d12", [0.25] + [0.75 / 11] * 11)):
        sim = simulate(weights, 1000, 5000, 33, looks=(100, 200, 300, 500, 1000))
        ever = ", ".join(f"{sim.ever(m):.1%} by roll {m}" for m in (100, 200, 300, 500, 1000))
        now = ", ".join(f"{v:.1%} at roll {m}" for m, v in sim.now.items())
        caught = sorted(f for f in sim.first if f is not None)
        print(f"{name} showing one face 25%, 5000 sessions: first flagged {ever}; median first flag at roll "
              f"{statistics.median(caught):.0f} (quartiles {caught[len(caught) // 4]}..{caught[3 * len(caught) // 4]});"
              f" flagged when looked at: {now}")


if __name__ == "__main__":  # pragma: no cover
    report()
