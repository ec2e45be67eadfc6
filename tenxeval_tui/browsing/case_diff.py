"""What a case was expected to do next to what it did: word diffs and trajectory alignment.

UI-free: the report browser renders these structures. A report holds what the
agent did; what was expected comes from the eval case when it is at hand, else
from the details the criteria stored (``expected_response``,
``expected_trajectory``, ``expected_node_order`` — the keys 10xGraph's criteria
write too).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import ValidationError

from tenxeval_tui.browsing.call_alignment import (
    AlignedStep,
    StepMatch,
    align_runs,
    align_trajectory,
)
from tenxeval_tui.evaluation.config.types import MatchType
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, ToolCall
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


class DiffOp(StrEnum):
    """What happened to a piece of text between expected and actual."""

    EQUAL = "equal"
    REMOVED = "removed"  # in the expected text only
    ADDED = "added"  # in the actual text only


@dataclass(frozen=True, slots=True)
class WordDiff:
    """Both texts cut into segments; each side holds only its own ops (and EQUAL)."""

    expected: list[tuple[DiffOp, str]]
    actual: list[tuple[DiffOp, str]]

    @property
    def identical(self) -> bool:
        """Whether the texts are the same word for word."""
        return all(op == DiffOp.EQUAL for op, _ in self.expected + self.actual)


def _append(segments: list[tuple[DiffOp, str]], op: DiffOp, text: str) -> None:
    if not text:
        return
    if segments and segments[-1][0] == op:
        segments[-1] = (op, segments[-1][1] + text)
    else:
        segments.append((op, text))


def word_diff(expected: str, actual: str) -> WordDiff:
    """Word-level differences between ``expected`` and ``actual`` (whitespace kept)."""
    old, new = _TOKEN.findall(expected), _TOKEN.findall(actual)
    left: list[tuple[DiffOp, str]] = []
    right: list[tuple[DiffOp, str]] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _append(left, DiffOp.EQUAL, "".join(old[i1:i2]))
            _append(right, DiffOp.EQUAL, "".join(new[j1:j2]))
        else:
            _append(left, DiffOp.REMOVED, "".join(old[i1:i2]))
            _append(right, DiffOp.ADDED, "".join(new[j1:j2]))
    return WordDiff(expected=left, actual=right)


@dataclass(slots=True)
class Expectations:
    """What a case expected, as far as it is known (``None``: not known)."""

    response: str | None = None
    tool_calls: list[ToolCall] | None = None
    node_order: list[str] | None = None
    turns: list[str] = field(default_factory=list)
    check_args: bool = True
    """Whether the trajectory criterion compared arguments (its ``check_args``)."""
    match_type: MatchType = MatchType.IN_ORDER
    """How the trajectory criterion paired calls (in order when it is not known)."""
    ignore_args: tuple[str, ...] = ()
    """The argument keys the trajectory criterion left out."""


def _tool_calls(value: Any) -> list[ToolCall] | None:
    if not isinstance(value, list):
        return None
    calls: list[ToolCall] = []
    for item in value:
        try:
            calls.append(ToolCall.model_validate(item))
        except ValidationError:
            return None
    return calls


TRAJECTORY_CRITERION = "tool_trajectory_avg_score"


def _trajectory_details(result: EvalCaseResult) -> dict[str, Any]:
    """The details of the result's trajectory criterion (the one that records
    ``check_args``), else empty."""
    found: CriterionResult | None = next(
        (
            cr
            for cr in result.criterion_results
            if cr.criterion == TRAJECTORY_CRITERION
            or isinstance(cr.details.get("check_args"), bool)
        ),
        None,
    )
    return found.details if found is not None else {}


def _settings(details: dict[str, Any]) -> dict[str, Any]:
    """The trajectory criterion's settings its details recorded (strict when unknown)."""
    check_args = details.get("check_args")
    ignore = details.get("ignore_args")
    try:
        match_type = MatchType(details.get("match_type", MatchType.IN_ORDER))
    except ValueError:
        match_type = MatchType.IN_ORDER
    return {
        "check_args": check_args if isinstance(check_args, bool) else True,
        "match_type": match_type,
        "ignore_args": tuple(str(k) for k in ignore) if isinstance(ignore, list) else (),
    }


def expectations_for(result: EvalCaseResult, case: EvalCase | None = None) -> Expectations:
    """The expectations of ``result``'s case: from ``case`` if given, else from criterion details."""
    settings = _settings(_trajectory_details(result))
    if case is not None:
        return Expectations(
            response=case.get_final_expected_response(),
            tool_calls=case.get_expected_tool_trajectory(),
            node_order=case.get_expected_node_order(),
            turns=[inv.user_content.get_text() for inv in case.conversation],
            **settings,
        )
    found = Expectations(**settings)
    for cr in result.criterion_results:
        details = cr.details
        response = details.get("expected_response")
        if found.response is None and isinstance(response, str):
            found.response = response
        if found.tool_calls is None:
            found.tool_calls = _tool_calls(
                details.get("expected_trajectory", details.get("expected_tool_calls"))
            )
        nodes = details.get("expected_node_order")
        if found.node_order is None and isinstance(nodes, list):
            found.node_order = [str(n) for n in nodes]
    return found


def user_turns(result: EvalCaseResult) -> list[str]:
    """The user messages of a case's conversation, as recorded in the result."""
    turns: list[str] = []
    for message in result.messages:
        role = message.get("role", message.get("type"))
        if role in ("user", "human"):
            content = message.get("content", "")
            turns.append(content if isinstance(content, str) else str(content))
    return turns


__all__ = [
    "AlignedStep",
    "DiffOp",
    "Expectations",
    "StepMatch",
    "WordDiff",
    "align_runs",
    "align_trajectory",
    "expectations_for",
    "user_turns",
    "word_diff",
]
