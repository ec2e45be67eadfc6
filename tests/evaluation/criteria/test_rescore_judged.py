"""Rescoring with a judged criterion: the judge is asked once, then answered from the cache."""

from __future__ import annotations

from tenxeval_tui.evaluation import AgentEvaluator, CriterionConfig, EvalConfig, create_eval_app
from tenxeval_tui.evaluation.rescore import RESCORED_KEY, rescore_report
from tests.evaluation.criteria.judge_server import JudgeServer

from .test_judged_evaluator import agent, eval_set, judge_by_reply


def config(*, judged: bool) -> EvalConfig:
    run = EvalConfig(max_concurrency=3)
    run.reporter.enabled = False
    run.enable_criterion("exact_match", CriterionConfig(threshold=1.0))
    if judged:
        run.enable_criterion("final_response_match_v2", CriterionConfig(num_samples=1))
    return run


async def test_a_judged_criterion_added_later_is_judged_once_then_cached(
    judge_env: JudgeServer,
) -> None:
    judge_env.fallback = judge_by_reply
    app, collector = create_eval_app(agent)
    report = await AgentEvaluator(app, collector, config(judged=False)).evaluate(eval_set())
    assert judge_env.requests == []

    first = await rescore_report(report, config(judged=True), eval_sets=eval_set())
    assert len(judge_env.requests) == 3
    assert first.metadata[RESCORED_KEY]["judge_calls"] == 3
    assert first.metadata[RESCORED_KEY]["cache_hits"] == 0
    judged = [r.get_criterion_result("final_response_match_v2") for r in first.results]
    assert [j.details["judge_calls"] for j in judged if j] == [1, 1, 1]
    assert [r.passed for r in first.results] == [True, False, False]
    # judge tokens are counted on top of the agent's, which are kept
    assert all(r.token_usage.total_tokens == 110 + 44 for r in first.results)

    again = await rescore_report(report, config(judged=True), eval_sets=eval_set())
    # c0 and c1 come from the cache; c2's judge rambled, and a reply that did not
    # parse is never cached, so that one alone is asked again
    assert len(judge_env.requests) == 4
    assert again.metadata[RESCORED_KEY]["cache_hits"] == 2
    assert again.metadata[RESCORED_KEY]["judge_calls"] == 1
    for before, after in zip(first.results, again.results, strict=True):
        old = before.get_criterion_result("final_response_match_v2")
        new = after.get_criterion_result("final_response_match_v2")
        assert old is not None and new is not None and new.score == old.score
