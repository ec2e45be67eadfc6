"""Scoring what a case did: the criteria over an :class:`ExecutionResult`, and re-scoring a
finished :class:`EvalCaseResult` with other criteria without running the agent again.

The evaluator scores every case it runs with :func:`score_execution`. :func:`rescore`
rebuilds the execution a result recorded (its trajectory, tool calls, messages, reply and
node responses) and scores it again: watch mode uses it when only the criteria changed.
A case that errored has no scores and is left as it is (it must run again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from tenxeval_tui.evaluation.criteria.base import BaseCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult, NodeResponseData
from tenxeval_tui.evaluation.token_usage import TokenUsage

logger = logging.getLogger(__name__)


async def score_execution(
    criteria: Sequence[BaseCriterion], execution: ExecutionResult, case: EvalCase
) -> list[CriterionResult]:
    """Every criterion's result on ``execution`` (judges concurrently, the others in order);
    a criterion that raises gives a failed result saying why."""
    if len(criteria) <= 1 or not any(c.requires_judge for c in criteria):
        return [await _score_one(c, execution, case) for c in criteria]
    return list(await asyncio.gather(*(_score_one(c, execution, case) for c in criteria)))


async def _score_one(
    criterion: BaseCriterion, execution: ExecutionResult, case: EvalCase
) -> CriterionResult:
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


def recorded_execution(result: EvalCaseResult) -> ExecutionResult:
    """The execution ``result`` recorded, as the criteria saw it when it was scored."""
    return ExecutionResult(
        tool_calls=list(result.actual_tool_calls),
        trajectory=list(result.actual_trajectory),
        messages=list(result.messages),
        actual_response=result.actual_response or "",
        node_responses=[NodeResponseData.model_validate(n) for n in result.node_responses],
        node_visits=list(result.node_visits),
        duration_seconds=result.duration_seconds,
    )


async def rescore(
    result: EvalCaseResult, case: EvalCase, criteria: Sequence[BaseCriterion]
) -> EvalCaseResult:
    """``result`` scored again by ``criteria`` (``case`` is what it is compared with); an
    errored result comes back unchanged."""
    if result.error is not None:
        return result
    scores = await score_execution(criteria, recorded_execution(result), case)
    judges = sum((s.token_usage for s in scores), TokenUsage())
    return result.model_copy(
        update={
            "criterion_results": scores,
            "passed": all(s.passed for s in scores),
            "token_usage": result.agent_token_usage + judges,
        }
    )


__all__ = ["recorded_execution", "rescore", "score_execution"]
