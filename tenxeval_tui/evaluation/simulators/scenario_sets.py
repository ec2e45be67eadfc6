"""A scenario file as an eval set, so every front end selects and runs it like one.

:func:`load_run_file` loads either kind of file a run names: an ``.evalset.json``
as an :class:`EvalSet`, a ``NAME.scenarios.json`` as an :class:`EvalSet` made by
:func:`scenario_eval_set`: one case per scenario (its ``eval_id`` the
``scenario_id``, tagged ``simulated``, no turns yet: the simulated user writes
them), the scenario itself in ``case.metadata["scenario"]`` and the file's
``user_simulator_config`` in ``eval_set.metadata["scenario_set"]``. Case
selection (``--case``, ``--tags``, ``--limit``, reruns, ``--resume``) then works
on scenarios unchanged, and :class:`~tenxeval_tui.evaluation.EvaluationRunner`
runs such a set through the user simulator (:mod:`.runner`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.config.reporter_config import UserSimulatorConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.simulators.scenario import (
    SCENARIO_FILE_SUFFIX,
    ConversationScenario,
    ScenarioSet,
)
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY

SCENARIO_SET_KEY = "scenario_set"
"""``EvalSet.metadata`` key marking an eval set made of a scenario file; it holds
``{"user_simulator_config": {...} | None}`` (the file's own simulated user)."""
SCENARIO_KEY = "scenario"
"""``EvalCase.metadata`` key holding the scenario a case simulates."""


def is_scenario_file(path: str | Path) -> bool:
    """Whether ``path`` names a scenario file (``*.scenarios.json``)."""
    return Path(path).name.endswith(SCENARIO_FILE_SUFFIX)


def scenario_case(scenario: ConversationScenario, agent_config: dict[str, Any] | None) -> EvalCase:
    """The case a simulation runs as: no turns yet (the simulated user writes them), the
    goals in ``metadata["goals"]``, the scenario itself in ``metadata["scenario"]`` and
    its ``metadata.tools`` (fakes, faults, end state) as the case's own."""
    metadata: dict[str, Any] = {
        "goals": list(scenario.goals),
        "scenario": scenario.model_dump(mode="json"),
    }
    if TOOLS_KEY in scenario.metadata:
        metadata[TOOLS_KEY] = scenario.metadata[TOOLS_KEY]
    case = EvalCase(
        eval_id=scenario.scenario_id or "simulation",
        name=scenario.description,
        description=scenario.conversation_plan,
        tags=["simulated"],
        metadata=metadata,
    )
    if agent_config:
        case.session_input.config = dict(agent_config)
    return case


def scenario_eval_set(scenario_set: ScenarioSet) -> EvalSet:
    """The eval set a scenario file runs as (see the module's docstring)."""
    simulator = scenario_set.user_simulator_config
    metadata: dict[str, Any] = dict(scenario_set.metadata)
    metadata[SCENARIO_SET_KEY] = {
        "user_simulator_config": (
            simulator.model_dump(mode="json", exclude_unset=True) if simulator else None
        )
    }
    return EvalSet(
        eval_set_id=scenario_set.scenario_set_id or "scenarios",
        name=scenario_set.name,
        description=scenario_set.description,
        eval_cases=[scenario_case(s, None) for s in scenario_set.scenarios],
        metadata=metadata,
    )


def load_run_file(path: str | Path) -> EvalSet:
    """An eval set file, or a scenario file as its eval set; raises what
    :meth:`EvalSet.from_file` and :meth:`ScenarioSet.from_file` raise (the file's name,
    line, column and problem)."""
    if is_scenario_file(path):
        return scenario_eval_set(ScenarioSet.from_file(path))
    return EvalSet.from_file(path)


def is_scenario_eval_set(eval_set: EvalSet) -> bool:
    """Whether ``eval_set`` was made of a scenario file."""
    return isinstance(eval_set.metadata.get(SCENARIO_SET_KEY), dict)


def file_simulator_config(eval_set: EvalSet) -> UserSimulatorConfig | None:
    """The simulated user's settings the scenario file gave (``None``: none), only the
    keys it set marked as set (so a model it leaves out is not 10xGraph's default)."""
    info = eval_set.metadata.get(SCENARIO_SET_KEY)
    raw = info.get("user_simulator_config") if isinstance(info, dict) else None
    return UserSimulatorConfig.model_validate(raw) if isinstance(raw, dict) else None


def scenario_of(case: EvalCase) -> ConversationScenario:
    """The scenario ``case`` simulates; ``ValueError`` naming the case when it holds none."""
    raw = case.metadata.get(SCENARIO_KEY)
    if not isinstance(raw, dict):
        raise ValueError(f"case {case.eval_id!r} holds no scenario (metadata.scenario)")
    return ConversationScenario.model_validate(raw)


__all__ = [
    "SCENARIO_KEY",
    "SCENARIO_SET_KEY",
    "file_simulator_config",
    "is_scenario_eval_set",
    "is_scenario_file",
    "load_run_file",
    "scenario_case",
    "scenario_eval_set",
    "scenario_of",
]
