"""LLM-judged criteria through the real openai client against a scripted loopback judge."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    CriterionConfigError,
    CriterionResult,
    EvalCase,
    EvalConfig,
    EvalPresets,
    EvalSet,
    ExecutionResult,
    FactualAccuracyCriterion,
    HallucinationCriterion,
    JudgePool,
    JudgeReply,
    JudgeSettings,
    LLMJudgeCriterion,
    Rubric,
    RubricBasedCriterion,
    SafetyCriterion,
    TokenUsage,
    ToolCall,
    Trace,
    build_criteria,
    create_eval_app,
)
from tenxeval_tui.evaluation.criteria.llm_base import JudgedCriterion
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, verdict
from tests.waiting import wait_sync

CASE = EvalCase.single_turn(
    "paris",
    "What is the weather in Paris?",
    expected_response="It is sunny in Paris, 22 degrees.",
    metadata={
        "context": "Paris: sunny, 22 C, light wind.",
        "reference_facts": ["It is sunny in Paris", "It is 22 degrees", "Wind is light"],
    },
)
REPLY = ExecutionResult(actual_response="Sunny and 22 degrees in Paris today.")


def config(num_samples: int = 1, **kw: object) -> CriterionConfig:
    """Settings for one test; the cache is off unless the test is about the cache."""
    kw.setdefault("judge_cache", False)
    return CriterionConfig(threshold=0.5, num_samples=num_samples, **kw)  # type: ignore[arg-type]


async def judge(
    criterion: JudgedCriterion, actual: ExecutionResult = REPLY, case: EvalCase = CASE
) -> CriterionResult:
    return await criterion.evaluate(actual, case)


async def test_final_response_match_passes_on_valid(judge_env: JudgeServer) -> None:
    judge_env.script(*[verdict("valid", "same facts")] * 3)
    result = await judge(LLMJudgeCriterion(config(num_samples=3)))
    assert (result.criterion, result.score, result.passed) == ("final_response_match_v2", 1.0, True)
    assert result.details["reason"] == "same facts"
    assert result.details["votes"] == {"valid": "3/3"}
    assert result.details["judge_calls"] == 3
    request = judge_env.requests[0]
    assert (request["model"], request["temperature"]) == ("judge-test", 0.0)
    prompt = judge_env.prompts()[0]
    assert "It is sunny in Paris, 22 degrees." in prompt
    assert "Sunny and 22 degrees in Paris today." in prompt
    assert "What is the weather in Paris?" in prompt


async def test_final_response_match_fails_on_invalid(judge_env: JudgeServer) -> None:
    judge_env.script(verdict("INVALID", "says rain"))
    result = await judge(LLMJudgeCriterion(config()))
    assert (result.score, result.passed, result.error) == (0.0, False, None)
    assert result.reason == "says rain"


@pytest.mark.parametrize(
    ("votes", "score"),
    [
        (["valid", "invalid", "valid"], 1.0),
        (["invalid", "valid", "invalid"], 0.0),
        (["valid", "invalid"], 0.0),  # a tie breaks to "no"
        (["valid", "valid", "invalid", "invalid", "valid"], 1.0),
    ],
)
async def test_samples_combine_by_majority(
    judge_env: JudgeServer, votes: list[str], score: float
) -> None:
    judge_env.script(*(verdict(v, f"sample says {v}") for v in votes))
    result = await judge(LLMJudgeCriterion(config(num_samples=len(votes))))
    assert result.score == score
    assert len(judge_env.requests) == len(votes)
    majority_word = "valid" if score == 1.0 else "invalid"
    assert result.reason == f"sample says {majority_word}"
    assert sorted(result.details["reasons"]) == sorted(f"sample says {v}" for v in votes)


async def test_no_expected_response_needs_no_judge(judge_env: JudgeServer) -> None:
    case = EvalCase.single_turn("x", "hi")
    result = await judge(LLMJudgeCriterion(config()), case=case)
    assert (result.score, result.passed) == (1.0, True)
    assert "no expectation" in result.details["note"]
    empty = await judge(LLMJudgeCriterion(config()), actual=ExecutionResult(actual_response=" "))
    assert (empty.score, empty.passed) == (0.0, False)
    assert judge_env.requests == []


async def test_hallucination_grounded_in_context_and_tool_results(judge_env: JudgeServer) -> None:
    judge_env.script(verdict("grounded", "all supported"))
    actual = ExecutionResult(
        actual_response=REPLY.actual_response,
        tool_calls=[ToolCall(name="get_weather", args={"city": "Paris"}, result="sunny, 22")],
    )
    result = await judge(HallucinationCriterion(config()), actual=actual)
    assert (result.criterion, result.score, result.passed) == ("hallucinations_v1", 1.0, True)
    assert result.details["is_grounded"] is True
    prompt = judge_env.prompts()[0]
    assert "Paris: sunny, 22 C, light wind." in prompt
    assert 'get_weather({"city": "Paris"}) returned: sunny, 22' in prompt


async def test_hallucination_fails_and_names_claims(judge_env: JudgeServer) -> None:
    judge_env.script(
        verdict("hallucinated", "invented humidity", unsupported_claims=["80% humidity"])
    )
    result = await judge(HallucinationCriterion(config()))
    assert (result.score, result.passed) == (0.0, False)
    assert result.details["unsupported_claims"] == ["80% humidity"]


async def test_hallucination_without_context_needs_no_judge(judge_env: JudgeServer) -> None:
    result = await judge(HallucinationCriterion(config()), case=EvalCase.single_turn("x", "hi"))
    assert result.score == 1.0 and "no expectation" in result.details["note"]
    assert judge_env.requests == []


def facts_reply(*verdicts: str) -> Scripted:
    facts = [{"fact": i, "verdict": v} for i, v in enumerate(verdicts, start=1)]
    return Scripted(json.dumps({"reasoning": "checked", "facts": facts}))


async def test_factual_accuracy_scores_share_of_correct_facts(judge_env: JudgeServer) -> None:
    judge_env.script(facts_reply("correct", "correct", "correct"))
    good = await judge(FactualAccuracyCriterion(config()))
    assert (good.criterion, good.score, good.passed) == ("factual_accuracy_v1", 1.0, True)
    judge_env.script(facts_reply("correct", "incorrect", "absent"))
    poor = await judge(FactualAccuracyCriterion(config()))
    assert poor.score == pytest.approx(1 / 3) and not poor.passed
    assert [f["correct"] for f in poor.details["facts"]] == [True, False, False]
    assert [f["contradicted"] for f in poor.details["facts"]] == [False, True, False]
    assert "2. It is 22 degrees" in judge_env.prompts()[-1]


async def test_factual_accuracy_votes_per_fact(judge_env: JudgeServer) -> None:
    judge_env.script(
        facts_reply("correct", "correct", "absent"),
        facts_reply("correct", "absent", "absent"),
        facts_reply("correct", "correct", "correct"),
    )
    result = await judge(FactualAccuracyCriterion(config(num_samples=3)))
    assert result.score == pytest.approx(2 / 3)
    assert result.details["votes"] == {"1": "3/3", "2": "2/3", "3": "1/3"}


async def test_factual_accuracy_without_reference_facts(judge_env: JudgeServer) -> None:
    case = EvalCase.single_turn("x", "hi", expected_response="hello")
    result = await judge(FactualAccuracyCriterion(config()), case=case)
    assert result.score == 1.0 and "reference_facts" in result.details["note"]
    assert judge_env.requests == []


async def test_safety_pass_and_fail(judge_env: JudgeServer) -> None:
    judge_env.script(verdict("safe", "harmless"), verdict("unsafe", "bad", issues=["weapons"]))
    safe = await judge(SafetyCriterion(config()))
    assert (safe.criterion, safe.score, safe.details["is_safe"]) == ("safety_v1", 1.0, True)
    unsafe = await judge(SafetyCriterion(config()))
    assert (unsafe.score, unsafe.passed, unsafe.details["issues"]) == (0.0, False, ["weapons"])


RUBRICS = [
    Rubric.create("concise", "Is at most two sentences", 2.0),
    Rubric.create("units", "Gives units"),
]


def rubric_reply(**verdicts: str) -> Scripted:
    items = [{"rubric_id": k, "verdict": v} for k, v in verdicts.items()]
    return Scripted(json.dumps({"reasoning": "per rubric", "rubrics": items}))


async def test_rubrics_weighted_share(judge_env: JudgeServer) -> None:
    settings = CriterionConfig.rubric_based(RUBRICS, num_samples=1)
    settings.judge_cache = False
    criterion = RubricBasedCriterion(settings)
    judge_env.script(rubric_reply(concise="yes", units="no"))
    result = await judge(criterion)
    assert result.criterion == "rubric_based_final_response_quality_v1"
    assert result.score == pytest.approx(2 / 3) and not result.passed  # threshold 0.8
    assert result.details["unmet"] == ["units"]
    assert "property: Is at most two sentences" in judge_env.prompts()[0]
    judge_env.script(rubric_reply(concise="Yes", units="YES"))
    assert (await judge(criterion)).passed


async def test_retry_after_429_and_500(judge_env: JudgeServer) -> None:
    judge_env.script(
        Scripted(status=429, content="slow down", headers={"retry-after-ms": "10"}),
        Scripted(status=503, content="busy", headers={"retry-after-ms": "10"}),
        verdict("valid"),
    )
    result = await judge(LLMJudgeCriterion(config()))
    assert (result.score, result.error) == (1.0, None)
    assert result.details["retries"] == 2
    assert len(judge_env.requests) == 3


async def test_client_errors_are_not_retried(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted(status=401, content="bad key"))
    result = await judge(LLMJudgeCriterion(config()))
    assert result.error is not None and "HTTP 401" in result.error and "bad key" in result.error
    assert len(judge_env.requests) == 1


@pytest.mark.slow
async def test_timeout_fails_the_criterion(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted(content="late", delay=2.0))
    criterion = LLMJudgeCriterion(config(judge_timeout=0.3, judge_max_retries=0))
    result = await judge(criterion)  # the reply would come (and parse as no verdict) at 2 s
    assert (result.passed, result.score) == (False, 0.0)
    assert result.error is not None and "timed out after 0.3 s" in result.error


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("I think the reply is fine.", "no JSON object"),
        ('{"reasoning": "ok", "verdict": "maybe"}', "verdict"),
        ('{"reasoning": "ok", "verdict": "valid"', "invalid JSON (Expecting ',' delimiter)"),
        ("[1, 2]", "not an object"),
    ],
)
async def test_unparseable_reply_fails_with_a_quote(
    judge_env: JudgeServer, content: str, problem: str
) -> None:
    judge_env.script(Scripted(content))
    result = await judge(LLMJudgeCriterion(config()))
    assert result.error is not None
    assert problem in result.error
    assert repr(content[:160]) in result.error
    assert (result.passed, result.token_usage.input_tokens) == (False, 11)


async def test_reply_in_a_code_fence_or_prose_parses(judge_env: JudgeServer) -> None:
    judge_env.script(
        Scripted('```json\n{"reasoning": "fenced", "verdict": "valid"}\n```'),
        Scripted('Sure! Here it is: {"reasoning": "prose", "verdict": "valid"} Hope it helps.'),
    )
    assert (await judge(LLMJudgeCriterion(config()))).reason == "fenced"
    assert (await judge(LLMJudgeCriterion(config()))).reason == "prose"


async def test_token_usage_is_summed_over_samples(judge_env: JudgeServer) -> None:
    judge_env.script(
        *[
            Scripted(
                verdict("valid").content, prompt_tokens=100, completion_tokens=20, cached_tokens=40
            )
        ]
        * 3
    )
    result = await judge(LLMJudgeCriterion(config(num_samples=3)))
    usage = result.token_usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (300, 60, 120)
    assert usage.total_tokens == 360


async def test_rerun_is_served_from_the_cache(judge_env: JudgeServer, tmp_path: Path) -> None:
    judge_env.script(
        verdict("valid", "first"), verdict("invalid", "second"), verdict("valid", "third")
    )
    first = await judge(LLMJudgeCriterion(config(num_samples=3, judge_cache=True), JudgePool()))
    assert (first.details["judge_calls"], first.details["cache_hits"]) == (3, 0)
    rerun = await judge(LLMJudgeCriterion(config(num_samples=3, judge_cache=True), JudgePool()))
    assert len(judge_env.requests) == 3  # no new request
    assert (rerun.details["judge_calls"], rerun.details["cache_hits"]) == (0, 3)
    assert rerun.score == first.score == 1.0
    assert sorted(rerun.details["reasons"]) == ["first", "second", "third"]
    assert not rerun.token_usage  # cached replies cost nothing now
    assert list((tmp_path / "judge-cache").rglob("*.json"))


async def test_changed_prompt_or_disabled_cache_asks_again(judge_env: JudgeServer) -> None:
    judge_env.fallback = lambda body: verdict("valid")
    cached = config(judge_cache=True)
    await judge(LLMJudgeCriterion(cached))
    await judge(LLMJudgeCriterion(cached))
    assert len(judge_env.requests) == 1
    await judge(LLMJudgeCriterion(cached), actual=ExecutionResult(actual_response="Sunny!"))
    await judge(LLMJudgeCriterion(config(judge_cache=False)))
    assert len(judge_env.requests) == 3


async def test_unparseable_replies_are_not_cached(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted("garbage"), verdict("valid"))
    assert (await judge(LLMJudgeCriterion(config(judge_cache=True)))).error
    assert (await judge(LLMJudgeCriterion(config(judge_cache=True)))).passed
    assert len(judge_env.requests) == 2


async def test_judge_calls_are_bounded_by_the_run_concurrency(judge_env: JudgeServer) -> None:
    def answer(body: dict[str, Any]) -> Scripted:
        safety = "safety reviewer" in body["messages"][-1]["content"]
        return Scripted(verdict("safe" if safety else "valid").content, delay=0.05)

    judge_env.fallback = answer
    run = EvalConfig(max_concurrency=2, parallel=True)
    run.enable_criterion("final_response_match_v2", config(num_samples=4, judge_cache=False))
    run.enable_criterion("safety_v1", config(num_samples=4, judge_cache=False))
    criteria = build_criteria(run)
    pools = {id(c.judge_pool) for c in criteria if isinstance(c, JudgedCriterion)}
    assert len(pools) == 1
    results = await asyncio.gather(*(c.evaluate(REPLY, CASE) for c in criteria))
    assert all(r.passed for r in results)
    assert len(judge_env.requests) == 8
    assert judge_env.max_in_flight == 2


def test_missing_model_key_or_extra_fail_at_configuration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("TENXEVAL_JUDGE_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    run = EvalConfig()
    run.enable_criterion("safety_v1", CriterionConfig())
    with pytest.raises(CriterionConfigError, match="TENXEVAL_JUDGE_MODEL") as info:
        build_criteria(run)
    assert "OPENAI_API_KEY" in str(info.value)
    monkeypatch.setenv("TENXEVAL_JUDGE_MODEL", "m")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # a local server needs no key
    assert [c.name for c in build_criteria(run)] == ["safety_v1"]
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(CriterionConfigError, match=r"pip install 'tenxeval-tui\[llm\]'"):
        build_criteria(run)


def test_rubric_criterion_without_rubrics_fails_at_configuration(judge_env: JudgeServer) -> None:
    run = EvalConfig()
    run.enable_criterion("rubric_based", CriterionConfig())
    with pytest.raises(CriterionConfigError, match="set rubrics"):
        build_criteria(run)


def test_one_criterion_serves_several_event_loops_and_closes_cleanly(
    judge_env: JudgeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An evaluator built once may run under several asyncio.run() calls (a pytest session).
    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    judge_env.fallback = lambda body: verdict("valid")
    criterion = LLMJudgeCriterion(config())
    for _ in range(2):
        assert asyncio.run(criterion.evaluate(REPLY, CASE)).passed
        # the loop's end closed the client's kept-alive connection (the server's thread
        # sees it closed a moment later: waited for, as a busy machine may take a while)
        wait_sync(lambda: judge_env.open_connections == 0, 2, "the judge connection closed")
    gc.collect()
    assert unraisable == []
    assert len(judge_env.requests) == 2


async def test_a_judge_of_your_own_through_the_pool_factory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TENXEVAL_JUDGE_MODEL", "mine")
    monkeypatch.setenv("OPENAI_API_KEY", "unused")

    class Echo:
        def __init__(self, settings: JudgeSettings) -> None:
            self.model = settings.model
            self.prompts: list[str] = []

        async def complete(self, prompt: str, *, sample: int) -> JudgeReply:
            self.prompts.append(prompt)
            text = json.dumps({"reasoning": f"sample {sample}", "verdict": "safe"})
            return JudgeReply(text, TokenUsage(input_tokens=1, output_tokens=1))

    pool = JudgePool(2, cache_dir=tmp_path, factory=Echo)
    run = EvalConfig()
    run.enable_criterion("safety_v1", CriterionConfig(num_samples=2, judge_cache=False))
    (criterion,) = build_criteria(run, judge_pool=pool)
    result = await criterion.evaluate(REPLY, CASE)
    assert (result.score, result.reason, result.token_usage.total_tokens) == (1.0, "sample 0", 4)
    assert pool.calls == 2


@pytest.mark.parametrize(
    ("preset", "judged"),
    [
        (EvalPresets.response_quality, {"final_response_match_v2"}),
        (
            EvalPresets.comprehensive,
            {"final_response_match_v2", "factual_accuracy_v1", "hallucinations_v1", "safety_v1"},
        ),
        (EvalPresets.safety_check, {"hallucinations_v1", "safety_v1"}),
    ],
)
def test_presets_build_their_judged_criteria_on_one_pool(
    judge_env: JudgeServer, preset: Any, judged: set[str]
) -> None:
    criteria = build_criteria(preset())
    with_judge = [c for c in criteria if isinstance(c, JudgedCriterion)]
    assert {c.name for c in with_judge} == judged
    assert len({id(c.judge_pool) for c in with_judge}) == 1


async def test_a_runs_own_concurrency_bounds_its_judge_calls(judge_env: JudgeServer) -> None:
    judge_env.fallback = lambda body: Scripted(verdict("valid").content, delay=0.05)

    async def agent(message: str, trace: Trace) -> str:
        return "Sunny and 22 degrees in Paris today."

    app, collector = create_eval_app(agent)
    run = EvalConfig(max_concurrency=4)
    run.reporter.enabled = False
    run.enable_criterion("final_response_match_v2", config(num_samples=4, judge_cache=False))
    evaluator = AgentEvaluator(app, collector, run)
    cases = EvalSet(
        eval_set_id="bounded", eval_cases=[CASE, CASE.model_copy(update={"eval_id": "b"})]
    )

    report = await evaluator.evaluate(cases, max_concurrency=1)

    assert report.summary.passed_cases == 2
    assert len(judge_env.requests) == 8
    assert judge_env.max_in_flight == 1
