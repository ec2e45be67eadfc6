"""Cost from token usage and a price table: per criterion, case and run; max_cost stops a run.

Real runs: a plain agent reporting its tokens, a judged criterion on the loopback judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    EvalCase,
    EvalConfig,
    EvalReport,
    EvalSet,
    EvaluationRunner,
    HTMLReporter,
    JSONReporter,
    ModelPrice,
    ReporterConfig,
    ReporterManager,
    TokenUsage,
    cost,
    create_eval_app,
)
from tenxeval_tui.evaluation.cost import CostBudget
from tenxeval_tui.evaluation.reporters.console import ConsoleReporter
from tenxeval_tui.evaluation.targets import Trace
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted

AGENT_TOKENS = {"input_tokens": 1000, "output_tokens": 100}
JUDGE_IN, JUDGE_OUT = 40, 4
PRICES = {
    "judge-test": ModelPrice(input=2.0, output=8.0),
    "agent-model": ModelPrice(input=1.0, output=4.0, cached_input=0.5),
}
JUDGE_CALL = (JUDGE_IN * 2.0 + JUDGE_OUT * 8.0) / 1e6  # 0.000112
AGENT_CALL = (1000 * 1.0 + 100 * 4.0) / 1e6  # 0.0014


async def agent(message: str, trace: Trace) -> str:
    trace.node("MAIN", response="It is sunny.", tokens=AGENT_TOKENS)
    return "It is sunny."


def judge(body: dict[str, Any]) -> Scripted:
    content = json.dumps({"reasoning": "r", "verdict": "valid"})
    return Scripted(content, prompt_tokens=JUDGE_IN, completion_tokens=JUDGE_OUT)


def eval_set(cases: int = 3) -> EvalSet:
    return EvalSet(
        eval_set_id="costly",
        eval_cases=[
            EvalCase.single_turn(f"c{i}", f"Weather {i}?", expected_response="It is sunny.")
            for i in range(cases)
        ],
    )


def config(**cost: Any) -> EvalConfig:
    run = EvalConfig(max_concurrency=1, **cost)
    run.reporter.enabled = False
    run.enable_criterion("exact_match", CriterionConfig(threshold=1.0))
    run.enable_criterion(
        "final_response_match_v2", CriterionConfig(num_samples=1, judge_cache=False)
    )
    return run


def test_a_price_counts_cached_input_at_its_own_price() -> None:
    price = ModelPrice(input=3.0, output=15.0, cached_input=0.3)
    usage = TokenUsage(input_tokens=1_000_000, output_tokens=200_000, cache_read_tokens=400_000)
    assert price.cost(usage) == pytest.approx(600_000 * 3.0 / 1e6 + 0.4 * 0.3 + 0.2 * 15.0)
    assert ModelPrice(input=3.0, output=15.0).cost(usage) == pytest.approx(3.0 + 3.0)


async def test_costs_per_criterion_case_and_run(judge_env: JudgeServer, tmp_path: Path) -> None:
    judge_env.fallback = judge
    app, collector = create_eval_app(agent)
    run = config(prices=PRICES, agent_model="agent-model")
    report = await AgentEvaluator(app, collector, run).evaluate(eval_set())
    for result in report.results:
        judged = result.get_criterion_result("final_response_match_v2")
        exact = result.get_criterion_result("exact_match")
        assert judged is not None and exact is not None
        assert judged.cost_usd == pytest.approx(JUDGE_CALL)
        assert exact.cost_usd is None  # no judge, nothing to pay
        assert result.cost_usd == pytest.approx(JUDGE_CALL + AGENT_CALL)
    assert report.summary.total_cost_usd == pytest.approx(3 * (JUDGE_CALL + AGENT_CALL))
    stats = report.summary.criterion_stats["final_response_match_v2"]
    assert stats["cost_usd"] == pytest.approx(3 * JUDGE_CALL)
    # The JSON report keeps the costs and loads back with them.
    path = JSONReporter().save(report, tmp_path / "r.json")
    back = EvalReport.from_file(path)
    assert back.summary.total_cost_usd == pytest.approx(report.summary.total_cost_usd)
    assert back.results[0].criterion_results[1].cost_usd == pytest.approx(JUDGE_CALL)
    assert json.loads(path.read_text())["config_used"]["prices"]["judge-test"]["output"] == 8.0
    # Console and HTML show them.
    text = ConsoleReporter(verbose=True, use_color=False).render(report)
    assert "$0.0045" in text  # the run: 3 x 0.001512
    assert "$0.0015" in text and "$0.0001" in text  # a case, a judge call
    page = HTMLReporter().render(report)
    assert 'id="total-cost">$0.0045<' in page
    assert '"cost":0.000112' in page


async def test_without_prices_reports_are_as_before(judge_env: JudgeServer) -> None:
    judge_env.fallback = judge
    app, collector = create_eval_app(agent)
    report = await AgentEvaluator(app, collector, config()).evaluate(eval_set(1))
    assert report.summary.total_cost_usd is None
    assert all(cr.cost_usd is None for cr in report.results[0].criterion_results)
    text = JSONReporter().render(report)
    for key in ("cost_usd", "total_cost_usd", "prices", "agent_model", "max_cost"):
        assert f'"{key}"' not in text
    assert "$" not in ConsoleReporter(verbose=True, use_color=False).render(report)
    assert "total-cost" not in HTMLReporter().render(report)


async def test_an_unpriced_judge_model_costs_nothing_rather_than_a_guess(
    judge_env: JudgeServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cost, "_warned", set())  # warned once a process
    judge_env.fallback = judge
    app, collector = create_eval_app(agent)
    run = config(prices={"some-other-model": ModelPrice(input=1, output=1)})
    report = await AgentEvaluator(app, collector, run).evaluate(eval_set(1))
    assert report.results[0].cost_usd is None and report.summary.total_cost_usd is None
    assert "no price for model 'judge-test'" in caplog.text


async def test_max_cost_stops_the_run_cleanly_with_a_partial_report(
    judge_env: JudgeServer, tmp_path: Path
) -> None:
    judge_env.fallback = judge
    app, collector = create_eval_app(agent)
    per_case = JUDGE_CALL + AGENT_CALL
    run = config(prices=PRICES, agent_model="agent-model", max_cost=per_case * 2.5)
    report = await AgentEvaluator(app, collector, run).evaluate(eval_set(6))
    # Two cases fit; a third would pass 2.5 cases' worth: it and the rest are not run.
    assert [r.eval_id for r in report.results] == ["c0", "c1"]
    assert report.is_partial
    assert report.metadata["stopped_by"] == "max_cost"
    assert report.metadata["not_run"] == ["c2", "c3", "c4", "c5"]
    assert report.summary.total_cost_usd == pytest.approx(2 * per_case)
    assert len(judge_env.requests) == 2
    assert "Stopped by max_cost: 4 case(s) not run" in report.format_summary()
    out = ReporterManager(ReporterConfig(output_dir=str(tmp_path), console=False)).run_all(report)
    assert out.html_path and "stopped by max_cost, 4 not run" in Path(out.html_path).read_text()


async def test_max_cost_holds_across_the_eval_sets_of_a_runner(judge_env: JudgeServer) -> None:
    judge_env.fallback = judge
    per_case = JUDGE_CALL + AGENT_CALL
    run = config(prices=PRICES, agent_model="agent-model", max_cost=per_case * 2.5)
    first, second = eval_set(3), eval_set(2)
    second.eval_set_id = "costly-2"
    runner = EvaluationRunner(run)
    reports = await runner.run(
        [(*create_eval_app(agent), first), (*create_eval_app(agent), second)], config=run
    )
    assert [r.eval_id for r in reports["costly"].results] == ["c0", "c1"]
    assert reports["costly"].metadata["not_run"] == ["c2"]
    assert reports["costly-2"].results == [] and reports["costly-2"].is_partial
    assert reports["costly-2"].metadata["not_run"] == ["c0", "c1"]
    assert len(judge_env.requests) == 2


def test_the_budget_forecasts_from_the_average_case() -> None:
    budget = CostBudget(max_cost=1.0)
    assert budget.allows_another()  # nothing known yet
    budget.started()
    assert budget.allows_another()  # still nothing finished: up to the concurrency starts
    budget.started()
    from tenxeval_tui.evaluation import EvalCaseResult

    budget.ended(EvalCaseResult(eval_id="a", passed=True, cost_usd=0.3))
    # spent 0.3, one running, average 0.3: another would make 0.3 + 0.3 * 2 = 0.9
    assert budget.allows_another()
    budget.started()
    # two running now: 0.3 + 0.3 * 3 = 1.2 > 1.0
    assert not budget.allows_another() and budget.stopped
    assert not budget.allows_another()  # refused once, refused for good


def test_prices_round_trip_through_a_config_file_that_10xgraph_still_loads(
    tmp_path: Path,
) -> None:
    from tenxgraph.qa.evaluation.config.eval_config import EvalConfig as TheirConfig

    run = EvalConfig.default()
    run.prices = dict(PRICES)
    run.agent_model, run.max_cost = "agent-model", 1.5
    run.to_file(tmp_path / "priced.json")
    back = EvalConfig.from_file(tmp_path / "priced.json")
    assert (back.prices, back.agent_model, back.max_cost) == (PRICES, "agent-model", 1.5)
    TheirConfig.model_validate_json((tmp_path / "priced.json").read_text())
    EvalConfig.default().to_file(tmp_path / "plain.json")
    plain = json.loads((tmp_path / "plain.json").read_text())
    assert not {"prices", "agent_model", "max_cost"} & set(plain)


def test_a_bad_price_is_refused_with_its_place(tmp_path: Path) -> None:
    from tenxeval_tui.evaluation import EvalFileError

    path = tmp_path / "bad.json"
    path.write_text('{"prices": {"m": {"input": -1, "output": 2}}}', encoding="utf-8")
    with pytest.raises(EvalFileError) as caught:
        EvalConfig.from_file(path)
    assert "prices.m.input" in str(caught.value)


async def test_a_repeated_case_costs_its_runs_and_max_cost_counts_runs(
    judge_env: JudgeServer,
) -> None:
    judge_env.fallback = judge
    per_run = JUDGE_CALL + AGENT_CALL
    app, collector = create_eval_app(agent)
    priced = config(prices=PRICES, agent_model="agent-model", repeats=3)
    report = await AgentEvaluator(app, collector, priced).evaluate(eval_set(2))
    for result in report.results:
        assert result.cost_usd == pytest.approx(3 * per_run)
        assert [r.cost_usd for r in result.runs] == pytest.approx([per_run] * 3)
        judged = result.get_criterion_result("final_response_match_v2")
        assert judged is not None and judged.cost_usd == pytest.approx(3 * JUDGE_CALL)
    assert report.summary.total_cost_usd == pytest.approx(6 * per_run)
    # a budget of 4.5 runs: the first case's 3 runs and one of the second's run, then it
    # stops; the second case did not finish all its repeats and is not in the report
    capped = config(prices=PRICES, agent_model="agent-model", repeats=3, max_cost=per_run * 4.5)
    app, collector = create_eval_app(agent)
    stopped = await AgentEvaluator(app, collector, capped).evaluate(eval_set(2))
    assert [r.eval_id for r in stopped.results] == ["c0"]
    assert stopped.is_partial and stopped.metadata["not_run"] == ["c1"]
    assert len(judge_env.requests) == 6 + 4
