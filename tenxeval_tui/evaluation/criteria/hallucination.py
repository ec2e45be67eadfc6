"""``hallucinations_v1``: a judge checks every claim of the reply against the agent's context."""

from __future__ import annotations

import json
from typing import Any

from tenxeval_tui.evaluation.criteria.base import register_criterion
from tenxeval_tui.evaluation.criteria.judge_replies import (
    GroundingReply,
    as_text,
)
from tenxeval_tui.evaluation.criteria.llm_base import (
    JudgedCriterion,
    Sample,
    collect,
)
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.execution.result import ExecutionResult


@register_criterion
class HallucinationCriterion(JudgedCriterion):
    """``hallucinations_v1``: every claim of the reply is grounded in what the agent had.

    The grounding is ``case.metadata["context"]`` (text, a list of texts, or
    any JSON value) plus the results of the tools the agent called. Score 1.0
    when the majority of samples say grounded, else 0.0; ``details`` lists the
    unsupported claims the judges named. No context and no tool result: 1.0,
    noted (nothing to ground against). An empty reply claims nothing: 1.0.
    """

    name = "hallucinations_v1"
    description = "A judge model checks the reply is grounded in the case's context"
    template = "hallucinations_v1.j2"

    @staticmethod
    def context(actual: ExecutionResult, expected: EvalCase) -> str:
        """The text the reply must be grounded in."""
        parts = []
        if expected.metadata.get("context"):
            parts.append(as_text(expected.metadata["context"]))
        for call in actual.tool_calls:
            if call.result is not None:
                args = json.dumps(call.args, ensure_ascii=False, default=str)
                parts.append(f"Tool {call.name}({args}) returned: {as_text(call.result)}")
        return "\n\n".join(parts)

    def skip(self, actual: ExecutionResult, expected: EvalCase) -> tuple[float, str] | None:
        if not self.context(actual, expected):
            return (
                1.0,
                "no expectation: no metadata['context'] and no tool results to check against",
            )
        if not actual.actual_response.strip():
            return 1.0, "empty reply: nothing claimed"
        return None

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        return {"context": self.context(actual, expected)}

    def items(self, expected: EvalCase) -> list[tuple[str, float]]:
        return [("grounded", 1.0)]

    def read_sample(self, data: dict[str, Any], expected: EvalCase) -> Sample:
        reply = GroundingReply.model_validate(data)
        return Sample(
            {"grounded": reply.verdict == "grounded"},
            reply.reasoning,
            {"unsupported_claims": reply.unsupported_claims},
        )

    def extra_details(
        self, samples: list[Sample], decided: dict[str, bool], expected: EvalCase
    ) -> dict[str, Any]:
        return {
            "is_grounded": decided["grounded"],
            "unsupported_claims": collect(samples, "unsupported_claims"),
        }
