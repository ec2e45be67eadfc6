"""Cohen's kappa, TPR/TNR and the bootstrap interval against figures worked out by hand."""

from __future__ import annotations

import random

import pytest

from tenxeval_tui.evaluation.analysis.agreement import (
    Confusion,
    agreement_figures,
    cohen_kappa,
    kappa_interval,
)
from tests.browsing.label_samples import FIGURE_KEYS


def test_the_textbook_example_by_hand() -> None:
    # 50 pairs: judge and human both pass 20, judge pass / human fail 5, judge fail /
    # human pass 10, both fail 15. p_o = 35/50 = 0.7; the judge passes 25/50 = 0.5, the
    # humans 30/50 = 0.6, so p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.2 / 0.5 = 0.4.
    confusion = Confusion(pass_pass=20, pass_fail=5, fail_pass=10, fail_fail=15)
    assert confusion.n == 50
    assert confusion.agreement == pytest.approx(0.7)
    assert cohen_kappa(confusion) == pytest.approx(0.4)
    assert confusion.tpr == pytest.approx(20 / 30)  # of the 30 the humans passed
    assert confusion.tnr == pytest.approx(15 / 20)  # of the 20 the humans failed


def test_pairs_are_counted_judge_first() -> None:
    pairs = [(True, True), (True, False), (True, False), (False, True), (False, False)]
    assert Confusion.of_pairs(pairs) == Confusion(1, 2, 1, 1)


def test_a_second_hand_worked_example() -> None:
    # judge passes 8 of 12, humans 6: pp 5, pf 3, fp 1, ff 3. p_o = 8/12; p_e =
    # (8/12)(6/12) + (4/12)(6/12) = 0.5; kappa = (2/3 - 1/2) / (1/2) = 1/3.
    confusion = Confusion(5, 3, 1, 3)
    assert cohen_kappa(confusion) == pytest.approx(1 / 3)
    assert confusion.tpr == pytest.approx(5 / 6)
    assert confusion.tnr == pytest.approx(3 / 6)


def test_perfect_agreement_is_one() -> None:
    confusion = Confusion(pass_pass=7, fail_fail=3)
    assert cohen_kappa(confusion) == 1.0
    assert confusion.tpr == 1.0 and confusion.tnr == 1.0
    # every resample that holds both classes agrees perfectly too
    assert kappa_interval(confusion) == (1.0, 1.0)


def test_agreement_at_chance_level_is_zero() -> None:
    # a judge that passes 80% whatever the humans say, who pass half
    assert cohen_kappa(Confusion(40, 40, 10, 10)) == pytest.approx(0.0)
    assert cohen_kappa(Confusion(25, 25, 25, 25)) == pytest.approx(0.0)
    # a judge that passes everything while the humans do not: agreement 60%, kappa 0
    always = Confusion(pass_pass=6, pass_fail=4)
    assert always.agreement == pytest.approx(0.6)
    assert cohen_kappa(always) == pytest.approx(0.0)
    assert always.tnr == 0.0


def test_perfect_disagreement_is_minus_one() -> None:
    assert cohen_kappa(Confusion(pass_fail=5, fail_pass=5)) == pytest.approx(-1.0)


@pytest.mark.parametrize(
    "confusion", [Confusion(pass_pass=10), Confusion(fail_fail=4), Confusion(pass_pass=1)]
)
def test_a_single_class_on_both_sides_leaves_kappa_undefined(confusion: Confusion) -> None:
    # p_e = 1: kappa is 0/0. Agreement is perfect yet says nothing of telling pass from fail.
    assert confusion.agreement == 1.0
    assert cohen_kappa(confusion) is None
    figures = agreement_figures(confusion)
    assert figures.kappa is None and figures.kappa_low is None and figures.kappa_high is None
    assert figures.below(-1.0)  # an undefined kappa never meets a bar


def test_no_pairs_has_no_figures() -> None:
    empty = Confusion()
    assert empty.agreement is None and empty.tpr is None and empty.tnr is None
    assert cohen_kappa(empty) is None


def test_rates_without_a_class_of_human_labels_are_undefined() -> None:
    only_passed = Confusion(pass_pass=3, fail_pass=1)
    assert only_passed.tpr == pytest.approx(0.75)
    assert only_passed.tnr is None


def _naive_bootstrap(confusion: Confusion, rounds: int, seed: int) -> tuple[float, float]:
    """The same interval by drawing pair by pair (the slow, obvious way)."""
    pairs = (
        [(True, True)] * confusion.pass_pass
        + [(True, False)] * confusion.pass_fail
        + [(False, True)] * confusion.fail_pass
        + [(False, False)] * confusion.fail_fail
    )
    rng = random.Random(seed)
    kappas = sorted(
        k
        for k in (
            cohen_kappa(Confusion.of_pairs(rng.choices(pairs, k=len(pairs)))) for _ in range(rounds)
        )
        if k is not None
    )
    return kappas[int(0.025 * (len(kappas) - 1))], kappas[int(0.975 * (len(kappas) - 1))]


def test_the_interval_matches_a_pair_by_pair_bootstrap() -> None:
    confusion = Confusion(20, 5, 10, 15)
    low, high = kappa_interval(confusion) or (0.0, 0.0)
    naive_low, naive_high = _naive_bootstrap(confusion, 4000, seed=7)
    assert low < 0.4 < high
    assert low == pytest.approx(naive_low, abs=0.05)
    assert high == pytest.approx(naive_high, abs=0.05)


def test_the_interval_is_seeded_and_narrows_with_more_pairs() -> None:
    small = Confusion(20, 5, 10, 15)
    assert kappa_interval(small, seed=3) == kappa_interval(small, seed=3)
    assert kappa_interval(small, seed=3) != kappa_interval(small, seed=4)
    big = Confusion(2000, 500, 1000, 1500)  # the same shares, 100 times the pairs
    low, high = kappa_interval(big) or (0.0, 0.0)
    small_low, small_high = kappa_interval(small) or (0.0, 0.0)
    assert low < 0.4 < high
    assert high - low < (small_high - small_low) / 5


def test_figures_as_json_have_the_documented_keys() -> None:
    data = agreement_figures(Confusion(20, 5, 10, 15)).as_json()
    assert list(data) == FIGURE_KEYS
    assert data["confusion"] == {"pass_pass": 20, "pass_fail": 5, "fail_pass": 10, "fail_fail": 15}
    assert data["n"] == 50 and data["kappa"] == pytest.approx(0.4)
