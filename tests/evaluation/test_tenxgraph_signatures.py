"""Calls written against 10xgraph 0.10.3's signatures (positional order, its keyword
names) mean the same here: the builder's ``case_id`` place, ``ContainsKeywordsCriterion(
keywords=...)``, ``ConsoleReporter(output=...)``, ``JUnitXMLReporter(suite_name)``."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from tenxeval_tui.evaluation import (
    ConsoleReporter,
    ContainsKeywordsCriterion,
    CriterionConfig,
    EvalCase,
    EvalCaseResult,
    EvalReport,
    EvalSetBuilder,
    ExecutionResult,
    JUnitXMLReporter,
)


def test_add_case_takes_the_case_id_third_as_10xgraph_does() -> None:
    built = (
        EvalSetBuilder("b")
        .add_case("Weather in Oslo?", "Cold.", "oslo", ["get_weather"])
        .add_multi_turn([("Hi", "Hello"), ("Oslo?", "Cold")], "chat", ["get_weather"], "Chat")
        .build()
    )
    oslo, chat = built.eval_cases
    assert (oslo.eval_id, [t.name for t in oslo.get_expected_tool_trajectory()]) == (
        "oslo",
        ["get_weather"],
    )
    assert (chat.eval_id, chat.name) == ("chat", "Chat")
    assert [t.name for t in chat.get_expected_tool_trajectory()] == ["get_weather"]


def test_multi_turn_takes_name_and_description_after_the_tools() -> None:
    case = EvalCase.multi_turn("m", [("a", "b")], None, "Name", "Description")
    assert (case.name, case.description) == ("Name", "Description")


async def test_contains_keywords_takes_keywords_first_or_a_config() -> None:
    reply = ExecutionResult(actual_response="Sunny in Paris")
    case = EvalCase.single_turn("k", "q")
    by_keywords = ContainsKeywordsCriterion(keywords=["sunny", "rain"])
    assert (await by_keywords.evaluate(reply, case)).score == pytest.approx(0.5)
    # The config's keywords win over the argument, as in 10xGraph.
    both = ContainsKeywordsCriterion(["rain"], CriterionConfig(keywords=["paris"]))
    assert (await both.evaluate(reply, case)).score == 1.0
    by_config = ContainsKeywordsCriterion(CriterionConfig.contains_keywords(["rain"]))
    assert (await by_config.evaluate(reply, case)).score == 0.0


def test_console_reporter_writes_to_output() -> None:
    stream = io.StringIO()
    report = EvalReport.create(eval_set_id="sig", results=[EvalCaseResult.failure("c1", "boom")])
    ConsoleReporter(use_color=False, output=stream).report(report)
    assert "c1" in stream.getvalue()


def test_junit_reporter_takes_a_suite_name() -> None:
    report = EvalReport.create(eval_set_id="sig", results=[])
    named = JUnitXMLReporter("agent-evaluation").to_element(report)
    assert named.get("name") == "agent-evaluation"
    assert JUnitXMLReporter().to_element(report).get("name") == "sig"
    assert ET.tostring(named).startswith(b"<testsuites")


def test_eval_case_result_success_takes_10xgraphs_arguments_and_passes_from_criteria() -> None:
    from tenxeval_tui.evaluation import CriterionResult

    good = CriterionResult.success("rouge_match", 0.9, 0.5)
    bad = CriterionResult.success("exact_match", 0.0, 1.0)
    passed = EvalCaseResult.success("c1", [good], None, None, "reply", duration_seconds=1.5)
    assert (passed.passed, passed.actual_response, passed.duration_seconds) == (True, "reply", 1.5)
    failed = EvalCaseResult.success("c2", [good, bad], name="two")
    assert (failed.passed, failed.name, failed.error) == (False, "two", None)


def test_token_usage_takes_its_counts_by_position_too() -> None:
    from tenxeval_tui.evaluation import TokenUsage

    usage = TokenUsage(10, 5, 2, 1)
    assert (usage.input_tokens, usage.output_tokens) == (10, 5)
    assert (usage.cache_read_tokens, usage.cache_creation_tokens) == (2, 1)
    assert usage == TokenUsage(
        input_tokens=10, output_tokens=5, cache_read_tokens=2, cache_creation_tokens=1
    )
    assert TokenUsage.model_validate({"input_tokens": 3}).input_tokens == 3


def test_filter_by_event_takes_event_type_by_name() -> None:
    from tenxeval_tui.evaluation import EventCollector

    assert EventCollector().filter_by_event(event_type="node_execution") == []


def test_reporters_take_their_switches_in_10xgraphs_positional_order() -> None:
    from tenxeval_tui.evaluation import HTMLReporter, JSONReporter

    html = HTMLReporter(True, False, True, True, True)  # include_actual_response off
    assert html.options.include_actual_response is False
    assert html.options.include_trajectory is True
    json_reporter = JSONReporter(2, True, False)  # include_trajectory off
    assert (json_reporter.include_trajectory, json_reporter.include_details) == (False, True)


def test_a_builder_without_a_name_is_named_eval_set() -> None:
    assert EvalSetBuilder().build().name == "eval_set"
