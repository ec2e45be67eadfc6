"""What a report viewer shows of one case, gathered from wherever the result keeps it.

An :class:`EvalCaseResult` holds what the agent did; what was *expected* lives in
the criteria's ``details`` (the keys 10xGraph's criteria use:
``expected_response``, ``expected_trajectory``, ``expected_node_order``...) or,
when a runner stores them on the result, in same-named extra fields or metadata.
:func:`case_view` gathers both into one plain dict for the HTML report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tenxeval_tui.evaluation.results import EvalCaseResult

# Longer strings are cut in the HTML (the JSON report keeps everything).
MAX_TEXT = 8_000

_EXPECTED_RESPONSE_KEYS = ("expected_response", "reference", "expected_final_response")
_EXPECTED_TOOLS_KEYS = ("expected_trajectory", "expected_tool_calls", "expected_tool_trajectory")


@dataclass(frozen=True)
class ViewOptions:
    """Which parts of a case a report shows (the ``ReporterConfig.include_*`` switches)."""

    include_details: bool = True
    include_trajectory: bool = True
    include_node_responses: bool = True
    include_actual_response: bool = True
    include_tool_call_details: bool = True


def clip(value: Any, limit: int = MAX_TEXT) -> str:
    """``value`` as text, cut to ``limit`` characters with a note when longer."""
    text = value if isinstance(value, str) else _compact(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters in the JSON report]"


def names_only_tools(details: dict[str, Any]) -> dict[str, Any]:
    """``details`` with the tool calls listed under ``*trajectory*`` / ``*tool_calls*`` keys
    reduced to their names (for ``include_tool_call_details=False``)."""
    out = dict(details)
    for key, value in details.items():
        if ("trajectory" in key or "tool_calls" in key) and isinstance(value, list):
            out[key] = [
                {"name": item.get("name")} if isinstance(item, dict) else item for item in value
            ]
    return out


def _compact(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def _text_of(value: Any) -> str:
    """The text of a message-like value (a string, ``{"content": ...}``, or ``{"parts": ...}``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        content = value.get("content", value.get("text", value.get("parts")))
        return _text_of(content)
    if isinstance(value, list):
        return " ".join(t for t in (_text_of(v) for v in value) if t)
    return str(value)


def _lookup(result: EvalCaseResult, keys: tuple[str, ...]) -> Any:
    """The first of ``keys`` found on the result, in its metadata, or in criterion details."""
    extras = result.model_extra or {}
    for key in keys:
        for source in (extras, result.metadata):
            if source.get(key) not in (None, "", []):
                return source[key]
    for cr in result.criterion_results:
        for key in keys:
            if cr.details.get(key) not in (None, "", []):
                return cr.details[key]
    return None


def _tool(call: Any, with_details: bool) -> dict[str, str]:
    if isinstance(call, str):
        return {"name": call}
    data = call.model_dump(mode="json") if hasattr(call, "model_dump") else dict(call)
    tool = {"name": str(data.get("name", ""))}
    if with_details:
        if data.get("args"):
            tool["args"] = clip(data["args"], 2_000)
        if data.get("result") not in (None, ""):
            tool["result"] = clip(data["result"], 2_000)
    return tool


def _turns(result: EvalCaseResult, opts: ViewOptions) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    if result.turn_results:
        for turn in result.turn_results:
            entry: dict[str, Any] = {"user": clip(_text_of(turn.get("user_input")))}
            if opts.include_actual_response:
                entry["agent"] = clip(_text_of(turn.get("agent_response")))
            if opts.include_trajectory and turn.get("tool_calls"):
                entry["tools"] = [str(_tool(c, False)["name"]) for c in turn["tool_calls"]]
            if turn.get("expected_response"):
                entry["expected"] = clip(_text_of(turn["expected_response"]))
            turns.append(entry)
        return turns
    for message in result.messages:
        if isinstance(message, dict) and message.get("role") in {"user", "human"}:
            turns.append({"user": clip(_text_of(message))})
    return turns


def case_view(result: EvalCaseResult, opts: ViewOptions) -> dict[str, Any]:
    """The parts of ``result`` a reader of the report needs, as JSON-ready data."""
    view: dict[str, Any] = {
        "id": result.eval_id,
        "name": result.name,
        "status": result.status,
        "set": result.eval_set_id,
        "duration": round(result.duration_seconds, 3),
        "tokens": result.token_usage.total_tokens,
        "turns": _turns(result, opts),
    }
    if opts.include_actual_response:
        view["response"] = clip(result.actual_response)
    expected = _lookup(result, _EXPECTED_RESPONSE_KEYS)
    if expected is not None:
        view["expected"] = clip(_text_of(expected))
    if result.error:
        view["error"] = clip(result.error)
    criteria = []
    for cr in result.criterion_results:
        entry: dict[str, Any] = {
            "name": cr.criterion,
            "score": round(cr.score, 4),
            "threshold": round(cr.threshold, 4),
            "passed": cr.passed,
        }
        if cr.error:
            entry["error"] = clip(cr.error)
        if opts.include_details:
            if cr.reason:
                entry["reason"] = clip(cr.reason)
            other = {
                k: v
                for k, v in cr.details.items()
                if k not in {"reason", "reasoning", "actual_response"}
                or (k == "actual_response" and opts.include_actual_response)
            }
            if not opts.include_trajectory:
                other = {k: v for k, v in other.items() if "trajectory" not in k}
            if not opts.include_tool_call_details:
                other = names_only_tools(other)
            if other:
                entry["details"] = clip(other, 4_000)
        criteria.append(entry)
    view["criteria"] = criteria
    if opts.include_trajectory:
        expected_tools = _lookup(result, _EXPECTED_TOOLS_KEYS)
        if expected_tools is None:
            names = _lookup(result, ("expected_names",))
            expected_tools = names if isinstance(names, list) else None
        if isinstance(expected_tools, list):
            view["expected_tools"] = [
                _tool(c, opts.include_tool_call_details) for c in expected_tools
            ]
        view["tools"] = [_tool(c, opts.include_tool_call_details) for c in result.actual_tool_calls]
        view["nodes"] = list(result.node_visits)
        expected_nodes = _lookup(result, ("expected_node_order",))
        if isinstance(expected_nodes, list):
            view["expected_nodes"] = [str(n) for n in expected_nodes]
    if opts.include_node_responses and result.node_responses:
        view["node_responses"] = [
            {
                "node": str(nr.get("node_name", "")),
                **(
                    {"text": clip(nr.get("response_text", ""), 2_000)}
                    if opts.include_actual_response
                    else {}
                ),
            }
            for nr in result.node_responses
            if isinstance(nr, dict)
        ]
    return view
