"""simulation_goals: a judge decides which goals a conversation reached (loopback judge)."""

from __future__ import annotations

import json

import pytest

from tenxeval_tui.evaluation import (
    CriterionConfig,
    EvalCase,
    EvalConfig,
    ExecutionResult,
    SimulationGoalsCriterion,
    build_criteria,
)
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted

TRANSCRIPT = ExecutionResult(
    actual_response="USER: Weather in Paris?\nASSISTANT: Sunny, 21°C.\nUSER: Thanks\nASSISTANT: Bye"
)
GOALS = ["Learn the weather in Paris", "Learn the weather in Rome", "Say goodbye"]
CASE = EvalCase.single_turn("trip", "Hello", metadata={"goals": GOALS})


def goals_reply(*achieved: int, count: int = 3) -> Scripted:
    verdicts = [{"goal": i, "achieved": i in achieved} for i in range(1, count + 1)]
    return Scripted(json.dumps({"reasoning": "per goal", "goals": verdicts}))


def criterion(**kw: object) -> SimulationGoalsCriterion:
    kw.setdefault("judge_cache", False)
    return SimulationGoalsCriterion(CriterionConfig(threshold=0.8, **kw))  # type: ignore[arg-type]


async def test_the_score_is_the_share_of_goals_reached(judge_env: JudgeServer) -> None:
    judge_env.script(goals_reply(1, 3))
    result = await criterion().evaluate(TRANSCRIPT, CASE)
    assert (result.score, result.passed) == (pytest.approx(2 / 3), False)
    assert result.details["achieved_goals"] == ["Learn the weather in Paris", "Say goodbye"]
    assert result.details["unachieved_goals"] == ["Learn the weather in Rome"]
    assert result.details["reason"] == "per goal"
    (prompt,) = judge_env.prompts()
    assert "2. Learn the weather in Rome" in prompt
    assert "ASSISTANT: Sunny, 21°C." in prompt
    assert len(judge_env.requests) == 1  # one call unless num_samples is set


async def test_num_samples_set_explicitly_is_honoured(judge_env: JudgeServer) -> None:
    judge_env.script(goals_reply(1, 2, 3), goals_reply(1, 2, 3), goals_reply(1))
    result = await criterion(num_samples=3).evaluate(TRANSCRIPT, CASE)
    assert result.score == 1.0 and result.details["votes"]["2"] == "2/3"


async def test_goals_in_the_expected_reply_are_one_goal_as_10xgraph_writes_them(
    judge_env: JudgeServer,
) -> None:
    judge_env.script(goals_reply(1, count=1))
    case = EvalCase.single_turn("t", "Hello", expected_response="Get weather info; Say goodbye")
    result = await criterion().evaluate(TRANSCRIPT, case)
    assert result.score == 1.0
    assert "1. Get weather info; Say goodbye" in judge_env.prompts()[0]


async def test_no_goals_needs_no_judge(judge_env: JudgeServer) -> None:
    result = await criterion().evaluate(TRANSCRIPT, EvalCase.single_turn("t", "Hello"))
    assert (result.score, judge_env.requests) == (1.0, [])
    assert "no goals" in result.details["note"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("All goals reached, well done.", "no JSON object"),
        ('{"goals": [{"goal": 4, "achieved": true}]}', "goals [4] are not among the goals 1 to 3"),
        ('{"score": 0.66, "achieved_goals": ["Say goodbye"]}', "goals: Field required"),
    ],
)
async def test_a_garbage_verdict_fails_with_the_reply_quoted(
    judge_env: JudgeServer, content: str, problem: str
) -> None:
    judge_env.script(Scripted(content))
    result = await criterion().evaluate(TRANSCRIPT, CASE)
    assert result.error is not None and not result.passed
    assert problem in result.error and repr(content[:160]) in result.error


def test_enabled_in_a_config_it_builds_under_its_names(judge_env: JudgeServer) -> None:
    for name in ("simulation_goals", "conversation_goals", "simulation_goals_match"):
        config = EvalConfig()
        config.enable_criterion(name, CriterionConfig(threshold=0.5))
        (built,) = build_criteria(config)
        assert (type(built), built.name) == (SimulationGoalsCriterion, "simulation_goals")
