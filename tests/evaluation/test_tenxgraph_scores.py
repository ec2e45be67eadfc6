"""Scores where 10xGraph 0.10.3, its docs and we had to decide, on the real weather graph.

The graph runs on the real 10xGraph runtime with its offline scripted model.
"""

from __future__ import annotations

import pytest

pytest.importorskip("tenxgraph", reason="the 10xgraph extra is not installed")

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriteriaConfig,
    CriterionConfig,
    EvalCase,
    EvalConfig,
    EvalSet,
    MatchType,
    create_eval_app,
)

PARIS = "What is the weather in Paris?"


async def run(config: EvalConfig, *cases: EvalCase) -> dict[str, dict[str, float]]:
    app, collector = create_eval_app(build_graph())
    report = await AgentEvaluator(app, collector, config=config).evaluate(
        EvalSet(eval_set_id="scores", eval_cases=list(cases)), run_reporters=False
    )
    assert all(r.error is None for r in report.results)
    return {
        r.eval_id: {cr.criterion: cr.score for cr in r.criterion_results} for r in report.results
    }


def node_order_config() -> EvalConfig:
    node_order = CriterionConfig.node_order(threshold=1.0, match_type=MatchType.EXACT)
    return EvalConfig(criteria=CriteriaConfig(node_order=node_order))


@pytest.mark.parametrize(
    ("order", "passes"),
    [
        (["MAIN", "TOOL", "MAIN"], True),  # as the docs show it (and as we record it)
        (["__start__", "MAIN", "MAIN"], True),  # as 10xgraph 0.10.3 records it
        (["MAIN"], False),
        (["MAIN", "MAIN", "TOOL"], False),
        (["__start__", "MAIN"], False),
        (["__start__", "MAIN", "TOOL", "MAIN"], False),
    ],
)
async def test_expected_node_orders_of_both_recordings_hold(order: list[str], passes: bool) -> None:
    case = EvalCase.single_turn("paris", PARIS, expected_node_order=order)
    score = (await run(node_order_config(), case))["paris"]["node_order_score"]
    assert score == (1.0 if passes else 0.0)


async def test_exact_trajectory_with_an_extra_tool_is_all_or_nothing() -> None:
    # The agent calls get_weather twice (Paris, Rome); one call is expected.
    two_cities = "What is the weather in Paris and in Rome?"
    case = EvalCase.single_turn("extra", two_cities, expected_tools=["get_weather"])
    exact = CriterionConfig.trajectory(threshold=1.0, match_type=MatchType.EXACT)
    partial = CriterionConfig.trajectory(
        threshold=1.0, match_type=MatchType.EXACT, partial_credit=True
    )
    assert (await run(EvalConfig(criteria=CriteriaConfig(trajectory=exact)), case))["extra"] == {
        "tool_trajectory_avg_score": 0.0
    }
    scored = await run(EvalConfig(criteria=CriteriaConfig(trajectory=partial)), case)
    assert scored["extra"] == {"tool_trajectory_avg_score": 0.5}


async def test_tool_name_match_with_no_expected_tools_scores_half_when_a_tool_is_called() -> None:
    config = EvalConfig(criteria=CriteriaConfig(tool_name_match=CriterionConfig.tool_name_match()))
    scores = await run(
        config,
        EvalCase.single_turn("tool", PARIS),
        EvalCase.single_turn("none", "Hello"),
    )
    assert scores == {
        "tool": {"tool_name_match_score": 0.5},
        "none": {"tool_name_match_score": 1.0},
    }
