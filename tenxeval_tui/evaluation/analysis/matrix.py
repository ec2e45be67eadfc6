"""The variant matrix: several runs of the same cases side by side, which one is better.

``build_matrix({name: report, ...})`` puts the reports of several variants of an agent
(other agents, models, prompts: each run on the same cases) into one
:class:`VariantMatrix`:

- **cases x variants**: each case's mark in each variant (its status, and its passed runs
  of its runs when it was repeated); cases are matched by ``(eval set id, eval_id)`` as
  :mod:`.compare` matches them;
- **per variant**: passed cases of the cases it ran, the pass rate with its Wilson
  interval, the mean score per criterion, cost, tokens, latency (median and p95 of the
  cases' durations) and the **cost per successful case** (its whole cost, retries
  included, over its passed cases; ``None`` when it is not priced or passed none);
- **pairwise differences**: for each pair of variants, Fisher's exact test of their
  passed cases (the test :mod:`.compare` uses for a case's repeats, here two-sided:
  twice the smaller one-sided p-value), corrected for the number of pairs by Holm's
  step-down method, so with three variants the three tests together are wrong at most
  ``alpha`` of the time. The unit is the case (its verdict by the pass rule): a case's
  repeats are not independent of each other, so pooling them would overstate the
  evidence;
- **the Pareto line** of quality (pass rate) against cost: the variants no other beats on
  both (an unpriced variant counts as costing nothing);
- **separating cases**: the cases some variant passes and another does not, most
  separating first (the widest spread of per-variant pass fractions).

A report of a selection of its eval set's cases (``metadata.selection``: a rerun of the
failed ones, a filter, a ``--shard`` part) is a column as the others, marked
(:attr:`VariantStats.selection`): the cases of the matrix it did not run are *not run*
(:attr:`VariantStats.not_run`), and each pair it is in is tested over the cases both
ran (:attr:`PairDifference.cases`), as :mod:`.compare` does for two reports.

Pure functions over reports; the models serialise to the matrix report's JSON.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.analysis.compare import ALPHA, numbered_keys
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.selection_marks import selection_of
from tenxeval_tui.evaluation.stats import fisher_one_sided, wilson_interval

TEST_NAME = "Fisher's exact test, two-sided, Holm-corrected for the number of pairs"


class MatrixCell(BaseModel):
    """One case in one variant."""

    status: str
    """``passed``, ``failed`` or ``error``."""
    passes: int
    """Runs of the case that passed (its repeats; 1 or 0 when it ran once)."""
    runs: int

    @property
    def fraction(self) -> float:
        """Passed runs over runs."""
        return self.passes / self.runs if self.runs else 0.0


class MatrixRow(BaseModel):
    """One case across the variants (a variant that did not run it has no cell)."""

    eval_set_id: str
    eval_id: str
    name: str = ""
    occurrence: int = 0
    """Which of the cases sharing this eval set and eval id (0 for the first)."""
    cells: dict[str, MatrixCell] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        """The case's name, or its id."""
        return self.name or self.eval_id

    @property
    def spread(self) -> float:
        """How far apart the variants are on this case: the widest gap of pass fractions."""
        fractions = [cell.fraction for cell in self.cells.values()]
        return max(fractions) - min(fractions) if len(fractions) > 1 else 0.0


class VariantStats(BaseModel):
    """One variant's figures over the cases it ran."""

    name: str
    passed: int
    total: int
    errors: int = 0
    pass_rate: float
    pass_rate_low: float
    pass_rate_high: float
    """The Wilson 95% interval of the pass rate."""
    criteria: dict[str, float] = Field(default_factory=dict)
    """Mean score per criterion."""
    cost_usd: float | None = None
    cost_per_success: float | None = None
    """``cost_usd`` over the passed cases (``None``: not priced, or nothing passed)."""
    tokens: int = 0
    latency_median: float | None = None
    latency_p95: float | None = None
    """Seconds a case took: median and 95th percentile (nearest rank)."""
    partial: bool = False
    selection: str | None = Field(default=None, exclude_if=lambda v: v is None)
    """Its report is of some of its eval set's cases only, in words (``None``: of every
    case; see :mod:`~tenxeval_tui.evaluation.selection_marks`)."""
    not_run: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """With a ``selection``: the cases of the matrix it did not run."""


