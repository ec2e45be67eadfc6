"""The estimators and tests of repeated runs, checked against their definitions."""

from __future__ import annotations

import itertools
import math

import pytest

from tenxeval_tui.evaluation.stats import (
    RepeatStats,
    fisher_one_sided,
    flip_count,
    pass_at_k,
    pass_hat_k,
    wilson_interval,
)


@pytest.mark.parametrize("n", [1, 2, 5, 7])
def test_pass_at_k_and_pass_hat_k_are_the_shares_of_k_subsets(n: int) -> None:
    # By definition: over every k-subset of the n runs, the share with at least one
    # pass (pass@k) and the share where every run passed (pass^k).
    for c in range(n + 1):
        runs = [True] * c + [False] * (n - c)
        for k in range(1, n + 1):
            subsets = list(itertools.combinations(runs, k))
            assert pass_at_k(n, c, k) == pytest.approx(
                sum(1 for s in subsets if any(s)) / len(subsets)
            )
            assert pass_hat_k(n, c, k) == pytest.approx(
                sum(1 for s in subsets if all(s)) / len(subsets)
            )


def test_estimators_refuse_impossible_counts() -> None:
    with pytest.raises(ValueError, match="passes"):
        pass_at_k(5, 6, 1)
    with pytest.raises(ValueError, match="k must be"):
        pass_hat_k(5, 2, 6)


def test_wilson_interval_matches_the_formula_and_stays_in_bounds() -> None:
    low, high = wilson_interval(8, 10)
    # Known values of the 95% Wilson interval for 8/10.
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    wide, narrow = wilson_interval(5, 10, 0.99), wilson_interval(5, 10, 0.80)
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]


def test_fisher_one_sided_against_the_hypergeometric_tail() -> None:
    # 5/5 against 0/5: only the observed table is as extreme, 1 / C(10, 5).
    assert fisher_one_sided(5, 5, 0, 5) == pytest.approx(1 / 252)
    # 5/5 against 2/5: tables with A at 5 passes of 7: C(5,5)C(5,2)/C(10,7).
    assert fisher_one_sided(5, 5, 2, 5) == pytest.approx(10 / 120)
    # No drop at all, or a rise: nothing significant.
    assert fisher_one_sided(3, 5, 3, 5) > 0.5
    assert fisher_one_sided(0, 5, 5, 5) == pytest.approx(1.0)
    # One run each (no repeats): a flip is never significant.
    assert fisher_one_sided(1, 1, 0, 1) == pytest.approx(0.5)


def test_fisher_tails_of_both_directions_cover_everything() -> None:
    for a, b in [(3, 1), (4, 4), (0, 2), (7, 3)]:
        up = fisher_one_sided(a, 8, b, 8)
        down = fisher_one_sided(b, 8, a, 8)
        # P(X >= a) + P(X <= a) = 1 + P(X = a)
        assert up + down >= 1.0 - 1e-12
        total = a + b
        exact = math.comb(8, a) * math.comb(8, total - a) / math.comb(16, total)
        assert up + down == pytest.approx(1.0 + exact)


def test_flips_and_repeat_stats() -> None:
    assert flip_count([True, True, False, True, False]) == 3
    assert flip_count([False]) == 0
    stats = RepeatStats.of(
        [True, False, True, True], scores={"m": [1.0, 0.0, 1.0, 1.0]}, pass_rule=0.75
    )
    assert (stats.repeats, stats.passed_repeats, stats.pass_rate) == (4, 3, 0.75)
    assert stats.pass_at_k == [0.75, 1.0, 1.0, 1.0]
    assert stats.pass_hat_k == pytest.approx([0.75, 0.5, 0.25, 0.0])
    assert stats.flips == 2
    assert stats.is_flaky
    spread = stats.score_spread["m"]
    assert (spread.mean, spread.min, spread.max) == (0.75, 0.0, 1.0)
    assert spread.stdev == pytest.approx(math.sqrt(0.1875))
