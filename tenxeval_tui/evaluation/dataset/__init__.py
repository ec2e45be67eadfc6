"""Eval sets: the case model (:mod:`.eval_set`), the fluent builder (:mod:`.builder`) and
the case selection (:mod:`.selection`)."""

from __future__ import annotations

from tenxeval_tui.evaluation._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "EvalCase": "eval_set",
    "EvalSet": "eval_set",
    "Invocation": "eval_set",
    "MessageContent": "eval_set",
    "SessionInput": "eval_set",
    "StepType": "eval_set",
    "ToolCall": "eval_set",
    "TrajectoryStep": "eval_set",
    "validate_eval_set_file": "eval_set",
    "CaseSelection": "selection",
    "EvalSetBuilder": "builder",
    "create_simple_eval_set": "builder",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
