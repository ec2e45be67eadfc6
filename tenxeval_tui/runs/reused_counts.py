"""How many of a report's results were reused from earlier reports (:mod:`.reuse`).

Apart from the reuse itself (the earlier reports read, the cases' fingerprints), so that
every run's report can be counted without importing what only ``--reuse`` runs: the
parent of a run counts after its worker has ended, when each import delays the run's
end (issue #38).
"""

from __future__ import annotations

from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.results.journal_results import none_holds

REUSED_FROM_KEY = "reused_from"
"""A reused result's metadata: the file name of the report it was taken from."""
REUSED_CASES_KEY = "reused_cases"
"""A report's metadata: how many of its results were reused."""


def reused_count(report: EvalReport) -> int:
    """How many of ``report``'s results were reused from earlier reports."""
    if none_holds(report.results, metadata=REUSED_FROM_KEY):  # a journal's: not read again
        return 0
    return sum(1 for r in report.results if r.metadata.get(REUSED_FROM_KEY))


def with_reused_count(report: EvalReport) -> EvalReport:
    """``report`` saying in ``metadata.reused_cases`` how many of its results were reused
    (unchanged when none was)."""
    count = reused_count(report)
    if not count:
        return report
    return report.model_copy(update={"metadata": {**report.metadata, REUSED_CASES_KEY: count}})


__all__ = ["REUSED_CASES_KEY", "REUSED_FROM_KEY", "reused_count", "with_reused_count"]
