"""Threshold what-if: verdicts under other thresholds, from a real run, no agent rerun."""

from __future__ import annotations

from tenxeval_tui.browsing.what_if import WhatIf, verdict_changes
from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, Trace, create_eval_app
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tests.evaluation.coin_agent import coin_set
from tests.evaluation.conftest import config_with

REPLIES = {
    "question 0": "The answer is right.",
    "question 1": "The answer is wrong.",
    "question 2": "Nothing.",
}


async def real_report(repeats: int = 1) -> EvalReport:
    calls: list[str] = []

    async def agent(message: str, trace: Trace) -> str:
        calls.append(message)
        return REPLIES[message]

    app, collector = create_eval_app(agent)
    config = config_with({"rouge_match": {"threshold": 0.5}}, repeats=repeats)
    report = await AgentEvaluator(app, collector, config).evaluate(coin_set(3))
    assert len(calls) == 3 * repeats
    return report


def judged(report: EvalReport, score: float) -> EvalReport:
    """The report (of single runs) as if a judge had also scored each case ``score``
    (threshold 0.7), as a judged run records it."""
    report = report.model_copy(deep=True)
    for result in report.results:
        verdict = CriterionResult.success("factual_accuracy_v1", score, 0.7)
        result.criterion_results.append(verdict)
        result.passed = result.passed and verdict.passed
    return EvalReport.create(
        report.eval_set_id,
        report.results,
        config_used={
            **report.config_used,
            "criteria": {
                **report.config_used["criteria"],
                "factual_accuracy": {"threshold": 0.7, "judge_model": "judge-model"},
            },
        },
    )


async def test_unchanged_settings_give_the_report_back() -> None:
    report = await real_report()
    what_if = WhatIf(report)
    assert not what_if.changed
    assert [s.name for s in what_if.settings.values()] == ["rouge_match"]
    after = await what_if.apply()
    assert verdict_changes(report, after) == []
    assert [r.criterion_results[0].score for r in after.results] == [
        r.criterion_results[0].score for r in report.results
    ]


async def test_a_threshold_moves_the_verdicts_of_the_cases_it_crosses() -> None:
    report = await real_report()
    scores = [r.criterion_results[0].score for r in report.results]
    assert scores[0] == 1.0 and 0.5 < scores[1] < 1.0 and scores[2] == 0.0
    assert [r.status for r in report.results] == ["passed", "passed", "failed"]
    what_if = WhatIf(report)
    what_if.nudge("rouge_match", 6)  # 0.5 -> 0.8: above q1's score
    assert what_if.settings["rouge_match"].new_threshold == 0.8
    after = await what_if.apply()
    changes = verdict_changes(report, after)
    assert [(c.eval_id, c.before, c.after) for c in changes] == [("q1", "passed", "failed")]
    assert after.summary.passed_cases == 1
    assert after.config_used["criteria"]["rouge_match"]["threshold"] == 0.8
    what_if.toggle("rouge_match")  # off: nothing left to fail
    after = await what_if.apply()
    assert [r.status for r in after.results] == ["passed"] * 3
    assert all(r.criterion_results == [] for r in after.results)
    what_if.reset()
    assert not what_if.changed
    what_if.nudge("rouge_match", -20)
    assert what_if.settings["rouge_match"].new_threshold == 0.0  # clamped


async def test_judged_scores_are_kept_and_met_against_the_new_threshold() -> None:
    report = judged(await real_report(), 0.6)
    assert [r.status for r in report.results] == ["failed"] * 3
    what_if = WhatIf(report)
    setting = what_if.settings["factual_accuracy_v1"]
    assert not setting.rescored and what_if.settings["rouge_match"].rescored
    what_if.nudge("factual_accuracy_v1", -2)  # 0.7 -> 0.6: the judge's 0.6 now passes
    after = await what_if.apply()  # no judge is reachable: a call would error the criterion
    assert [r.status for r in after.results] == ["passed", "passed", "failed"]
    verdict = after.results[0].criterion_results[1]
    assert verdict.criterion == "factual_accuracy_v1" and verdict.error is None
    assert (verdict.score, verdict.threshold, verdict.passed) == (0.6, 0.6, True)
    assert after.metadata["rescored"]["judge_calls"] == 0


async def test_repeats_are_decided_again_by_the_pass_rule() -> None:
    report = await real_report(repeats=3)
    assert report.results[1].repeat_stats is not None
    what_if = WhatIf(report)
    what_if.nudge("rouge_match", 6)
    after = await what_if.apply()
    q1 = after.results[1]
    assert q1.status == "failed" and q1.repeat_stats is not None
    assert (q1.repeat_stats.passed_repeats, q1.repeat_stats.repeats) == (0, 3)