class PairDifference(BaseModel):
    """Two variants' pass rates and whether they differ beyond noise."""

    a: str
    b: str
    pass_rate_a: float
    pass_rate_b: float
    p_value: float
    """Fisher's exact test, two-sided, of the two variants' passed cases."""
    p_adjusted: float
    """``p_value`` corrected for the number of pairs (Holm)."""
    significant: bool
    cases: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """When ``a`` or ``b`` is a selection: the pass rates and the test are over the cases
    both ran, this many (``None``: each over its own cases)."""

    @property
    def difference(self) -> float:
        """``a``'s pass rate minus ``b``'s."""
        return self.pass_rate_a - self.pass_rate_b

    @property
    def better(self) -> str | None:
        """The variant that is significantly better, or ``None``."""
        if not self.significant or self.pass_rate_a == self.pass_rate_b:
            return None
        return self.a if self.pass_rate_a > self.pass_rate_b else self.b


class VariantMatrix(BaseModel):
    """Several variants' reports of the same cases side by side (see the module)."""

    variants: list[VariantStats]
    """Ranked: pass rate, then cost per success (cheaper first), then name."""
    rows: list[MatrixRow] = Field(default_factory=list)
    pairs: list[PairDifference] = Field(default_factory=list)
    pareto: list[str] = Field(default_factory=list)
    """The variants on the quality/cost Pareto line, cheapest first."""
    alpha: float = ALPHA
    test: str = TEST_NAME

    @property
    def names(self) -> list[str]:
        """The variants' names, ranked."""
        return [v.name for v in self.variants]

    def variant(self, name: str) -> VariantStats:
        """The figures of variant ``name`` (``KeyError`` when there is none)."""
        for stats in self.variants:
            if stats.name == name:
                return stats
        raise KeyError(name)

    def pair(self, a: str, b: str) -> PairDifference:
        """The difference between ``a`` and ``b`` (either order; ``KeyError`` when none)."""
        for pair in self.pairs:
            if (pair.a, pair.b) in ((a, b), (b, a)):
                return pair
        raise KeyError((a, b))

    @property
    def separating(self) -> list[MatrixRow]:
        """The cases some variant passes more often than another, most separating first
        (then in case order)."""
        rows = [(index, row) for index, row in enumerate(self.rows) if row.spread > 0]
        return [row for _, row in sorted(rows, key=lambda pair: (-pair[1].spread, pair[0]))]

    def worse_than(self, baseline: str) -> list[str]:
        """The variants significantly worse than ``baseline`` (``KeyError`` when no such
        variant)."""
        base = self.variant(baseline)
        return [
            name
            for name in self.names
            if name != baseline
            and (pair := self.pair(baseline, name)).significant
            and pair.better == base.name
        ]


