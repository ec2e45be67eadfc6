"""Retry once: what the worker backends do with the cases a dead worker was running.

A worker process (:mod:`tenxeval_tui.runs.pool`) or Ray actor
(:mod:`tenxeval_tui.runs.ray_backend`) that dies mid-run leaves the cases it was running
unfinished. Each of them runs once more on another worker (observers are told with
``on_case_retry`` first, so the second ``case_start`` is not taken for a new case); its
result then carries :data:`~tenxeval_tui.evaluation.eval_result.RETRIED_KEY` (how the
first worker died). A case whose retry's worker dies too, or that has no other worker
left to run on, ends as the error it would have been without retries.
"""

from __future__ import annotations

from tenxeval_tui.evaluation.eval_result import RETRIED_KEY, EvalCaseResult

Key = tuple[int, int]
"""A case: (index of its eval set, index of the case in it)."""


class Retries:
    """Which cases were retried, and why."""

    def __init__(self) -> None:
        self.reasons: dict[Key, str] = {}

    def take(self, key: Key, how: str) -> bool:
        """Whether the case ``key``, whose worker died ``how``, may run again (only once)."""
        if key in self.reasons:
            return False
        self.reasons[key] = how
        return True

    def mark(self, key: Key, result: EvalCaseResult) -> EvalCaseResult:
        """``result`` of case ``key`` saying it was retried, when it was (else as it is)."""
        how = self.reasons.get(key)
        if how is not None:
            result.metadata[RETRIED_KEY] = how
        return result


def death_line(how: str, retried: int, errored: int, not_started: int) -> str:
    """What a dead worker's death did to its cases, in one line."""
    parts = []
    if retried:
        parts.append(f"{retried} running case(s) retried on the other workers")
    if errored or not retried:
        parts.append(f"{errored} running case(s) end as errors")
    parts.append(f"{not_started} not started go to the other workers")
    return f"{how}: " + ", ".join(parts)


__all__ = ["Retries", "death_line"]
