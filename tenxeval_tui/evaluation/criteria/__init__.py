"""Criteria: what a case is scored on. See :mod:`.base` for writing your own."""

from tenxeval_tui.evaluation.criteria.base import (
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
):
    add_builtin_module(f"tenxeval_tui.evaluation.criteria.{_module}")

__all__ = [
    "BaseCriterion",
    "CompositeCriterion",
    "CriterionConfigError",
    "SyncCriterion",
    "WeightedCriterion",
    "build_criteria",
    "get_criterion_class",
    "register_criterion",
    "registered_criteria",
]
