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

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, ToolCall
from tenxeval_tui.evaluation.eval_result import EvalCaseResult

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


class StepMatch(StrEnum):
    """How an expected tool call lines up with an actual one."""

    MATCH = "match"
    WRONG_ARGS = "wrong_args"  # same tool, other arguments
    MISSING = "missing"  # expected, not called
    EXTRA = "extra"  # called, not expected


@dataclass(frozen=True, slots=True)
class AlignedStep:
    """One row of an aligned trajectory: the expected call, the actual call, or both."""

    match: StepMatch
    expected: ToolCall | None
    actual: ToolCall | None
    differing_args: tuple[str, ...] = ()


_ABSENT = object()


def _differing_args(expected: ToolCall, actual: ToolCall) -> tuple[str, ...]:
    # As the trajectory criterion compares them (ToolCall.matches): an expectation
    # without args accepts any; one with args wants exactly those, so an argument
    # only one side has differs too.
    if not expected.args:
        return ()
    keys = expected.args.keys() | actual.args.keys()
    return tuple(
        sorted(k for k in keys if expected.args.get(k, _ABSENT) != actual.args.get(k, _ABSENT))
    )


def align_trajectory(
    expected: list[ToolCall], actual: list[ToolCall], *, check_args: bool = True
) -> list[AlignedStep]:
    """Line up expected and actual tool calls by name, in order (a diff over names).

    With ``check_args`` off (as the trajectory criterion runs by default) calls of the
    same tool match whatever their arguments; the differing ones are still named.
    """
    rows: list[AlignedStep] = []
    matcher = difflib.SequenceMatcher(
        a=[c.name for c in expected], b=[c.name for c in actual], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for exp, act in zip(expected[i1:i2], actual[j1:j2], strict=True):
                differing = _differing_args(exp, act)
                match = StepMatch.WRONG_ARGS if differing and check_args else StepMatch.MATCH
                rows.append(AlignedStep(match, exp, act, differing))
            continue
        rows.extend(AlignedStep(StepMatch.MISSING, exp, None) for exp in expected[i1:i2])
        rows.extend(AlignedStep(StepMatch.EXTRA, None, act) for act in actual[j1:j2])
    return rows


@dataclass(slots=True)
class Expectations:
    """What a case expected, as far as it is known (``None``: not known)."""

    response: str | None = None
    tool_calls: list[ToolCall] | None = None
    node_order: list[str] | None = None
    turns: list[str] = field(default_factory=list)
    check_args: bool = True
    """Whether the trajectory criterion compared arguments (its ``check_args``)."""


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


def expectations_for(result: EvalCaseResult, case: EvalCase | None = None) -> Expectations:
    """The expectations of ``result``'s case: from ``case`` if given, else from criterion details."""
    checked = [
        cr.details["check_args"]
        for cr in result.criterion_results
        if isinstance(cr.details.get("check_args"), bool)
    ]
    check_args = checked[0] if checked else True
    if case is not None:
        return Expectations(
            response=case.get_final_expected_response(),
            tool_calls=case.get_expected_tool_trajectory(),
            node_order=case.get_expected_node_order(),
            turns=[inv.user_content.get_text() for inv in case.conversation],
            check_args=check_args,
        )
    found = Expectations(check_args=check_args)
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
