"""A case's repeats for browsing: each repeat's outcome and where it parts from the first.

UI-free. The case view lists every repeat of a case that ran more than once and
lets the user step through them; this module says, for each repeat, how it
differs from the case's first repeat (the reference), with the core's
:func:`~tenxeval_tui.evaluation.analysis.flakiness.first_divergence`: the first differing
trajectory step (a node, or a tool by name and arguments) and whether the
replies differ. Comparing every repeat with one reference keeps the lines
comparable with each other (two repeats that both differ from the first at
step 3 the same way took the same other path).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from tenxeval_tui.evaluation.analysis.flakiness import Divergence, first_divergence
from tenxeval_tui.evaluation.dataset.eval_set import StepType, TrajectoryStep
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.stats import RepeatStats

ARGS_SHOWN = 60
"""Characters of a tool call's arguments shown in a divergence line."""


@dataclass(frozen=True, slots=True)
class RepeatLine:
    """One repeat of a case and how it differs from the first repeat."""

    index: int
    """0-based; shown 1-based (``#1``)."""
    status: str
    duration: float
    divergence: Divergence | None
    """``None`` for the first repeat (the reference)."""


def repeat_lines(result: EvalCaseResult) -> list[RepeatLine]:
    """Every repeat of ``result`` (empty for a case that ran once), compared with the first."""
    runs = result.repeat_results or []
    if not runs:
        return []
    first = runs[0]
    return [
        RepeatLine(
            index=i,
            status=run.status,
            duration=run.duration_seconds,
            divergence=None if i == 0 else first_divergence(first, run),
        )
        for i, run in enumerate(runs)
    ]


def step_label(step: TrajectoryStep | None) -> str:
    """``tool get_weather({"location": "Paris"})``, ``node agent``, or ``(ended)``."""
    if step is None:
        return "(ended)"
    if step.step_type != StepType.TOOL:
        return f"node {step.name}"
    args = json.dumps(step.args, ensure_ascii=False, sort_keys=True, default=str)
    if len(args) > ARGS_SHOWN:
        args = args[: ARGS_SHOWN - 1] + "…"
    return f"tool {step.name}({args})"


def divergence_label(divergence: Divergence | None) -> str:
    """What a repeat's divergence from the first repeat says, in one line."""
    if divergence is None:
        return "reference"
    if not divergence.diverged:
        return "same path and reply as #1"
    parts = []
    if divergence.step is not None:
        parts.append(
            f"parts from #1 at step {divergence.step + 1}: "
            f"{step_label(divergence.right)} instead of {step_label(divergence.left)}"
        )
    else:
        parts.append("same path as #1")
    if divergence.replies_differ:
        parts.append("reply differs")
    return "; ".join(parts)


def stats_label(stats: RepeatStats) -> str:
    """``3/5 passed (60%) · pass@5 100% · pass^5 0% · 2 flips · rule: all``."""
    n = stats.repeats
    parts = [f"{stats.passed_repeats}/{n} passed ({stats.pass_rate:.0%})"]
    if stats.pass_at_k:
        parts.append(f"pass@{n} {stats.pass_at_k[-1]:.0%}")
    if stats.pass_hat_k:
        parts.append(f"pass^{n} {stats.pass_hat_k[-1]:.0%}")
    parts.append(f"{stats.flips} flip{'s' if stats.flips != 1 else ''}")
    if stats.errored_repeats:
        parts.append(f"{stats.errored_repeats} errored")
    parts.append(f"rule: {stats.pass_rule}")
    return " · ".join(parts)


__all__ = ["RepeatLine", "divergence_label", "repeat_lines", "stats_label", "step_label"]
