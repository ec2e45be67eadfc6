"""EvaluationRunner: several agents on several eval sets, reports written once each.

Progress is followed through run observers (:mod:`.observers`): the CLI's
progress bar, the TUI's worker and the run journal (:mod:`~tenxeval_tui.evaluation.results.journal`) all plug
in here.

10xGraph's module of both evaluators: :class:`AgentEvaluator` (one agent on one eval
set's cases) lives in :mod:`.agent_evaluator`, below this module, and is importable here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.agent_evaluator import (
    AgentEvaluator,
    NextTurn,
    Scorer,
    score_criteria,
    write_reports,
)
from tenxeval_tui.evaluation.case_control import StopMode
from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.cost import CostBudget
from tenxeval_tui.evaluation.criteria import build_criteria
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_eval_set, load_run_file
from tenxeval_tui.evaluation.tools.run import ToolRun

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.simulators.runner import ScenarioEvaluator

logger = logging.getLogger("tenxeval_tui.evaluation.runner")

Evaluation = tuple[Any, TrajectoryCollector, EvalSet | str | Path]


class EvaluationRunner:
    """Runs ``(app, collector, eval_set_or_path)`` triples in sequence and keeps every report.

    ``results`` holds reports keyed by ``eval_set_id`` across :meth:`run` calls
    (a later report of the same id replaces the earlier). ``observers`` follow
    every case of every run.

    An eval set made of a scenario file (``NAME.scenarios.json``, loaded by
    :func:`~tenxeval_tui.evaluation.simulators.scenario_sets.load_run_file`) runs
    through the user simulator (:class:`~.simulators.runner.ScenarioEvaluator`), its
    simulated user set up by :func:`~.simulators.runner.simulator_for` with
    ``user_model`` (ours) winning over the file's and the config's model.

    ``tools`` (a :class:`~.tools.run.ToolRun`) controls the agents' tools: every
    evaluator of the run records, replays, fakes and breaks them as it says.
    """

    def __init__(
        self,
        default_config: EvalConfig | None = None,
        *,
        observers: Sequence[RunObserver] = (),
        user_model: str | None = None,
        tools: ToolRun | None = None,
        provenances: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        self.default_config = default_config or EvalConfig.default()
        self.provenances = dict(provenances or {})
        """Each eval set's report provenance by eval set id, when the caller worked it out
        already (a run's worker): not worked out again (see
        :attr:`AgentEvaluator.provenance`)."""
        self.tools = tools or ToolRun()
        self.observers = list(observers)
        self.user_model = user_model
        self.results: dict[str, EvalReport] = {}
        self._current: AgentEvaluator | ScenarioEvaluator | None = None
        self._current_set = ""
        self._cancelled = False

    async def run(
        self,
        evaluations: Sequence[Evaluation],
        config: EvalConfig | None = None,
        verbose: bool = False,
    ) -> dict[str, EvalReport]:
        """Evaluate each triple, then run the reporters once per report.

        Eval set files (and scenario files) are loaded, criteria built and simulated
        users set up before anything runs, so a broken file, criterion or user model
        fails at once (``ValueError`` for the last). Reporters are skipped when
        ``config.reporter.enabled`` is false; their failures are logged, never
        raised. After :meth:`cancel` the remaining evaluations are skipped and
        the interrupted one's report is partial. Returns this run's reports.
        """
        config = config or self.default_config
        build_criteria(config)
        loaded = [
            (app, collector, es if isinstance(es, EvalSet) else self._load(es))
            for app, collector, es in evaluations
        ]
        scenario_sets = [
            eval_set
            for _, _, eval_set in loaded
            if is_scenario_eval_set(eval_set) and eval_set.eval_cases
        ]
        simulators = {}
        if scenario_sets:
            # lazy: the user simulator (its judges, its LLM client) only for a scenario file
            from tenxeval_tui.evaluation.simulators.runner import simulator_for

            simulators = {
                id(eval_set): simulator_for(eval_set, config, self.user_model)
                for eval_set in scenario_sets
            }
        self._cancelled = False
        # One budget for the whole run: max_cost holds across eval sets (a set started
        # after it ran out has every case not run).
        budget = CostBudget(config.max_cost) if config.max_cost is not None else None
        # Every report is written, also when two evaluations share an eval_set_id
        # (two agents on one file); only the returned dict and results keep the last.
        reports: list[EvalReport] = []
        for app, collector, eval_set in loaded:
            if self._cancelled:
                break
            evaluator: AgentEvaluator | ScenarioEvaluator
            if id(eval_set) in simulators:
                from tenxeval_tui.evaluation.simulators.runner import ScenarioEvaluator  # lazy

                evaluator = ScenarioEvaluator(
                    (app, collector),
                    simulators[id(eval_set)],
                    observers=self.observers,
                    max_concurrency=config.effective_concurrency,
                    timeout=config.timeout,
                    config_used=config.model_dump(mode="json"),
                    prices=config.prices,
                    agent_model=config.agent_model,
                    budget=budget,
                    tools=self.tools,
                )
            else:
                if not self.tools.knows(eval_set.eval_set_id):
                    self.tools.add_eval_set(eval_set)
                evaluator = AgentEvaluator(
                    app,
                    collector,
                    config,
                    observers=self.observers,
                    budget=budget,
                    tools=self.tools,
                )
                evaluator.provenance = self.provenances.get(eval_set.eval_set_id)
            self._current, self._current_set = evaluator, eval_set.eval_set_id
            try:
                report = await self._evaluate(evaluator, eval_set, verbose)
            except asyncio.CancelledError:
                if evaluator.partial_report is not None:
                    self.results[eval_set.eval_set_id] = evaluator.partial_report
                raise
            finally:
                self._current = None
            reports.append(report)
            self.results[report.eval_set_id] = report
        for report in reports:
            write_reports(report, config)
        return {report.eval_set_id: report for report in reports}

    def _load(self, path: str | Path) -> EvalSet:
        eval_set = load_run_file(path)
        self.tools.add_eval_set(eval_set, Path(path))
        return eval_set

    @staticmethod
    async def _evaluate(
        evaluator: AgentEvaluator | ScenarioEvaluator, eval_set: EvalSet, verbose: bool
    ) -> EvalReport:
        if isinstance(evaluator, AgentEvaluator):
            return await evaluator.evaluate(eval_set, verbose=verbose, run_reporters=False)
        return await evaluator.evaluate(eval_set)

    def stop_case(self, eval_set_id: str, eval_id: str, mode: StopMode = StopMode.CANCEL) -> bool:
        """Stop one running case, the run going on (see :meth:`AgentEvaluator.stop_case`);
        ``False`` when it is not running now."""
        current = self._current
        if not isinstance(current, AgentEvaluator) or self._current_set != eval_set_id:
            return False  # none running, another set's, or a simulated conversation
        return current.stop_case(eval_id, mode)

    def end_tool_calls(self, eval_set_id: str, eval_id: str) -> list[str]:
        """End the tool calls in flight of one running case (they fail with a timeout the
        agent sees); returns their names."""
        current = self._current
        if not isinstance(current, AgentEvaluator) or self._current_set != eval_set_id:
            return []
        return current.end_tool_calls(eval_id)

    def cancel(self) -> None:
        """Stop the running :meth:`run` promptly; finished cases are kept."""
        self._cancelled = True
        if self._current is not None:
            self._current.cancel()

    @property
    def summary(self) -> dict[str, Any]:
        """``total_evaluations``, ``total_cases``, ``passed_cases``, ``overall_pass_rate``."""
        if not self.results:
            return {"total_evaluations": 0}
        total = sum(r.summary.total_cases for r in self.results.values())
        passed = sum(r.summary.passed_cases for r in self.results.values())
        return {
            "total_evaluations": len(self.results),
            "total_cases": total,
            "passed_cases": passed,
            "overall_pass_rate": passed / total if total else 0.0,
        }


__all__ = [
    "AgentEvaluator",
    "EvaluationRunner",
    "NextTurn",
    "Scorer",
    "score_criteria",
    "write_reports",
]
