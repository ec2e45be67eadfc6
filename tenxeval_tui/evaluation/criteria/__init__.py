"""Criteria: what a case is scored on. See :mod:`.base` for writing your own."""

from tenxeval_tui.evaluation._lazy import lazy_exports
from tenxeval_tui.evaluation.criteria.base import (
    CRITERIA_REGISTRY,
    BaseCriterion,
    CompositeCriterion,
    CriterionConfigError,
    SyncCriterion,
    WeightedCriterion,
    add_builtin_module,
    build_criteria,
    get_criterion_class,
    register_criterion,
    registered_criteria,
)

# Modules whose classes register themselves; imported lazily on the first lookup.
for _module in (
    "trajectory",
    "response",
    "llm_judge",
    "hallucination",
    "factual_accuracy",
    "safety",
    "rubric",
    "simulation_goals",
    "trajectory_judge",
    "tool_end_state",
):
    add_builtin_module(f"tenxeval_tui.evaluation.criteria.{_module}")

# The criterion classes, loaded on first access (as 10xGraph's package exports them).
_EXPORTS: dict[str, str] = {
    "TrajectoryMatchCriterion": "trajectory",
    "ToolNameMatchCriterion": "trajectory",
    "NodeOrderMatchCriterion": "trajectory",
    "ResponseMatchCriterion": "response",
    "RougeMatchCriterion": "response",
    "ExactMatchCriterion": "response",
    "ContainsKeywordsCriterion": "response",
    "LLMJudgeCriterion": "llm_judge",
    "HallucinationCriterion": "hallucination",
    "FactualAccuracyCriterion": "factual_accuracy",
    "SafetyCriterion": "safety",
    "RubricBasedCriterion": "rubric",
    "SimulationGoalsCriterion": "simulation_goals",
    "TrajectoryJudgeCriterion": "trajectory_judge",
    "ToolEndStateCriterion": "tool_end_state",
    "TemplatedLLMCriterion": "llm_base",
    "LLMCallerMixin": "llm_utils",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "CRITERIA_REGISTRY",
    "BaseCriterion",
    "CompositeCriterion",
    "CriterionConfigError",
    "SyncCriterion",
    "WeightedCriterion",
    "build_criteria",
    "get_criterion_class",
    "register_criterion",
    "registered_criteria",
    *sorted(_EXPORTS),
]
