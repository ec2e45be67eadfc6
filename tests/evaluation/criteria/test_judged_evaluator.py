"""Judged criteria inside a real AgentEvaluator run (plain agent, scripted loopback judge)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    CriterionConfigError,
    EvalCase,
    EvalConfig,
    EvalSet,
    create_eval_app,
)
from tenxeval_tui.evaluation.targets import Trace
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted


async def agent(message: str, trace: Trace) -> str:
    reply = "It is sunny in Paris." if "Paris" in message else "I do not know."
    trace.node("MAIN", response=reply, tokens={"input_tokens": 100, "output_tokens": 10})
    return reply


def eval_set() -> EvalSet:
    cases = [
        EvalCase.single_turn(f"c{i}", q, expected_response="It is sunny in Paris.")
        for i, q in enumerate(["Weather in Paris?", "Weather in Rome?", "Paris again?"])
    ]
    return EvalSet(eval_set_id="judged", eval_cases=cases)


def config() -> EvalConfig:
    run = EvalConfig(max_concurrency=3)
    run.reporter.enabled = False
    run.enable_criterion("exact_match", CriterionConfig(threshold=1.0))
    run.enable_criterion(
        "final_response_match_v2", CriterionConfig(num_samples=1, judge_cache=False)
    )
    return run


def judge_by_reply(body: dict[str, Any]) -> Scripted:
    prompt = body["messages"][-1]["content"]
    reply = prompt.split("<agent_reply>")[1].split("</agent_reply>")[0]
    if "Paris again" in prompt:
        return Scripted("the judge rambles without JSON", prompt_tokens=40, completion_tokens=4)
    valid = "sunny" in reply
    content = json.dumps({"reasoning": "r", "verdict": "valid" if valid else "invalid"})
    return Scripted(content, prompt_tokens=40, completion_tokens=4)


async def test_judge_tokens_count_and_a_bad_reply_fails_only_its_criterion(
    judge_env: JudgeServer,
) -> None:
    judge_env.fallback = judge_by_reply
    app, collector = create_eval_app(agent)
    report = await AgentEvaluator(app, collector, config()).evaluate(eval_set())
    by_id = {r.eval_id: r for r in report.results}
    assert [by_id[i].passed for i in ("c0", "c1", "c2")] == [True, False, False]
    judged = by_id["c1"].get_criterion_result("final_response_match_v2")
    assert judged is not None and judged.score == 0.0 and judged.error is None
    broken = by_id["c2"].get_criterion_result("final_response_match_v2")
    assert broken is not None and broken.error is not None
    assert "the judge rambles" in broken.error
    exact = by_id["c2"].get_criterion_result("exact_match")
    assert exact is not None and exact.passed  # the other criterion still scored
    for result in report.results:
        assert result.agent_token_usage.total_tokens == 110
        assert result.token_usage.total_tokens == 110 + 44
    assert report.summary.total_token_usage.total_tokens == 3 * 154
    assert len(judge_env.requests) == 3


def test_missing_judge_settings_stop_the_evaluator_before_it_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("TENXEVAL_JUDGE_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    app, collector = create_eval_app(agent)
    with pytest.raises(CriterionConfigError, match="TENXEVAL_JUDGE_MODEL"):
        AgentEvaluator(app, collector, config())
