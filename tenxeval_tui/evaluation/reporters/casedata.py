"""What a report viewer shows of one case, gathered from wherever the result keeps it.

An :class:`EvalCaseResult` holds what the agent did; what was *expected* lives in
the criteria's ``details`` (the keys 10xGraph's criteria use:
``expected_response``, ``expected_trajectory``, ``expected_node_order``...) or,
when a runner stores them on the result, in same-named extra fields or metadata.
:func:`case_view` gathers both into one plain dict for the HTML report, saying
each thing once (a detail already shown in its own section is not repeated).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

import pydantic_core

from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.results.node_views import node_entries, views

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import ReporterConfig

# Longer strings are cut in the HTML (the JSON report keeps everything).
MAX_TEXT = 8_000
MAX_TOOL_TEXT = 2_000
MAX_DETAILS = 4_000

EXPECTED_RESPONSE_KEYS = ("expected_response", "reference", "expected_final_response")
EXPECTED_TOOLS_KEYS = ("expected_trajectory", "expected_tool_calls", "expected_tool_trajectory")
# Criterion details that the case view already shows in its own sections.
_SHOWN_ELSEWHERE = frozenset(
    {
        "reason",
        "reasoning",
        "actual_response",
        "expected_response",
        "reference",
        "expected_final_response",
        "actual_trajectory",
        "expected_trajectory",
        "expected_tool_calls",
        "expected_tool_trajectory",
        "actual_node_order",
        "expected_node_order",
        "actual_names",
        "expected_names",
    }
)


@dataclass(frozen=True)
class ViewOptions:
    """Which parts of a case a report shows (the ``ReporterConfig.include_*`` switches)."""

    include_details: bool = True
    include_trajectory: bool = True
    include_node_responses: bool = True
    include_actual_response: bool = True
    include_tool_call_details: bool = True

    @classmethod
    def from_config(cls, config: ReporterConfig) -> ViewOptions:
        """The switches as ``config`` sets them."""
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})

    def switches(self) -> dict[str, Any]:
        """The switches as keyword arguments (``include_details=...``, ...)."""
        return asdict(self)


def to_text(value: Any) -> str:
    """``value`` as text: strings as they are, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    try:
        return pydantic_core.to_json(value, fallback=str).decode("utf-8")
    except (TypeError, ValueError):  # pragma: no cover - fallback=str handles the rest
        return str(value)


def clip(value: Any, limit: int = MAX_TEXT) -> str:
    """``value`` as text, cut to ``limit`` characters with a note when longer."""
    text = to_text(value)
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