def case_counts(result: EvalCaseResult) -> tuple[int, int]:
    """``(passed runs, runs)`` of a case: from its repeats, or 1 or 0 of 1 by its status."""
    if result.repeat_stats is not None:
        return (result.repeat_stats.passed_repeats, result.repeat_stats.repeats)
    return (1 if result.status == "passed" else 0, 1)


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The nearest-rank percentile of ``values`` (``None`` when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def variant_stats(name: str, report: EvalReport) -> VariantStats:
    """The figures of one variant's report."""
    results = report.results
    passed = sum(1 for r in results if r.status == "passed")
    total = len(results)
    low, high = wilson_interval(passed, total)
    scores: dict[str, list[float]] = {}
    for result in results:
        for criterion in result.criterion_results:
            scores.setdefault(criterion.criterion, []).append(criterion.score)
    cost = report.summary.total_cost_usd
    durations = [r.duration_seconds for r in results]
    return VariantStats(
        name=name,
        passed=passed,
        total=total,
        errors=sum(1 for r in results if r.is_error),
        pass_rate=passed / total if total else 0.0,
        pass_rate_low=low,
        pass_rate_high=high,
        criteria={c: statistics.fmean(s) for c, s in sorted(scores.items())},
        cost_usd=cost,
        cost_per_success=cost / passed if cost is not None and passed else None,
        tokens=report.summary.total_token_usage.total_tokens,
        latency_median=statistics.median(durations) if durations else None,
        latency_p95=percentile(durations, 0.95),
        partial=report.is_partial,
        selection=mark.text if (mark := selection_of(report.metadata)) is not None else None,
    )


def two_sided_fisher(passes_a: int, runs_a: int, passes_b: int, runs_b: int) -> float:
    """Fisher's exact test, two-sided (twice the smaller one-sided p-value, at most 1)."""
    higher = fisher_one_sided(passes_a, runs_a, passes_b, runs_b)
    lower = fisher_one_sided(passes_b, runs_b, passes_a, runs_a)
    return min(1.0, 2 * min(higher, lower))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (same order): each adjusted value is
    significant at ``alpha`` exactly when Holm's method rejects it at ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


type Counts = tuple[int, int, int, int, int | None]
"""A pair's ``(passed a, cases a, passed b, cases b, cases both ran or None)``."""


def _pair_counts(a: VariantStats, b: VariantStats, rows: Sequence[MatrixRow]) -> Counts:
    """What a pair is tested on: each variant's own cases, or the cases both ran when
    either is a selection (and ``rows`` are given)."""
    if not rows or (a.selection is None and b.selection is None):
        return (a.passed, a.total, b.passed, b.total, None)
    both = [row for row in rows if a.name in row.cells and b.name in row.cells]
    passed_a = sum(1 for row in both if row.cells[a.name].status == "passed")
    passed_b = sum(1 for row in both if row.cells[b.name].status == "passed")
    return (passed_a, len(both), passed_b, len(both), len(both))


def pairwise(
    stats: Sequence[VariantStats], alpha: float = ALPHA, rows: Sequence[MatrixRow] = ()
) -> list[PairDifference]:
    """Every pair of ``stats`` (in their order), tested and Holm-corrected; a pair with a
    selection (given the matrix's ``rows``) over the cases both ran."""
    pairs = list(itertools.combinations(stats, 2))
    counts = [_pair_counts(a, b, rows) for a, b in pairs]
    raw = [two_sided_fisher(pa, na, pb, nb) for pa, na, pb, nb, _ in counts]
    return [
        PairDifference(
            a=a.name,
            b=b.name,
            pass_rate_a=pa / na if na else 0.0,
            pass_rate_b=pb / nb if nb else 0.0,
            p_value=p,
            p_adjusted=adjusted,
            significant=adjusted < alpha,
            cases=shared,
        )
        for (a, b), (pa, na, pb, nb, shared), p, adjusted in zip(
            pairs, counts, raw, holm(raw), strict=True
        )
    ]


def pareto_line(stats: Sequence[VariantStats]) -> list[str]:
    """The variants no other beats on both pass rate and cost, cheapest first."""

    def cost(v: VariantStats) -> float:
        return v.cost_usd or 0.0

    front = [
        v
        for v in stats
        if not any(
            w.pass_rate >= v.pass_rate
            and cost(w) <= cost(v)
            and (w.pass_rate > v.pass_rate or cost(w) < cost(v))
            for w in stats
        )
    ]
    return [v.name for v in sorted(front, key=lambda v: (cost(v), -v.pass_rate, v.name))]


def _rank_key(v: VariantStats) -> tuple[float, float, str]:
    unpriced = v.cost_per_success is None
    return (-v.pass_rate, math.inf if unpriced else v.cost_per_success or 0.0, v.name)


def matrix_rows(reports: Mapping[str, EvalReport]) -> list[MatrixRow]:
    """Cases x variants, in the order the cases first appear."""
    rows: dict[tuple[str, str, int], MatrixRow] = {}
    for name, report in reports.items():
        keys = numbered_keys(
            (r.eval_set_id or report.eval_set_id, r.eval_id) for r in report.results
        )
        for key, result in zip(keys, report.results, strict=True):
            row = rows.get(key)
            if row is None:
                row = rows[key] = MatrixRow(
                    eval_set_id=key[0], eval_id=key[1], name=result.name, occurrence=key[2]
                )
            passes, runs = case_counts(result)
            row.cells[name] = MatrixCell(status=result.status, passes=passes, runs=runs)
    return list(rows.values())


def build_matrix(reports: Mapping[str, EvalReport], alpha: float = ALPHA) -> VariantMatrix:
    """The matrix of ``reports``, one per variant, keyed by the variant's name."""
    stats = sorted((variant_stats(name, r) for name, r in reports.items()), key=_rank_key)
    rows = matrix_rows(reports)
    for v in stats:
        if v.selection is not None:  # the cases others ran that it left out
            v.not_run = sum(1 for row in rows if v.name not in row.cells)
    return VariantMatrix(
        variants=stats,
        rows=rows,
        pairs=pairwise(stats, alpha, rows),
        pareto=pareto_line(stats),
        alpha=alpha,
    )


__all__ = [
    "TEST_NAME",
    "MatrixCell",
    "MatrixRow",
    "PairDifference",
    "VariantMatrix",
    "VariantStats",
    "build_matrix",
    "case_counts",
    "holm",
    "pairwise",
    "pareto_line",
    "percentile",
    "two_sided_fisher",
    "variant_stats",
]
