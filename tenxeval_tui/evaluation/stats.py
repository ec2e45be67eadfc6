"""Statistics of repeated runs: pass@k, pass^k, Wilson intervals and Fisher's exact test.

Pure functions over counts (no scipy: ``math.comb`` is exact and quick enough for
the numbers of repeats an evaluation uses), and the models that keep the figures
in a report:

- :func:`pass_at_k`: the unbiased estimator of the chance that at least one of
  ``k`` runs passes, from ``c`` passes in ``n`` runs (Chen et al., 2021,
  "Evaluating Large Language Models Trained on Code"):
  ``1 - C(n - c, k) / C(n, k)``.
- :func:`pass_hat_k` (pass^k): the unbiased estimator of the chance that all of
  ``k`` runs pass (Yao et al., 2024, tau-bench): ``C(c, k) / C(n, k)``.
- :func:`wilson_interval`: the Wilson score interval of a proportion.
- :func:`fisher_one_sided`: Fisher's exact test, one-sided, of "the first
  proportion is higher than the second" (what a regression is).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

# z of a two-sided 95% interval (statistics.NormalDist().inv_cdf(0.975)).
_Z95 = 1.959963984540054


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of ``k`` runs passes, from ``c`` passes in ``n`` runs."""
    _check_counts(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all ``k`` runs pass (pass^k), from ``c`` passes in ``n`` runs."""
    _check_counts(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check_counts(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"passes must be between 0 and the runs ({n}), not {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and the runs ({n}), not {k}")


def wilson_interval(passes: int, total: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of ``passes / total``.

    ``(0.0, 1.0)`` when ``total`` is 0 (nothing is known). Unlike the normal
    approximation it stays within [0, 1] and is sensible at 0 and 100%.
    """
    if total <= 0:
        return (0.0, 1.0)
    if not 0 <= passes <= total:
        raise ValueError(f"passes must be between 0 and {total}, not {passes}")
    if confidence == 0.95:
        z = _Z95
    else:
        import statistics  # only here and for repeats' spreads: not on a run's way to its cases

        z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = passes / total
    z2 = z * z
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    low = 0.0 if passes == 0 else max(0.0, centre - half)
    high = 1.0 if passes == total else min(1.0, centre + half)
    return (low, high)


def fisher_one_sided(passes_a: int, runs_a: int, passes_b: int, runs_b: int) -> float:
    """p-value of Fisher's exact test that run A's pass rate is *higher* than run B's.

    The 2x2 table is (passes, failures) of A and of B. Under the null hypothesis
    (one pass rate for both), the passes of A follow the hypergeometric
    distribution given the margins; the p-value is the chance of A having at
    least the passes it had. A small value (below 0.05, say) means B's drop is
    unlikely to be chance.
    """
    for passes, runs in ((passes_a, runs_a), (passes_b, runs_b)):
        if runs < 0 or not 0 <= passes <= runs:
            raise ValueError(f"passes must be between 0 and the runs ({runs}), not {passes}")
    total_passes = passes_a + passes_b
    total_runs = runs_a + runs_b
    if total_runs == 0:
        return 1.0
    denominator = math.comb(total_runs, total_passes)
    top = min(total_passes, runs_a)
    tail = sum(
        math.comb(runs_a, x) * math.comb(runs_b, total_passes - x) for x in range(passes_a, top + 1)
    )
    return min(1.0, tail / denominator)


def flip_count(outcomes: Sequence[bool]) -> int:
    """How many times the outcome changes from one run to the next (in run order)."""
    return sum(1 for a, b in itertools.pairwise(outcomes) if a != b)


class ScoreSpread(BaseModel):
    """One criterion's scores over a case's repeats."""

    model_config = ConfigDict(extra="allow")

    mean: float
    min: float
    max: float
    stdev: float = 0.0
    """Population standard deviation (0 for a single score)."""

    @classmethod
    def of(cls, scores: Sequence[float]) -> ScoreSpread:
        """The spread of ``scores`` (at least one)."""
        import statistics

        return cls(
            mean=statistics.fmean(scores),
            min=min(scores),
            max=max(scores),
            stdev=statistics.pstdev(scores) if len(scores) > 1 else 0.0,
        )


class RepeatStats(BaseModel):
    """How one case fared over its repeats (``EvalCaseResult.repeat_stats``).

    ``pass_at_k[k - 1]`` and ``pass_hat_k[k - 1]`` are the estimates for ``k``
    runs, for every ``k`` from 1 to ``repeats``. ``flips`` counts outcome
    changes between consecutive repeats; ``pass_rule`` is the rule that decided
    the case (see :mod:`tenxeval_tui.evaluation.repeats`); ``representative`` is
    the repeat whose trajectory and reply the case shows at its top level.
    """

    model_config = ConfigDict(extra="allow")

    repeats: int
    passed_repeats: int
    errored_repeats: int = 0
    pass_rate: float
    pass_at_k: list[float] = Field(default_factory=list)
    pass_hat_k: list[float] = Field(default_factory=list)
    flips: int = 0
    score_spread: dict[str, ScoreSpread] = Field(default_factory=dict)
    pass_rule: str | float = "all"
    representative: int = 0

    @property
    def is_flaky(self) -> bool:
        """Whether the repeats disagreed (some passed, some did not)."""
        return 0 < self.passed_repeats < self.repeats

    @classmethod
    def of(
        cls,
        outcomes: Sequence[bool],
        *,
        errored: int = 0,
        scores: dict[str, list[float]] | None = None,
        pass_rule: str | float = "all",
        representative: int = 0,
    ) -> RepeatStats:
        """The statistics of a case whose repeats passed or not as ``outcomes`` says."""
        n = len(outcomes)
        c = sum(1 for passed in outcomes if passed)
        return cls(
            repeats=n,
            passed_repeats=c,
            errored_repeats=errored,
            pass_rate=c / n if n else 0.0,
            pass_at_k=[pass_at_k(n, c, k) for k in range(1, n + 1)],
            pass_hat_k=[pass_hat_k(n, c, k) for k in range(1, n + 1)],
            flips=flip_count(outcomes),
            score_spread={name: ScoreSpread.of(s) for name, s in (scores or {}).items() if s},
            pass_rule=pass_rule,
            representative=representative,
        )


class RunRepeatStats(BaseModel):
    """A run's figures over every repeat of every case (``EvalSummary.repeat_stats``).

    ``total_repeats``/``passed_repeats`` count single runs of cases;
    ``repeat_pass_rate`` is their ratio with its Wilson interval (the repeats of
    one case are not independent of each other, so read it as indicative);
    ``pass_rate_low``/``pass_rate_high`` are the Wilson interval of the cases'
    pass rate (``EvalSummary.pass_rate``); ``flaky_cases`` counts cases whose
    repeats disagreed.
    """

    model_config = ConfigDict(extra="allow", defer_build=True)  # built after the cases

    total_repeats: int = 0
    passed_repeats: int = 0
    repeat_pass_rate: float = 0.0
    repeat_pass_rate_low: float = 0.0
    repeat_pass_rate_high: float = 1.0
    pass_rate_low: float = 0.0
    pass_rate_high: float = 1.0
    flaky_cases: int = 0
    total_flips: int = 0


def run_repeat_stats(cases: Sequence[tuple[RepeatStats | None, bool]]) -> RunRepeatStats | None:
    """A run's :class:`RunRepeatStats` from each case's ``(repeat_stats, passed)``, or
    ``None`` when no case ran more than once (a case run once counts as one run)."""
    totals = RepeatTotals()
    for stats, case_passed in cases:
        totals.add(stats, case_passed)
    return totals.stats()


class RepeatTotals:
    """:func:`run_repeat_stats` as running totals: each case's ``(repeat_stats, passed)``
    added one at a time, none kept."""

    def __init__(self) -> None:
        self.cases = self.passed_cases = 0
        self.runs = self.passed_runs = 0
        self.repeated = self.flaky = self.flips = 0

    def add(self, stats: RepeatStats | None, case_passed: bool) -> None:
        self.cases += 1
        self.passed_cases += bool(case_passed)
        self.runs += stats.repeats if stats else 1
        self.passed_runs += stats.passed_repeats if stats else int(case_passed)
        if stats is not None:
            self.repeated += 1
            self.flaky += stats.is_flaky
            self.flips += stats.flips

    def stats(self) -> RunRepeatStats | None:
        """The run's figures, or ``None`` when no case ran more than once."""
        if not self.repeated:
            return None
        total, passed = self.runs, self.passed_runs
        low, high = wilson_interval(passed, total)
        case_low, case_high = wilson_interval(self.passed_cases, self.cases)
        return RunRepeatStats(
            total_repeats=total,
            passed_repeats=passed,
            repeat_pass_rate=passed / total,
            repeat_pass_rate_low=low,
            repeat_pass_rate_high=high,
            pass_rate_low=case_low,
            pass_rate_high=case_high,
            flaky_cases=self.flaky,
            total_flips=self.flips,
        )


def repeat_summary_lines(rs: RunRepeatStats) -> list[str]:
    """The plain-text summary lines of a run's repeats."""
    return [
        f"  Pass rate 95% interval: {rs.pass_rate_low:.1%} to {rs.pass_rate_high:.1%} (Wilson)",
        f"  Repeats: {rs.passed_repeats}/{rs.total_repeats} runs passed "
        f"({rs.repeat_pass_rate:.1%}, 95% interval {rs.repeat_pass_rate_low:.1%} to "
        f"{rs.repeat_pass_rate_high:.1%}); {rs.flaky_cases} flaky cases, {rs.total_flips} flips",
    ]


__all__ = [
    "RepeatStats",
    "RepeatTotals",
    "RunRepeatStats",
    "ScoreSpread",
    "fisher_one_sided",
    "flip_count",
    "pass_at_k",
    "pass_hat_k",
    "repeat_summary_lines",
    "run_repeat_stats",
    "wilson_interval",
]
