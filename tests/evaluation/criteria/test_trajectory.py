"""Trajectory criteria: tool trajectory, tool names, node order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenxeval_tui.evaluation import (
    CriterionConfig,
    EvalCase,
    ExecutionResult,
    Invocation,
    MatchType,
    MessageContent,
    NodeOrderMatchCriterion,
    ToolCall,
    ToolNameMatchCriterion,
    TrajectoryMatchCriterion,
)
from tenxeval_tui.evaluation.criteria.trajectory import (
    any_order_score,
    exact_score,
    in_order_score,
    positional_score,
)


def run_tools(*calls: ToolCall | str) -> ExecutionResult:
    return ExecutionResult(
        tool_calls=[ToolCall(name=c) if isinstance(c, str) else c for c in calls]
    )


def case_expecting(*tools: ToolCall | str) -> EvalCase:
    return EvalCase.single_turn("c", "q", expected_tools=list(tools))


async def trajectory(
    actual: ExecutionResult,
    case: EvalCase,
    match_type: MatchType = MatchType.EXACT,
    check_args: bool = False,
    threshold: float = 1.0,
    partial_credit: bool = False,
) -> tuple[float, bool]:
    cfg = CriterionConfig.trajectory(
        threshold, match_type, check_args, partial_credit=partial_credit
    )
    result = await TrajectoryMatchCriterion(cfg).evaluate(actual, case)
    assert result.criterion == "tool_trajectory_avg_score"
    return result.score, result.passed


@pytest.mark.parametrize(
    ("actual", "expected", "exact", "partial", "in_order", "any_order"),
    [
        (["a", "b"], ["a", "b"], 1.0, 1.0, 1.0, 1.0),
        (["b", "a"], ["a", "b"], 0.0, 0.0, 0.5, 1.0),
        # The docs' table: an extra tool in the middle scores 0.0 under EXACT.
        (["a", "x", "b"], ["a", "b"], 0.0, 1 / 3, 1.0, 1.0),
        # A trailing extra fails EXACT too (10xGraph 0.10.3 scores it 1.0).
        (["a", "b", "c"], ["a", "b"], 0.0, 2 / 3, 1.0, 1.0),
        (["a"], ["a", "b"], 0.0, 0.5, 0.5, 0.5),
        ([], ["a", "b"], 0.0, 0.0, 0.0, 0.0),
        (["c", "b"], ["a", "b"], 0.0, 0.5, 0.5, 0.5),
        (["a", "a"], ["a", "a", "a"], 0.0, 2 / 3, 2 / 3, 2 / 3),  # multiplicity counts
        ([], [], 1.0, 1.0, 1.0, 1.0),
        (["a"], [], 0.0, 0.0, 1.0, 1.0),  # nothing expected: exact means "no tool"
    ],
)
async def test_match_type_scores(
    actual: list[str],
    expected: list[str],
    exact: float,
    partial: float,
    in_order: float,
    any_order: float,
) -> None:
    result, case = run_tools(*actual), case_expecting(*expected)
    assert (await trajectory(result, case, MatchType.EXACT))[0] == pytest.approx(exact)
    with_partial = await trajectory(result, case, MatchType.EXACT, partial_credit=True)
    assert with_partial[0] == pytest.approx(partial)
    # partial_credit changes EXACT only
    ordered = await trajectory(result, case, MatchType.IN_ORDER, partial_credit=True)
    assert ordered[0] == pytest.approx(in_order)
    assert (await trajectory(result, case, MatchType.IN_ORDER))[0] == pytest.approx(in_order)
    assert (await trajectory(result, case, MatchType.ANY_ORDER))[0] == pytest.approx(any_order)


async def test_args_ignored_by_default_and_checked_when_asked() -> None:
    case = case_expecting(ToolCall(name="get_weather", args={"city": "Paris"}))
    actual = run_tools(ToolCall(name="get_weather", args={"city": "Rome"}))
    assert await trajectory(actual, case) == (1.0, True)
    assert await trajectory(actual, case, check_args=True) == (0.0, False)
    right = run_tools(ToolCall(name="get_weather", args={"city": "Paris"}))
    assert await trajectory(right, case, check_args=True) == (1.0, True)


async def test_a_tool_expected_by_name_only_accepts_any_args_even_when_checking() -> None:
    # "Name only (args not checked)": EvalPresets.tool_usage() turns check_args on,
    # and cases built from tool names alone must still pass with it.
    case = case_expecting(ToolCall(name="get_weather"), ToolCall(name="convert", args={"u": "C"}))
    actual = run_tools(
        ToolCall(name="get_weather", args={"city": "Rome"}),
        ToolCall(name="convert", args={"u": "F"}),
    )
    assert await trajectory(actual, case, check_args=True) == (0.0, False)
    assert await trajectory(actual, case, check_args=True, partial_credit=True) == (0.5, False)


async def test_expected_tools_of_every_turn_are_concatenated() -> None:
    case = EvalCase(
        eval_id="multi",
        conversation=[
            Invocation(
                user_content=MessageContent.user("one"),
                expected_tool_trajectory=[ToolCall(name="a")],
            ),
            Invocation(
                user_content=MessageContent.user("two"),
                expected_tool_trajectory=[ToolCall(name="b")],
            ),
        ],
    )
    assert await trajectory(run_tools("a", "b"), case) == (1.0, True)
    assert (await trajectory(run_tools("a"), case))[0] == 0.0
    assert (await trajectory(run_tools("a"), case, partial_credit=True))[0] == 0.5


async def test_threshold_decides_pass() -> None:
    case = case_expecting("a", "b")
    partial = {"partial_credit": True}
    assert await trajectory(run_tools("a"), case, threshold=0.5, **partial) == (0.5, True)
    assert await trajectory(run_tools("a"), case, threshold=0.6, **partial) == (0.5, False)
    assert await trajectory(run_tools("a"), case, threshold=0.5) == (0.0, False)


async def test_details_show_both_trajectories() -> None:
    case = case_expecting(ToolCall(name="a", args={"x": 1}))
    cfg = CriterionConfig.trajectory(match_type=MatchType.IN_ORDER)
    result = await TrajectoryMatchCriterion(cfg).evaluate(run_tools("b"), case)
    assert result.details["expected_trajectory"] == [{"name": "a", "args": {"x": 1}}]
    assert result.details["actual_trajectory"] == [{"name": "b", "args": {}}]
    assert result.details["match_type"] == MatchType.IN_ORDER.value
    assert "['a']" in result.reason and "['b']" in result.reason  # type: ignore[operator]


names = st.lists(st.sampled_from("abcd"), max_size=7)


@given(actual=names, expected=names)
def test_exact_le_in_order_le_any_order(actual: list[str], expected: list[str]) -> None:
    exact = exact_score(actual, expected)
    positional = positional_score(actual, expected)
    in_order = in_order_score(actual, expected)
    any_order = any_order_score(actual, expected)
    assert 0.0 <= exact <= positional <= in_order <= any_order <= 1.0
    assert exact in (0.0, 1.0)


@given(actual=names, expected=names)
def test_perfect_scores_mean_what_the_match_types_say(
    actual: list[str], expected: list[str]
) -> None:
    assert (exact_score(actual, expected) == 1.0) == (actual == expected)
    assert (positional_score(actual, expected) == 1.0) == (actual == expected)
    remaining = iter(actual)
    is_subsequence = all(any(a == e for a in remaining) for e in expected)
    assert (in_order_score(actual, expected) == 1.0) == is_subsequence
    contains_all = all(actual.count(x) >= expected.count(x) for x in set(expected))
    assert (any_order_score(actual, expected) == 1.0) == contains_all


@given(actual=names, expected=names)
def test_any_order_ignores_order(actual: list[str], expected: list[str]) -> None:
    assert any_order_score(actual[::-1], expected) == any_order_score(actual, expected)
    assert any_order_score(sorted(actual), expected) == any_order_score(actual, expected)


async def test_tool_name_match_counts_expected_names() -> None:
    criterion = ToolNameMatchCriterion(CriterionConfig.tool_name_match())
    case = case_expecting(ToolCall(name="a", args={"x": 1}), "b")
    full = await criterion.evaluate(run_tools("b", "z", ToolCall(name="a", args={"x": 2})), case)
    assert (full.score, full.passed) == (1.0, True)
    half = await criterion.evaluate(run_tools("a", "a"), case)
    assert (half.score, half.passed) == (0.5, False)
    assert half.details["missing"] == ["b"]


async def test_tool_name_match_with_nothing_expected() -> None:
    criterion = ToolNameMatchCriterion(CriterionConfig.tool_name_match())
    case = case_expecting()
    assert (await criterion.evaluate(run_tools(), case)).score == 1.0
    called = await criterion.evaluate(run_tools("a"), case)
    assert (called.score, called.passed) == (0.5, False)  # 10xGraph's docs and 0.10.3
    assert "no tools expected" in called.details["reason"]


def nodes_case(*nodes: str) -> EvalCase:
    return EvalCase.single_turn("n", "q", expected_node_order=list(nodes))


@pytest.mark.parametrize(
    ("match_type", "visits", "score"),
    [
        (MatchType.EXACT, ["MAIN", "TOOL", "MAIN"], 1.0),
        (MatchType.EXACT, ["MAIN", "TOOL", "MAIN", "TOOL"], 0.0),
        (MatchType.EXACT, ["MAIN"], 0.0),
        (MatchType.IN_ORDER, ["START", "MAIN", "X", "TOOL", "MAIN"], 1.0),
        (MatchType.IN_ORDER, ["TOOL", "MAIN"], 2 / 3),
        (MatchType.ANY_ORDER, ["TOOL", "MAIN", "MAIN"], 1.0),
        (MatchType.ANY_ORDER, ["TOOL", "MAIN"], 2 / 3),
    ],
)
async def test_node_order(match_type: MatchType, visits: list[str], score: float) -> None:
    criterion = NodeOrderMatchCriterion(CriterionConfig.node_order(match_type=match_type))
    result = await criterion.evaluate(
        ExecutionResult(node_visits=visits), nodes_case("MAIN", "TOOL", "MAIN")
    )
    assert result.score == pytest.approx(score)
    assert result.passed is (score == 1.0)
    assert result.details["actual_node_order"] == visits


async def test_node_order_without_expectation_passes_and_says_so() -> None:
    criterion = NodeOrderMatchCriterion(CriterionConfig.node_order())
    result = await criterion.evaluate(ExecutionResult(node_visits=["MAIN"]), nodes_case())
    assert (result.score, result.passed) == (1.0, True)
    assert "no expectation" in result.details["note"]


async def test_node_order_partial_credit_is_positional() -> None:
    cfg = CriterionConfig.node_order(match_type=MatchType.EXACT, partial_credit=True)
    result = await NodeOrderMatchCriterion(cfg).evaluate(
        ExecutionResult(node_visits=["MAIN", "TOOL", "MAIN", "TOOL"]),
        nodes_case("MAIN", "TOOL", "MAIN"),
    )
    assert (result.score, result.passed) == (0.75, False)
