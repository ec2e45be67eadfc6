"""User simulation: an LLM plays the user of a multi-turn conversation with the agent.

10xGraph's names (``UserSimulator``, ``BatchSimulator``, ``ConversationScenario``,
``SimulationResult``) and ours: scenario files (:class:`ScenarioSet`,
:func:`validate_scenario_file`), :func:`run_scenarios` (a scenario run as an
:class:`~tenxeval_tui.evaluation.EvalReport`) and :class:`SimulationError`.
"""

from tenxeval_tui.evaluation._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "BatchSimulator": "user_simulator",
    "ConversationScenario": "scenario",
    "SimulationResult": "result",
    "UserSimulator": "user_simulator",
    "ScenarioSet": "scenario",
    "validate_scenario_file": "scenario",
    "run_scenarios": "runner",
    "SimulationError": "simulated_user",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["BatchSimulator", "ConversationScenario", "SimulationResult", "UserSimulator"]
