"""Results: case results, the summary's counting, reports and their JSON."""

from __future__ import annotations

import warnings
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tenxeval_tui.evaluation import (
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    EvalSummary,
    ExecutionResult,
    NodeResponseData,
    StepType,
    TokenUsage,
    ToolCall,
    TrajectoryStep,
)


def case(eval_id: str, *scores: float, error: str | None = None, tokens: int = 0) -> EvalCaseResult:
    crs = [
        CriterionResult.success(f"crit_{i}", score, threshold=0.5) for i, score in enumerate(scores)
    ]
    return EvalCaseResult(
        eval_id=eval_id,
        passed=error is None and all(cr.passed for cr in crs),
        criterion_results=crs,
        error=error,
        duration_seconds=1.0,
        token_usage=TokenUsage(input_tokens=tokens, output_tokens=1),
    )


def test_token_usage_adds_and_sums() -> None:
    a = TokenUsage(input_tokens=3, output_tokens=4, cache_read_tokens=1)
    b = TokenUsage(input_tokens=1, output_tokens=1, cache_creation_tokens=2)
    total = a + b
    assert (total.input_tokens, total.output_tokens, total.total_tokens) == (4, 5, 9)
    assert (total.cache_read_tokens, total.cache_creation_tokens) == (1, 2)
    assert sum([a, b]) == total
    assert a.to_dict()["total_tokens"] == 7


def test_execution_result_properties_and_deprecated_to_dict() -> None:
    result = ExecutionResult(
        tool_calls=[ToolCall(name="a"), ToolCall(name="b")],
        trajectory=[
            TrajectoryStep(step_type=StepType.NODE, name="MAIN"),
            TrajectoryStep(step_type=StepType.TOOL, name="a"),
        ],
        node_responses=[
            NodeResponseData(token_usage=TokenUsage(input_tokens=5, output_tokens=2)),
            NodeResponseData(token_usage=TokenUsage(input_tokens=1, output_tokens=1)),
        ],
    )
    assert result.get_tool_names() == ["a", "b"]
    assert [s.name for s in result.tool_trajectory] == ["a"]
    assert result.token_usage.total_tokens == 9
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dumped = result.to_dict()
    assert dumped == result.model_dump()
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


def test_case_result_criterion_lookups() -> None:
    result = case("c", 0.9, 0.1)
    assert not result.passed
    assert result.get_criterion_result("crit_0") is not None
    assert result.get_criterion_result("nope") is None
    assert [cr.criterion for cr in result.failed_criteria] == ["crit_1"]
    assert [cr.criterion for cr in result.passed_criteria] == ["crit_0"]


def test_an_errored_case_never_passes() -> None:
    result = EvalCaseResult(eval_id="e", passed=True, error="RuntimeError: boom")
    assert result.passed is False and result.is_error and result.status == "error"


def test_summary_counts_and_criterion_stats() -> None:
    results = [
        case("a", 1.0, 1.0, tokens=10),
        case("b", 0.2, 1.0, tokens=20),
        case("c", error="TimeoutError: case exceeded 1s", tokens=0),
    ]
    summary = EvalSummary.from_results(results)
    assert (summary.total_cases, summary.passed_cases) == (3, 1)
    assert (summary.failed_cases, summary.error_cases) == (1, 1)
    assert summary.pass_rate == 1 / 3
    assert summary.criterion_stats["crit_0"] == {
        "total": 2,
        "passed": 1,
        "failed": 1,
        "avg_score": 0.6,
        "pass_rate": 0.5,
    }
    assert summary.total_token_usage.total_tokens == 33
    assert summary.per_case_token_usage["b"].input_tokens == 20
    assert summary.avg_tokens_per_case == 11
    assert summary.total_duration_seconds == 3.0 and summary.avg_duration_seconds == 1.0


def test_empty_summary() -> None:
    assert EvalSummary.from_results([]) == EvalSummary()


outcomes = st.lists(
    st.tuples(
        st.lists(st.floats(min_value=0, max_value=1), max_size=3),
        st.booleans(),
    ),
    max_size=30,
)


