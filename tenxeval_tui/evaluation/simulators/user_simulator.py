"""User simulation (10xGraph's API): an LLM plays the user of a multi-turn conversation.

:class:`UserSimulator` runs one :class:`ConversationScenario` against the agent
under test, through the same :class:`~tenxeval_tui.evaluation.AgentEvaluator`
turn loop as an eval case: one user message per turn on one thread, every
event collected and sent to the run's observers, the case's timeout over the
whole conversation. The simulated user (:mod:`.simulated_user`) is asked
through our judge client (the official ``openai`` client, ``api_style``
``"responses"`` or ``"chat"``). When the conversation ends, the simulator's
``criteria`` score it as 10xGraph's do: ``actual_response`` is the whole
transcript and the scenario's goals are the expected reply (and
``case.metadata["goals"]``). :class:`BatchSimulator` runs many scenarios at
once; :func:`~tenxeval_tui.evaluation.simulators.runner.run_scenarios` runs them
as an eval run that returns an :class:`EvalReport`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator, score_criteria
from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.config.eval_config import CriteriaConfig, EvalConfig
from tenxeval_tui.evaluation.config.prices import PriceTable
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig, UserSimulatorConfig
from tenxeval_tui.evaluation.criteria.base import BaseCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, Invocation, MessageContent
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.judges.models import JudgeSettings
from tenxeval_tui.evaluation.judges.pool import JudgePool
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.simulators.result import SIMULATION_KEY, SimulationResult
from tenxeval_tui.evaluation.simulators.scenario import ConversationScenario
from tenxeval_tui.evaluation.simulators.scenario_sets import scenario_case
from tenxeval_tui.evaluation.simulators.simulated_user import (
    SimulatedUser,
    UserModel,
    transcript,
)
from tenxeval_tui.evaluation.tools.run import ToolRun

logger = logging.getLogger("tenxeval_tui.evaluation")

ENV_USER_MODEL = "TENXEVAL_USER_MODEL"
"""Model of the simulated user when none is given (then ``TENXEVAL_JUDGE_MODEL``)."""
DEFAULT_TIMEOUT = 300.0


def app_and_collector(target: Any) -> tuple[Any, TrajectoryCollector]:
    """The ``(app, collector)`` to run: ``create_eval_app``'s pair, one of its apps, an
    uncompiled 10xGraph graph or a plain agent (made into an app here)."""
    if isinstance(target, tuple) and len(target) == 2:
        return target[0], target[1]
    collector = getattr(target, "collector", None) or getattr(target, "tenxeval_collector", None)
    if isinstance(collector, TrajectoryCollector):
        return target, collector
    if hasattr(target, "ainvoke") and type(target).__module__.startswith("tenxgraph."):
        # A graph compiled elsewhere: it runs, but its events never reach a collector.
        return target, TrajectoryCollector()
    from tenxeval_tui.evaluation.targets import make_eval_app

    return make_eval_app(target)


class UserSimulator:
    """An LLM playing the user: runs scenarios against an agent (10xGraph's signature).

    ``model`` is the simulated user's model (``None``: ``$TENXEVAL_USER_MODEL``,
    else ``$TENXEVAL_JUDGE_MODEL``; 10xGraph defaults to a Gemini model, we never
    choose one for you). ``max_turns`` caps the user's messages when a scenario
    sets none. ``config`` (a :class:`UserSimulatorConfig`) overrides model,
    temperature, turns (``max_invocations``) and ``api_style``. ``criteria``
    score each finished conversation (e.g. :class:`SimulationGoalsCriterion`).
    ``api_style`` is ``"responses"`` (OpenAI's Responses API, the default) or
    ``"chat"`` (chat completions, which every compatible server speaks).

    Ours, keyword-only: ``base_url`` (else ``$OPENAI_BASE_URL``), ``api_key_env``
    (the variable holding the key), ``timeout`` (per model call) and
    ``max_retries``, as for judges; ``judge_pool`` to share clients and a bound on
    calls in flight.
    """

    def __init__(
        self,
        model: str | None = None,
        temperature: float = 0.7,
        max_turns: int = 10,
        config: UserSimulatorConfig | None = None,
        criteria: list[BaseCriterion] | None = None,
        api_style: str = "responses",
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 60.0,
        max_retries: int = 4,
        judge_pool: JudgePool | None = None,
    ) -> None:
        if config is not None:
            model, temperature = config.model, config.temperature
            max_turns, api_style = config.max_invocations, config.api_style
        self.model = model
        self.temperature = temperature
        self.max_turns = max_turns
        self.api_style = api_style
        self.criteria: list[BaseCriterion] = list(criteria or [])
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.timeout = timeout
        self.max_retries = max_retries
        self.judge_pool = judge_pool or JudgePool()

    def settings(self, environ: Mapping[str, str] | None = None) -> JudgeSettings:
        """How the simulated user's model is called; ``ValueError`` says what is missing."""
        env = os.environ if environ is None else environ
        config = CriterionConfig(
            judge_model=self.model or env.get(ENV_USER_MODEL) or None,
            judge_base_url=self.base_url,
            judge_api_key_env=self.api_key_env,
            judge_temperature=self.temperature,
            judge_timeout=self.timeout,
            judge_max_retries=self.max_retries,
            judge_cache=False,  # a simulated user answers afresh on every run
            api_style=self.api_style,
        )
        try:
            return JudgeSettings.from_config("user simulator", config, env)
        except ValueError as exc:
            raise ValueError(
                f"{exc} (the simulated user's model may also come from ${ENV_USER_MODEL})"
            ) from None

    async def run(
        self,
        graph: Any,
        scenario: ConversationScenario,
        config: dict[str, Any] | None = None,
    ) -> SimulationResult:
        """Simulate ``scenario`` against ``graph`` (an app from ``create_eval_app``, its
        ``(app, collector)`` pair, a ``StateGraph`` or a plain agent); ``config`` is
        passed to every turn of the agent. Raises ``ValueError`` when the simulated
        user's model is not set up; anything else ends up in ``result.error``."""
        _, result = await self.simulate(graph, scenario, agent_config=config)
        return result

    async def simulate(
        self,
        graph: Any,
        scenario: ConversationScenario,
        *,
        agent_config: dict[str, Any] | None = None,
        eval_set_id: str = "",
        observers: Sequence[RunObserver] = (),
        timeout: float = DEFAULT_TIMEOUT,
        prices: PriceTable | None = None,
        agent_model: str | None = None,
        tools: ToolRun | None = None,
    ) -> tuple[EvalCaseResult, SimulationResult]:
        """Simulate ``scenario`` as a case of ``eval_set_id``, followed by ``observers``.

        Returns the case result (its ``turn_results`` and ``messages`` hold the
        conversation, ``metadata["simulation"]`` the scenario's outcome) and the
        :class:`SimulationResult` made from it. ``timeout`` (seconds) covers the
        whole conversation. With ``prices`` (an ``EvalConfig.prices`` table) the
        case's ``cost_usd`` is priced as an eval case's (the agent's tokens at
        ``agent_model``'s price, each judge's at its model's) plus the simulated
        user's tokens at its model's price (a model not in the table adds nothing).
        ``tools`` (a :class:`~tenxeval_tui.evaluation.tools.run.ToolRun`) controls the
        agent's tools as in an eval run: record, replay, fakes and faults, from the
        scenario's ``metadata.tools`` and its scenario file's.
        """
        app, collector = app_and_collector(graph)
        settings = self.settings()
        user = SimulatedUser(
            scenario,
            scenario.max_turns or self.max_turns,
            UserModel(settings, self.judge_pool),
        )
        case = scenario_case(scenario, agent_config)
        run_config = EvalConfig(
            criteria=CriteriaConfig(),
            timeout=timeout,
            reporter=ReporterConfig(enabled=False),
            prices=dict(prices or {}),
            agent_model=agent_model,
        )
        user_price = (prices or {}).get(settings.model)
        evaluator = AgentEvaluator(app, collector, run_config, observers=observers, tools=tools)

        async def score(execution: ExecutionResult, ran: EvalCase) -> list[CriterionResult]:
            return await self._score(user, execution, scenario)

        def finish(result: EvalCaseResult) -> None:
            result.metadata[SIMULATION_KEY] = _outcome(user, result)
            result.token_usage = result.token_usage + user.token_usage
            if user_price is not None:
                result.cost_usd = (result.cost_usd or 0.0) + user_price.cost(user.token_usage)

        result = await evaluator.evaluate_case(
            case, eval_set_id, next_turn=user.next_turn, score=score, finish=finish
        )
        return result, SimulationResult.from_case_result(result)

    async def _score(
        self, user: SimulatedUser, execution: ExecutionResult, scenario: ConversationScenario
    ) -> list[CriterionResult]:
        if not self.criteria or not user.conversation:
            return []
        whole = execution.model_copy(update={"actual_response": transcript(user.conversation)})
        return await score_criteria(self.criteria, whole, _scoring_case(scenario))


def _scoring_case(scenario: ConversationScenario) -> EvalCase:
    """10xGraph's case for scoring a simulation: the opening, and the goals as the reply."""
    goals = "; ".join(scenario.goals)
    return EvalCase(
        eval_id=scenario.scenario_id or "simulation",
        name=scenario.description,
        conversation=[
            Invocation(
                user_content=MessageContent.user(scenario.starting_prompt or scenario.description),
                expected_final_response=MessageContent.assistant(goals) if goals else None,
            )
        ],
        metadata={"goals": list(scenario.goals)},
    )


def _outcome(user: SimulatedUser, result: EvalCaseResult) -> dict[str, Any]:
    conversation = list(user.conversation)
    return {
        "scenario_id": user.scenario.scenario_id,
        "goals": list(user.scenario.goals),
        "goals_achieved": list(user.goals_achieved),
        "completed": result.error is None and user.completed,
        "max_turns": user.max_turns,
        "turns": sum(1 for m in conversation if m["role"] == "user"),
        "conversation": conversation,
        "simulator_token_usage": user.token_usage.model_dump(mode="json"),
    }


class BatchSimulator:
    """Runs many scenarios with one :class:`UserSimulator`, ``max_concurrency`` at once."""

    def __init__(
        self, simulator: UserSimulator | None = None, max_concurrency: int = 5, **kwargs: Any
    ) -> None:
        self.simulator = simulator or UserSimulator(**kwargs)
        self.max_concurrency = max_concurrency

    async def run_batch(
        self,
        graph: Any,
        scenarios: list[ConversationScenario],
        config: dict[str, Any] | None = None,
    ) -> list[SimulationResult]:
        """Every scenario's result, in the order of ``scenarios``."""
        limit = asyncio.Semaphore(max(1, self.max_concurrency))
        target = app_and_collector(graph)

        async def one(scenario: ConversationScenario) -> SimulationResult:
            async with limit:
                return await self.simulator.run(target, scenario, config)

        return list(await asyncio.gather(*(one(s) for s in scenarios)))

    def summary(self, results: list[SimulationResult]) -> dict[str, Any]:
        """Totals of a batch (10xGraph's keys)."""
        total = len(results)
        completed = sum(1 for r in results if r.completed)
        return {
            "total_scenarios": total,
            "completed": completed,
            "completion_rate": completed / total if total else 0.0,
            "total_goals_achieved": sum(len(r.goals_achieved) for r in results),
            "average_turns": sum(r.turns for r in results) / total if total else 0,
            "errors": sum(1 for r in results if r.error),
        }


__all__ = [
    "BatchSimulator",
    "ConversationScenario",
    "SimulationResult",
    "UserSimulator",
    "app_and_collector",
    "scenario_case",
]
