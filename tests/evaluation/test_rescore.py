"""Re-scoring a report without the agent: same config, same scores; new threshold, new verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from sample_evals.plain_agent import support_agent
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfigError,
    EvalConfig,
    EvalReport,
    EvalSet,
    create_eval_app,
)
from tenxeval_tui.evaluation.repeats import rule_passes
from tenxeval_tui.evaluation.rescore import RESCORED_KEY, rescore_report

from .coin_agent import EXACT, CoinAgent, coin_set
from .conftest import config_with

SAMPLE = Path(__file__).resolve().parents[2] / "sample_evals" / "plain_agent.evalset.json"
CRITERIA = {
    "tool_trajectory_avg_score": {"threshold": 1.0, "check_args": True},
    "node_order_score": {"threshold": 1.0},
    "response_match_score": {"threshold": 0.8},
}


def sample_config(**criteria_changes: dict[str, object]) -> EvalConfig:
    criteria = {name: {**cfg, **criteria_changes.get(name, {})} for name, cfg in CRITERIA.items()}
    return config_with(criteria)


async def sample_report() -> EvalReport:
    app, collector = create_eval_app(support_agent)
    return await AgentEvaluator(app, collector, sample_config()).evaluate(SAMPLE)


@pytest.mark.parametrize("with_eval_set", [True, False])
async def test_rescoring_with_the_same_config_reproduces_every_score(with_eval_set: bool) -> None:
    report = await sample_report()
    assert {r.status for r in report.results} == {"passed", "failed", "error"}
    eval_set = EvalSet.from_file(SAMPLE) if with_eval_set else None

    rescored = await rescore_report(report, sample_config(), eval_sets=eval_set)

    for before, after in zip(report.results, rescored.results, strict=True):
        assert after.criterion_results == before.criterion_results
        assert (after.eval_id, after.status) == (before.eval_id, before.status)
        assert after.actual_tool_calls == before.actual_tool_calls
    assert rescored.summary == report.summary
    record = rescored.metadata[RESCORED_KEY]
    assert record["expectations"] == ("eval_set" if with_eval_set else "report")
    assert record["original_timestamp"] == report.timestamp
    assert record["judge_calls"] == 0
    assert rescored.config_used == sample_config().model_dump(mode="json")


async def test_a_changed_threshold_changes_exactly_the_cases_it_reaches(tmp_path: Path) -> None:
    report = await sample_report()
    looser = sample_config(response_match_score={"threshold": 0.25})

    rescored = await rescore_report(report, looser)

    changed = []
    for before, after in zip(report.results, rescored.results, strict=True):
        old = before.get_criterion_result("response_match_score")
        new = after.get_criterion_result("response_match_score")
        if old is None:  # the errored case has nothing to rescore and stays as it was
            assert after == before
            continue
        assert new is not None and new.score == old.score and new.threshold == 0.25
        expected_pass = new.score >= 0.25
        assert new.passed == expected_pass
        if before.passed != after.passed:
            changed.append(before.eval_id)
        # every other criterion is untouched
        assert after.criterion_results[:2] == before.criterion_results[:2]
    reached = [
        r.eval_id
        for r in report.results
        if (cr := r.get_criterion_result("response_match_score")) and 0.25 <= cr.score < 0.8
    ]
    assert changed == reached and reached  # the sample has a case between the thresholds
    assert rescored.summary.passed_cases == report.summary.passed_cases + len(reached)
    # the rescored report says which config scored it, and loads back
    path = tmp_path / "rescored.json"
    rescored.to_file(path)
    loaded = EvalReport.from_file(path)
    assert loaded == rescored
    assert EvalConfig.model_validate(loaded.config_used) == looser


async def test_a_report_with_repeats_is_rescored_repeat_by_repeat() -> None:
    app, collector = create_eval_app(CoinAgent(0.6, seed=21))
    report = await AgentEvaluator(app, collector, config_with(EXACT, repeats=5)).evaluate(
        coin_set(10)
    )
    majority = config_with(EXACT, pass_rule=0.6)

    rescored = await rescore_report(report, majority)

    flipped = 0
    for before, after in zip(report.results, rescored.results, strict=True):
        runs = [r.passed for r in before.runs]
        assert [r.passed for r in after.runs] == runs
        assert after.passed == rule_passes(runs, 0.6)
        assert before.passed == all(runs)
        assert after.repeat_stats is not None and after.repeat_stats.pass_rule == 0.6
        assert after.criterion_results[0].score == before.criterion_results[0].score
        flipped += before.passed != after.passed
    assert flipped > 0


async def test_a_config_that_cannot_run_fails_before_scoring() -> None:
    report = await sample_report()
    broken = config_with({"no_such_criterion": {"threshold": 1.0}})
    with pytest.raises(CriterionConfigError):
        await rescore_report(report, broken)


async def test_matchers_and_case_rules_survive_a_rescore_from_the_report_alone() -> None:
    from tenxeval_tui.evaluation import EvalCase, ToolCall

    cases = EvalSet(
        eval_set_id="ruled",
        eval_cases=[
            EvalCase.single_turn(
                "refund",
                "I want a refund for order A100",
                expected_tools=[
                    ToolCall(
                        name="refund",
                        args={"order_id": {"$regex": "^A1"}, "reason": {"$any": True}},
                    )
                ],
                metadata={"trajectory_rules": {"max_calls": {"refund": 0}}},
            )
        ],
    )
    config = config_with({"tool_trajectory_avg_score": {"threshold": 1.0, "check_args": True}})
    app, collector = create_eval_app(support_agent)
    report = await AgentEvaluator(app, collector, config).evaluate(cases)
    before = report.results[0].criterion_results[0]
    assert before.details["matched_calls"] == [0]
    assert [f["rule"] for f in before.details["rule_failures"]] == ["max_calls"]

    rescored = await rescore_report(report, config)  # no eval set: what the report kept

    after = rescored.results[0].criterion_results[0]
    assert after == before
    assert rescored.metadata[RESCORED_KEY]["expectations"] == "report"
