"""Comparing two runs: which cases regressed, were fixed, appeared or disappeared.

``compare_reports(baseline, current)`` matches cases by ``(eval set id, eval_id)``
(the eval set id comes from a case's metadata in combined reports, else ""), so
two cases with the same id in different eval sets of a combined report stay
apart. The result is a plain pydantic model: it sorts, serialises to JSON and
prints as text, for the TUI and the headless ``compare`` command alike.

Noise-aware: when either side ran a case more than once (repeats, or several
baseline reports pooled with :func:`pool_runs`), the case is *regressed* only
when its pass-rate drop is significant by Fisher's exact test, one-sided, at
``alpha`` (0.05 by default): the chance of the baseline having at least the
passes it had, were both runs' pass rates the same, is below ``alpha``. It is
*fixed* only when the rise is significant the same way. A change that is not
significant keeps the baseline's category (unchanged, or still failing) and is
marked ``noise_flip`` when the case's status did flip. ``strict=True`` goes back
to flagging every flip of status. Cases that ran once on both sides are
compared by status, exactly as without repeats.

A run of a selection of its eval set's cases (``metadata.selection``: a rerun of the
failed ones, a filter) is compared over what it ran: the cases it left out are
*not run*, not removed or new, and both pass rates are over the cases both runs ran.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.selection_marks import selection_of
from tenxeval_tui.evaluation.stats import fisher_one_sided

ALPHA = 0.05
"""Significance level of the noise-aware comparison (Fisher's exact test, one-sided)."""
TEST_NAME = "Fisher's exact test, one-sided"


def _unset(value: Any) -> bool:
    # Figures only comparisons with repeats have: absent from the JSON of the others.
    return value is None


class CaseChange(StrEnum):
    """How one case moved from the baseline run to the current one."""

    REGRESSED = "regressed"  # passed before, failed or errored now
    FIXED = "fixed"  # failed or errored before, passes now
    NEW = "new"  # only in the current run
    REMOVED = "removed"  # only in the baseline run
    NOT_RUN = "not_run"  # only in one run, the other a selection of the cases that left it out
    STILL_FAILING = "still_failing"  # did not pass in either run
    UNCHANGED = "unchanged"  # passed in both runs


# Most interesting first: the order cases are listed in by default.
CHANGE_ORDER: tuple[CaseChange, ...] = (
    CaseChange.REGRESSED,
    CaseChange.FIXED,
    CaseChange.NEW,
    CaseChange.REMOVED,
    CaseChange.STILL_FAILING,
    CaseChange.UNCHANGED,
    CaseChange.NOT_RUN,
)
LISTED_CHANGES: tuple[CaseChange, ...] = CHANGE_ORDER[:5]
"""The changes whose cases a summary lists (not the unchanged nor the not run ones)."""


class CaseComparison(BaseModel):
    """One case in both runs (``None`` status on the side it is missing from)."""

    eval_set_id: str = ""
    eval_id: str
    name: str = ""
    change: CaseChange
    baseline_status: str | None = None
    current_status: str | None = None
    baseline_score: float | None = None
    current_score: float | None = None
    occurrence: int = 0
    """Which of the cases sharing this eval set and eval id (two files with one
    ``eval_set_id`` combined in a run): 0 for the first, 1 for the next..."""
    baseline_passes: int | None = Field(default=None, exclude_if=_unset)
    baseline_runs: int | None = Field(default=None, exclude_if=_unset)
    current_passes: int | None = Field(default=None, exclude_if=_unset)
    current_runs: int | None = Field(default=None, exclude_if=_unset)
    p_value: float | None = Field(default=None, exclude_if=_unset)
    """One-sided p-value of the pass-rate change, in its direction (repeats only)."""
    noise_flip: bool | None = Field(default=None, exclude_if=_unset)
    """The status flipped but the pass-rate change is not significant (repeats only)."""

    @property
    def label(self) -> str:
        """The case's name, or its id."""
        return self.name or self.eval_id

    @property
    def score_delta(self) -> float | None:
        """Change of the mean criterion score (``None`` unless both runs scored it)."""
        if self.baseline_score is None or self.current_score is None:
            return None
        return self.current_score - self.baseline_score


class CriterionDelta(BaseModel):
    """One criterion's average score and pass rate in both runs."""

    criterion: str
    baseline_avg_score: float | None = None
    current_avg_score: float | None = None
    baseline_pass_rate: float | None = None
    current_pass_rate: float | None = None

    @property
    def avg_score_delta(self) -> float | None:
        """Current minus baseline average score (``None`` if one run lacks the criterion)."""
        if self.baseline_avg_score is None or self.current_avg_score is None:
            return None
        return self.current_avg_score - self.baseline_avg_score

    @property
    def pass_rate_delta(self) -> float | None:
        """Current minus baseline pass rate (``None`` if one run lacks the criterion)."""
        if self.baseline_pass_rate is None or self.current_pass_rate is None:
            return None
        return self.current_pass_rate - self.baseline_pass_rate


def _sort_none_last(value: Any) -> tuple[bool, Any]:
    return (value is None, value if value is not None else 0)


# Sort keys of CaseComparison, by the column names the TUI and CLI use.
CASE_SORT_KEYS: dict[str, Callable[[CaseComparison], Any]] = {
    "change": lambda c: (CHANGE_ORDER.index(c.change), c.eval_set_id, c.eval_id),
    "case": lambda c: (c.label.casefold(), c.eval_id),
    "baseline": lambda c: (c.baseline_status or "", c.eval_id),
    "current": lambda c: (c.current_status or "", c.eval_id),
    "delta": lambda c: (_sort_none_last(c.score_delta), c.eval_id),
}


class ReportComparison(BaseModel):
    """The differences between a baseline run and a current run."""

    baseline_id: str
    current_id: str
    baseline_pass_rate: float = 0.0
    current_pass_rate: float = 0.0
    baseline_partial: bool = False
    current_partial: bool = False
    """A run cancelled before every case finished: its missing cases show as removed/new."""
    baseline_selection: str | None = Field(default=None, exclude_if=_unset)
    current_selection: str | None = Field(default=None, exclude_if=_unset)
    """A run of some of its eval set's cases only (a rerun of the failed ones, a filter),
    in words: the cases it did not run are ``not_run``, not removed or new."""
    pass_rate_cases: int | None = Field(default=None, exclude_if=_unset)
    """With a selection on either side: the pass rates are over the cases both runs ran,
    this many (``None``: each run's pass rate over its own cases)."""
    cases: list[CaseComparison] = Field(default_factory=list)
    criteria: list[CriterionDelta] = Field(default_factory=list)
    significance: str | None = Field(default=None, exclude_if=_unset)
    """How regressions were told from noise (``None`` when no case had repeats, or strict)."""

    def eval_set_warning(self) -> str | None:
        """Why this comparison may mislead when the two runs are of different eval sets
        (``None`` when they are of the same ones): cases are matched by eval set and id."""
        before = sorted({c.eval_set_id for c in self.cases if c.baseline_status is not None})
        after = sorted({c.eval_set_id for c in self.cases if c.current_status is not None})
        if not before or not after or before == after:
            return None
        return (
            f"⚠ different eval sets: baseline {', '.join(map(repr, before))}, current "
            f"{', '.join(map(repr, after))}; cases are matched by eval set and id, so those "
            "of one side only show as new or removed"
        )

    @property
    def noise_flips(self) -> list[CaseComparison]:
        """Cases whose status flipped within noise (not counted as regressed or fixed)."""
        return [c for c in self.cases if c.noise_flip]

    def with_change(self, change: CaseChange) -> list[CaseComparison]:
        """The cases whose change is ``change``, in listing order."""
        return [c for c in self.cases if c.change == change]

    @property
    def regressed(self) -> list[CaseComparison]:
        """Cases that passed in the baseline and fail or error now."""
        return self.with_change(CaseChange.REGRESSED)

    @property
    def fixed(self) -> list[CaseComparison]:
        """Cases that did not pass in the baseline and pass now."""
        return self.with_change(CaseChange.FIXED)

    @property
    def new(self) -> list[CaseComparison]:
        """Cases only in the current run."""
        return self.with_change(CaseChange.NEW)

    @property
    def removed(self) -> list[CaseComparison]:
        """Cases only in the baseline run."""
        return self.with_change(CaseChange.REMOVED)

    @property
    def still_failing(self) -> list[CaseComparison]:
        """Cases that passed in neither run."""
        return self.with_change(CaseChange.STILL_FAILING)

    @property
    def has_regressions(self) -> bool:
        """Whether any case regressed (what makes ``tenxeval-tui compare`` exit 1)."""
        return any(c.change == CaseChange.REGRESSED for c in self.cases)

    def counts(self) -> dict[CaseChange, int]:
        """Number of cases per change, every change present (zero when none)."""
        result = dict.fromkeys(CHANGE_ORDER, 0)
        for case in self.cases:
            result[case.change] += 1
        return result

    def sorted_cases(self, key: str = "change", reverse: bool = False) -> list[CaseComparison]:
        """The cases sorted by one of :data:`CASE_SORT_KEYS`."""
        try:
            sort_key = CASE_SORT_KEYS[key]
        except KeyError:
            raise ValueError(
                f"unknown sort key {key!r}; use one of {', '.join(CASE_SORT_KEYS)}"
            ) from None
        return sorted(self.cases, key=sort_key, reverse=reverse)

    def format_summary(self) -> str:
        """A plain-text summary: counts, pass rates, criterion deltas, changed cases."""
        counts = self.counts()
        warning = self.eval_set_warning()
        over = (
            f" over the {self.pass_rate_cases} case(s) both runs ran"
            if self.pass_rate_cases is not None
            else ""
        )
        shown = [c for c in CHANGE_ORDER if c != CaseChange.NOT_RUN or counts[c]]
        lines = [
            *([warning] if warning else []),
            f"Comparing {self.current_id} against baseline {self.baseline_id}",
            f"  Pass rate{over}: {self.baseline_pass_rate:.1%} -> {self.current_pass_rate:.1%} "
            f"({_signed_points(self.current_pass_rate - self.baseline_pass_rate)})",
            "  Cases: " + ", ".join(f"{counts[c]} {c.value.replace('_', ' ')}" for c in shown),
        ]
        for side, selection in (
            ("baseline", self.baseline_selection),
            ("current", self.current_selection),
        ):
            if selection:
                lines.append(
                    f"  Note: the {side} run is a selection ({selection}): the cases it did not "
                    "run are not run, not removed or new; the criteria are each run's own"
                )
        if self.significance:
            lines.append(
                f"  Significance: {self.significance}; "
                f"{len(self.noise_flips)} status flips within noise"
            )
        for side, partial in (
            ("baseline", self.baseline_partial),
            ("current", self.current_partial),
        ):
            if partial:
                lines.append(
                    f"  Note: the {side} run is partial (cancelled before every case finished)"
                )
        if self.criteria:
            lines.append("  Criteria (avg score, pass rate):")
            for delta in self.criteria:
                lines.append(
                    f"    {delta.criterion}: "
                    f"{_pair(delta.baseline_avg_score, delta.current_avg_score, '.2f')} "
                    f"({_signed(delta.avg_score_delta)}), "
                    f"{_pair(delta.baseline_pass_rate, delta.current_pass_rate, '.0%')} "
                    f"({_signed_points(delta.pass_rate_delta)})"
                )
        for change in LISTED_CHANGES:
            changed = self.with_change(change)
            if not changed:
                continue
            lines.append(f"  {change.value.replace('_', ' ').capitalize()}:")
            for case in changed:
                where = f"{case.eval_set_id}/" if case.eval_set_id else ""
                lines.append(
                    f"    {where}{case.eval_id}"
                    + (f" ({case.name})" if case.name and case.name != case.eval_id else "")
                    + f": {case.baseline_status or '-'} -> {case.current_status or '-'}"
                    + _rates(case)
                )
        if self.noise_flips:
            lines.append("  Flipped within noise (not counted):")
            lines.extend(
                f"    {c.eval_set_id + '/' if c.eval_set_id else ''}{c.eval_id}: "
                f"{c.baseline_status} -> {c.current_status}{_rates(c)}"
                for c in self.noise_flips
            )
        return "\n".join(lines)


def _rates(case: CaseComparison) -> str:
    """`` (5/5 -> 1/5 runs passed, p=0.024)`` for a case compared by its repeats."""
    if case.p_value is None:
        return ""
    return (
        f" ({case.baseline_passes}/{case.baseline_runs} -> "
        f"{case.current_passes}/{case.current_runs} runs passed, p={case.p_value:.3g})"
    )


def _pair(before: float | None, after: float | None, spec: str) -> str:
    def fmt(value: float | None) -> str:
        return "-" if value is None else format(value, spec)

    return f"{fmt(before)} -> {fmt(after)}"


def _signed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.2f}"


