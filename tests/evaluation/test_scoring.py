"""Re-scoring a finished result with other criteria gives what a fresh run would."""

from __future__ import annotations

from pathlib import Path

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import AgentEvaluator, EvalSet, create_eval_app
from tenxeval_tui.evaluation.criteria import build_criteria
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.scoring import recorded_execution, rescore

from .conftest import config_with

ROOT = Path(__file__).resolve().parents[2]
WEATHER = ROOT / "sample_evals/weather_graph.evalset.json"
BEFORE = {"trajectory": {"threshold": 1.0}}
AFTER = {
    "tool_name_match": {"threshold": 1.0},
    "rouge_match": {"threshold": 0.5},
    "node_order": {"threshold": 1.0},
}


async def evaluate(
    criteria: dict[str, dict[str, float]], case_ids: set[str]
) -> dict[str, EvalCaseResult]:
    cases = [c for c in EvalSet.from_file(WEATHER).eval_cases if c.eval_id in case_ids]
    app, collector = create_eval_app(build_graph())
    evaluator = AgentEvaluator(app, collector, config_with(criteria))
    return {c.eval_id: await evaluator.evaluate_case(c) for c in cases}


async def test_rescoring_matches_a_fresh_run_with_the_new_criteria() -> None:
    ids = {"paris_weather", "two_cities", "trip_planning", "wrong_forecast"}
    before = await evaluate(BEFORE, ids)
    fresh = await evaluate(AFTER, ids)
    criteria = build_criteria(config_with(AFTER))
    cases = {c.eval_id: c for c in EvalSet.from_file(WEATHER).eval_cases}
    for eval_id, old in before.items():
        again = await rescore(old, cases[eval_id], criteria)
        new = fresh[eval_id]
        assert [(c.criterion, c.score, c.passed) for c in again.criterion_results] == [
            (c.criterion, c.score, c.passed) for c in new.criterion_results
        ], eval_id
        assert again.passed == new.passed
        assert again.actual_response == old.actual_response
    assert not fresh["wrong_forecast"].passed


async def test_the_recorded_execution_round_trips_and_errors_stay() -> None:
    (result,) = (await evaluate(BEFORE, {"trip_planning"})).values()
    execution = recorded_execution(result)
    assert execution.tool_calls == result.actual_tool_calls
    assert len(execution.node_responses) == len(result.node_responses)
    errored = result.model_copy(update={"error": "boom", "passed": False})
    case = EvalSet.from_file(WEATHER).get_case("trip_planning")
    assert case is not None
    assert await rescore(errored, case, build_criteria(config_with(AFTER))) is errored
