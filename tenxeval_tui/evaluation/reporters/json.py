"""JSON reporter: the whole run in 10xGraph's report shape, loadable with ``EvalReport.from_file``."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pydantic_core

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.files.fileio import atomic_write_bytes, gc_paused, without_surrogates
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions, names_only_tools
from tenxeval_tui.evaluation.results.json_stream import list_parts, marked_list, report_json_parts
from tenxeval_tui.evaluation.results.node_views import fill, fill_report

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.reporters.junit import JUnitXMLReporter


class JSONReporter(BaseReporter):
    """Writes an :class:`EvalReport` as JSON with the keys 10xGraph's reports use.

    The top level holds ``eval_set_id``, ``eval_set_name``, ``summary`` (with
    ``criterion_stats`` keyed by criterion), ``results`` (each with
    ``criterion_results`` as a list, ``actual_response``, ``actual_tool_calls``,
    ``actual_trajectory``...), ``config_used``, ``timestamp`` and ``metadata``.
    Reports of up to ``compact_above`` (1,000) cases are indented for people to read
    and diff; larger ones are written compact, a third smaller and quicker to
    write and to load back (``compact_above=None`` always indents).

    The ``include_*`` switches leave data out, never change the shape of what is
    kept, so the file always loads back with :meth:`EvalReport.from_file`:

    - ``include_details=False``: no ``details`` in criterion results (judge reasons
      included);
    - ``include_trajectory=False``: no ``actual_trajectory``;
    - ``include_node_responses=False``: no ``node_responses`` nor ``node_details``;
    - ``include_actual_response=False``: no ``actual_response``, no per-turn
      ``agent_response`` / ``response``, no node ``response_text`` and no assistant entries in
      ``messages`` (the final response is in all of them);
    - ``include_tool_call_details=False``: tool calls keep their names but lose
      ``args`` and ``result``, also in criterion details (10xGraph drops ``actual_tool_calls`` entirely; the
      names are kept here because they say what happened without exposing data).
    """

    extension = ".json"

    def __init__(
        self,
        indent: int | None = 2,
        include_details: bool = True,
        include_trajectory: bool = True,
        include_node_responses: bool = True,
        include_actual_response: bool = True,
        include_tool_call_details: bool = True,
        compact_above: int | None = 1_000,
    ) -> None:
        # The positional order is 10xGraph 0.10.3's; ``compact_above`` is ours, last.
        self.indent = indent
        self.compact_above = compact_above
        self.include_details = include_details
        self.include_trajectory = include_trajectory
        self.include_node_responses = include_node_responses
        self.include_actual_response = include_actual_response
        self.include_tool_call_details = include_tool_call_details

    @classmethod
    def from_config(cls, config: ReporterConfig) -> JSONReporter:
        """The reporter that ``config``'s ``include_*`` switches describe."""
        return cls(**ViewOptions.from_config(config).switches())

    def _exclude(self) -> dict[str, Any]:
        case: dict[str, Any] = {}
        if not self.include_details:
            case["criterion_results"] = {"__all__": {"details"}}
        if not self.include_trajectory:
            case["actual_trajectory"] = True
        if not self.include_node_responses:
            case["node_responses"] = True
            case["node_details"] = True
        if not self.include_actual_response:
            case["actual_response"] = True
            case["turn_results"] = {"__all__": {"agent_response", "response"}}
            if self.include_node_responses:
                case["node_responses"] = {"__all__": {"response_text"}}
                case["node_details"] = {"__all__": {"response_text"}}
        if not self.include_tool_call_details:
            case["actual_tool_calls"] = {"__all__": {"args", "result"}}
        return {"results": {"__all__": case}} if case else {}

    def to_dict(self, report: EvalReport) -> dict[str, Any]:
        """The report as plain JSON-ready data, with the excluded parts left out."""
        data = fill_report(report).model_dump(mode="json", exclude=self._exclude() or None)
        for result in data.get("results", []):
            self._filter_case(result)
        return data

    def _filter_case(self, result: dict[str, Any]) -> None:
        """Leave out of a case's data what ``exclude`` cannot reach (see the switches)."""
        if not self.include_actual_response:
            _drop_replies(result)
        if not self.include_tool_call_details:
            for cr in result.get("criterion_results", []):
                if cr.get("details"):
                    cr["details"] = names_only_tools(cr["details"])
            for turn in result.get("turn_results", []):
                for call in turn.get("tool_calls", []) or []:
                    if isinstance(call, dict):
                        call.pop("args", None)
                        call.pop("result", None)
            _drop_tool_data(result)

    def _filtered_parts(self, report: EvalReport) -> Iterator[bytes]:
        """:meth:`render_bytes` with data left out, a case at a time (the report's results
        never all in memory as data): the same bytes."""
        indent = self.indent_for(report)
        mark = f"tenxeval-cases-{uuid.uuid4().hex}"
        head = self.to_dict(report.model_copy(update={"results": []}))
        head["results"] = [mark]
        text = _json_bytes(head, indent)
        start, end, depth = marked_list(text, mark, indent)
        yield text[:start]
        exclude = self._exclude()["results"]["__all__"]

        def cases() -> Iterator[bytes]:
            for result in report.results:
                data = fill(result).model_dump(mode="json", exclude=exclude)
                self._filter_case(data)
                yield _json_bytes(data, indent)

        yield from list_parts(cases(), indent, depth)
        yield text[end:] + b"\n"

    def render(self, report: EvalReport) -> str:
        """The report as JSON text."""
        return self.render_bytes(report).decode("utf-8")

    def indent_for(self, report: EvalReport) -> int | None:
        """``indent``, or ``None`` (compact) for a report of more than ``compact_above`` cases."""
        if self.compact_above is not None and len(report.results) > self.compact_above:
            return None
        return self.indent

    def render_bytes(self, report: EvalReport) -> bytes:
        """The report as UTF-8 JSON, serialised straight to bytes."""
        indent = self.indent_for(report)
        try:
            if self._exclude():
                data: Any = self.to_dict(report)
                return pydantic_core.to_json(data, indent=indent) + b"\n"
            serializer = report.__pydantic_serializer__
            return serializer.to_json(fill_report(report), indent=indent) + b"\n"
        except pydantic_core.PydanticSerializationError:
            # text UTF-8 cannot hold (a lone surrogate from the agent): written as U+FFFD
            cleaned = without_surrogates(self.to_dict(report))
            return pydantic_core.to_json(cleaned, indent=indent) + b"\n"

    def render_parts(self, report: EvalReport) -> Iterable[bytes]:
        """:meth:`render_bytes` in pieces (:mod:`..json_stream`): a report of a case with
        many steps is never held whole (whole when the switches leave data out)."""
        if self._exclude():
            return self._filtered_parts(report)
        return itertools.chain(report_json_parts(report, self.indent_for(report)), [b"\n"])

    def save(self, report: EvalReport, path: str | Path) -> Path:
        """Write the report to ``path`` atomically, in pieces; when its text needs cleaning
        (a lone surrogate, found part way), written whole instead."""
        try:
            return super().save(report, path)
        except pydantic_core.PydanticSerializationError:
            target = Path(path)
            with gc_paused():
                atomic_write_bytes(target, self.render_bytes(report))
            return target

    def to_json(self, report: EvalReport) -> str:
        """Same as :meth:`render` (10xGraph's name)."""
        return self.render(report)


