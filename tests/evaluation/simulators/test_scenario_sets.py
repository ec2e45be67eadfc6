"""Scenario files as eval sets (what run plans select) and the runner simulating them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    CriterionConfig,
    EvalConfig,
    EvaluationRunner,
    Trace,
    create_eval_app,
)
from tenxeval_tui.evaluation.config.eval_config import CriteriaConfig
from tenxeval_tui.evaluation.config.prices import ModelPrice
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig, UserSimulatorConfig
from tenxeval_tui.evaluation.simulators.runner import simulator_for
from tenxeval_tui.evaluation.simulators.scenario_sets import (
    file_simulator_config,
    is_scenario_eval_set,
    load_run_file,
    scenario_of,
)
from tenxeval_tui.evaluation.token_usage import TokenUsage
from tests.evaluation.criteria.judge_server import JudgeServer
from tests.evaluation.simulators.scripted_user import ScriptedUser
from tests.waiting import POLL, scaled, wait_async

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "sample_evals" / "weather_graph.scenarios.json"


def test_a_scenario_file_loads_as_an_eval_set_of_one_case_per_scenario() -> None:
    eval_set = load_run_file(SAMPLE)
    assert is_scenario_eval_set(eval_set)
    assert eval_set.eval_set_id == "weather_graph_scenarios"
    assert [(c.eval_id, c.tags, c.conversation) for c in eval_set.eval_cases] == [
        ("weekend_trip", ["simulated"], []),
        ("off_topic", ["simulated"], []),
    ]
    assert scenario_of(eval_set.eval_cases[1]).max_turns == 3
    config = file_simulator_config(eval_set)
    assert config is not None and config.model == "gpt-4o-mini"
    assert eval_set.metadata["agent"] == "sample_evals.weather_graph:build_graph"
    plain = load_run_file(ROOT / "sample_evals" / "weather_graph.evalset.json")
    assert not is_scenario_eval_set(plain)


def test_the_user_model_comes_from_the_flag_then_the_file_then_the_config_then_env(
    judge_env: JudgeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_set = load_run_file(SAMPLE)
    config = EvalConfig(user_simulator_config=UserSimulatorConfig(model="from-config"))
    assert simulator_for(eval_set, config, "from-flag").model == "from-flag"
    assert simulator_for(eval_set, config).model == "gpt-4o-mini"  # the file's
    eval_set.metadata["scenario_set"]["user_simulator_config"] = {"temperature": 0.1}
    chosen = simulator_for(eval_set, config)
    assert (chosen.model, chosen.temperature) == ("from-config", 0.1)
    # A file naming no model does not get 10xGraph's default Gemini model.
    monkeypatch.setenv("TENXEVAL_USER_MODEL", "from-env")
    assert simulator_for(eval_set, EvalConfig()).settings().model == "from-env"
    # The goal judge's settings (base URL, key) reach the simulated user's model too.
    goals = CriterionConfig(judge_base_url="http://127.0.0.1:9/v1", threshold=0.5)
    judged = simulator_for(eval_set, EvalConfig(criteria=CriteriaConfig(simulation_goals=goals)))
    assert judged.base_url == "http://127.0.0.1:9/v1"
    assert [c.config.threshold for c in judged.criteria] == [0.5]
    off = goals.model_copy(update={"enabled": False})
    assert (
        simulator_for(eval_set, EvalConfig(criteria=CriteriaConfig(simulation_goals=off))).criteria
        == []
    )


async def test_the_runner_simulates_a_scenario_file_and_a_cancel_keeps_what_finished(
    judge_env: JudgeServer, tmp_path: Path
) -> None:
    hold = asyncio.Event()
    arrived: list[str] = []
    replied: list[str] = []

    async def agent(message: str, trace: Trace) -> str:
        arrived.append(message)
        if "wait" in message:
            await hold.wait()  # cancelled before it is ever set
        trace.node("MAIN", response="ok")
        replied.append(message)
        return "ok"

    path = tmp_path / "two.scenarios.json"
    path.write_text(
        '{"user_simulator_config": {"model": "sim-user", "api_style": "chat"}, "scenarios": ['
        '{"scenario_id": "quick", "starting_prompt": "hello", "max_turns": 1},'
        '{"scenario_id": "stuck", "starting_prompt": "wait for me", "max_turns": 1}]}',
        encoding="utf-8",
    )
    ScriptedUser([], lambda goal, conversation: True).install(judge_env)
    config = EvalConfig(max_concurrency=1, reporter=ReporterConfig(enabled=False))
    runner = EvaluationRunner(config)
    app, collector = create_eval_app(agent)
    task = asyncio.create_task(runner.run([(app, collector, path)], config))
    await wait_async(
        lambda: arrived == ["hello", "wait for me"],  # the second conversation waits in the agent
        lambda: asyncio.sleep(POLL),
        what="the second conversation in the agent",
    )
    assert replied == ["hello"]
    runner.cancel()
    reports = await asyncio.wait_for(task, scaled(10))
    report = reports["two"]
    assert [r.eval_id for r in report.results] == ["quick"]
    assert report.results[0].passed  # no goals: nothing to judge
    assert report.is_partial and report.metadata["scenario_run"] is True


async def test_conversations_are_priced_and_max_cost_stops_the_next(
    judge_env: JudgeServer, tmp_path: Path
) -> None:
    async def agent(message: str, trace: Trace) -> str:
        trace.node("MAIN", response="ok")
        return "ok"

    path = tmp_path / "priced.scenarios.json"
    path.write_text(
        '{"user_simulator_config": {"model": "sim-user", "api_style": "chat"}, "scenarios": ['
        '{"scenario_id": "first", "starting_prompt": "hi", "goals": ["g"], "max_turns": 2},'
        '{"scenario_id": "second", "starting_prompt": "hi", "goals": ["g"], "max_turns": 2}]}',
        encoding="utf-8",
    )
    ScriptedUser(["and then?"] * 4, lambda goal, conversation: False).install(judge_env)
    prices = {"sim-user": ModelPrice(input=1000, output=2000)}
    config = EvalConfig(
        max_concurrency=1,
        prices=prices,
        max_cost=1e-9,  # the first conversation's cost is already more
        reporter=ReporterConfig(enabled=False),
    )
    app, collector = create_eval_app(agent)
    report = (await EvaluationRunner(config).run([(app, collector, path)], config))["priced"]
    (first,) = report.results
    usage = TokenUsage.model_validate(first.metadata["simulation"]["simulator_token_usage"])
    assert usage.input_tokens > 0
    # Only the simulated user's model is priced here (no agent_model, the judge unpriced).
    assert first.cost_usd == pytest.approx(prices["sim-user"].cost(usage))
    assert report.metadata["stopped_by"] == "max_cost"
    assert report.metadata["not_run"] == ["second"]
