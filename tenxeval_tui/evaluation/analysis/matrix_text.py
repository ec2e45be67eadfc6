"""The variant matrix as plain text: what ``run`` with several variants and ``compare``
with several reports print.

Names and case ids come from files and agents: the caller shows the text through
:func:`~tenxeval_tui.evaluation.inert.inert`.
"""

from __future__ import annotations

from collections.abc import Collection

from tenxeval_tui.evaluation.analysis.matrix import MatrixRow, VariantMatrix, VariantStats

SEPARATING_SHOWN = 10
"""How many separating cases the text lists (the JSON and HTML reports hold them all)."""


def _money(value: float | None) -> str:
    return "-" if value is None else f"${value:.4f}"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def variant_line(rank: int, v: VariantStats) -> str:
    """One variant's figures on one line."""
    return (
        f"  {rank}. {v.name}: {v.passed}/{v.total} passed, pass rate {v.pass_rate:.1%} "
        f"(95% {v.pass_rate_low:.1%} to {v.pass_rate_high:.1%}), cost {_money(v.cost_usd)}, "
        f"cost per success {_money(v.cost_per_success)}, {v.tokens} tokens, latency "
        f"median {_seconds(v.latency_median)} p95 {_seconds(v.latency_p95)}"
        + (f", {v.errors} errored" if v.errors else "")
        + (" (partial)" if v.partial else "")
        + (f" (selection: {v.selection}; {v.not_run or 0} not run)" if v.selection else "")
    )


STATUS_MARKS = {"passed": "pass", "failed": "FAIL", "error": "ERROR"}
"""A case's mark in a variant, by its status."""

NOT_RUN_MARK = "not run"
"""The mark of a case a selection's variant did not run (its report is of some cases)."""

NO_RESULT_MARK = "-"
"""The mark of a case a variant of every case has no result for."""


def selection_names(matrix: VariantMatrix) -> set[str]:
    """The variants whose reports are of a selection of their eval set's cases."""
    return {v.name for v in matrix.variants if v.selection is not None}


def missing_mark(name: str, selections: Collection[str]) -> str:
    """What variant ``name``'s cell says of a case it has no result for: ``not run`` for
    a selection (:func:`selection_names`), ``-`` otherwise."""
    return NOT_RUN_MARK if name in selections else NO_RESULT_MARK


def _marks(row: MatrixRow, names: list[str], selections: set[str]) -> str:
    marks = []
    for name in names:
        cell = row.cells.get(name)
        if cell is None:
            marks.append(missing_mark(name, selections))
        elif cell.runs > 1:
            marks.append(f"{cell.passes}/{cell.runs}")
        else:
            marks.append(STATUS_MARKS[cell.status])
    return "  ".join(marks)


def format_matrix(matrix: VariantMatrix, baseline: str | None = None) -> str:
    """The ranked variants, the pairwise differences, the Pareto line and the cases that
    separate the variants most."""
    lines = [f"Variants ({len(matrix.variants)}), ranked by pass rate:"]
    if any(v.selection is not None for v in matrix.variants):
        lines.append(
            "  (a selection ran some of its eval set's cases only: its pass rate is over "
            "those, its pairs over the cases both ran)"
        )
    for rank, v in enumerate(matrix.variants, 1):
        lines.append(variant_line(rank, v))
        if v.criteria:
            scores = ", ".join(f"{name} {mean:.2f}" for name, mean in v.criteria.items())
            lines.append(f"     mean scores: {scores}")
    if matrix.pairs:
        lines.append(f"Pairwise ({matrix.test}, alpha {matrix.alpha:g}):")
        for pair in matrix.pairs:
            verdict = f"{pair.better} better" if pair.better else "no significant difference"
            over = f" over the {pair.cases} case(s) both ran" if pair.cases is not None else ""
            lines.append(
                f"  {pair.a} vs {pair.b}: {pair.difference * 100:+.1f} pts{over}, "
                f"p={pair.p_value:.3g} (corrected {pair.p_adjusted:.3g}): {verdict}"
            )
    lines.append("Pareto line (pass rate against cost): " + ", ".join(matrix.pareto))
    if baseline is not None:
        worse = matrix.worse_than(baseline)
        lines.append(
            f"Baseline {baseline}: "
            + (
                f"significantly worse: {', '.join(worse)}"
                if worse
                else "no variant significantly worse"
            )
        )
    separating = matrix.separating
    if separating:
        names = matrix.names
        lines.append(
            f"Separating cases ({len(separating)}; marks in the order {', '.join(names)}):"
        )
        selections = selection_names(matrix)
        for row in separating[:SEPARATING_SHOWN]:
            where = f"{row.eval_set_id}/" if row.eval_set_id else ""
            lines.append(f"  {where}{row.eval_id}: {_marks(row, names, selections)}")
        if len(separating) > SEPARATING_SHOWN:
            lines.append(f"  ... and {len(separating) - SEPARATING_SHOWN} more (see the report)")
    else:
        lines.append("Separating cases: none (every case fared the same in every variant)")
    return "\n".join(lines)


__all__ = [
    "NOT_RUN_MARK",
    "NO_RESULT_MARK",
    "STATUS_MARKS",
    "format_matrix",
    "missing_mark",
    "selection_names",
    "variant_line",
]
