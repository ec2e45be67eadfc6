"""Word diffs of responses and the alignment of expected and actual tool calls."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tenxeval_tui.browsing.case_diff import (
    DiffOp,
    StepMatch,
    align_trajectory,
    expectations_for,
    user_turns,
    word_diff,
)
from tenxeval_tui.evaluation import EvalCase, ToolCall
from tests.report_samples import case, current_report


def test_word_diff_marks_changed_words_only() -> None:
    diff = word_diff("The weather in Paris is sunny.", "The weather in Lyon is rainy.")
    assert diff.expected == [
        (DiffOp.EQUAL, "The weather in "),
        (DiffOp.REMOVED, "Paris"),
        (DiffOp.EQUAL, " is "),
        (DiffOp.REMOVED, "sunny"),
        (DiffOp.EQUAL, "."),
    ]
    assert [t for op, t in diff.actual if op == DiffOp.ADDED] == ["Lyon", "rainy"]
    assert not diff.identical
    assert word_diff("same text", "same text").identical


@given(st.text(), st.text())
def test_word_diff_sides_rebuild_their_texts(expected: str, actual: str) -> None:
    diff = word_diff(expected, actual)
    assert "".join(t for _, t in diff.expected) == expected
    assert "".join(t for _, t in diff.actual) == actual
    assert {op for op, _ in diff.expected} <= {DiffOp.EQUAL, DiffOp.REMOVED}
    assert {op for op, _ in diff.actual} <= {DiffOp.EQUAL, DiffOp.ADDED}


def test_alignment_flags_missing_extra_and_wrong_args() -> None:
    rows = align_trajectory(
        [
            ToolCall(name="lookup", args={"city": "Paris"}),
            ToolCall(name="forecast"),
            ToolCall(name="convert", args={"unit": "C"}),
        ],
        [
            ToolCall(name="lookup", args={"city": "Lyon", "lang": "fr"}),
            ToolCall(name="search"),
            ToolCall(name="convert", args={"unit": "C", "x": 1}),
        ],
    )
    assert [
        (r.match, r.expected and r.expected.name, r.actual and r.actual.name) for r in rows
    ] == [
        (StepMatch.WRONG_ARGS, "lookup", "lookup"),
        (StepMatch.MISSING, "forecast", None),
        (StepMatch.EXTRA, None, "search"),
        (StepMatch.WRONG_ARGS, "convert", "convert"),
    ]
    # as the trajectory criterion with check_args sees them: exactly the expected args
    assert rows[0].differing_args == ("city", "lang")
    assert rows[3].differing_args == ("x",)


def test_an_expected_call_without_args_accepts_any() -> None:
    rows = align_trajectory(
        [ToolCall(name="lookup")], [ToolCall(name="lookup", args={"city": "Lyon"})]
    )
    assert [(r.match, r.differing_args) for r in rows] == [(StepMatch.MATCH, ())]


names = st.lists(st.sampled_from(["a", "b", "c"]), max_size=6)


@given(names, names)
def test_alignment_keeps_every_call_once_in_order(expected: list[str], actual: list[str]) -> None:
    rows = align_trajectory(
        [ToolCall(name=n) for n in expected], [ToolCall(name=n) for n in actual]
    )
    assert [r.expected.name for r in rows if r.expected] == expected
    assert [r.actual.name for r in rows if r.actual] == actual
    matched = sum(1 for r in rows if r.match == StepMatch.MATCH)
    assert all(r.expected and r.actual for r in rows if r.match == StepMatch.MATCH)
    assert matched <= min(len(expected), len(actual))


def test_expectations_from_criterion_details() -> None:
    paris = current_report().get_case_result("paris")
    assert paris is not None
    found = expectations_for(paris)
    assert found.response == "The weather in Paris is sunny."
    assert found.tool_calls is not None
    assert [c.name for c in found.tool_calls] == ["get_weather", "get_forecast"]
    assert found.node_order is None
    assert user_turns(paris) == ["What is the weather in Paris?"]


def test_expectations_from_the_eval_case_win() -> None:
    result = case("x")
    eval_case = EvalCase.single_turn(
        "x", "hi", expected_response="hello", expected_tools=["greet"], expected_node_order=["a"]
    )
    found = expectations_for(result, eval_case)
    assert found.response == "hello" and found.node_order == ["a"] and found.turns == ["hi"]
    assert [c.name for c in found.tool_calls or []] == ["greet"]


def test_node_order_marks_a_difference_only_against_an_expectation() -> None:
    from tenxeval_tui.widgets.reports.case_detail_view import node_order_text

    assert "differs" in node_order_text(["a", "b"], ["a", "c"]).plain
    assert "differs" not in node_order_text(["a", "b"], ["a", "b"]).plain
    assert "differs" not in node_order_text([], ["a"]).plain
    assert "(no expectation)" in node_order_text([], ["a"]).plain
    assert "(not recorded)" in node_order_text(None, ["a"]).plain


def test_without_check_args_other_args_are_named_but_match() -> None:
    rows = align_trajectory(
        [ToolCall(name="lookup", args={"city": "Paris"})],
        [ToolCall(name="lookup", args={"city": "Lyon"})],
        check_args=False,
    )
    assert [(r.match, r.differing_args) for r in rows] == [(StepMatch.MATCH, ("city",))]


def test_expectations_say_whether_the_trajectory_criterion_checked_args() -> None:
    from tenxeval_tui.browsing.case_diff import expectations_for
    from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult

    def result(check_args: bool | None) -> EvalCaseResult:
        details = {} if check_args is None else {"check_args": check_args}
        criterion = CriterionResult.success("tool_trajectory_avg_score", 1.0, 1.0, details=details)
        return EvalCaseResult(eval_id="a", passed=True, criterion_results=[criterion])

    assert expectations_for(result(False)).check_args is False
    assert expectations_for(result(True)).check_args is True
    assert expectations_for(result(None)).check_args is True  # not known: the strict view
