"""What an agent did while a case ran: tool calls, trajectory, replies and tokens."""

from __future__ import annotations

import warnings
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field

from tenxeval_tui.evaluation.dataset.eval_set import StepType, ToolCall, TrajectoryStep


class TokenUsage(BaseModel):
    """Token counts of model calls; ``a + b`` adds field by field and ``sum()`` works."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        if not isinstance(other, TokenUsage):
            return NotImplemented
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_creation_tokens=self.cache_creation_tokens + other.cache_creation_tokens,
        )

    def __radd__(self, other: object) -> TokenUsage:
        if other == 0:
            return self
        return NotImplemented

    def __bool__(self) -> bool:
        return bool(
            self.input_tokens
            or self.output_tokens
            or self.cache_read_tokens
            or self.cache_creation_tokens
        )

    def to_dict(self) -> dict[str, int]:
        """The counts as a plain dict (with ``total_tokens``)."""
        return self.model_dump()


class NodeResponseData(BaseModel):
    """One model-node invocation: what it was sent and what it answered."""

    model_config = ConfigDict(extra="allow")

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

    @property
    def token_usage(self) -> TokenUsage:
        """Sum of the token usage of every node response."""
        return sum((n.token_usage for n in self.node_responses), TokenUsage())

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
