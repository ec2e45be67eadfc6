"""Eval sets with argument matchers and trajectory rules, and configs with the trajectory
options, still load in the installed 10xgraph 0.10.3; what 0.10.3 makes of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

tx = pytest.importorskip("tenxgraph.qa.evaluation", reason="the 10xgraph extra is not installed")

from pydantic import ValidationError  # noqa: E402

from tenxeval_tui.evaluation import (  # noqa: E402
    CriterionConfig,
    EvalCase,
    EvalConfig,
    EvalSet,
    ExecutionResult,
    MatchType,
    ToolCall,
    TrajectoryMatchCriterion,
)

MATCHER_ARGS = {
    "city": {"$regex": "^Lon"},
    "days": {"$approx": 3.0, "tol": 0.5},
    "query": {"$contains": "rain"},
    "unit": {"$in": ["C", "F"]},
    "session": {"$any": True},
    "filter": {"$eq": {"$gt": 3}},
}
RULES = {
    "forbidden_tools": ["delete_account"],
    "max_calls": {"get_weather": 2, "*": 4},
    "min_calls": 1,
    "max_steps": 6,
    "before": [["get_weather", "book"]],
}


def matcher_set() -> EvalSet:
    return EvalSet(
        eval_set_id="matchers",
        eval_cases=[
            EvalCase.single_turn(
                "london",
                "Will it rain in London?",
                expected_tools=[
                    ToolCall(name="get_weather", args=MATCHER_ARGS),
                    ToolCall(name="book", args={"$subset": {"city": {"$regex": "^Lon"}}}),
                ],
                metadata={"trajectory_rules": RULES},
            )
        ],
    )


def test_an_eval_set_with_matchers_and_rules_loads_in_10xgraph(tmp_path: Path) -> None:
    path = tmp_path / "matchers.evalset.json"
    ours = matcher_set()
    ours.to_file(path)
    theirs = tx.EvalSet.from_file(str(path))
    (case,) = theirs.eval_cases
    first, second = case.conversation[0].expected_tool_trajectory
    # Matchers are plain JSON values there, rules plain metadata.
    assert first.args == MATCHER_ARGS
    assert second.args == {"$subset": {"city": {"$regex": "^Lon"}}}
    assert case.metadata["trajectory_rules"] == RULES
    # And the file comes back unchanged here.
    assert EvalSet.from_file(path) == ours


def actual_london() -> ExecutionResult:
    args = {"city": "London", "days": 3, "query": "rain?", "unit": "C", "session": 7}
    args["filter"] = {"$gt": 3}
    return ExecutionResult(
        tool_calls=[
            ToolCall(name="get_weather", args=args),
            ToolCall(name="book", args={"city": "London", "nights": 2}),
        ]
    )


@pytest.mark.parametrize("check_args", [False, True])
async def test_what_10xgraph_makes_of_matchers(check_args: bool) -> None:
    """0.10.3 compares args literally: with ``check_args`` an expected call holding a
    matcher never matches (the arg is a string, the matcher an object); without it,
    only names count there as here."""
    case = matcher_set().eval_cases[0]
    actual = actual_london()
    theirs = tx.TrajectoryMatchCriterion(
        tx.CriterionConfig.trajectory(match_type=tx.MatchType.EXACT, check_args=check_args)
    )
    their_result = await theirs.evaluate(
        tx.ExecutionResult(tool_calls=[tx.ToolCall(**c.model_dump()) for c in actual.tool_calls]),
        tx.EvalCase.model_validate(case.model_dump(mode="json")),
    )
    ours = TrajectoryMatchCriterion(CriterionConfig.trajectory(check_args=check_args))
    our_result = await ours.evaluate(actual, case)
    assert our_result.score == 1.0
    assert their_result.score == (0.0 if check_args else 1.0)


def test_a_config_with_trajectory_options_loads_in_10xgraph_which_ignores_them(
    tmp_path: Path,
) -> None:
    ours = EvalConfig.default()
    ours.criteria.trajectory = CriterionConfig.trajectory(
        match_type=MatchType.IN_ORDER,
        check_args=True,
        ignore_args=["timestamp"],
        forbidden_tools=["delete_account"],
        max_calls={"search": 2},
        min_calls=1,
        max_steps=8,
        before=[("search", "book")],
    )
    path = tmp_path / "config.json"
    ours.to_file(path)
    written = json.loads(path.read_text())["criteria"]["trajectory"]
    assert written["ignore_args"] == ["timestamp"] and written["before"] == [["search", "book"]]
    theirs = tx.EvalConfig.from_file(str(path))
    assert theirs.criteria.trajectory.match_type.value == "IN_ORDER"
    assert theirs.criteria.trajectory.check_args is True
    assert "forbidden_tools" not in theirs.criteria.trajectory.model_dump()
    assert EvalConfig.from_file(path) == ours


def test_a_config_enabling_the_trajectory_judge_does_not_load_in_10xgraph(tmp_path: Path) -> None:
    """0.10.3's ``CriteriaConfig`` refuses fields it does not know: a config using
    ``trajectory_judge_v1`` is ours only (as docs/how-to/from-10xgraph.md says)."""
    ours = EvalConfig.default()
    ours.criteria.trajectory_judge = CriterionConfig.trajectory_judge(judge_model="m")
    path = tmp_path / "config.json"
    ours.to_file(path)
    with pytest.raises(ValidationError, match="trajectory_judge"):
        tx.EvalConfig.from_file(str(path))
