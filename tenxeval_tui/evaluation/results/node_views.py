"""A case result's two views of its node responses, made as they are written.

Every model call of a case appears twice in its :class:`EvalCaseResult`: as a dict in
``node_responses`` and as a :class:`NodeDetail` in ``node_details`` (10xGraph's report
shape). Held whole, the two views take about 700 bytes a node on top of the node responses
they are made from: 140 MB for a case of 200,000 events.

The run worker writes its results (the run journal, the reports) and never reads those
lists, so its evaluator leaves them *pending* (:func:`defer`): the result keeps the node
responses themselves, both lists are empty, and whoever writes the result makes the views a
batch at a time (:func:`views`, which :mod:`.json_stream` uses; :func:`node_entries` for
the HTML report). A reader that needs the lists themselves calls :func:`fill` first (a
no-op for every other result); the JSON reporter's whole-report paths and the journal's
fallback do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pydantic_core import to_jsonable_python

from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport, NodeDetail
from tenxeval_tui.evaluation.execution.result import NodeResponseData
from tenxeval_tui.evaluation.lean import trusted
from tenxeval_tui.evaluation.made_on_read import MadeOnRead

VIEW_FIELDS = ("node_responses", "node_details")
"""The fields of a case result that :func:`defer` leaves pending."""


def node_response_dict(node: NodeResponseData) -> dict[str, Any]:
    """``node.model_dump(mode="json")``, sharing its values: its strings, its list of tool
    names and its empty list of messages (messages are copied as JSON data)."""
    if node.__pydantic_extra__:
        return node.model_dump(mode="json")
    return {
        "node_name": node.node_name,
        "input_messages": to_jsonable_python(node.input_messages)
        if node.input_messages
        else node.input_messages,
        "response_text": node.response_text,
        "has_tool_calls": node.has_tool_calls,
        "tool_call_names": node.tool_call_names,
        "is_final": node.is_final,
        "timestamp": node.timestamp,
        "token_usage": node.token_usage.model_dump(mode="json"),
    }


def node_detail(node: NodeResponseData) -> NodeDetail:
    """The report's :class:`NodeDetail` of ``node`` (sharing its values; see :mod:`.lean`)."""
    return trusted(
        NodeDetail,
        {
            "node_name": node.node_name,
            "input_messages": node.input_messages,
            "response_text": node.response_text,
            "token_usage": node.token_usage,
            "timestamp": node.timestamp,
        },
    )


_MAKERS: dict[str, Callable[[NodeResponseData], Any]] = {
    "node_responses": node_response_dict,
    "node_details": node_detail,
}


def defer(result: EvalCaseResult, nodes: list[NodeResponseData]) -> None:
    """Leave ``result``'s two views of ``nodes`` pending (``nodes`` becomes the result's)."""
    result.node_responses = []
    result.node_details = []
    result._pending_nodes = nodes


def pending(result: EvalCaseResult) -> list[NodeResponseData] | None:
    """The node responses whose views ``result`` has not made, or ``None``."""
    return result._pending_nodes


def fill(result: EvalCaseResult) -> EvalCaseResult:
    """Make ``result``'s pending views (and its repeats'), so that its lists hold them as
    they would have from the start; returns ``result``."""
    nodes = result._pending_nodes
    if nodes is not None:
        result.node_responses = [node_response_dict(n) for n in nodes]
        result.node_details = [node_detail(n) for n in nodes]
        result._pending_nodes = None
    for one in result.repeat_results or ():
        fill(one)
    return result


def fill_report(report: EvalReport) -> EvalReport:
    """:func:`fill` for every case of ``report``; returns ``report``."""
    for result in report.results:
        fill(result)
    return report


def forget(result: EvalCaseResult) -> None:
    """Drop ``result``'s pending node responses (its views are written already)."""
    result._pending_nodes = None


def views(result: EvalCaseResult, name: str) -> Sequence[Any]:
    """The list field ``name`` of ``result``: a pending view made item by item as it is
    read (sliced, iterated), any other field as it is."""
    nodes = result._pending_nodes
    if nodes is not None and name in _MAKERS:
        return MadeOnRead(nodes, _MAKERS[name])
    value: Sequence[Any] = getattr(result, name)
    return value


def node_entries(result: EvalCaseResult) -> Iterator[dict[str, Any]]:
    """``result.node_responses``, made one at a time when they are pending."""
    return iter(views(result, "node_responses"))


__all__ = [
    "VIEW_FIELDS",
    "defer",
    "fill",
    "fill_report",
    "forget",
    "node_detail",
    "node_entries",
    "node_response_dict",
    "pending",
    "views",
]
