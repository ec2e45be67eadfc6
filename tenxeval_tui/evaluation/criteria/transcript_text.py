"""What an agent did in one case, as numbered plain-text steps for a judge to read.

Each model step with what it said and the tools it asked for; each tool call with its
arguments and its result, or its error. Built from ``ExecutionResult.trajectory`` (the
order things happened in), the node responses (what each model step said) and
``tool_calls`` (each call's result). A value longer than :data:`VALUE_LIMIT`
characters is cut, saying so.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import StepType, ToolCall
from tenxeval_tui.evaluation.execution.result import ExecutionResult, NodeResponseData

VALUE_LIMIT = 4_000
"""Characters of one message, argument list or result shown to the judge."""


def _clip(text: str) -> str:
    if len(text) <= VALUE_LIMIT:
        return text
    return f"{text[:VALUE_LIMIT]}... [cut: {len(text) - VALUE_LIMIT} more characters]"


def _json(value: Any) -> str:
    if isinstance(value, str):
        return _clip(value)
    try:
        return _clip(json.dumps(value, ensure_ascii=False, default=str, sort_keys=True))
    except (TypeError, ValueError):
        return _clip(repr(value))


def _model_line(response: NodeResponseData) -> str:
    said = response.response_text.strip()
    line = f"model step {response.node_name}"
    line += f' said: "{_clip(said)}"' if said else " said nothing"
    if response.tool_call_names:
        line += f" and asked for: {', '.join(response.tool_call_names)}"
    return line


def _tool_line(name: str, call: ToolCall | None, args: Any, error: Any) -> str:
    line = f"tool call {name}({_json(args)})"
    if error:
        return f"{line} FAILED with error: {_json(error)}"
    if call is None or call.result is None:
        return f"{line} returned no result"
    return f"{line} returned: {_json(call.result)}"


def transcript_lines(actual: ExecutionResult) -> list[str]:
    """``Step n. ...`` for each model step and tool call, in the order they ran."""
    responses: dict[tuple[str, float], deque[NodeResponseData]] = {}
    for response in actual.node_responses:
        responses.setdefault((response.node_name, response.timestamp), deque()).append(response)
    calls = iter(actual.tool_calls)
    lines: list[str] = []
    for step in actual.trajectory:
        if step.step_type == StepType.TOOL:
            call = next(calls, None)
            lines.append(_tool_line(step.name, call, step.args, step.metadata.get("error")))
            continue
        found = responses.get((step.name, float(step.timestamp or 0.0)))
        if found:  # a node that made no model call (a tool node, a router) is left out
            lines.append(_model_line(found.popleft()))
    if not actual.trajectory:  # a result made by hand: its calls, in order
        lines = [_model_line(r) for r in actual.node_responses]
        lines += [_tool_line(c.name, c, c.args, None) for c in actual.tool_calls]
    else:
        lines += [_tool_line(c.name, c, c.args, None) for c in calls]  # calls with no step
    return [f"Step {i}. {line}" for i, line in enumerate(lines, 1)]


__all__ = ["VALUE_LIMIT", "transcript_lines"]
