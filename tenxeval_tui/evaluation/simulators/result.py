"""What a user simulation produced (:class:`SimulationResult`), and how it becomes an eval case."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.dataset.eval_set import (
    EvalCase,
    Invocation,
    MessageContent,
    ToolCall,
)
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.token_usage import TokenUsage

SIMULATION_KEY = "simulation"
"""``EvalCaseResult.metadata`` key of a simulated case: the scenario, its goals, the goals
reached, the whole conversation and the simulated user's tokens."""


class SimulationResult(BaseModel):
    """One simulated conversation and its outcome (10xGraph's fields, plus ``turn_results``).

    ``conversation`` is every message in order (``{"role", "content"}``, user and
    assistant alternating); ``turns`` counts the user's messages;
    ``goals_achieved`` are the goals the simulator saw reached as it went;
    ``completed`` is true when all of them were (a scenario without goals
    completes after its first reply). ``error`` says why a simulation stopped
    early (the agent raised, the simulated user's model failed or answered
    garbage, the timeout). ``criterion_scores``/``criterion_details``/
    ``criterion_results`` are the simulator's criteria on the conversation;
    ``simulator_token_usage`` what the simulated user's model cost.
    ``turn_results`` (ours) hold each turn as a case result does: the user's
    message, the agent's reply, and the turn's own tool calls and node visits;
    ``scenario_goals`` (ours) are all of the scenario's goals.
    """

    scenario_id: str = ""
    turns: int = 0
    conversation: list[dict[str, str]] = Field(default_factory=list)
    goals_achieved: list[str] = Field(default_factory=list)
    completed: bool = False
    error: str | None = None
    criterion_scores: dict[str, float] = Field(default_factory=dict)
    criterion_details: dict[str, Any] = Field(default_factory=dict)
    simulator_token_usage: TokenUsage = Field(default_factory=TokenUsage)
    criterion_results: list[Any] = Field(default_factory=list)
    turn_results: list[dict[str, Any]] = Field(default_factory=list)
    scenario_goals: list[str] = Field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No error, and every criterion of the simulator passed."""
        return self.error is None and all(
            getattr(result, "passed", False) for result in self.criterion_results
        )

    @classmethod
    def from_case_result(cls, result: EvalCaseResult) -> SimulationResult:
        """The simulation a case result of a scenario run holds (e.g. read from a JSON
        report); raises ``ValueError`` for a case result that is no simulation."""
        info = result.metadata.get(SIMULATION_KEY)
        if not isinstance(info, dict):
            raise ValueError(f"case {result.eval_id!r} is not a simulated conversation")
        criteria = [
            cr if isinstance(cr, CriterionResult) else CriterionResult.model_validate(cr)
            for cr in result.criterion_results
        ]
        return cls(
            scenario_id=str(info.get("scenario_id", result.eval_id)),
            turns=int(info.get("turns", len(result.turn_results))),
            conversation=list(info.get("conversation") or []),
            goals_achieved=list(info.get("goals_achieved") or []),
            completed=bool(info.get("completed", False)) and result.error is None,
            error=result.error,
            criterion_scores={cr.criterion: cr.score for cr in criteria},
            criterion_details={cr.criterion: dict(cr.details) for cr in criteria},
            simulator_token_usage=TokenUsage.model_validate(
                info.get("simulator_token_usage") or {}
            ),
            criterion_results=criteria,
            turn_results=list(result.turn_results),
            scenario_goals=list(info.get("goals") or []),
        )

    def to_eval_case(
        self, eval_id: str | None = None, name: str = "", description: str = ""
    ) -> EvalCase:
        """The conversation as a regular multi-turn eval case, to pin the agent's behaviour.

        Each turn that ran becomes an invocation: the simulated user's message,
        the agent's reply as the expected reply, and the tools it called in that
        turn (names and arguments) as the expected tool trajectory. The case
        gets the tags ``simulated`` and the scenario's goals in
        ``metadata["goals"]``, so ``simulation_goals`` can judge it again.
        Raises ``ValueError`` when no turn ran.
        """
        turns = self.turn_results or _turns_from_conversation(self.conversation)
        if not turns:
            raise ValueError(f"simulation {self.scenario_id!r} has no turn to make a case of")
        invocations = [
            Invocation(
                user_content=MessageContent.user(str(turn.get("user_input", ""))),
                expected_final_response=MessageContent.assistant(
                    str(turn.get("agent_response", ""))
                ),
                expected_tool_trajectory=[
                    ToolCall(name=str(call["name"]), args=dict(call.get("args") or {}))
                    for call in turn.get("tool_calls") or []
                ],
            )
            for turn in turns
        ]
        metadata: dict[str, Any] = {"simulated_from": self.scenario_id}
        if self.scenario_goals:
            metadata["goals"] = list(self.scenario_goals)
        return EvalCase(
            eval_id=eval_id or self.scenario_id or "simulated",
            name=name,
            description=description,
            conversation=invocations,
            tags=["simulated"],
            metadata=metadata,
        )


def _turns_from_conversation(conversation: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Turns paired from alternating messages (a result built by hand, without turn_results)."""
    turns: list[dict[str, Any]] = []
    pending: str | None = None
    for message in conversation:
        if message.get("role") == "user":
            pending = message.get("content", "")
        elif message.get("role") == "assistant" and pending is not None:
            turns.append({"user_input": pending, "agent_response": message.get("content", "")})
            pending = None
    return turns


__all__ = ["SIMULATION_KEY", "SimulationResult"]
