"""Run configuration: what to score (criteria), how to report it, and ready-made presets."""

from __future__ import annotations

from tenxeval_tui.evaluation._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "CriteriaConfig": "eval_config",
    "CriterionConfig": "criterion_config",
    "EvalConfig": "eval_config",
    "MatchType": "types",
    "ModelPrice": "prices",
    "ReporterConfig": "reporter_config",
    "Rubric": "criterion_config",
    "EvalPresets": "presets",
    "DEFAULT_JUDGE_MODEL": "types",
    "UserSimulatorConfig": "reporter_config",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
