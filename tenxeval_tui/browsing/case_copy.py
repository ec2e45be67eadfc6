"""What ``y`` copies from a case result: its reply, its tool calls, its diff, as plain text.

Copying is not display: the text is the agent's and the eval set's own, byte for byte
(control characters included), never the escaped form the screens show. UI-free.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

from tenxeval_tui.browsing.case_diff import Expectations
from tenxeval_tui.evaluation.dataset import ToolCall
from tenxeval_tui.evaluation.eval_result import EvalCaseResult


@dataclass(frozen=True, slots=True)
class Copied:
    """Text for the clipboard and what it is, for the notification."""

    what: str
    text: str


def tool_calls_json(calls: list[ToolCall]) -> str:
    """Tool calls as the report's JSON has them (name, args, result, ...), indented."""
    dumped = [call.model_dump(mode="json", exclude_none=True) for call in calls]
    return json.dumps(dumped, indent=2, ensure_ascii=False)


def reply(result: EvalCaseResult) -> Copied:
    """The agent's final reply."""
    return Copied("the reply", result.actual_response)


def tool_calls(result: EvalCaseResult) -> Copied:
    """The tool calls the agent made, as JSON."""
    return Copied("the tool calls", tool_calls_json(result.actual_tool_calls))


def _unified(before: str, after: str, before_name: str, after_name: str) -> list[str]:
    # split("\n"), not splitlines(): that also splits on \x0b, \x1c... which are the text's.
    return list(
        difflib.unified_diff(
            before.split("\n"), after.split("\n"), before_name, after_name, lineterm=""
        )
    )


def case_diff(
    result: EvalCaseResult, expected: Expectations, baseline: EvalCaseResult | None = None
) -> Copied | None:
    """A unified diff of the reply and of the tool calls: expected vs actual, or with a
    ``baseline`` run, that run vs this one. ``None`` when nothing is known to compare."""
    if baseline is not None:
        pairs = [
            (baseline.actual_response, result.actual_response, "reply"),
            (
                tool_calls_json(baseline.actual_tool_calls),
                tool_calls_json(result.actual_tool_calls),
                "tool calls",
            ),
        ]
        sides, what = ("baseline", "this run"), "the diff with the baseline run"
    else:
        pairs = []
        if expected.response is not None:
            pairs.append((expected.response, result.actual_response, "reply"))
        if expected.tool_calls is not None:
            pairs.append(
                (
                    tool_calls_json(expected.tool_calls),
                    tool_calls_json(result.actual_tool_calls),
                    "tool calls",
                )
            )
        sides, what = ("expected", "actual"), "the diff of expected and actual"
    if not pairs:
        return None
    lines: list[str] = []
    for before, after, part in pairs:
        lines += _unified(before, after, f"{sides[0]} {part}", f"{sides[1]} {part}")
    return Copied(what, "".join(line + "\n" for line in lines))  # empty: nothing differs
