"""``run --json`` of a run of several variants: what a run of one gives (over every
variant's cases together), plus ``variants`` (one entry each, ranked), the baseline's
verdict and the matrix report's files."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.cli.run_options import json_summary
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.runs.outcome import Published
from tenxeval_tui.runs.variant_session import VariantOutcome


def variants_json(outcome: VariantOutcome, code: int, threshold: float) -> dict[str, Any]:
    """The summary (see the module); ``variants`` entries are ``{name, passed, total,
    pass_rate, cost_usd, cost_per_success}``."""
    published = [o.published for o in outcome.outcomes.values() if o.published is not None]
    data = json_summary(_together(published), code, threshold) if published else {}
    data.setdefault("exit_code", code)
    matrix = outcome.matrix
    data["variants"] = [
        {
            "name": v.name,
            "passed": v.passed,
            "total": v.total,
            "pass_rate": v.pass_rate,
            "cost_usd": v.cost_usd,
            "cost_per_success": v.cost_per_success,
        }
        for v in (matrix.variants if matrix is not None else [])
    ]
    data["baseline"] = outcome.baseline
    if outcome.baseline is not None:
        data["worse_than_baseline"] = list(outcome.worse)
    data["matrix"] = list(outcome.files)
    return data


def _together(published: list[Published]) -> list[Published]:
    """The variants' reports as one published report (the totals of them all)."""
    reports = [p.report for p in published]
    combined = reports[0] if len(reports) == 1 else EvalReport.combine(reports)
    return [
        Published(
            combined,
            files=[f for p in published for f in p.files],
            retried=sum(p.retried for p in published),
            threshold=published[0].threshold,
            incomplete=next((p.incomplete for p in published if p.incomplete), None),
        )
    ]


__all__ = ["variants_json"]