def _signed_points(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:+.1f} pts"


def case_key(result: EvalCaseResult) -> tuple[str, str]:
    """The key a case is matched on across runs: ``(eval set id, eval_id)``."""
    return (result.eval_set_id, result.eval_id)


def mean_score(result: EvalCaseResult) -> float | None:
    """Mean score of a case's criteria (``None`` when it has none)."""
    if not result.criterion_results:
        return None
    return sum(cr.score for cr in result.criterion_results) / len(result.criterion_results)


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """What a comparison needs of one case: who it is, its status and mean score."""

    eval_set_id: str
    eval_id: str
    name: str
    status: str  # "passed", "failed", "error" (anything else counts as not passed)
    score: float | None = None
    passes: int | None = None
    """Runs that passed, of :attr:`runs` (``None``: the case ran once; its status says)."""
    runs: int | None = None

    @property
    def counts(self) -> tuple[int, int]:
        """``(runs passed, runs)``: from the repeats, or 1 or 0 of 1 by the status."""
        if self.runs is None or self.passes is None:
            return (1 if self.passed else 0, 1)
        return (self.passes, self.runs)

    @property
    def key(self) -> tuple[str, str]:
        """``(eval set id, eval_id)``: how a case is matched across runs."""
        return (self.eval_set_id, self.eval_id)

    @property
    def passed(self) -> bool:
        """Whether the case passed."""
        return self.status == "passed"


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """What a comparison needs of one run (from a report, or from a report's light rows)."""

    title: str
    pass_rate: float
    cases: list[CaseOutcome]
    criteria: dict[str, tuple[float, float]]  # criterion -> (avg score, pass rate)
    partial: bool = False
    selection: str | None = None
    """How the run chose some of its eval set's cases only, in words (``None``: it ran
    every case; see :mod:`~tenxeval_tui.evaluation.selection_marks`)."""

    @classmethod
    def of_report(cls, report: EvalReport) -> RunOutcome:
        """The outcome of a loaded report.

        A case that does not name its eval set (10xGraph's reports do not) belongs
        to the report's: ours and 10xGraph's runs of one eval set compare case by case.
        """
        cases = [
            CaseOutcome(
                r.eval_set_id or report.eval_set_id,
                r.eval_id,
                r.name,
                r.status,
                mean_score(r),
                r.repeat_stats.passed_repeats if r.repeat_stats else None,
                r.repeat_stats.repeats if r.repeat_stats else None,
            )
            for r in report.results
        ]
        return cls(
            title=report.eval_set_name or report.eval_set_id,
            pass_rate=_pass_rate(cases, report.summary.pass_rate),
            cases=cases,
            criteria=_criterion_figures(report),
            partial=report.is_partial,
            selection=mark.text if (mark := selection_of(report.metadata)) is not None else None,
        )


