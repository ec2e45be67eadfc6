"""``rubric_based_final_response_quality_v1``: a judge scores the reply against rubrics."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.config.criterion_config import Rubric
from tenxeval_tui.evaluation.criteria.base import register_criterion
from tenxeval_tui.evaluation.criteria.judge_replies import (
    RubricsReply,
    same_id,
)
from tenxeval_tui.evaluation.criteria.llm_base import (
    JudgedCriterion,
    JudgeReplyError,
    Sample,
)
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.execution.result import ExecutionResult


@register_criterion
class RubricBasedCriterion(JudgedCriterion):
    """``rubric_based_final_response_quality_v1``: the weighted share of rubrics the reply meets.

    Rubrics come from ``config.rubrics`` (id, property, weight). The judge says
    yes or no per rubric; a rubric is met when the majority of samples say yes.
    Score: the sum of the weights of rubrics met over the sum of all weights.
    A rubric the judge skipped counts as "no" in that sample. Configuring no
    rubric, duplicate ids or no positive weight is an error at configuration
    time. An empty reply is judged like any other.
    """

    name = "rubric_based_final_response_quality_v1"
    description = "A judge model checks the reply against the configured rubrics"
    template = "rubric_based_final_response_quality_v1.j2"

    @property
    def rubrics(self) -> list[Rubric]:
        """The rubrics judged: the config's."""
        return self.config.rubrics

    def validate_config(self) -> list[str]:
        problems = super().validate_config()
        rubrics = self.rubrics
        ids = [r.rubric_id for r in rubrics]
        if not rubrics:
            problems.append(f"{self.name}: set rubrics, e.g. CriterionConfig.rubric_based([...])")
        elif len(set(ids)) != len(ids):
            problems.append(f"{self.name}: rubric ids must be unique")
        elif any(r.weight < 0 for r in rubrics) or sum(r.weight for r in rubrics) <= 0:
            problems.append(f"{self.name}: rubric weights must be >= 0 with a positive total")
        return problems

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        return {"rubrics": self.rubrics}

    def items(self, expected: EvalCase) -> list[tuple[str, float]]:
        return [(r.rubric_id, r.weight) for r in self.rubrics]

    def read_sample(self, data: dict[str, Any], expected: EvalCase) -> Sample:
        reply = RubricsReply.model_validate(data)
        # Judges restyle ids ("concise" for "Concise"); an id matching none is an error,
        # not a silent "no".
        ids = {same_id(r.rubric_id): r.rubric_id for r in self.rubrics}
        unknown = [r.rubric_id for r in reply.rubrics if same_id(r.rubric_id) not in ids]
        if unknown:
            raise JudgeReplyError(f"rubric ids {unknown} are none of {list(ids.values())}")
        verdicts = {ids[same_id(r.rubric_id)]: r.verdict == "yes" for r in reply.rubrics}
        return Sample(verdicts, reply.reasoning)

    def extra_details(
        self, samples: list[Sample], decided: dict[str, bool], expected: EvalCase
    ) -> dict[str, Any]:
        return {
            "rubrics": {r.rubric_id: decided[r.rubric_id] for r in self.rubrics},
            "unmet": [r.rubric_id for r in self.rubrics if not decided[r.rubric_id]],
        }
