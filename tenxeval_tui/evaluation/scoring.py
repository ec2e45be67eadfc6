"""Scoring one run of a case with every criterion: what a run and a rescoring share.

A criterion that raises (or returns something that is not a
:class:`CriterionResult`) fails that criterion only, with the error; judged
criteria of one case are scored side by side.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from tenxeval_tui.evaluation.criteria import BaseCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult

logger = logging.getLogger("tenxeval_tui.evaluation")


async def score_case(
    criteria: Sequence[BaseCriterion], execution: ExecutionResult, case: EvalCase
) -> list[CriterionResult]:
    """Every criterion's result on ``execution`` against ``case``, in criterion order."""
    if not criteria:
        return []
    if len(criteria) == 1 or not any(c.requires_judge for c in criteria):
        return [await score_one(c, execution, case) for c in criteria]
    return list(await asyncio.gather(*(score_one(c, execution, case) for c in criteria)))


async def score_one(
    criterion: BaseCriterion, execution: ExecutionResult, case: EvalCase
) -> CriterionResult:
    """``criterion``'s result, or a failed result holding the error it raised."""
    try:
        result = await criterion.evaluate(execution, case)
        if not isinstance(result, CriterionResult):
            raise TypeError(f"evaluate() returned {type(result).__name__}, not a CriterionResult")
        return result
    except Exception as exc:
        logger.warning("criterion %s raised on case %s: %s", criterion.name, case.eval_id, exc)
        return CriterionResult.failure(
            criterion.name or type(criterion).__name__,
            f"{type(exc).__name__}: {exc}",
            criterion.threshold,
        )


__all__ = ["score_case", "score_one"]