def _text_of(value: Any) -> str:
    """The text of a message-like value (a string, ``{"content": ...}``, or ``{"parts": ...}``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return _text_of(value.get("content", value.get("text", value.get("parts"))))
    if isinstance(value, list):
        return " ".join(t for t in (_text_of(v) for v in value) if t)
    return str(value)


def _present(value: Any) -> bool:
    return value is not None and value != "" and value != []


_EXPECTED_KEYS = (
    *EXPECTED_RESPONSE_KEYS,
    *EXPECTED_TOOLS_KEYS,
    "expected_names",
    "expected_node_order",
)
_EXPECTED_KEY_SET = frozenset(_EXPECTED_KEYS)


def _expectations(result: EvalCaseResult) -> dict[str, Any]:
    """Every ``expected_*`` value of a case: from extra fields and metadata first, then
    from criterion details (the first criterion that has a key wins)."""
    found: dict[str, Any] = {}
    extras = result.model_extra or {}
    for source in (extras, result.metadata, *(cr.details for cr in result.criterion_results)):
        for key in source.keys() & _EXPECTED_KEY_SET if source else ():
            if key not in found and _present(source[key]):
                found[key] = source[key]
    return found


def _first(found: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((found[key] for key in keys if key in found), None)


def _tool(call: Any, with_details: bool) -> dict[str, str]:
    """A tool call (model, dict or bare name) as ``{"name", "args"?, "result"?, "mode"?}``
    (``mode``: how a run that controlled tools answered it: live, replayed, faked)."""
    if isinstance(call, str):
        return {"name": call}
    if isinstance(call, dict):
        name, args, result = call.get("name", ""), call.get("args"), call.get("result")
        mode = call.get("mode")
    else:
        name = getattr(call, "name", "")
        args, result = getattr(call, "args", None), getattr(call, "result", None)
        mode = (getattr(call, "model_extra", None) or {}).get("mode")
    tool = {"name": str(name)}
    if isinstance(mode, str):
        tool["mode"] = mode
    if with_details:
        if args:
            tool["args"] = clip(args, MAX_TOOL_TEXT)
        if _present(result):
            tool["result"] = clip(result, MAX_TOOL_TEXT)
    return tool


def _turns(result: EvalCaseResult, opts: ViewOptions) -> list[dict[str, Any]]:
    """Each turn's user input, and the agent's reply (the last turn's only when it is not
    the final response, which is shown on its own)."""
    turns: list[dict[str, Any]] = []
    final = result.actual_response
    last = len(result.turn_results) - 1
    for index, turn in enumerate(result.turn_results):
        # 10xGraph writes user_input/agent_response; our evaluator user_content/response.
        user = turn.get("user_input", turn.get("user_content"))
        entry: dict[str, Any] = {"user": clip(_text_of(user))}
        agent = _text_of(turn.get("agent_response", turn.get("response")))
        if opts.include_actual_response and agent and (index != last or agent != final):
            entry["agent"] = clip(agent)
        if opts.include_trajectory and turn.get("tool_calls"):
            entry["tools"] = [_tool(c, False)["name"] for c in turn["tool_calls"]]
        if turn.get("expected_response"):
            entry["expected"] = clip(_text_of(turn["expected_response"]))
        turns.append(entry)
    if turns:
        return turns
    for message in result.messages:
        if isinstance(message, dict) and message.get("role") in {"user", "human"}:
            turns.append({"user": clip(_text_of(message))})
    return turns


def _criteria(result: EvalCaseResult, opts: ViewOptions) -> list[dict[str, Any]]:
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
        if cr.cost_usd is not None:
            entry["cost"] = round(cr.cost_usd, 6)
        if opts.include_details:
            if cr.reason:
                entry["reason"] = clip(cr.reason)
            other = {k: v for k, v in cr.details.items() if k not in _SHOWN_ELSEWHERE}
            if not opts.include_trajectory:
                other = {k: v for k, v in other.items() if "trajectory" not in k}
            if not opts.include_tool_call_details:
                other = names_only_tools(other)
            if other:
                entry["details"] = clip(other, MAX_DETAILS)
        criteria.append(entry)
    return criteria


def node_view_entries(result: EvalCaseResult, opts: ViewOptions) -> Iterator[dict[str, Any]]:
    """The ``node_responses`` of :func:`case_view`, one at a time."""
    final = result.actual_response
    return (_node(nr, final, opts) for nr in node_entries(result))


def case_view(
    result: EvalCaseResult,
    opts: ViewOptions,
    *,
    nodes: Callable[[Iterator[dict[str, Any]]], Any] = list,
) -> dict[str, Any]:
    """The parts of ``result`` a reader of the report needs, as JSON-ready data.

    ``nodes`` makes its ``node_responses`` entry of :func:`node_view_entries` (a list; a
    writer that streams them puts a placeholder there).
    """
    view: dict[str, Any] = {
        "id": result.eval_id,
        "name": result.name,
        "status": result.status,
        "duration": round(result.duration_seconds, 3),
        "tokens": result.token_usage.total_tokens,
        "turns": _turns(result, opts),
        "criteria": _criteria(result, opts),
    }
    if result.eval_set_id:
        view["set"] = result.eval_set_id
    if result.cost_usd is not None:
        view["cost"] = round(result.cost_usd, 6)
    if opts.include_actual_response:
        view["response"] = clip(result.actual_response)
    found = _expectations(result)
    expected = _first(found, EXPECTED_RESPONSE_KEYS)
    if expected is None:  # the evaluator also keeps each turn's expected reply
        expected = next(
            (
                t["expected_response"]
                for t in reversed(result.turn_results)
                if t.get("expected_response")
            ),
            None,
        )
    if expected is not None:
        view["expected"] = clip(_text_of(expected))
    if result.error:
        view["error"] = clip(result.error)
    if opts.include_trajectory:
        expected_tools = _first(found, (*EXPECTED_TOOLS_KEYS, "expected_names"))
        if isinstance(expected_tools, list):
            details = opts.include_tool_call_details
            view["expected_tools"] = [_tool(c, details) for c in expected_tools]
        view["tools"] = [_tool(c, opts.include_tool_call_details) for c in result.actual_tool_calls]
        view["nodes"] = list(result.node_visits)
        expected_nodes = found.get("expected_node_order")
        if isinstance(expected_nodes, list):
            view["expected_nodes"] = [str(n) for n in expected_nodes]
    if opts.include_node_responses and views(result, "node_responses"):
        view["node_responses"] = nodes(node_view_entries(result, opts))
    if result.repeat_stats is not None:
        view["runs"] = _runs(result, opts)
    return view


def _runs(result: EvalCaseResult, opts: ViewOptions) -> dict[str, Any]:
    """A repeated case's figures and one line per repeat (status, scores, reply, tools)."""
    stats = result.repeat_stats
    assert stats is not None
    each = []
    for run in result.runs:
        entry: dict[str, Any] = {
            "n": run.repeat_index + 1,
            "status": run.status,
            "duration": round(run.duration_seconds, 3),
            "scores": {cr.criterion: round(cr.score, 4) for cr in run.criterion_results},
        }
        if run.error:
            entry["error"] = clip(run.error, MAX_TOOL_TEXT)
        if opts.include_actual_response:
            entry["response"] = clip(run.actual_response, MAX_TOOL_TEXT)
        if opts.include_trajectory:
            entry["tools"] = [_tool(c, False)["name"] for c in run.actual_tool_calls]
        each.append(entry)
    return {
        "passed": stats.passed_repeats,
        "total": stats.repeats,
        "rate": round(stats.pass_rate, 4),
        "rule": stats.pass_rule,
        "flips": stats.flips,
        "pass_at_k": [round(p, 4) for p in stats.pass_at_k],
        "pass_hat_k": [round(p, 4) for p in stats.pass_hat_k],
        "shown": stats.representative + 1,
        "each": each,
    }


def _node(response: Any, final: str, opts: ViewOptions) -> dict[str, Any]:
    """A node response: its name, its text unless it is the final response, its tool calls."""
    data = response if isinstance(response, dict) else {}
    node: dict[str, Any] = {"node": str(data.get("node_name", ""))}
    text = data.get("response_text") or ""
    if opts.include_actual_response and text:
        node["text"] = "(the final response)" if text == final else clip(text, MAX_TOOL_TEXT)
    if data.get("tool_call_names"):
        node["calls"] = [str(n) for n in data["tool_call_names"]]
    return node
