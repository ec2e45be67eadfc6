"""The trajectory view's rows: expected calls paired as the criterion pairs them, each
unmatched one explained (which argument failed which matcher), two runs lined up literally."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.browsing.call_alignment import StepMatch, align_runs, align_trajectory
from tenxeval_tui.browsing.case_diff import expectations_for
from tenxeval_tui.evaluation import (
    CriterionConfig,
    EvalCase,
    EvalCaseResult,
    ExecutionResult,
    MatchType,
    ToolCall,
    TrajectoryMatchCriterion,
)


def call(name: str, **args: Any) -> ToolCall:
    return ToolCall(name=name, args=args)


def rows_of(rows: list[Any]) -> list[tuple[str, int | None, int | None, tuple[str, ...]]]:
    return [(r.match.value, r.expected_index, r.actual_index, r.why) for r in rows]


def test_each_expected_call_says_which_call_matched_it_or_why_none_did() -> None:
    expected = [
        call("search", q={"$contains": "flights"}),
        call("get_weather", city={"$regex": "^Lon"}, days={"$approx": 3, "tol": 0.5}),
        call("book"),
    ]
    actual = [
        call("search", q="cheap flights"),
        call("log", msg="x"),
        call("get_weather", city="Paris", days=3.2),
    ]
    rows = align_trajectory(expected, actual, match_type=MatchType.IN_ORDER)
    assert rows_of(rows) == [
        ("match", 0, 0, ()),
        ("extra", None, 1, ()),
        ("wrong_args", 1, 2, ('city: "Paris" does not match $regex "^Lon"',)),
        ("missing", 2, None, ("book is never called",)),
    ]
    assert rows[2].differing_args == ("city",)


def test_any_order_pairs_across_and_keeps_the_actual_order() -> None:
    expected = [call("get_weather", city={"$any": True}), call("get_weather", city="London")]
    actual = [call("get_weather", city="London"), call("get_weather", city="Paris")]
    rows = align_trajectory(expected, actual, match_type=MatchType.ANY_ORDER)
    assert rows_of(rows) == [("match", 1, 0, ()), ("match", 0, 1, ())]


def test_a_closest_call_matched_elsewhere_leaves_a_missing_row_that_names_it() -> None:
    expected = [call("lookup", id="A1"), call("lookup", id={"$regex": "^B"})]
    actual = [call("lookup", id="A1")]
    rows = align_trajectory(expected, actual, match_type=MatchType.ANY_ORDER)
    assert rows_of(rows) == [
        ("match", 0, 0, ()),
        ("missing", 1, None, ("each lookup call matched another expected call",)),
    ]


def test_a_closest_call_out_of_order_stays_an_extra_row() -> None:
    # in order, the Paris call comes before the expected call it is closest to can be placed
    expected = [call("a"), call("get_weather", city="London")]
    actual = [call("get_weather", city="Paris"), call("a")]
    rows = align_trajectory(expected, actual, match_type=MatchType.IN_ORDER)
    assert rows_of(rows) == [
        ("extra", None, 0, ()),
        ("match", 0, 1, ()),
        ("missing", 1, None, ('call #1 get_weather: city: "Paris" is not "London"',)),
    ]


def test_ignored_args_and_unchecked_args_are_not_held_against_a_match() -> None:
    expected = [call("log", msg={"$regex": "^hi"}, ts=0)]
    actual = [call("log", msg="hi there", ts=99)]
    checked = align_trajectory(expected, actual, ignore_args=["ts"])
    assert rows_of(checked) == [("match", 0, 0, ())]
    unchecked = align_trajectory(expected, [call("log", msg="bye", ts=0)], check_args=False)
    assert [(r.match, r.differing_args) for r in unchecked] == [(StepMatch.MATCH, ("msg",))]


def test_unreadable_matchers_from_a_report_are_lined_up_literally() -> None:
    rows = align_trajectory([call("a", x={"$regex": "("})], [call("a", x="(")])
    assert [(r.match, r.differing_args) for r in rows] == [(StepMatch.WRONG_ARGS, ("x",))]


def test_two_runs_compare_an_agents_dollar_arguments_as_they_are() -> None:
    baseline = [call("find", filter={"$regex": "^a"})]
    current = [call("find", filter="apple")]
    (row,) = align_runs(baseline, current)
    assert (row.match, row.differing_args) == (StepMatch.WRONG_ARGS, ("filter",))
    (same,) = align_runs(baseline, baseline)
    assert same.match == StepMatch.MATCH


async def test_expectations_carry_the_criterions_match_type_and_ignored_args() -> None:
    config = CriterionConfig.trajectory(
        1.0, MatchType.ANY_ORDER, check_args=True, ignore_args=["ts"]
    )
    case = EvalCase.single_turn("c", "q", expected_tools=[call("a", x={"$in": [1, 2]})])
    actual = ExecutionResult(tool_calls=[call("a", x=3)])
    verdict = await TrajectoryMatchCriterion(config).evaluate(actual, case)
    result = EvalCaseResult(
        eval_id="c", passed=False, criterion_results=[verdict], actual_tool_calls=actual.tool_calls
    )
    found = expectations_for(result)
    assert (found.match_type, found.check_args, found.ignore_args) == (
        MatchType.ANY_ORDER,
        True,
        ("ts",),
    )
    assert found.tool_calls == [call("a", x={"$in": [1, 2]})]
    (row,) = align_trajectory(
        found.tool_calls, result.actual_tool_calls, match_type=found.match_type
    )
    assert row.why == ("x: 3 is none of [1, 2] ($in)",)
