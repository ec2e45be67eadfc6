"""Trajectory rules of ``tool_trajectory_avg_score``: criterion options and per-case rules,
each failure naming its rule and the call (or step) that broke it."""

from __future__ import annotations

from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    CriterionConfig,
    CriterionResult,
    EvalCase,
    ExecutionResult,
    MatchType,
    ToolCall,
    TrajectoryMatchCriterion,
)
from tenxeval_tui.evaluation.dataset.trajectory_rules import TrajectoryRules, rules_problems


def run(*names: str, steps: list[str] | None = None) -> ExecutionResult:
    return ExecutionResult(tool_calls=[ToolCall(name=n) for n in names], node_visits=steps or [])


async def judge(
    actual: ExecutionResult,
    case_rules: dict[str, Any] | None = None,
    expected: tuple[str, ...] = (),
    **options: Any,
) -> CriterionResult:
    config = CriterionConfig.trajectory(1.0, MatchType.ANY_ORDER, **options)
    metadata = {"trajectory_rules": case_rules} if case_rules is not None else {}
    case = EvalCase.single_turn("c", "q", expected_tools=list(expected), metadata=metadata)
    return await TrajectoryMatchCriterion(config).evaluate(actual, case)


def failures(result: CriterionResult) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = result.details["rule_failures"]
    return found


async def test_a_forbidden_tool_fails_naming_each_call() -> None:
    result = await judge(
        run("search", "delete_account", "search", "delete_account"),
        forbidden_tools=["delete_account"],
    )
    assert (result.score, result.passed) == (0.0, False)
    assert failures(result) == [
        {
            "rule": "forbidden_tools",
            "message": "call #2 delete_account is a forbidden tool",
            "call": 1,
        },
        {
            "rule": "forbidden_tools",
            "message": "call #4 delete_account is a forbidden tool",
            "call": 3,
        },
    ]
    assert "rule forbidden_tools: call #2 delete_account is a forbidden tool" in result.reason  # type: ignore[operator]
    clean = await judge(run("search"), forbidden_tools=["delete_account"])
    assert (clean.score, failures(clean)) == (1.0, [])


async def test_max_calls_per_tool_and_in_total_name_the_first_call_over() -> None:
    actual = run("search", "fetch", "search", "search", "fetch")
    result = await judge(actual, max_calls={"search": 2})
    assert failures(result) == [
        {
            "rule": "max_calls",
            "message": "call #4 search is search call 3, over the 2 allowed",
            "call": 3,
        }
    ]
    total = await judge(actual, max_calls=4)
    assert failures(total) == [
        {
            "rule": "max_calls",
            "message": "call #5 fetch is tool call 5, over the 4 allowed",
            "call": 4,
        }
    ]
    both = await judge(actual, max_calls={"search": 3, "*": 5})
    assert (both.score, failures(both)) == (1.0, [])


async def test_min_calls_says_how_many_calls_there_were() -> None:
    result = await judge(run("search"), min_calls={"search": 2, "fetch": 1})
    assert [f["message"] for f in failures(result)] == [
        "search was called 1 time, at least 2 wanted",
        "fetch was called 0 times, at least 1 wanted",
    ]
    assert all("call" not in f for f in failures(result))
    total = await judge(run(), min_calls=1)
    assert failures(total)[0]["message"] == "tools were called 0 times, at least 1 wanted"


async def test_max_steps_names_the_first_step_over() -> None:
    steps = ["MAIN", "TOOL", "MAIN", "TOOL", "MAIN"]
    result = await judge(run("a", "a", steps=steps), max_steps=3)
    assert failures(result) == [
        {
            "rule": "max_steps",
            "message": "step #4 (TOOL) is over the 3 allowed (5 steps)",
            "step": 3,
        }
    ]
    assert (await judge(run("a", steps=steps), max_steps=5)).score == 1.0


