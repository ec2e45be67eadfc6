"""The OpenTelemetry observer, read back through the SDK's in-memory span exporter."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.waiting import scaled

pytest.importorskip("opentelemetry.sdk", reason="the otel extra is not installed")

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalConfig,
    EvalSet,
    OpenTelemetryObserver,
    create_eval_app,
)
from tenxeval_tui.evaluation.targets import Trace

WEATHER = Path(__file__).resolve().parents[2] / "sample_evals" / "weather_graph.evalset.json"


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


def observer(exporter: InMemorySpanExporter) -> OpenTelemetryObserver:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return OpenTelemetryObserver(provider)


def quiet(config: EvalConfig) -> EvalConfig:
    config.reporter.enabled = False
    return config


async def test_a_run_is_one_span_with_a_child_per_case_and_an_event_per_criterion(
    exporter: InMemorySpanExporter,
) -> None:
    app, collector = create_eval_app(build_graph())
    evaluator = AgentEvaluator(
        app, collector, quiet(EvalConfig.default()), observers=[observer(exporter)]
    )
    report = await evaluator.evaluate(str(WEATHER))
    spans = exporter.get_finished_spans()
    (run,) = [s for s in spans if s.name.startswith("tenxeval.run ")]
    cases = [s for s in spans if s.name.startswith("invoke_agent ")]
    assert len(cases) == report.summary.total_cases
    assert run.name == "tenxeval.run weather_graph"
    attrs = dict(run.attributes or {})
    assert attrs["tenxeval.passed_cases"] == report.summary.passed_cases
    assert attrs["tenxeval.error_cases"] == report.summary.error_cases
    assert attrs["tenxeval.pass_rate"] == pytest.approx(report.summary.pass_rate)
    assert attrs["tenxeval.partial"] is False
    assert run.context is not None
    for span in cases:  # all children of the run, in its trace
        assert span.parent is not None and span.parent.span_id == run.context.span_id
        assert span.context is not None and span.context.trace_id == run.context.trace_id
        assert run.start_time is not None and span.start_time is not None
        assert run.start_time <= span.start_time

    by_id = {str((s.attributes or {})["tenxeval.case.id"]): s for s in cases}
    for result in report.results:
        span = by_id[result.eval_id]
        sattrs = dict(span.attributes or {})
        assert sattrs["gen_ai.operation.name"] == "invoke_agent"
        assert sattrs["tenxeval.case.status"] == result.status
        assert sattrs["gen_ai.conversation.id"] == result.metadata["thread_id"]
        assert sattrs["gen_ai.usage.input_tokens"] == result.token_usage.input_tokens
        events = [e for e in span.events if e.name == "gen_ai.evaluation.result"]
        assert [dict(e.attributes or {})["gen_ai.evaluation.name"] for e in events] == [
            cr.criterion for cr in result.criterion_results
        ]
        for event, cr in zip(events, result.criterion_results, strict=True):
            eattrs = dict(event.attributes or {})
            assert eattrs["gen_ai.evaluation.score.value"] == pytest.approx(cr.score)
            assert eattrs["gen_ai.evaluation.score.label"] == ("pass" if cr.passed else "fail")
        if result.is_error:
            assert span.status.status_code is StatusCode.ERROR
            assert sattrs["error.type"] == result.metadata["error_info"]["error_type"]
        else:
            assert span.status.status_code is StatusCode.UNSET
    assert any(r.is_error for r in report.results)  # the sample has one error case

    # Each tool call is a child span of its case, named after the tool.
    tools = [s for s in spans if s.name.startswith("execute_tool ")]
    calls = sum(len(r.actual_tool_calls) for r in report.results)
    assert calls > 0 and len(tools) == calls
    assert len(spans) == 1 + len(cases) + len(tools)  # nothing else
    case_ids = {s.context.span_id for s in cases if s.context is not None}
    for tool in tools:
        tattrs = dict(tool.attributes or {})
        assert tattrs["gen_ai.operation.name"] == "execute_tool"
        assert tool.name == f"execute_tool {tattrs['gen_ai.tool.name']}"
        assert tool.parent is not None and tool.parent.span_id in case_ids


async def test_a_cancelled_run_ends_its_open_case_spans(exporter: InMemorySpanExporter) -> None:
    started = asyncio.Event()

    async def slow(message: str, trace: Trace) -> str:
        started.set()
        await asyncio.Event().wait()  # until cancelled
        return "never"

    app, collector = create_eval_app(slow)
    eval_set = EvalSet(
        eval_set_id="slow",
        eval_cases=[EvalCase.single_turn(f"c{i}", "hi", expected_response="x") for i in range(3)],
    )
    evaluator = AgentEvaluator(
        app, collector, quiet(EvalConfig(max_concurrency=2)), observers=[observer(exporter)]
    )
    task = asyncio.create_task(evaluator.evaluate(eval_set))
    await asyncio.wait_for(started.wait(), scaled(30))
    evaluator.cancel()
    report = await task
    assert report.is_partial
    spans = exporter.get_finished_spans()
    (run,) = [s for s in spans if s.name == "tenxeval.run slow"]
    assert dict(run.attributes or {})["tenxeval.partial"] is True
    cases: list[ReadableSpan] = [s for s in spans if s.name.startswith("invoke_agent ")]
    assert cases and all(s.end_time is not None for s in cases)
    assert all(s.status.status_code is StatusCode.ERROR for s in cases)
