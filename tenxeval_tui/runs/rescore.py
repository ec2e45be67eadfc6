"""Re-scoring the last results of a watched run when only its criteria changed.

No agent runs: each selected case's last result is scored again with the new criteria
(:func:`~tenxeval_tui.evaluation.scoring.rescore`), so editing a threshold or adding a
criterion gives new scores in the time the criteria take.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.runs.live_run import case_key


def rescored_reports(
    selected: Sequence[tuple[Path, EvalSet]],
    last: Mapping[str, EvalCaseResult],
    config: EvalConfig,
) -> list[EvalReport] | None:
    """A report per eval set of ``selected``: the ``last`` result of each of its cases
    (by :func:`~tenxeval_tui.runs.live_run.case_key`) scored by ``config``'s criteria;
    ``None`` when a selected case has no last result (it has to run)."""
    from tenxeval_tui.evaluation.criteria import build_criteria
    from tenxeval_tui.evaluation.scoring import rescore

    if any(
        case_key(s.eval_set_id, c.eval_id) not in last for _, s in selected for c in s.eval_cases
    ):
        return None
    criteria = build_criteria(config)

    async def score(eval_set: EvalSet) -> list[EvalCaseResult]:
        return [
            await rescore(last[case_key(eval_set.eval_set_id, case.eval_id)], case, criteria)
            for case in eval_set.eval_cases
        ]

    used = config.model_dump(mode="json")
    return [
        EvalReport.create(
            eval_set_id=eval_set.eval_set_id,
            results=asyncio.run(score(eval_set)),
            eval_set_name=eval_set.name,
            config_used=used,
        )
        for _, eval_set in selected
    ]


__all__ = ["rescored_reports"]
