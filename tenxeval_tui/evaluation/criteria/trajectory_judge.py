"""``trajectory_judge_v1``: a judge reads the whole transcript and scores the agent's path.

Reference-free: it needs no expected trajectory. The judge sees the user's messages,
every step the agent took (model steps with what they said, tool calls with their
arguments and results or errors, see
:mod:`~tenxeval_tui.evaluation.criteria.transcript_text`) and the final reply, and
answers yes or no per rubric. It goes through the same machinery as every judged
criterion (:class:`~tenxeval_tui.evaluation.criteria.llm_base.JudgedCriterion`: the
judge cache, rate limits, cost, majority vote over ``num_samples``, an error rather
than a score when the judge cannot answer).
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.config.criterion_config import Rubric
from tenxeval_tui.evaluation.criteria.base import register_criterion
from tenxeval_tui.evaluation.criteria.rubric import RubricBasedCriterion
from tenxeval_tui.evaluation.criteria.transcript_text import transcript_lines
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.execution.result import ExecutionResult

DEFAULT_RUBRICS = (
    Rubric.create(
        "goal_reached",
        "The agent reached the user's goal: its final reply gives the user what they asked "
        "for, or says truthfully why it cannot.",
    ),
    Rubric.create(
        "no_needless_calls",
        "The agent made no needless tool calls: none that does not serve the goal, and no "
        "call repeated with the same arguments without a reason.",
    ),
    Rubric.create(
        "tool_errors_handled",
        "The agent ignored no tool error: after a failed call it retried, worked around it "
        "or told the user, and never went on as if the call had succeeded.",
    ),
    Rubric.create(
        "no_invented_results",
        "The agent invented no tool results: everything it presents as coming from a tool "
        "is in that tool's result as shown.",
    ),
)
"""What the judge checks when the config gives no ``rubrics``."""


@register_criterion
class TrajectoryJudgeCriterion(RubricBasedCriterion):
    """``trajectory_judge_v1``: the weighted share of rubrics the agent's path meets.

    The rubrics are the config's ``rubrics`` (id, property, weight), or, when it has
    none, :data:`DEFAULT_RUBRICS`: the goal was reached, no needless calls, no
    ignored tool error, no invented tool result (weight 1 each). The judge says yes
    or no per rubric after reading the transcript; a rubric is met when the
    majority of samples say yes. Score: the sum of the weights of rubrics met over
    the sum of all weights. An agent that did nothing (no step, no reply) scores 0.0
    without a judge call, noted. ``details`` hold ``rubrics`` (id -> met), ``unmet``
    and the judges' reasoning, as for the rubric-based criterion.
    """

    name = "trajectory_judge_v1"
    description = "A judge model reads the whole transcript and scores the agent's path"
    template = "trajectory_judge_v1.j2"

    @property
    def rubrics(self) -> list[Rubric]:
        """The config's rubrics, else :data:`DEFAULT_RUBRICS`."""
        return self.config.rubrics or list(DEFAULT_RUBRICS)

    def skip(self, actual: ExecutionResult, expected: EvalCase) -> tuple[float, str] | None:
        if not actual.trajectory and not actual.tool_calls and not actual.actual_response.strip():
            return 0.0, "the agent did nothing: no step, no tool call, no reply"
        return None

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        return {"rubrics": self.rubrics, "steps": transcript_lines(actual)}


__all__ = ["DEFAULT_RUBRICS", "TrajectoryJudgeCriterion"]
