"""Scenario runs: many simulated conversations as one evaluation run with an :class:`EvalReport`.

:class:`ScenarioEvaluator` runs the cases of a scenario file's eval set
(:mod:`.scenario_sets`) through a :class:`UserSimulator`, the way
:class:`~tenxeval_tui.evaluation.AgentEvaluator` runs an eval set: each scenario
is a case of the run (its id the scenario's), observers see the same calls
(``on_run_start``, per case ``on_case_start``, every event (each simulated user
message as a ``graph_execution`` ``progress`` event, each turn's end with both
messages), ``on_case_end``, ``on_run_end``), :meth:`~ScenarioEvaluator.cancel`
stops it with a partial report, and the report's case results hold the
conversation (``turn_results``, ``messages``, ``metadata["simulation"]``).
:class:`~tenxeval_tui.evaluation.EvaluationRunner` uses it for scenario files
(so the CLI and the workbench run them like eval sets), with the simulated user
made by :func:`simulator_for`; :func:`run_scenarios` is the one-call entry point.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.agent_evaluator import write_reports
from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.config.prices import PriceTable
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.evaluation.cost import CostBudget
from tenxeval_tui.evaluation.criteria.base import BaseCriterion
from tenxeval_tui.evaluation.criteria.simulation_goals import SimulationGoalsCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.observers import ObserverGroup, RunObserver
from tenxeval_tui.evaluation.simulators.scenario import ConversationScenario, ScenarioSet
from tenxeval_tui.evaluation.simulators.scenario_sets import (
    file_simulator_config,
    scenario_eval_set,
    scenario_of,
)
from tenxeval_tui.evaluation.simulators.user_simulator import (
    DEFAULT_TIMEOUT,
    UserSimulator,
    app_and_collector,
)
from tenxeval_tui.evaluation.tools.run import ToolRun

SCENARIO_RUN_KEY = "scenario_run"
"""``EvalReport.metadata`` key marking a report of simulated conversations."""


class ScenarioEvaluator:
    """Simulates the scenarios of a scenario file's eval set against one agent.

    ``target`` is what :meth:`UserSimulator.run` takes (an app from
    ``create_eval_app``, its pair, a ``StateGraph`` or a plain agent);
    ``simulator`` plays the user and scores each conversation with its criteria.
    ``max_concurrency`` conversations run at once; ``timeout`` bounds each one;
    ``config_used`` goes into the report as the eval runs' does. ``prices`` and
    ``agent_model`` price each conversation (see :meth:`UserSimulator.simulate`), and
    ``budget`` (a shared :class:`CostBudget`) starts no conversation that would take
    the run past its ``max_cost`` (the report then says which did not run). ``tools``
    controls the agent's tools in every conversation (record, replay, fakes, faults:
    :mod:`~tenxeval_tui.evaluation.tools`).
    """

    def __init__(
        self,
        target: Any,
        simulator: UserSimulator,
        *,
        observers: Sequence[RunObserver] = (),
        max_concurrency: int = 4,
        timeout: float = DEFAULT_TIMEOUT,
        config_used: dict[str, Any] | None = None,
        prices: PriceTable | None = None,
        agent_model: str | None = None,
        budget: CostBudget | None = None,
        tools: ToolRun | None = None,
    ) -> None:
        self.target = app_and_collector(target)
        self.tools = tools
        self.prices = dict(prices or {})
        self.agent_model = agent_model
        self.budget = budget
        self.simulator = simulator
        self.observers = list(observers)
        self.max_concurrency = max(1, max_concurrency)
        self.timeout = timeout
        self.config_used = config_used or {}
        self.partial_report: EvalReport | None = None
        self._stopping = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def evaluate(self, eval_set: EvalSet) -> EvalReport:
        """Simulate every case's scenario (``case.metadata["scenario"]``), reported in case
        order. After :meth:`cancel` the report holds the finished cases and is partial; if
        the calling task is cancelled, that partial report is kept in
        :attr:`partial_report` and the cancellation propagates."""
        cases = list(eval_set.eval_cases)
        scenarios = [scenario_of(case) for case in cases]
        notify = ObserverGroup(self.observers)
        self._stopping = False
        self.partial_report = None
        notify.run_start(eval_set, cases)
        results: list[EvalCaseResult | None] = [None] * len(cases)
        limit = asyncio.Semaphore(self.max_concurrency)
        self.simulator.judge_pool.limit_to(self.max_concurrency)

        budget = self.budget

        async def one(index: int, scenario: ConversationScenario) -> None:
            async with limit:
                if self._stopping or (budget is not None and not budget.allows_another()):
                    return
                if budget is not None:
                    budget.started()
                result, _ = await self.simulator.simulate(
                    self.target,
                    scenario,
                    eval_set_id=eval_set.eval_set_id,
                    observers=self.observers,
                    timeout=self.timeout,
                    prices=self.prices,
                    agent_model=self.agent_model,
                    tools=self.tools,
                )
                if budget is not None:
                    budget.ended(result)
                results[index] = result

        try:
            async with asyncio.TaskGroup() as group:
                for index, scenario in enumerate(scenarios):
                    task = group.create_task(one(index, scenario))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
        except asyncio.CancelledError:
            self.partial_report = self._report(eval_set, results)
            notify.run_end(self.partial_report)
            raise
        stopped = budget.stop_note(cases, results) if budget is not None else None
        report = self._report(eval_set, results, stopped)
        if report.is_partial:
            self.partial_report = report
        notify.run_end(report)
        return report

    def cancel(self) -> None:
        """Stop the running :meth:`evaluate`: no new conversation starts, running ones are
        cancelled (they are left out of the report, which is marked partial)."""
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()

    def _report(
        self,
        eval_set: EvalSet,
        results: list[EvalCaseResult | None],
        stopped: dict[str, Any] | None = None,
    ) -> EvalReport:
        metadata: dict[str, Any] = {SCENARIO_RUN_KEY: True, **(stopped or {})}
        if any(r is None for r in results):
            metadata[PARTIAL_KEY] = True
        return EvalReport.create(
            eval_set_id=eval_set.eval_set_id,
            results=[r for r in results if r is not None],
            eval_set_name=eval_set.name,
            config_used=self.config_used,
            metadata=metadata,
        )


def simulator_for(
    eval_set: EvalSet, config: EvalConfig, user_model: str | None = None
) -> UserSimulator:
    """The simulated user of a scenario file's run, and the goal judge it scores with.

    Settings, first found wins: the model is ``user_model`` (``run --user-model``),
    else the file's ``user_simulator_config.model``, else the config's
    ``user_simulator_config.model``, else ``$TENXEVAL_USER_MODEL``, else
    ``$TENXEVAL_JUDGE_MODEL``; temperature, turns (``max_invocations``) and
    ``api_style`` are the file's, else the config's, else 10xGraph's defaults.
    The goals are judged by the config's ``simulation_goals`` criterion (no judge
    when it is there but disabled), else by a default one; the user's model is
    reached as that criterion's judge is: its ``judge_base_url``/``judge_api_key_env``/
    ``judge_timeout``/``judge_max_retries``, else ``$OPENAI_BASE_URL`` and
    ``$OPENAI_API_KEY``. Raises ``ValueError`` saying what is not set up.
    """
    chosen: dict[str, Any] = {}
    for source in (config.user_simulator_config, file_simulator_config(eval_set)):
        if source is not None:
            chosen.update(source.model_dump(include=source.model_fields_set))
    goals = config.criteria.simulation_goals or CriterionConfig()
    criteria: list[BaseCriterion] = [SimulationGoalsCriterion(goals)] if goals.enabled else []
    simulator = UserSimulator(
        model=user_model or chosen.get("model") or None,
        temperature=chosen.get("temperature", 0.7),
        max_turns=chosen.get("max_invocations", 10),
        criteria=criteria,
        api_style=chosen.get("api_style", "responses"),
        base_url=goals.judge_base_url,
        api_key_env=goals.judge_api_key_env,
        timeout=goals.judge_timeout,
        max_retries=goals.judge_max_retries,
    )
    simulator.settings()  # a missing model or key is said once, before any case starts
    _check_criteria(simulator)
    return simulator


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
    evaluator = ScenarioEvaluator(
        target,
        simulator,
        observers=observers,
        max_concurrency=max_concurrency,
        timeout=timeout,
    )
    report = await evaluator.evaluate(scenario_eval_set(scenario_set))
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


__all__ = ["SCENARIO_RUN_KEY", "ScenarioEvaluator", "run_scenarios", "simulator_for"]
