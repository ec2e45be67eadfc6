"""OpenTelemetry tracing of runs: a span per run, a span per case, an event per criterion.

Install the ``otel`` extra (``pip install 'tenxeval-tui[otel]'``), set up a tracer
provider with the exporter of your collector (Langfuse, Phoenix, Jaeger, any OTLP
endpoint), and pass the observer to the run::

    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    evaluator = AgentEvaluator(app, collector, config,
                               observers=[OpenTelemetryObserver(provider)])

What is sent, with the GenAI semantic conventions' names where they have one:

- ``tenxeval.run <eval_set_id>``: the run; ``tenxeval.eval_set.id``/``.name``,
  ``tenxeval.cases``; at its end the summary (``tenxeval.passed_cases``,
  ``tenxeval.failed_cases``, ``tenxeval.error_cases``, ``tenxeval.pass_rate``,
  ``gen_ai.usage.input_tokens``/``output_tokens``, ``tenxeval.cost_usd`` with
  prices, ``tenxeval.partial``).
- ``invoke_agent <eval_id>`` (a child of the run): one case, with
  ``gen_ai.operation.name`` = ``invoke_agent``, ``gen_ai.conversation.id`` (the
  case's thread id), ``tenxeval.case.id``/``.name``/``.status``, its duration,
  ``gen_ai.usage.input_tokens``/``output_tokens``; status ERROR with
  ``error.type`` when the case errored.
- ``execute_tool <tool name>`` (a child of its case): each tool call the agent made,
  from its start event (when the agent reports one) to its end, with
  ``gen_ai.operation.name`` = ``execute_tool``, ``gen_ai.tool.name`` and
  ``gen_ai.tool.call.id``; status ERROR when the tool raised.
- A ``gen_ai.evaluation.result`` event on the case span per criterion:
  ``gen_ai.evaluation.name``, ``gen_ai.evaluation.score.value``,
  ``gen_ai.evaluation.score.label`` (``pass``/``fail``), ``gen_ai.evaluation.explanation``
  (the judge's reason, cut to 4,000 characters), ``error.type`` when the criterion
  itself failed, and ``tenxeval.threshold``.

The observer only makes spans; it never touches the global tracer provider unless
given none (then the global one is used, as OpenTelemetry instrumentations do).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.observers import RunObserver

if TYPE_CHECKING:
    from opentelemetry.trace import Span, TracerProvider

EVALUATION_EVENT = "gen_ai.evaluation.result"
MAX_EXPLANATION = 4_000
TRACER_NAME = "tenxeval_tui.evaluation"


def _missing_extra() -> ImportError:
    return ImportError(
        "OpenTelemetryObserver needs the OpenTelemetry API: pip install 'tenxeval-tui[otel]'"
    )


class OpenTelemetryObserver(RunObserver):
    """A :class:`RunObserver` that traces runs with OpenTelemetry (see the module's text).

    ``tracer_provider``: where the spans go (default: OpenTelemetry's global provider).
    Cases that run at once get sibling spans under the run's span; a case still open
    when the run ends (a cancelled run) is ended with status ERROR ``cancelled``.
    """

    def __init__(self, tracer_provider: TracerProvider | None = None) -> None:
        try:
            from opentelemetry import trace
        except ImportError:
            raise _missing_extra() from None
        self._trace = trace
        self._tracer = trace.get_tracer(TRACER_NAME, tracer_provider=tracer_provider)
        self._runs: dict[str, Span] = {}
        self._cases: dict[tuple[str, str], Span] = {}
        self._tool_starts: dict[tuple[str, str, str], float] = {}

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        span = self._tracer.start_span(
            f"tenxeval.run {eval_set.eval_set_id}",
            attributes={
                "tenxeval.eval_set.id": eval_set.eval_set_id,
                "tenxeval.eval_set.name": eval_set.name or eval_set.eval_set_id,
                "tenxeval.cases": len(cases),
            },
        )
        self._runs[eval_set.eval_set_id] = span

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        run = self._runs.get(eval_set_id)
        context = self._trace.set_span_in_context(run) if run is not None else None
        span = self._tracer.start_span(
            f"invoke_agent {case.eval_id}",
            context=context,
            kind=self._trace.SpanKind.INTERNAL,
            attributes={
                "gen_ai.operation.name": "invoke_agent",
                "tenxeval.eval_set.id": eval_set_id,
                "tenxeval.case.id": case.eval_id,
                "tenxeval.case.name": case.name or case.eval_id,
            },
        )
        self._cases[(eval_set_id, case.eval_id)] = span

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        if event.event != Event.TOOL_EXECUTION:
            return
        case = self._cases.get((eval_set_id, eval_id))
        if case is None:
            return
        data = event.data
        name = str(data.get("function_name") or event.node_name or "")
        call_id = str(data.get("tool_call_id") or "")
        if not name:
            return
        if event.event_type == EventType.START:
            if call_id:
                self._tool_starts[(eval_set_id, eval_id, call_id)] = event.timestamp
            return
        started = self._tool_starts.pop((eval_set_id, eval_id, call_id), event.timestamp)
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
        }
        if call_id:
            attributes["gen_ai.tool.call.id"] = call_id
        span = self._tracer.start_span(
            f"execute_tool {name}",
            context=self._trace.set_span_in_context(case),
            attributes=attributes,
            start_time=_nanoseconds(started),
        )
        if data.get("error"):
            span.set_attribute("error.type", "tool_error")
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, str(data["error"])))
        span.end(end_time=_nanoseconds(max(event.timestamp, started)))

    def on_case_end(self, result: EvalCaseResult) -> None:
        key = (result.eval_set_id, result.eval_id)
        for start in [k for k in self._tool_starts if k[:2] == key]:
            del self._tool_starts[start]  # a tool that never ended
        span = self._cases.pop(key, None)
        if span is None:  # a case run alone (evaluate_case) or an unknown eval set
            return
        tokens = result.token_usage
        attributes: dict[str, Any] = {
            "tenxeval.case.status": result.status,
            "tenxeval.case.passed": result.passed,
            "tenxeval.case.duration_seconds": result.duration_seconds,
            "gen_ai.usage.input_tokens": tokens.input_tokens,
            "gen_ai.usage.output_tokens": tokens.output_tokens,
        }
        thread = result.metadata.get("thread_id")
        if isinstance(thread, str):
            attributes["gen_ai.conversation.id"] = thread
        if result.cost_usd is not None:
            attributes["tenxeval.cost_usd"] = result.cost_usd
        span.set_attributes(attributes)
        for cr in result.criterion_results:
            span.add_event(EVALUATION_EVENT, attributes=_evaluation(cr))
        if result.is_error:
            info = result.metadata.get("error_info") or {}
            kind = info.get("error_type") if isinstance(info, dict) else None
            span.set_attribute("error.type", str(kind or "error"))
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, result.error))
        span.end()

    def on_run_end(self, report: EvalReport) -> None:
        for key in [k for k in self._cases if k[0] == report.eval_set_id]:
            case = self._cases.pop(key)
            case.set_status(self._trace.Status(self._trace.StatusCode.ERROR, "cancelled"))
            case.set_attribute("error.type", "cancelled")
            case.end()
        span = self._runs.pop(report.eval_set_id, None)
        if span is None:
            return
        s = report.summary
        attributes: dict[str, Any] = {
            "tenxeval.total_cases": s.total_cases,
            "tenxeval.passed_cases": s.passed_cases,
            "tenxeval.failed_cases": s.failed_cases,
            "tenxeval.error_cases": s.error_cases,
            "tenxeval.pass_rate": s.pass_rate,
            "tenxeval.partial": report.is_partial,
            "gen_ai.usage.input_tokens": s.total_token_usage.input_tokens,
            "gen_ai.usage.output_tokens": s.total_token_usage.output_tokens,
        }
        if s.total_cost_usd is not None:
            attributes["tenxeval.cost_usd"] = s.total_cost_usd
        span.set_attributes(attributes)
        span.end()


def _nanoseconds(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


def _evaluation(cr: CriterionResult) -> dict[str, Any]:
    """The attributes of one ``gen_ai.evaluation.result`` event."""
    attributes: dict[str, Any] = {
        "gen_ai.evaluation.name": cr.criterion,
        "gen_ai.evaluation.score.value": cr.score,
        "gen_ai.evaluation.score.label": "pass" if cr.passed else "fail",
        "tenxeval.threshold": cr.threshold,
    }
    reason = cr.reason
    if reason:
        attributes["gen_ai.evaluation.explanation"] = reason[:MAX_EXPLANATION]
    if cr.error is not None:
        attributes["error.type"] = cr.error.split(":", 1)[0][:200] or "error"
    if cr.cost_usd is not None:
        attributes["tenxeval.cost_usd"] = cr.cost_usd
    return attributes


__all__ = ["EVALUATION_EVENT", "OpenTelemetryObserver"]
