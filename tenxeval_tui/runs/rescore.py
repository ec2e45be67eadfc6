"""Re-scoring the last results of a watched run when only its criteria changed.

No agent runs: each selected case's last result is scored again with the new criteria
by the core's :func:`~tenxeval_tui.evaluation.rescore.rescore_report` (expectations from
the eval set as it is now), so editing a threshold or adding a criterion gives new
scores in the time the criteria take.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.syncrun import run_main
from tenxeval_tui.runs.live_run import case_key


def rescored_reports(
    selected: Sequence[tuple[Path, EvalSet]],
    last: Mapping[str, EvalCaseResult],
    config: EvalConfig,
) -> list[EvalReport] | None:
    """A report per eval set of ``selected``: the ``last`` result of each of its cases
    (by :func:`~tenxeval_tui.runs.live_run.case_key`) scored by ``config``'s criteria;
    ``None`` when a selected case has no last result (it has to run)."""
    from tenxeval_tui.evaluation.rescore import rescore_report

    if any(
        case_key(s.eval_set_id, c.eval_id) not in last for _, s in selected for c in s.eval_cases
    ):
        return None
    reports: list[EvalReport] = []
    for _, eval_set in selected:
        results = [last[case_key(eval_set.eval_set_id, c.eval_id)] for c in eval_set.eval_cases]
        earlier = EvalReport.create(eval_set.eval_set_id, results, eval_set_name=eval_set.name)
        reports.append(run_main(rescore_report(earlier, config, eval_sets=eval_set)))
    return reports


__all__ = ["rescored_reports"]
