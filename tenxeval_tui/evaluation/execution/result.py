"""What an agent did while a case ran: tool calls, trajectory, replies and tokens."""

from __future__ import annotations

import warnings
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tenxeval_tui.evaluation.dataset.eval_set import StepType, ToolCall, TrajectoryStep
from tenxeval_tui.evaluation.lean import extra_on_demand
from tenxeval_tui.evaluation.token_usage import TokenUsage


class NodeResponseData(BaseModel):
    """One model-node invocation: what it was sent and what it answered."""

    model_config = ConfigDict(extra="allow")
    __setattr__ = extra_on_demand  # instances are built lean (see evaluation/lean.py)

    node_name: str = ""
    input_messages: list[dict[str, Any]] = Field(default_factory=list)
    response_text: str = ""
    has_tool_calls: bool = False
    tool_call_names: list[str] = Field(default_factory=list)
    is_final: bool = False
    timestamp: float = 0.0
    token_usage: TokenUsage = Field(default_factory=TokenUsage)


class ExecutionResult(BaseModel):
    """Everything captured while one case ran; every criterion scores this (``actual``)."""

    tool_calls: list[ToolCall] = Field(default_factory=list)
    trajectory: list[TrajectoryStep] = Field(default_factory=list)
    messages: list[dict[str, Any]] = Field(default_factory=list)
    actual_response: str = ""
    node_responses: list[NodeResponseData] = Field(default_factory=list)
    node_visits: list[str] = Field(default_factory=list)
    duration_seconds: float = 0.0
    tool_state: dict[str, Any] | None = Field(
        default=None,
        exclude_if=lambda state: state is None,
        description="The fakes' state after the case (see evaluation/tools), when it has one.",
    )

    @property
    def token_usage(self) -> TokenUsage:
        """Sum of the token usage of every node response."""
        return TokenUsage.total(n.token_usage for n in self.node_responses)

    @property
    def tool_trajectory(self) -> list[TrajectoryStep]:
        """Only the tool steps of :attr:`trajectory`."""
        return [step for step in self.trajectory if step.step_type == StepType.TOOL]

    def get_tool_names(self) -> list[str]:
        """Tool names in call order."""
        return [call.name for call in self.tool_calls]

    def to_dict(self) -> dict[str, Any]:
        """Deprecated: use ``model_dump()``."""
        warnings.warn(
            "ExecutionResult.to_dict() is deprecated; use model_dump()",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.model_dump()