@given(outcomes)
def test_counting_invariant(cases: list[tuple[list[float], bool]]) -> None:
    results = [
        case(f"c{i}", *scores, error="boom" if errored else None)
        for i, (scores, errored) in enumerate(cases)
    ]
    s = EvalSummary.from_results(results)
    assert s.total_cases == s.passed_cases + s.failed_cases + s.error_cases
    assert s.error_cases == sum(1 for _, errored in cases if errored)
    for stats in s.criterion_stats.values():
        assert stats["total"] == stats["passed"] + stats["failed"]


def test_report_create_recomputes_summary_and_round_trips(tmp_path: Path) -> None:
    report = EvalReport.create(
        eval_set_id="weather",
        eval_set_name="Weather",
        results=[case("a", 1.0), case("b", 0.0)],
    )
    assert report.summary.passed_cases == 1
    assert [r.eval_id for r in report.failed_cases] == ["b"]
    assert report.get_case_result("a") is report.results[0]
    path = tmp_path / "r.json"
    report.to_file(path)
    assert EvalReport.from_file(path) == report


def test_combine_merges_and_tags_the_source_set() -> None:
    a = EvalReport.create(eval_set_id="a", results=[case("x", 1.0)])
    b = EvalReport.create(eval_set_id="b", results=[case("y", 0.0)], metadata={"partial": True})
    merged = EvalReport.combine([a, b])
    assert merged.eval_set_id == "combined_eval"
    assert [r.eval_set_id for r in merged.results] == ["a", "b"]
    assert merged.summary.total_cases == 2 and merged.is_partial


def test_format_summary_names_failures() -> None:
    report = EvalReport.create(
        eval_set_id="w",
        results=[case("ok", 1.0), case("bad", 0.25), case("err", error="ValueError: nope")],
    )
    text = report.format_summary()
    assert "3 total, 1 passed, 1 failed, 1 errored" in text
    assert "Pass rate: 33.3%" in text
    assert "bad: crit_0=0.25<0.50" in text
    assert "err: ERROR ValueError: nope" in text


def test_a_score_that_is_no_number_is_refused() -> None:
    import math

    import pytest
    from pydantic import ValidationError

    for score in (math.nan, math.inf):
        with pytest.raises(ValidationError, match="a score must be a finite number"):
            CriterionResult.success("custom", score, 0.5)


def test_tokens_per_case_keep_cases_of_two_sets_sharing_an_id() -> None:
    from tenxeval_tui.evaluation import EvalCaseResult, EvalReport, TokenUsage

    def case(set_id: str, eval_id: str, tokens: int) -> EvalCaseResult:
        usage = TokenUsage(input_tokens=tokens)
        return EvalCaseResult(
            eval_id=eval_id, passed=True, token_usage=usage, metadata={"eval_set_id": set_id}
        )

    a = EvalReport.create("a", [case("a", "greeting", 10), case("a", "only_a", 1)])
    b = EvalReport.create("b", [case("b", "greeting", 20)])
    per_case = EvalReport.combine([a, b]).summary.per_case_token_usage
    assert {k: v.input_tokens for k, v in per_case.items()} == {
        "a/greeting": 10,
        "only_a": 1,
        "b/greeting": 20,
    }


def test_token_usage_total_adds_every_count_at_once() -> None:
    from tenxeval_tui.evaluation.token_usage import TokenUsage

    usages = [
        TokenUsage(input_tokens=3, output_tokens=4, cache_read_tokens=5),
        TokenUsage(input_tokens=10, cache_creation_tokens=2),
        TokenUsage(output_tokens=1),
    ]
    total = TokenUsage.total(usages)
    assert total == sum(usages, TokenUsage())
    assert (total.input_tokens, total.output_tokens, total.total_tokens) == (13, 5, 18)
    assert (total.cache_read_tokens, total.cache_creation_tokens) == (5, 2)
    assert TokenUsage.total([]) == TokenUsage()
