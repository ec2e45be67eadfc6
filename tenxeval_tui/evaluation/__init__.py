"""The evaluation core: the 10xGraph evaluation API, with no UI import anywhere in it.

Every public name is importable from here; modules load on first use so that
``import tenxeval_tui.evaluation`` stays fast (see ``bench/startup.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from typing import Any

from tenxeval_tui.evaluation import _wiring

# public name -> module (relative to this package) that defines it
_EXPORTS: dict[str, str] = {
    # eval sets
    "EvalSet": "dataset.eval_set",
    "EvalCase": "dataset.eval_set",
    "Invocation": "dataset.eval_set",
    "MessageContent": "dataset.eval_set",
    "SessionInput": "dataset.eval_set",
    "ToolCall": "dataset.eval_set",
    "TrajectoryStep": "dataset.eval_set",
    "StepType": "dataset.eval_set",
    "validate_eval_set_file": "dataset.eval_set",
    "EvalSetBuilder": "dataset.builder",
    "EvalFileError": "errors",
    "Problem": "errors",
    # configuration
    "EvalConfig": "config.eval_config",
    "CriteriaConfig": "config.eval_config",
    "CriterionConfig": "config.eval_config",
    "MatchType": "config.eval_config",
    "ReporterConfig": "config.eval_config",
    "Rubric": "config.eval_config",
    "EvalPresets": "config.presets",
    "ModelPrice": "config.prices",
    "CostBudget": "cost",
    "UserSimulatorConfig": "config.reporter_config",
    # execution and results
    "ExecutionResult": "execution.result",
    "NodeResponseData": "execution.result",
    "TokenUsage": "token_usage",
    "CriterionResult": "eval_result",
    "EvalCaseResult": "eval_result",
    "EvalSummary": "eval_result",
    "EvalReport": "eval_result",
    "NodeDetail": "eval_result",
    # criteria
    "BaseCriterion": "criteria",
    "SyncCriterion": "criteria",
    "CompositeCriterion": "criteria",
    "WeightedCriterion": "criteria",
    "CriterionConfigError": "criteria",
    "register_criterion": "criteria",
    "build_criteria": "criteria",
    # --- deterministic criteria (criteria/trajectory.py, criteria/response.py) ---
    "TrajectoryMatchCriterion": "criteria.trajectory",
    "ToolNameMatchCriterion": "criteria.trajectory",
    "NodeOrderMatchCriterion": "criteria.trajectory",
    "ResponseMatchCriterion": "criteria.response",
    "RougeMatchCriterion": "criteria.response",
    "ExactMatchCriterion": "criteria.response",
    "ContainsKeywordsCriterion": "criteria.response",
    # --- judged criteria and judges (criteria/llm_*.py and one module each, judges.py) ---
    "LLMJudgeCriterion": "criteria.llm_judge",
    "HallucinationCriterion": "criteria.hallucination",
    "FactualAccuracyCriterion": "criteria.factual_accuracy",
    "SafetyCriterion": "criteria.safety",
    "RubricBasedCriterion": "criteria.rubric",
    "SimulationGoalsCriterion": "criteria.simulation_goals",
    "TrajectoryJudgeCriterion": "criteria.trajectory_judge",
    "JudgedCriterion": "criteria.llm_base",
    "LLMCallerMixin": "criteria.llm_utils",
    "JudgeModel": "judges.models",
    "JudgeReply": "judges.models",
    "JudgeSettings": "judges.models",
    "JudgeError": "judges.models",
    "JudgeCache": "judges.models",
    "JudgePool": "judges.pool",
    "OpenAIJudge": "judges.models",
    # --- events, collectors, agents (events.py, collectors.py, targets/) ---
    "Event": "events",
    "EventType": "events",
    "EventModel": "events",
    "EventCollector": "collectors.trajectory_collector",
    "TrajectoryCollector": "collectors.trajectory_collector",
    "Subscription": "collectors.trajectory_collector",
    "PublisherCallback": "collectors.trajectory_collector",
    "make_trajectory_callback": "collectors.trajectory_collector",
    "AgentApp": "targets",
    "Trace": "targets",
    "wrap_agent": "targets",
    "make_eval_app": "targets",
    "load_target": "targets",
    # --- evaluator and runner (evaluator.py, runner.py) ---
    "AgentEvaluator": "evaluator",
    "EvaluationRunner": "runner",
    "RunObserver": "observers",
    "JsonLinesObserver": "observers",
    "OpenTelemetryObserver": "otel",
    "replay_json_lines": "observers",
    "RepeatStats": "stats",
    "RunRepeatStats": "stats",
    "pass_at_k": "stats",
    "pass_hat_k": "stats",
    "wilson_interval": "stats",
    "fisher_one_sided": "stats",
    "RepeatsError": "repeats",
    "resolve_repeats": "repeats",
    "aggregate_repeats": "repeats",
    "rescore_report": "rescore",
    "actual_as_expected": "actual",
    "first_divergence": "analysis.flakiness",
    "case_histories": "analysis.flakiness",
    "pick_cases": "subsets",
    "unfinished": "subsets",
    "merge_results": "subsets",
    "evaluate_with_retries": "subsets",
    "compare_reports": "analysis.compare",
    "RunJournal": "results.journal",
    "read_journal": "results.journal",
    "report_from_journal": "results.journal",
    # --- user simulation (simulators/) ---
    "UserSimulator": "simulators.user_simulator",
    "BatchSimulator": "simulators.user_simulator",
    "ConversationScenario": "simulators.scenario",
    "SimulationResult": "simulators.result",
    "SimulationError": "simulators.simulated_user",
    "ScenarioSet": "simulators.scenario",
    "validate_scenario_file": "simulators.scenario",
    "run_scenarios": "simulators.runner",
    # --- reporting (reporters/) ---
    "Colors": "reporters.console",
    "ReporterManager": "reporters",
    "ReporterOutput": "reporters",
    "print_report": "reporters",
    "BaseReporter": "reporters",
    "ConsoleReporter": "reporters",
    "JSONReporter": "reporters",
    "HTMLReporter": "reporters",
    "JUnitXMLReporter": "reporters",
    "CsvReporter": "reporters",
    "JsonlReporter": "reporters",
    "write_report": "reporters",
    # --- pytest helpers (testing.py) ---
    "QuickEval": "quick_eval",
    "create_eval_app": "testing",
    "run_eval": "testing",
    "run_eval_sync": "testing",
    "create_simple_eval_set": "dataset.builder",
    "eval_test": "testing",
    "parametrize_eval_cases": "testing",
    "assert_eval_passed": "testing",
    "assert_criterion_passed": "testing",
    "EvalTestCase": "testing",
    "EvalFixtures": "testing",
    "EvalPlugin": "testing",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{module_name}")
    value = getattr(module, name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


def _criterion_names() -> Collection[str]:
    # lazy: the criteria (and pydantic) load when a config first names a custom criterion
    from tenxeval_tui.evaluation.criteria.base import registered_criteria

    return registered_criteria()


def _report_page(report: Any) -> str:
    # lazy: the HTML reporter (and Jinja) load when a notebook first shows a report
    from tenxeval_tui.evaluation.reporters.html import HTMLReporter

    return HTMLReporter().render(report)


# config and eval_result sit below the criteria and the reporters: their calls up are bound
# here (see _wiring), where every import of the core passes first.
_wiring.criterion_names = _criterion_names
_wiring.report_page = _report_page