def criterion_figures(stats: dict[str, dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """``criterion -> (avg score, pass rate)`` from ``summary.criterion_stats`` (bad entries skipped)."""
    figures: dict[str, tuple[float, float]] = {}
    for name, entry in stats.items():
        try:
            figures[name] = (float(entry["avg_score"]), float(entry["pass_rate"]))
        except (KeyError, TypeError, ValueError):
            continue
    return figures


def _change(
    before: CaseOutcome | None,
    after: CaseOutcome | None,
    selections: tuple[bool, bool] = (False, False),
) -> CaseChange:
    """How a case moved; ``selections``: whether the baseline, the current run is of a
    selection of the cases (a case missing from such a run was not run, not removed)."""
    if before is None:
        return CaseChange.NOT_RUN if selections[0] else CaseChange.NEW
    if after is None:
        return CaseChange.NOT_RUN if selections[1] else CaseChange.REMOVED
    if before.passed and not after.passed:
        return CaseChange.REGRESSED
    if not before.passed and after.passed:
        return CaseChange.FIXED
    return CaseChange.UNCHANGED if after.passed else CaseChange.STILL_FAILING


def significant_change(
    before: CaseOutcome, after: CaseOutcome, alpha: float = ALPHA
) -> tuple[CaseChange, float, bool]:
    """``(change, p-value, noise flip)`` of a case by its runs' pass counts.

    Regressed when Fisher's exact test (one-sided) finds the drop of the pass rate
    significant at ``alpha``, fixed when it finds the rise significant; otherwise
    the baseline's category (unchanged or still failing), a noise flip when the
    status changed. The p-value is the one in the direction of the change.
    """
    (bp, bn), (cp, cn) = before.counts, after.counts
    drop = fisher_one_sided(bp, bn, cp, cn)
    rise = fisher_one_sided(cp, cn, bp, bn)
    p_value = drop if cp * bn <= bp * cn else rise
    if drop < alpha:
        return CaseChange.REGRESSED, p_value, False
    if rise < alpha:
        return CaseChange.FIXED, p_value, False
    change = CaseChange.UNCHANGED if before.passed else CaseChange.STILL_FAILING
    return change, p_value, before.passed != after.passed


def _criterion_figures(report: EvalReport) -> dict[str, tuple[float, float]]:
    """``criterion -> (avg score, pass rate)``, from the summary or else from the results."""
    if report.summary.criterion_stats:
        return criterion_figures(report.summary.criterion_stats)
    scores: dict[str, list[tuple[float, bool]]] = {}
    for result in report.results:
        for cr in result.criterion_results:
            scores.setdefault(cr.criterion, []).append((cr.score, cr.passed))
    return {
        name: (
            sum(s for s, _ in pairs) / len(pairs),
            sum(1 for _, p in pairs if p) / len(pairs),
        )
        for name, pairs in scores.items()
    }


def _pass_rate(cases: list[CaseOutcome], fallback: float) -> float:
    if cases:
        return sum(1 for c in cases if c.passed) / len(cases)
    return fallback


def numbered_keys(keys: Iterable[tuple[str, str]]) -> list[tuple[str, str, int]]:
    """Each ``(eval set id, eval_id)`` with how many times it came before: unique keys
    even when a run combined two files sharing an ``eval_set_id``."""
    seen: dict[tuple[str, str], int] = {}
    numbered: list[tuple[str, str, int]] = []
    for key in keys:
        count = seen.get(key, 0)
        seen[key] = count + 1
        numbered.append((*key, count))
    return numbered


def compare_runs(
    baseline: RunOutcome,
    current: RunOutcome,
    *,
    strict: bool = False,
    alpha: float = ALPHA,
) -> ReportComparison:
    """Compare ``current`` against ``baseline`` case by case and criterion by criterion.

    A case that ran more than once on either side is judged by
    :func:`significant_change` (Fisher's exact test, one-sided, at ``alpha``)
    unless ``strict``, which flags every flip of status as before.

    When either run is of a selection of its eval set's cases (``RunOutcome.selection``:
    a rerun of the failed ones, a filter), a case the selection left out is ``not_run``,
    and both pass rates are over the cases both runs ran (``pass_rate_cases``).
    """
    before = dict(zip(numbered_keys(c.key for c in baseline.cases), baseline.cases, strict=True))
    after = dict(zip(numbered_keys(c.key for c in current.cases), current.cases, strict=True))
    keys = list(before) + [k for k in after if k not in before]
    selections = (baseline.selection is not None, current.selection is not None)
    cases: list[CaseComparison] = []
    any_repeated = False
    for key in keys:
        old, new = before.get(key), after.get(key)
        shown = new or old
        assert shown is not None
        figures: dict[str, Any] = {"change": _change(old, new, selections)}
        if old is not None and new is not None and not strict and _repeated(old, new):
            change, p_value, noise = significant_change(old, new, alpha)
            (bp, bn), (cp, cn) = old.counts, new.counts
            figures = {
                "change": change,
                "p_value": p_value,
                "noise_flip": noise,
                "baseline_passes": bp,
                "baseline_runs": bn,
                "current_passes": cp,
                "current_runs": cn,
            }
            any_repeated = True
        cases.append(
            CaseComparison(
                eval_set_id=key[0],
                eval_id=key[1],
                name=shown.name,
                baseline_status=old.status if old else None,
                current_status=new.status if new else None,
                baseline_score=old.score if old else None,
                current_score=new.score if new else None,
                occurrence=key[2],
                **figures,
            )
        )
    cases.sort(key=CASE_SORT_KEYS["change"])
    old_figures, new_figures = baseline.criteria, current.criteria
    names = list(old_figures) + [n for n in new_figures if n not in old_figures]
    criteria = [
        CriterionDelta(
            criterion=name,
            baseline_avg_score=old_figures[name][0] if name in old_figures else None,
            current_avg_score=new_figures[name][0] if name in new_figures else None,
            baseline_pass_rate=old_figures[name][1] if name in old_figures else None,
            current_pass_rate=new_figures[name][1] if name in new_figures else None,
        )
        for name in names
    ]
    rates: dict[str, Any] = {
        "baseline_pass_rate": baseline.pass_rate,
        "current_pass_rate": current.pass_rate,
    }
    if any(selections):
        both = [key for key in before if key in after]
        rates = {
            "baseline_pass_rate": _pass_rate([before[k] for k in both], 0.0),
            "current_pass_rate": _pass_rate([after[k] for k in both], 0.0),
            "pass_rate_cases": len(both),
        }
    return ReportComparison(
        baseline_id=baseline.title,
        current_id=current.title,
        **rates,
        baseline_partial=baseline.partial,
        current_partial=current.partial,
        baseline_selection=baseline.selection,
        current_selection=current.selection,
        cases=cases,
        criteria=criteria,
        significance=f"{TEST_NAME}, alpha {alpha:g}" if any_repeated else None,
    )


def _repeated(before: CaseOutcome, after: CaseOutcome) -> bool:
    return before.counts[1] > 1 or after.counts[1] > 1


def pool_runs(runs: Sequence[RunOutcome]) -> RunOutcome:
    """Several runs of one eval set (oldest first) as one baseline: each case's passes and
    runs summed over the runs that had it, so its history counts as its repeats.

    Status, name and score are the latest run's; the criteria figures too.
    """
    if not runs:
        raise ValueError("pooling needs at least one run")
    pooled: dict[tuple[str, str, int], CaseOutcome] = {}
    for run in runs:
        for key, case in zip(numbered_keys(c.key for c in run.cases), run.cases, strict=True):
            passes, total = case.counts
            if key in pooled:
                earlier = pooled[key].counts
                passes, total = passes + earlier[0], total + earlier[1]
            pooled[key] = dataclasses.replace(case, passes=passes, runs=total)
    latest = runs[-1]
    cases = list(pooled.values())
    return RunOutcome(
        title=latest.title,
        pass_rate=_pass_rate(cases, latest.pass_rate),
        cases=cases,
        criteria=latest.criteria,
        partial=latest.partial,
    )


def compare_reports(
    baseline: EvalReport | Sequence[EvalReport],
    current: EvalReport,
    *,
    strict: bool = False,
    alpha: float = ALPHA,
) -> ReportComparison:
    """Compare ``current`` against ``baseline`` case by case and criterion by criterion.

    ``baseline`` may be several reports of the same eval set (oldest first): they are
    pooled (:func:`pool_runs`), each case's history counting as its repeats. See
    :func:`compare_runs` for ``strict`` and ``alpha``.
    """
    if isinstance(baseline, EvalReport):
        before = RunOutcome.of_report(baseline)
    else:
        before = pool_runs([RunOutcome.of_report(r) for r in baseline])
    return compare_runs(before, RunOutcome.of_report(current), strict=strict, alpha=alpha)
