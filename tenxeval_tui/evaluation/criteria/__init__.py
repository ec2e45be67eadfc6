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

# Modules whose classes register themselves, and the names they register; a module is
# imported on the first lookup of one of its names.
_BUILTINS: dict[str, tuple[str, ...]] = {
    "trajectory": ("tool_trajectory_avg_score", "tool_name_match_score", "node_order_score"),
    "response": ("response_match_score", "rouge_match", "exact_match", "contains_keywords"),
    "llm_judge": ("final_response_match_v2",),
    "hallucination": ("hallucinations_v1",),
    "factual_accuracy": ("factual_accuracy_v1",),
    "safety": ("safety_v1",),
    "rubric": ("rubric_based_final_response_quality_v1",),
    "simulation_goals": ("simulation_goals", "simulation_goals_match", "conversation_goals"),
    "trajectory_judge": ("trajectory_judge_v1",),
    "tool_end_state": ("tool_end_state",),
}
for _module, _names in _BUILTINS.items():
    add_builtin_module(f"tenxeval_tui.evaluation.criteria.{_module}", _names)

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
