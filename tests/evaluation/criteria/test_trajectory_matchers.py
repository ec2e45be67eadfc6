"""``tool_trajectory_avg_score`` with argument matchers and ``ignore_args``: every match
type, the pairing it reports and the explanation of each expected call left unmatched."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenxeval_tui.evaluation import (
    CriterionConfig,
    CriterionResult,
    EvalCase,
    ExecutionResult,
    MatchType,
    ToolCall,
    TrajectoryMatchCriterion,
)
from tenxeval_tui.evaluation.criteria.call_matching import match_calls

LONDON = ToolCall(name="get_weather", args={"city": {"$regex": "^Lon"}})
ANY_CITY = ToolCall(name="get_weather", args={"city": {"$any": True}})


def calls(*specs: tuple[str, dict[str, Any]] | str) -> list[ToolCall]:
    return [
        ToolCall(name=s) if isinstance(s, str) else ToolCall(name=s[0], args=s[1]) for s in specs
    ]


async def score(
    expected: list[ToolCall],
    actual: list[ToolCall],
    match_type: MatchType = MatchType.EXACT,
    **options: Any,
) -> CriterionResult:
    options.setdefault("check_args", True)
    config = CriterionConfig.trajectory(1.0, match_type, **options)
    case = EvalCase.single_turn("c", "q", expected_tools=expected)
    return await TrajectoryMatchCriterion(config).evaluate(ExecutionResult(tool_calls=actual), case)


@pytest.mark.parametrize("match_type", list(MatchType))
async def test_matchers_work_in_every_match_type(match_type: MatchType) -> None:
    expected = [
        ToolCall(name="search", args={"query": {"$contains": "flights"}, "ts": {"$any": True}}),
        ToolCall(
            name="book", args={"price": {"$approx": 120.0, "tol": 1}, "cls": {"$in": ["Y", "W"]}}
        ),
    ]
    good = calls(
        ("search", {"query": "cheap flights to Oslo", "ts": 1712}),
        ("book", {"price": 120.4, "cls": "W"}),
    )
    result = await score(expected, good, match_type)
    assert (result.score, result.passed) == (1.0, True)
    assert result.details["matched_calls"] == [0, 1]
    bad = calls(("search", {"query": "hotels", "ts": 1}), ("book", {"price": 150, "cls": "F"}))
    result = await score(expected, bad, match_type)
    assert result.score == 0.0
    assert result.details["matched_calls"] == [None, None]


async def test_matchers_are_read_only_when_arguments_are_checked() -> None:
    actual = calls(("get_weather", {"city": "Paris"}))
    assert (await score([LONDON], actual, check_args=False)).score == 1.0
    assert (await score([LONDON], actual)).score == 0.0


async def test_any_order_finds_the_pairing_greedy_first_fit_misses() -> None:
    # "any city" could take London, but then "London" would have nothing: a maximum
    # matching gives each expected call its own actual call.
    expected = [ANY_CITY, LONDON]
    actual = calls(("get_weather", {"city": "London"}), ("get_weather", {"city": "Paris"}))
    result = await score(expected, actual, MatchType.ANY_ORDER)
    assert result.score == 1.0
    assert result.details["matched_calls"] == [1, 0]


async def test_in_order_reports_the_subsequence_it_found() -> None:
    expected = [ToolCall(name="a"), LONDON, ToolCall(name="c")]
    actual = calls(
        "a", "x", ("get_weather", {"city": "Paris"}), ("get_weather", {"city": "London"}), "c"
    )
    result = await score(expected, actual, MatchType.IN_ORDER)
    assert result.score == 1.0
    assert result.details["matched_calls"] == [0, 3, 4]
    assert result.details["extra_calls"] == [1, 2]


async def test_an_unmatched_call_names_its_closest_call_and_the_failed_matcher() -> None:
    expected = [
        ToolCall(
            name="get_weather",
            args={"city": {"$regex": "^Lon"}, "days": {"$approx": 3, "tol": 0.5}},
        ),
        ToolCall(name="book_hotel"),
    ]
    actual = calls(
        ("get_weather", {"city": "Paris", "days": 9}),
        ("get_weather", {"city": "Paris", "days": 3}),
    )
    result = await score(expected, actual, MatchType.ANY_ORDER)
    assert result.score == 0.0
    first, second = result.details["mismatches"]
    assert first == {
        "expected": 0,
        "closest": 1,  # the call with fewer failing arguments
        "args": [
            {"arg": "city", "matcher": "$regex", "problem": '"Paris" does not match $regex "^Lon"'}
        ],
    }
    assert second == {"expected": 1, "closest": None, "note": "book_hotel is never called"}
    lines = result.reason.splitlines()  # type: ignore[union-attr]
    assert lines[1] == (
        'expected #1 get_weather: call #2 get_weather: city: "Paris" does not match $regex "^Lon"'
    )
    assert lines[2] == "expected #2 book_hotel: book_hotel is never called"


async def test_exact_says_what_sits_at_the_place_of_a_missing_call() -> None:
    result = await score(calls("a", "b"), calls("b", "a"))
    assert result.score == 0.0
    lines = result.reason.splitlines()  # type: ignore[union-attr]
    assert lines[1:] == [
        "expected #1 a: call #1 is b; call #2 fits, at another place",
        "expected #2 b: call #2 is a; call #1 fits, at another place",
        "not expected: call #1 b, call #2 a",
    ]


async def test_ignore_args_leaves_keys_out_everywhere() -> None:
    expected = [ToolCall(name="log", args={"msg": "hi", "timestamp": 0})]
    actual = calls(("log", {"msg": "hi", "timestamp": 1712, "meta": {"timestamp": 3}}))
    assert (await score(expected, actual)).score == 0.0
    actual = calls(("log", {"msg": "hi", "timestamp": 1712}))
    result = await score(expected, actual, ignore_args=["timestamp"])
    assert (result.score, result.details["ignore_args"]) == (1.0, ["timestamp"])


async def test_a_matcher_that_cannot_be_read_fails_the_criterion_naming_it() -> None:
    broken = ToolCall(name="get_weather", args={"city": {"$regex": "("}})
    case = EvalCase.single_turn("c", "q")
    case.conversation[0].expected_tool_trajectory = [broken]  # past the model's own check
    config = CriterionConfig.trajectory(check_args=True)
    actual = ExecutionResult(tool_calls=calls(("get_weather", {"city": "x"})))
    result = await TrajectoryMatchCriterion(config).evaluate(actual, case)
    assert result.error is not None and "city.$regex: invalid regular expression" in result.error
    assert not result.passed


async def test_the_reason_is_bounded_and_the_details_hold_everything() -> None:
    expected = [ToolCall(name=f"t{i}") for i in range(30)]
    result = await score(expected, [], MatchType.IN_ORDER)
    lines = result.reason.splitlines()  # type: ignore[union-attr]
    assert len(lines) == 13  # the head and 12 lines
    assert lines[-1] == "... and 19 more (see the details)"
    assert len(result.details["mismatches"]) == 30


literal_calls = st.lists(
    st.builds(
        ToolCall,
        name=st.sampled_from("ab"),
        args=st.fixed_dictionaries({}, optional={"x": st.integers(0, 2)}),
    ),
    max_size=6,
)
calls_with_args = st.lists(
    st.builds(
        ToolCall, name=st.sampled_from("ab"), args=st.fixed_dictionaries({"x": st.integers(0, 2)})
    ),
    max_size=6,
)


async def test_any_order_pairs_a_name_only_expectation_with_the_call_left_over() -> None:
    # A call expected by name only accepts any arguments, so "matches" was never an
    # equivalence: the first fit gave the name-only expectation the one call the other
    # expectation needed, and scored 0.5 a trajectory that has every expected call.
    expected = [ToolCall(name="a"), ToolCall(name="a", args={"x": 0})]
    actual = calls(("a", {"x": 0}), ("a", {}))
    result = await score(expected, actual, MatchType.ANY_ORDER)
    assert (result.score, result.details["matched_calls"]) == (1.0, [1, 0])


@given(expected=calls_with_args, actual=literal_calls)
def test_without_matchers_the_scores_are_those_of_literal_equality(
    expected: list[ToolCall], actual: list[ToolCall]
) -> None:
    from tenxeval_tui.evaluation.criteria.trajectory import match_score

    def same(a: ToolCall, e: ToolCall) -> bool:
        return a.matches(e, check_args=True)

    for match_type in MatchType:
        for partial in (False, True):
            paired = match_calls(
                expected, actual, match_type, check_args=True, partial_credit=partial
            )
            assert paired.score == pytest.approx(
                match_score(match_type, actual, expected, same, partial_credit=partial)
            )


matcher_calls = st.lists(
    st.builds(
        ToolCall,
        name=st.sampled_from("ab"),
        args=st.fixed_dictionaries(
            {},
            optional={
                "x": st.sampled_from(
                    [0, 1, {"$any": True}, {"$in": [0, 1]}, {"$approx": 1, "tol": 1}]
                )
            },
        ),
    ),
    max_size=6,
)


@given(expected=matcher_calls, actual=literal_calls)
def test_exact_le_in_order_le_any_order_with_matchers(
    expected: list[ToolCall], actual: list[ToolCall]
) -> None:
    scores = [
        match_calls(expected, actual, t, check_args=True, partial_credit=True).score
        for t in (MatchType.EXACT, MatchType.IN_ORDER, MatchType.ANY_ORDER)
    ]
    assert 0.0 <= scores[0] <= scores[1] <= scores[2] <= 1.0
    for t in MatchType:
        paired = match_calls(expected, actual, t, check_args=True)
        matched = [j for j in paired.matched_calls if j is not None]
        assert len(matched) == len(set(matched))  # an actual call serves one expectation
        assert sorted(matched + paired.unmatched) == list(range(len(actual)))
