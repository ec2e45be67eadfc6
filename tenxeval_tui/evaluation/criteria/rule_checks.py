"""Trajectory rules checked against what the agent did: each failure names its rule and
the call (or step) that broke it.

The rules are :class:`~tenxeval_tui.evaluation.dataset.trajectory_rules.TrajectoryRules`.
Calls and steps are numbered from 1 in the messages (``call #3`` is the third call);
``call`` and ``step`` in :class:`RuleFailure` are 0-based positions in
``ExecutionResult.tool_calls`` and ``node_visits``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import ToolCall
from tenxeval_tui.evaluation.dataset.trajectory_rules import ALL_CALLS, TrajectoryRules


@dataclass(frozen=True, slots=True)
class RuleFailure:
    """One broken rule."""

    rule: str
    """``forbidden_tools``, ``max_calls``, ``min_calls``, ``max_steps`` or ``before``."""
    message: str
    call: int | None = None
    """The tool call that broke it (0-based), when one did."""
    step: int | None = None
    """The step that broke it (0-based, ``max_steps``)."""

    def describe(self) -> str:
        """``max_calls: call #4 search is search call 3, over the 2 allowed``."""
        return f"{self.rule}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        """As stored in a criterion's details."""
        data: dict[str, Any] = {"rule": self.rule, "message": self.message}
        if self.call is not None:
            data["call"] = self.call
        if self.step is not None:
            data["step"] = self.step
        return data


def _times(count: int) -> str:
    return f"{count} time" if count == 1 else f"{count} times"


def _forbidden(rules: TrajectoryRules, calls: Sequence[ToolCall]) -> list[RuleFailure]:
    forbidden = set(rules.forbidden_tools)
    return [
        RuleFailure("forbidden_tools", f"call #{j + 1} {call.name} is a forbidden tool", call=j)
        for j, call in enumerate(calls)
        if call.name in forbidden
    ]


def _over_max(rules: TrajectoryRules, calls: Sequence[ToolCall]) -> list[RuleFailure]:
    failures = []
    for tool, limit in rules.max_calls.items():
        seen = 0
        for j, call in enumerate(calls):
            if tool != ALL_CALLS and call.name != tool:
                continue
            seen += 1
            if seen > limit:
                which = "tool call" if tool == ALL_CALLS else f"{tool} call"
                message = f"call #{j + 1} {call.name} is {which} {seen}, over the {limit} allowed"
                failures.append(RuleFailure("max_calls", message, call=j))
                break
    return failures


def _under_min(rules: TrajectoryRules, calls: Sequence[ToolCall]) -> list[RuleFailure]:
    failures = []
    for tool, wanted in rules.min_calls.items():
        count = len(calls) if tool == ALL_CALLS else sum(1 for c in calls if c.name == tool)
        if count < wanted:
            what = "tools were called" if tool == ALL_CALLS else f"{tool} was called"
            message = f"{what} {_times(count)}, at least {wanted} wanted"
            failures.append(RuleFailure("min_calls", message))
    return failures


def _too_many_steps(rules: TrajectoryRules, steps: Sequence[str]) -> list[RuleFailure]:
    limit = rules.max_steps
    if limit is None or len(steps) <= limit:
        return []
    message = f"step #{limit + 1} ({steps[limit]}) is over the {limit} allowed ({len(steps)} steps)"
    return [RuleFailure("max_steps", message, step=limit)]


def _out_of_order(rules: TrajectoryRules, calls: Sequence[ToolCall]) -> list[RuleFailure]:
    failures = []
    for first, then in rules.before:
        for j, call in enumerate(calls):
            if call.name == first:
                break  # every later `then` call comes after a `first` call
            if call.name == then:
                message = (
                    f"call #{j + 1} {then} comes before any {first} call ({first} before {then})"
                )
                failures.append(RuleFailure("before", message, call=j))
                break
    return failures


def rule_failures(
    rules: TrajectoryRules, calls: Sequence[ToolCall], steps: Sequence[str]
) -> list[RuleFailure]:
    """Every rule of ``rules`` that ``calls`` (the tool calls, in order) and ``steps`` (the
    nodes run, in order) break: each forbidden call, the first call over each bound, each
    bound not reached, the first step over ``max_steps``, each ordering broken."""
    if rules.empty:
        return []
    return [
        *_forbidden(rules, calls),
        *_over_max(rules, calls),
        *_under_min(rules, calls),
        *_too_many_steps(rules, steps),
        *_out_of_order(rules, calls),
    ]


__all__ = ["RuleFailure", "rule_failures"]
