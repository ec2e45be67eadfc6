"""Conversation scenarios and the scenario files that hold them (``NAME.scenarios.json``).

A :class:`ConversationScenario` (10xGraph's) tells the simulated user what to
do: how to start, the plan to follow, the goals to reach, and the most turns it
may take. A :class:`ScenarioSet` is a file of them living next to eval sets,
loaded like one: every problem is named by file, line, column and JSON path.

The file format::

    {
      "scenario_set_id": "weather_trips",        // default: the file name's stem
      "name": "Trip planning", "description": "...",
      "metadata": {"agent": "sample_evals.weather_graph:build_graph"},
      "user_simulator_config": {"model": "gpt-4o-mini", "api_style": "chat"},   // optional
      "scenarios": [
        {"scenario_id": "paris_trip", "description": "...", "starting_prompt": "...",
         "conversation_plan": "...", "goals": ["..."], "max_turns": 4, "metadata": {}}
      ]
    }

Unknown keys are refused (a typo such as ``"goal"`` never passes unnoticed);
``scenario_id`` must be set and unique; ``max_turns`` 0 means the simulator's own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from tenxeval_tui.evaluation.config.reporter_config import UserSimulatorConfig
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.fileio import atomic_write_text, read_json_model
from tenxeval_tui.evaluation.schema_ref import schema_ref_field, with_schema_ref

SCENARIO_FILE_SUFFIX = ".scenarios.json"


class ConversationScenario(BaseModel):
    """One conversation for the simulated user to have (10xGraph's fields).

    ``description`` says who the user is and what they want; ``starting_prompt``
    is their first message (written by the simulator from the description and
    plan when empty); ``conversation_plan`` is how the conversation should go;
    ``goals`` are what it should achieve (judged after every reply and at the
    end); ``max_turns`` caps the user's messages (0: the simulator's own cap).
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)  # built for a scenario file

    scenario_id: str = ""
    description: str = ""
    starting_prompt: str = ""
    conversation_plan: str = ""
    goals: list[str] = Field(default_factory=list)
    max_turns: int = Field(default=10, ge=0)
    metadata: dict[str, Any] = Field(default_factory=dict)


class ScenarioSet(BaseModel):
    """The scenarios of one file, with the agent and simulated user they are meant for.

    ``schema_ref`` is the file's ``$schema`` key (see :mod:`~tenxeval_tui.evaluation.schema_ref`).
    """

    model_config = ConfigDict(extra="forbid", validate_by_name=True, defer_build=True)

    schema_ref: str | None = schema_ref_field()
    scenario_set_id: str = ""
    name: str = ""
    description: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    user_simulator_config: UserSimulatorConfig | None = None
    scenarios: list[ConversationScenario] = Field(default_factory=list)

    @model_validator(mode="after")
    def _usable_ids(self) -> ScenarioSet:
        problems = _id_problems(self.model_dump(include={"scenarios"}))
        if problems:
            raise PydanticCustomError("located_by_checks", problems[0][1])
        return self

    @classmethod
    def from_file(cls, path: str | Path) -> ScenarioSet:
        """Load a scenario file; ``scenario_set_id`` defaults to the file's name stem.

        Raises ``FileNotFoundError`` naming the path, and
        :class:`~tenxeval_tui.evaluation.errors.EvalFileError` naming file, line,
        column, JSON path and problem for each problem found.
        """
        path = Path(path)
        loaded = read_json_model(cls, path, extra_checks=_id_problems)
        if not loaded.scenario_set_id:
            loaded.scenario_set_id = scenario_set_stem(path)
        return loaded

    def save(self, path: str | Path) -> Path:
        """Write the file (atomically) and return its path."""
        path = Path(path)
        data = with_schema_ref(self.model_dump(mode="json", exclude_none=True), self.schema_ref)
        atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return path

    def get_scenario(self, scenario_id: str) -> ConversationScenario | None:
        """The scenario with this id, or ``None``."""
        return next((s for s in self.scenarios if s.scenario_id == scenario_id), None)


def scenario_set_stem(path: Path) -> str:
    """``trips`` for ``trips.scenarios.json`` (else the name without its last suffix)."""
    name = path.name
    if name.endswith(SCENARIO_FILE_SUFFIX):
        return name[: -len(SCENARIO_FILE_SUFFIX)]
    return path.stem


def _id_problems(data: Any) -> list[tuple[list[str | int], str]]:
    """Scenarios without an id, or with one an earlier scenario has, at their place."""
    scenarios = data.get("scenarios") if isinstance(data, dict) else None
    if not isinstance(scenarios, list):
        return []
    seen: dict[str, int] = {}
    found: list[tuple[list[str | int], str]] = []
    for index, scenario in enumerate(scenarios):
        scenario_id = scenario.get("scenario_id", "") if isinstance(scenario, dict) else None
        if not isinstance(scenario_id, str):
            continue
        if not scenario_id.strip():
            where: list[str | int] = ["scenarios", index]
            if "scenario_id" in scenario:
                where.append("scenario_id")
            found.append((where, "scenario_id must be set (it names the scenario's case)"))
        elif scenario_id in seen:
            found.append(
                (
                    ["scenarios", index, "scenario_id"],
                    f"duplicate scenario_id {scenario_id!r} "
                    f"(also used by scenarios[{seen[scenario_id]}])",
                )
            )
        else:
            seen[scenario_id] = index
    return found


def validate_scenario_file(path: str | Path) -> list[Problem]:
    """Every problem of a scenario file (empty when it loads)."""
    try:
        ScenarioSet.from_file(path)
    except FileNotFoundError:
        return [Problem(path=str(path), message="file not found")]
    except EvalFileError as exc:
        return exc.problems
    return []


__all__ = [
    "SCENARIO_FILE_SUFFIX",
    "ConversationScenario",
    "ScenarioSet",
    "scenario_set_stem",
    "validate_scenario_file",
]
