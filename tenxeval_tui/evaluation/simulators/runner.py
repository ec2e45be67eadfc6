"""Scenario runs: many simulated conversations as one evaluation run with an :class:`EvalReport`.

:func:`run_scenarios` is the entry point front ends use to run a scenario file
like an eval set: each scenario is a case of the run (its id the scenario's),
observers see the same calls as for an eval run (``on_run_start``, per case
``on_case_start``, every event (each simulated user message as a
``graph_execution`` ``progress`` event, each turn's end with both messages),
``on_case_end``, ``on_run_end``), and the report's case results hold the
conversation (``turn_results``, ``messages``, ``metadata["simulation"]``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.evaluation.criteria.simulation_goals import SimulationGoalsCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.evaluator import write_reports
from tenxeval_tui.evaluation.observers import ObserverGroup, RunObserver
from tenxeval_tui.evaluation.simulators.scenario import ConversationScenario, ScenarioSet
from tenxeval_tui.evaluation.simulators.user_simulator import (
    DEFAULT_TIMEOUT,
    UserSimulator,
    app_and_collector,
    scenario_case,
)

SCENARIO_RUN_KEY = "scenario_run"
"""``EvalReport.metadata`` key marking a report of simulated conversations."""


async def run_scenarios(
    target: Any,
    scenarios: ScenarioSet | Sequence[ConversationScenario] | str | Path,
    *,
    simulator: UserSimulator | None = None,
    observers: Sequence[RunObserver] = (),
    max_concurrency: int = 4,
    timeout: float = DEFAULT_TIMEOUT,
    reporter: ReporterConfig | None = None,
    output_dir: str | None = None,
) -> EvalReport:
    """Simulate every scenario against ``target`` and report them like an eval run.

    ``target`` is what :meth:`UserSimulator.run` takes (an app from
    ``create_eval_app``, its pair, a ``StateGraph`` or a plain agent);
    ``scenarios`` a :class:`ScenarioSet`, its file's path, or a list (then the
    report's eval set id is ``"scenarios"``). ``simulator`` defaults to one
    made from the file's ``user_simulator_config`` (else the defaults) judging
    with :class:`SimulationGoalsCriterion` (threshold 0.8), so a goal the
    conversation missed fails its case. ``max_concurrency`` scenarios run at
    once; ``timeout`` bounds each conversation. Reports are written only when
    ``reporter`` is given (enabled), into ``output_dir`` or its ``output_dir``.
    Raises ``ValueError`` before anything runs when the simulated user's model
    (or the goal judge) is not set up.
    """
    scenario_set = _as_scenario_set(scenarios)
    simulator = simulator or _default_simulator(scenario_set)
    simulator.settings()  # a missing model or key is said once, before any case starts
    _check_criteria(simulator)
    app_pair = app_and_collector(target)
    eval_set = EvalSet(
        eval_set_id=scenario_set.scenario_set_id,
        name=scenario_set.name,
        description=scenario_set.description,
        metadata=dict(scenario_set.metadata),
    )
    cases = [scenario_case(s, None) for s in scenario_set.scenarios]
    notify = ObserverGroup(observers)
    notify.run_start(eval_set, cases)
    limit = asyncio.Semaphore(max(1, max_concurrency))
    simulator.judge_pool.limit_to(max(1, max_concurrency))

    async def one(scenario: ConversationScenario) -> EvalCaseResult:
        async with limit:
            result, _ = await simulator.simulate(
                app_pair,
                scenario,
                eval_set_id=eval_set.eval_set_id,
                observers=observers,
                timeout=timeout,
            )
            return result

    results = list(await asyncio.gather(*(one(s) for s in scenario_set.scenarios)))
    report = EvalReport.create(
        eval_set_id=eval_set.eval_set_id,
        results=results,
        eval_set_name=eval_set.name,
        metadata={SCENARIO_RUN_KEY: True},
    )
    notify.run_end(report)
    if reporter is not None:
        write_reports(report, EvalConfig(reporter=reporter), output_dir)
    return report


def _as_scenario_set(
    scenarios: ScenarioSet | Sequence[ConversationScenario] | str | Path,
) -> ScenarioSet:
    if isinstance(scenarios, ScenarioSet):
        if not scenarios.scenario_set_id:
            return scenarios.model_copy(update={"scenario_set_id": "scenarios"})
        return scenarios
    if isinstance(scenarios, str | Path):
        return ScenarioSet.from_file(scenarios)
    return ScenarioSet(scenario_set_id="scenarios", scenarios=list(scenarios))


def _default_simulator(scenario_set: ScenarioSet) -> UserSimulator:
    return UserSimulator(
        config=scenario_set.user_simulator_config, criteria=[SimulationGoalsCriterion()]
    )


def _check_criteria(simulator: UserSimulator) -> None:
    problems = [p for c in simulator.criteria for p in c.validate_config()]
    if problems:
        raise ValueError("; ".join(problems))


__all__ = ["SCENARIO_RUN_KEY", "run_scenarios"]
