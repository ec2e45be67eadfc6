"""The offline sample agents pass their own eval sets, except the cases meant to fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    EvalConfig,
    EvalSet,
    create_eval_app,
    load_target,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = [
    ("sample_evals.weather_graph:build_graph", "weather_graph.evalset.json", "model_outage"),
    ("sample_evals.plain_agent:support_agent", "plain_agent.evalset.json", "service_outage"),
]


def strict_config() -> EvalConfig:
    config = EvalConfig.default()
    config.reporter.enabled = False
    config.enable_criterion("node_order", CriterionConfig.node_order())
    assert config.criteria.trajectory is not None
    config.criteria.trajectory.check_args = True
    return config


@pytest.mark.parametrize(("agent", "file", "raising_case"), SAMPLES)
async def test_sample_agent_on_its_eval_set(agent: str, file: str, raising_case: str) -> None:
    eval_set = EvalSet.from_file(ROOT / "sample_evals" / file)
    assert eval_set.metadata["agent"] == agent  # which agent the set is for
    assert len(eval_set) >= 8
    assert any(len(case.conversation) > 1 for case in eval_set)
    assert any(c.args for case in eval_set for c in case.get_expected_tool_trajectory())
    app, collector = create_eval_app(load_target(agent))
    report = await AgentEvaluator(app, collector, strict_config()).evaluate(eval_set)

    by_status = {r.eval_id: r.status for r in report.results}
    failing = {case.eval_id for case in eval_set.filter_by_tags(["expected-failure"])}
    assert {i for i, s in by_status.items() if s == "failed"} == failing
    assert {i for i, s in by_status.items() if s == "error"} == {raising_case}
    assert report.summary.passed_cases == len(eval_set) - len(failing) - 1
    (failed,) = [report.get_case_result(i) for i in failing]
    assert failed is not None
    assert [cr.criterion for cr in failed.failed_criteria] == ["response_match_score"]
