"""``trajectory_judge_v1`` through the real openai client against the scripted loopback judge:
the transcript it is shown, its rubrics, majority vote, cache, cost, no silent default."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    CriterionConfigError,
    EvalCase,
    EvalConfig,
    EvalSet,
    ExecutionResult,
    JudgePool,
    ModelPrice,
    Rubric,
    Trace,
    TrajectoryJudgeCriterion,
    build_criteria,
    create_eval_app,
)
from tenxeval_tui.evaluation.criteria.trajectory_judge import DEFAULT_RUBRICS
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted

DEFAULT_IDS = [r.rubric_id for r in DEFAULT_RUBRICS]


def rubric_reply(verdicts: dict[str, str], reasoning: str = "read it", **usage: int) -> Scripted:
    body = {
        "reasoning": reasoning,
        "rubrics": [{"rubric_id": k, "verdict": v} for k, v in verdicts.items()],
    }
    return Scripted(json.dumps(body), **usage)


def all_yes(**usage: int) -> Scripted:
    return rubric_reply(dict.fromkeys(DEFAULT_IDS, "yes"), **usage)


def config(num_samples: int = 1, judge_cache: bool = False, **kw: Any) -> CriterionConfig:
    made = CriterionConfig.trajectory_judge(threshold=0.75, num_samples=num_samples, **kw)
    return made.model_copy(update={"judge_cache": judge_cache})


async def flaky_lookup(city: str) -> dict[str, Any]:
    if city == "Atlantis":
        raise ConnectionError("weather service down")
    return {"city": city, "sky": "sunny", "temp_c": 22}


async def weather_agent(message: str, trace: Trace) -> str:
    """Looks the weather up twice, the first time for a city that makes the tool fail."""
    trace.node("PLAN", response="Let me look that up.", tool_calls=["lookup"])
    with contextlib.suppress(ConnectionError):
        await trace.tool("lookup", {"city": "Atlantis"}, flaky_lookup)
    result = await trace.tool("lookup", {"city": "Paris"}, flaky_lookup)
    reply = f"It is {result['sky']} in Paris, {result['temp_c']} C."
    trace.node("ANSWER", response=reply)
    return reply


CASE = EvalCase.single_turn("paris", "What is the weather in Paris?")


async def run_case(judge_config: CriterionConfig, **run: Any) -> Any:
    app, collector = create_eval_app(weather_agent)
    evaluation = EvalConfig(**run)
    evaluation.reporter.enabled = False
    evaluation.enable_criterion("trajectory_judge_v1", judge_config)
    report = await AgentEvaluator(app, collector, evaluation).evaluate(
        EvalSet(eval_set_id="traj", eval_cases=[CASE])
    )
    (result,) = report.results
    return result


async def test_the_judge_reads_every_step_with_arguments_results_and_errors(
    judge_env: JudgeServer,
) -> None:
    judge_env.script(all_yes())
    result = await run_case(config())
    verdict = result.get_criterion_result("trajectory_judge_v1")
    assert (verdict.score, verdict.passed, verdict.error) == (1.0, True, None)
    prompt = judge_env.prompts()[0]
    steps = prompt.split("<agent_steps>")[1].split("</agent_steps>")[0].strip().splitlines()
    assert steps == [
        'Step 1. model step PLAN said: "Let me look that up." and asked for: lookup',
        'Step 2. tool call lookup({"city": "Atlantis"}) FAILED with error: '
        "ConnectionError: weather service down",
        'Step 3. tool call lookup({"city": "Paris"}) returned: '
        '{"city": "Paris", "sky": "sunny", "temp_c": 22}',
        'Step 4. model step ANSWER said: "It is sunny in Paris, 22 C."',
    ]
    assert "What is the weather in Paris?" in prompt
    assert "<agent_reply>\nIt is sunny in Paris, 22 C.\n</agent_reply>" in prompt
    for rubric in DEFAULT_RUBRICS:  # reference-free: the rubric, no expected trajectory
        assert f"- id: {rubric.rubric_id}\n  property: {rubric.content}" in prompt
    assert verdict.details["rubrics"] == dict.fromkeys(DEFAULT_IDS, True)


async def test_score_is_the_share_of_rubrics_met_by_majority(judge_env: JudgeServer) -> None:
    no_errors_handled = dict.fromkeys(DEFAULT_IDS, "yes") | {"tool_errors_handled": "no"}
    judge_env.script(
        rubric_reply(no_errors_handled, "ignored the failure"),
        all_yes(),
        rubric_reply(no_errors_handled, "ignored the failure"),
    )
    result = await run_case(config(num_samples=3))
    verdict = result.get_criterion_result("trajectory_judge_v1")
    assert verdict.score == 0.75
    assert verdict.details["unmet"] == ["tool_errors_handled"]
    assert verdict.details["votes"]["tool_errors_handled"] == "1/3"
    assert verdict.reason == "ignored the failure"
    assert len(judge_env.requests) == 3


async def test_rubrics_in_the_config_replace_the_default(judge_env: JudgeServer) -> None:
    rubrics = [
        Rubric.create("short", "At most two tool calls.", 3.0),
        Rubric.create("polite", "Polite."),
    ]
    judge_env.script(rubric_reply({"short": "no", "polite": "yes"}))
    result = await run_case(config(rubrics=rubrics))
    verdict = result.get_criterion_result("trajectory_judge_v1")
    assert verdict.score == 0.25
    prompt = judge_env.prompts()[0]
    assert "At most two tool calls." in prompt and "goal_reached" not in prompt


async def test_a_second_run_is_served_from_the_cache(judge_env: JudgeServer) -> None:
    judge_env.script(all_yes())
    first = (await run_case(config(judge_cache=True))).get_criterion_result("trajectory_judge_v1")
    again = (await run_case(config(judge_cache=True))).get_criterion_result("trajectory_judge_v1")
    assert len(judge_env.requests) == 1
    assert (first.details["judge_calls"], again.details["cache_hits"]) == (1, 1)
    assert again.score == first.score == 1.0


async def test_its_tokens_are_priced_as_the_judges(judge_env: JudgeServer) -> None:
    judge_env.script(all_yes(prompt_tokens=500, completion_tokens=20))
    prices = {"judge-test": ModelPrice(input=2.0, output=8.0)}
    result = await run_case(config(), prices=prices)
    verdict = result.get_criterion_result("trajectory_judge_v1")
    assert (verdict.token_usage.input_tokens, verdict.token_usage.output_tokens) == (500, 20)
    assert result.cost_usd == pytest.approx((500 * 2.0 + 20 * 8.0) / 1e6)


async def test_a_reply_that_does_not_parse_is_an_error_not_a_score(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted("the agent did fine"), rubric_reply({"nonsense": "yes"}))
    criterion = TrajectoryJudgeCriterion(config(), JudgePool())
    actual = ExecutionResult(actual_response="Sunny.")
    garbage = await criterion.evaluate(actual, CASE)
    assert garbage.error is not None and "unparseable judge reply" in garbage.error
    assert not garbage.passed
    unknown_id = await criterion.evaluate(actual, CASE)
    assert unknown_id.error is not None and "nonsense" in unknown_id.error


async def test_an_agent_that_did_nothing_scores_zero_without_a_judge(
    judge_env: JudgeServer,
) -> None:
    result = await TrajectoryJudgeCriterion(config(), JudgePool()).evaluate(ExecutionResult(), CASE)
    assert (result.score, result.details["judge_calls"]) == (0.0, 0)
    assert "did nothing" in result.details["note"]
    assert judge_env.requests == []


def test_no_judge_model_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("TENXEVAL_JUDGE_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    run = EvalConfig()
    run.enable_criterion("trajectory_judge_v1", CriterionConfig.trajectory_judge())
    with pytest.raises(CriterionConfigError, match=r"trajectory_judge_v1.*TENXEVAL_JUDGE_MODEL"):
        build_criteria(run)


def test_duplicate_rubric_ids_are_a_configuration_error(judge_env: JudgeServer) -> None:
    run = EvalConfig()
    twice = [Rubric.create("a", "x"), Rubric.create("a", "y")]
    run.enable_criterion("trajectory_judge", CriterionConfig.trajectory_judge(rubrics=twice))
    with pytest.raises(CriterionConfigError, match="rubric ids must be unique"):
        build_criteria(run)


def test_a_config_file_names_it_by_its_criterion_name(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"criteria": {"trajectory_judge_v1": {"num_samples": 1}}}))
    loaded = EvalConfig.from_file(path)
    assert loaded.criteria.trajectory_judge is not None
    assert [name for name, _ in loaded.criteria.enabled_items()] == ["trajectory_judge_v1"]
