"""``factual_accuracy_v1``: a judge checks the reply against the case's reference facts."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.criteria.base import register_criterion
from tenxeval_tui.evaluation.criteria.judge_replies import (
    FactsReply,
    as_text,
)
from tenxeval_tui.evaluation.criteria.llm_base import (
    JudgedCriterion,
    JudgeReplyError,
    Sample,
    collect,
)
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.execution.result import ExecutionResult


def reference_facts(case: EvalCase) -> list[str]:
    """``case.metadata["reference_facts"]`` as a list (one string is one fact)."""
    value = case.metadata.get("reference_facts")
    if not value:
        return []
    if isinstance(value, list):
        return [as_text(v) for v in value if v]
    return [as_text(value)]


@register_criterion
class FactualAccuracyCriterion(JudgedCriterion):
    """``factual_accuracy_v1``: the share of reference facts the reply gets right.

    Facts come from ``case.metadata["reference_facts"]`` (a string or a list
    of strings). For each fact the judge says whether the reply states it or
    agrees with it ("correct"), contradicts it, or leaves it out; a fact counts
    when the majority of samples say "correct". Score: facts counted / facts.
    A fact the judge skipped counts as not correct in that sample. No
    reference facts: 1.0, noted. An empty reply: 0.0 without a judge call.
    """

    name = "factual_accuracy_v1"
    description = "A judge model checks the reply against the case's reference facts"
    template = "factual_accuracy_v1.j2"

    def skip(self, actual: ExecutionResult, expected: EvalCase) -> tuple[float, str] | None:
        facts = reference_facts(expected)
        if not facts:
            return 1.0, "no expectation: the case has no metadata['reference_facts']"
        if not actual.actual_response.strip():
            return 0.0, f"empty reply: states none of the {len(facts)} reference facts"
        return None

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        return {"facts": reference_facts(expected)}

    def items(self, expected: EvalCase) -> list[tuple[str, float]]:
        return [(str(i), 1.0) for i in range(1, len(reference_facts(expected)) + 1)]

    def read_sample(self, data: dict[str, Any], expected: EvalCase) -> Sample:
        reply = FactsReply.model_validate(data)
        count = len(reference_facts(expected))
        strays = [f.fact for f in reply.facts if not 1 <= f.fact <= count]
        if strays:  # numbered from 0, or facts the prompt never gave: verdicts would shift
            raise JudgeReplyError(f"facts {strays} are not among the facts 1 to {count}")
        verdicts = {str(f.fact): f.verdict == "correct" for f in reply.facts}
        wrong = [f.fact for f in reply.facts if f.verdict == "incorrect"]
        return Sample(verdicts, reply.reasoning, {"contradicted": wrong})

    def extra_details(
        self, samples: list[Sample], decided: dict[str, bool], expected: EvalCase
    ) -> dict[str, Any]:
        facts = reference_facts(expected)
        contradicted = {int(i) for i in collect(samples, "contradicted")}
        return {
            "facts": [
                {"fact": fact, "correct": decided[str(i)], "contradicted": i in contradicted}
                for i, fact in enumerate(facts, start=1)
            ],
            "is_accurate": all(decided.values()),
        }
