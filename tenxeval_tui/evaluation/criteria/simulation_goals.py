"""``simulation_goals``: a judge decides which goals a (simulated) conversation achieved.

Written for :class:`~tenxeval_tui.evaluation.simulators.UserSimulator`, which
hands its criteria the whole conversation as ``actual_response`` (one
``ROLE: text`` line per message) and the scenario's goals, as 10xGraph's does.
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.criteria.base import register_criterion
from tenxeval_tui.evaluation.criteria.judge_replies import GoalsReply
from tenxeval_tui.evaluation.criteria.llm_base import JudgedCriterion, JudgeReplyError, Sample
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.judges.pool import JudgePool

GOALS_KEY = "goals"
"""``case.metadata`` key holding the goals (a list of strings) the criterion judges."""


def case_goals(case: EvalCase) -> list[str]:
    """The goals to judge: ``case.metadata["goals"]``, else the last expected reply as one
    goal (10xGraph puts the scenario's goals there, joined by ``"; "``)."""
    value = case.metadata.get(GOALS_KEY)
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list):
        return [str(goal).strip() for goal in value if str(goal).strip()]
    expected = case.get_final_expected_response()
    return [expected.strip()] if expected and expected.strip() else []


@register_criterion
class SimulationGoalsCriterion(JudgedCriterion):
    """``simulation_goals``: the share of the goals the conversation achieved.

    The conversation is ``actual_response`` (the simulator puts the whole
    transcript there; in a normal run it is the last reply). The goals are
    ``case.metadata["goals"]``, else the case's last expected reply as one goal.
    The judge says, per numbered goal, whether it was achieved anywhere in the
    conversation; a goal counts when the majority of samples say so. Score:
    goals achieved / goals. One judge call per case unless ``num_samples`` is
    set explicitly (10xGraph asks once). No goals: 1.0, noted, no judge call.
    ``details`` lists ``achieved_goals`` and ``unachieved_goals`` by their text.
    """

    name = "simulation_goals"
    description = "A judge model decides which goals a simulated conversation achieved"
    template = "simulation_goals_v1.j2"

    def __init__(
        self, config: CriterionConfig | None = None, judge_pool: JudgePool | None = None
    ) -> None:
        config = config or CriterionConfig()
        if "num_samples" not in config.model_fields_set:
            config = config.model_copy(update={"num_samples": 1})
        super().__init__(config, judge_pool)

    def skip(self, actual: ExecutionResult, expected: EvalCase) -> tuple[float, str] | None:
        if not case_goals(expected):
            return 1.0, "no goals defined: nothing to judge"
        if not actual.actual_response.strip():
            return 0.0, "empty conversation: no goal achieved"
        return None

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        return {"goals": case_goals(expected)}

    def items(self, expected: EvalCase) -> list[tuple[str, float]]:
        return [(str(i), 1.0) for i in range(1, len(case_goals(expected)) + 1)]

    def read_sample(self, data: dict[str, Any], expected: EvalCase) -> Sample:
        reply = GoalsReply.model_validate(data)
        count = len(case_goals(expected))
        strays = [g.goal for g in reply.goals if not 1 <= g.goal <= count]
        if strays:
            raise JudgeReplyError(f"goals {strays} are not among the goals 1 to {count}")
        return Sample({str(g.goal): g.achieved for g in reply.goals}, reply.reasoning)

    def extra_details(
        self, samples: list[Sample], decided: dict[str, bool], expected: EvalCase
    ) -> dict[str, Any]:
        goals = case_goals(expected)
        return {
            "achieved_goals": [g for i, g in enumerate(goals, 1) if decided[str(i)]],
            "unachieved_goals": [g for i, g in enumerate(goals, 1) if not decided[str(i)]],
            "reasoning": samples[0].reasoning if samples else "",
        }


# 10xGraph's registry also knows it by these names.
register_criterion(SimulationGoalsCriterion, name="simulation_goals_match")
register_criterion(SimulationGoalsCriterion, name="conversation_goals")

__all__ = ["SimulationGoalsCriterion", "case_goals"]
