"""Completion of the case form's fields from the agent's schema (its tools and nodes).

:class:`AgentCompletion` holds the schema of the open eval set's agent (``None`` until it
is read, or when it cannot be); the suggesters read it at each keystroke, so a schema
read after the form was built completes at once. The completions themselves are
:mod:`tenxeval_tui.authoring.completion`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.suggester import Suggester

from tenxeval_tui.authoring.completion import complete_args, complete_nodes, complete_tool_name
from tenxeval_tui.evaluation.targets.schema import AgentSchema


class AgentCompletion:
    """The agent schema the form completes from and checks against."""

    def __init__(self) -> None:
        self.schema: AgentSchema | None = None


class _SchemaSuggester(Suggester):
    def __init__(self, completion: AgentCompletion) -> None:
        # No cache: the same text completes differently once the schema is read.
        super().__init__(use_cache=False, case_sensitive=True)
        self.completion = completion


class ToolNameSuggester(_SchemaSuggester):
    """Completes a tool name from the agent's tools."""

    async def get_suggestion(self, value: str) -> str | None:
        return complete_tool_name(self.completion.schema, value)


class ToolArgsSuggester(_SchemaSuggester):
    """Completes an argument key of the tool ``tool_name()`` names."""

    def __init__(self, completion: AgentCompletion, tool_name: Callable[[], str]) -> None:
        super().__init__(completion)
        self.tool_name = tool_name

    async def get_suggestion(self, value: str) -> str | None:
        return complete_args(self.completion.schema, self.tool_name(), value)


class NodeSuggester(_SchemaSuggester):
    """Completes the node name being typed in a comma-separated node order."""

    async def get_suggestion(self, value: str) -> str | None:
        return complete_nodes(self.completion.schema, value)


__all__ = ["AgentCompletion", "NodeSuggester", "ToolArgsSuggester", "ToolNameSuggester"]
