"""The LLM-judged criteria of the 10xGraph API.

Each asks a judge model (see :mod:`tenxeval_tui.evaluation.judges.models`) for yes/no
verdicts, ``config.num_samples`` times, and combines them by majority (ties
break to "no"; see :mod:`.llm_base`). Prompts are the jinja2 templates in
``evaluation/prompts/``. Every result carries the judge's reasoning in
``details["reason"]`` (with several samples, all of theirs in ``details["reasons"]``;
each cut at ``REASONING_CAP`` characters), the votes, the
calls made and cache hits, and the judge's ``token_usage`` (cache hits cost 0).

When a case gives a criterion nothing to check (no expected reply, no
context, no reference facts), the criterion scores 1.0 without calling the
judge and says so in ``details["note"]``, like the deterministic criteria.
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.criteria.base import register_criterion
from tenxeval_tui.evaluation.criteria.judge_replies import (
    MatchReply,
)
from tenxeval_tui.evaluation.criteria.llm_base import (
    JudgedCriterion,
    Sample,
)
from tenxeval_tui.evaluation.criteria.response import NO_EXPECTATION
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.execution.result import ExecutionResult


@register_criterion
class LLMJudgeCriterion(JudgedCriterion):
    """``final_response_match_v2``: a judge decides whether the reply is a valid answer.

    Valid means it conveys the essential information and conclusion of the
    case's expected reply (Google ADK's criterion of the same name). Score 1.0
    when the majority of samples say valid, else 0.0. No expected reply: 1.0,
    noted. An empty (all-whitespace) reply against an expected one: 0.0
    without a judge call (1.0 when the expected reply is empty too).
    """

    name = "final_response_match_v2"
    description = "A judge model decides whether the reply matches the expected reply"
    template = "final_response_match_v2.j2"

    def skip(self, actual: ExecutionResult, expected: EvalCase) -> tuple[float, str] | None:
        wanted = expected.get_final_expected_response()
        if wanted is None:
            return 1.0, NO_EXPECTATION
        if not actual.actual_response.strip():
            if not wanted.strip():
                return 1.0, "empty reply, and an empty reply was expected"
            return 0.0, "empty reply where a response was expected"
        return None

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        return {"expected": expected.get_final_expected_response()}

    def items(self, expected: EvalCase) -> list[tuple[str, float]]:
        return [("valid", 1.0)]

    def read_sample(self, data: dict[str, Any], expected: EvalCase) -> Sample:
        reply = MatchReply.model_validate(data)
        return Sample({"valid": reply.verdict == "valid"}, reply.reasoning)
