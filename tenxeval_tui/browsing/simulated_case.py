"""A simulated conversation's case result, read for the report browser: turns and goals.

A case of a scenario run keeps its conversation in ``turn_results`` (each turn's user
message, the agent's reply and the tools it called then) and its scenario's outcome in
``metadata["simulation"]``; the ``simulation_goals`` criterion's details say which goals
the judge found achieved. No UI import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.simulators.result import SIMULATION_KEY, SimulationResult

GOALS_CRITERIA = ("simulation_goals", "simulation_goals_match", "conversation_goals")
"""The names the goal judge's results carry."""


@dataclass(frozen=True, slots=True)
class SimulatedTurn:
    """One turn: what the simulated user said, what the agent replied, the tools it called."""

    user: str
    reply: str
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GoalVerdict:
    """One goal of the scenario: achieved or not, and who said so (``judge`` or ``user``:
    the simulated user's own check as the conversation went, when no judge ran)."""

    goal: str
    achieved: bool
    by: str


def is_simulated(result: EvalCaseResult) -> bool:
    """Whether ``result`` is a case of a scenario run (a simulated conversation)."""
    return isinstance(result.metadata.get(SIMULATION_KEY), dict)


def simulated_turns(result: EvalCaseResult) -> list[SimulatedTurn]:
    """The conversation turn by turn (from ``turn_results``, else the recorded messages)."""
    simulation = SimulationResult.from_case_result(result)
    turns = simulation.turn_results or _paired(simulation.conversation)
    return [
        SimulatedTurn(
            user=str(turn.get("user_input", turn.get("user_content", ""))),
            reply=str(turn.get("agent_response", turn.get("response", ""))),
            tool_calls=[
                (str(call.get("name", "")), dict(call.get("args") or {}))
                for call in turn.get("tool_calls") or []
                if isinstance(call, dict)
            ],
        )
        for turn in turns
    ]


def goal_verdicts(result: EvalCaseResult) -> list[GoalVerdict]:
    """Every goal of the scenario with its verdict: the goal judge's when it ran, else the
    simulated user's own check."""
    simulation = SimulationResult.from_case_result(result)
    judge = goals_criterion(result)
    achieved = judge.details.get("achieved_goals") if judge is not None else None
    if isinstance(achieved, list):
        reached = {str(goal) for goal in achieved}
        return [GoalVerdict(g, g in reached, "judge") for g in simulation.scenario_goals]
    seen = set(simulation.goals_achieved)
    return [GoalVerdict(g, g in seen, "user") for g in simulation.scenario_goals]


def goals_criterion(result: EvalCaseResult) -> CriterionResult | None:
    """The goal judge's result on ``result``, if it ran."""
    return next((c for c in result.criterion_results if c.criterion in GOALS_CRITERIA), None)


def simulation_info(result: EvalCaseResult) -> dict[str, Any]:
    """``metadata["simulation"]`` of ``result`` (empty when it is no simulation)."""
    info = result.metadata.get(SIMULATION_KEY)
    return info if isinstance(info, dict) else {}


def _paired(conversation: list[dict[str, str]]) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for message in conversation:
        if message.get("role") == "user":
            turns.append({"user_input": message.get("content", ""), "agent_response": ""})
        elif message.get("role") == "assistant" and turns:
            turns[-1]["agent_response"] = message.get("content", "")
    return turns


__all__ = [
    "GOALS_CRITERIA",
    "GoalVerdict",
    "SimulatedTurn",
    "goal_verdicts",
    "goals_criterion",
    "is_simulated",
    "simulated_turns",
    "simulation_info",
]