def _json_bytes(data: Any, indent: int | None) -> bytes:
    """``data`` as JSON; text UTF-8 cannot hold (a lone surrogate) written as U+FFFD, as
    :meth:`JSONReporter.render_bytes` writes it."""
    try:
        return pydantic_core.to_json(data, indent=indent)
    except pydantic_core.PydanticSerializationError:
        return pydantic_core.to_json(without_surrogates(data), indent=indent)


def _drop_replies(result: dict[str, Any]) -> None:
    """Remove the agent's replies that ``exclude`` cannot reach: assistant messages
    (in ``messages`` and in node inputs) and ``actual_response`` in criterion details."""
    if result.get("messages"):
        result["messages"] = [m for m in result["messages"] if not _is_assistant_message(m)]
    for node in (*result.get("node_responses", []), *result.get("node_details", [])):
        if isinstance(node, dict) and node.get("input_messages"):
            node["input_messages"] = [
                m for m in node["input_messages"] if not _is_assistant_message(m)
            ]
    for cr in result.get("criterion_results", []):
        if isinstance(cr.get("details"), dict):
            cr["details"].pop("actual_response", None)


def _is_assistant_message(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    role = message.get("role") or message.get("type")
    return role in {"assistant", "ai"}


def _drop_tool_data(result: dict[str, Any]) -> None:
    """Tool arguments and results wherever else a case holds them: trajectory steps,
    tool messages and the calls in assistant messages (the conversation and each node's
    input)."""
    for step in result.get("actual_trajectory") or []:
        if isinstance(step, dict) and step.get("step_type") == "tool":
            step["args"] = {}
            if isinstance(step.get("metadata"), dict):
                step["metadata"].pop("result", None)
    conversations = [result.get("messages") or []]
    for key in ("node_responses", "node_details"):
        for node in result.get(key) or []:
            if isinstance(node, dict):
                conversations.append(node.get("input_messages") or [])
    for messages in conversations:
        for message in messages:
            if isinstance(message, dict):
                _drop_message_tool_data(message)


def _drop_message_tool_data(message: dict[str, Any]) -> None:
    if message.get("role") == "tool":
        message.pop("content", None)
    for call in message.get("tool_calls") or []:
        if isinstance(call, dict):
            call.pop("args", None)
            function = call.get("function")
            if isinstance(function, dict):
                function.pop("arguments", None)


def __getattr__(name: str) -> Any:
    """10xGraph defines its JUnit reporter in this module; ours has a module of its own,
    imported when the name is first read here: every run's parent imports this module,
    and XML only matters to JUnit reports (issue #38)."""
    if name == "JUnitXMLReporter":
        from tenxeval_tui.evaluation.reporters.junit import JUnitXMLReporter

        return JUnitXMLReporter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["JSONReporter", "JUnitXMLReporter"]