@pytest.mark.parametrize(
    ("calls", "broken_at"),
    [
        (["search", "book"], None),
        (["search", "book", "book"], None),
        (["book", "search", "book"], 0),
        (["fetch", "book"], 1),  # book with no search at all
        (["search"], None),  # holds when book is never called
        ([], None),
    ],
)
async def test_before_orders_two_tools_without_fixing_the_rest(
    calls: list[str], broken_at: int | None
) -> None:
    result = await judge(run(*calls), before=[("search", "book")])
    if broken_at is None:
        assert failures(result) == []
    else:
        (failure,) = failures(result)
        assert failure == {
            "rule": "before",
            "message": f"call #{broken_at + 1} book comes before any search call (search before book)",
            "call": broken_at,
        }


async def test_a_broken_rule_scores_zero_whatever_the_match() -> None:
    result = await judge(run("search", "book"), expected=("search", "book"), max_calls=1)
    assert result.details["matched_calls"] == [0, 1]
    assert (result.score, result.passed) == (0.0, False)


async def test_case_rules_add_to_the_criterions() -> None:
    actual = run("search", "search", "search", "wipe", steps=["MAIN"] * 9)
    result = await judge(
        actual,
        {"forbidden_tools": ["wipe"], "max_calls": {"search": 3}, "max_steps": 10},
        forbidden_tools=["drop"],
        max_calls={"search": 1, "*": 3},
        max_steps=4,
    )
    # The case's bound for search (3) replaces the criterion's (1); its max_steps too;
    # the total bound of the criterion still holds; forbidden tools add up.
    assert [f["rule"] for f in failures(result)] == ["forbidden_tools", "max_calls"]
    assert failures(result)[1]["message"] == "call #4 wipe is tool call 4, over the 3 allowed"
    assert result.details["trajectory_rules"]["forbidden_tools"] == ["wipe"]


async def test_case_rules_alone_need_no_criterion_option() -> None:
    result = await judge(run("b", "a"), {"before": [["a", "b"]]})
    assert failures(result)[0]["call"] == 0
    no_rules = await judge(run("b", "a"))
    assert "rule_failures" not in no_rules.details


async def test_case_rules_that_cannot_be_read_fail_the_criterion_naming_them() -> None:
    case = EvalCase.single_turn("c", "q")
    case.metadata["trajectory_rules"] = {"max_calls": "lots"}  # past the model's check
    criterion = TrajectoryMatchCriterion(CriterionConfig.trajectory())
    result = await criterion.evaluate(run("a"), case)
    assert result.error is not None and "trajectory_rules.max_calls" in result.error


@pytest.mark.parametrize(
    ("rules", "where", "says"),
    [
        ({"forbidden": ["x"]}, ["forbidden"], "unknown rule"),
        ({"forbidden_tools": "x"}, ["forbidden_tools"], "list of tool names"),
        ({"forbidden_tools": [""]}, ["forbidden_tools", 0], "non-empty string"),
        ({"max_calls": -1}, ["max_calls"], "whole number >= 0"),
        ({"max_calls": {"a": 1.5}}, ["max_calls", "a"], "whole number >= 0"),
        ({"min_calls": True}, ["min_calls"], "whole number >= 0"),
        ({"max_steps": "3"}, ["max_steps"], "whole number >= 0"),
        ({"before": [["a"]]}, ["before", 0], "pair"),
        ({"before": [["a", "a"]]}, ["before", 0], "before itself"),
        ({"before": "a<b"}, ["before"], "list of pairs"),
        ([], [], "must be an object"),
    ],
)
def test_rule_problems_are_named_with_their_place(rules: Any, where: list[Any], says: str) -> None:
    ((path, message),) = rules_problems(rules)
    assert path == where
    assert says in message
    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        TrajectoryRules.from_value(rules)


def test_criterion_options_stay_out_of_the_config_json_until_set() -> None:
    plain = CriterionConfig.trajectory().model_dump(mode="json")
    assert not {
        "ignore_args",
        "forbidden_tools",
        "max_calls",
        "min_calls",
        "max_steps",
        "before",
    } & set(plain)
    ruled = CriterionConfig.trajectory(max_calls=0, before=[("a", "b")]).model_dump(mode="json")
    assert (ruled["max_calls"], ruled["before"]) == (0, [["a", "b"]])
