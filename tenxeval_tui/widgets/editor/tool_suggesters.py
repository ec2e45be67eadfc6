"""Completion of the tools dialog's fields (see
:mod:`tenxeval_tui.authoring.tool_completion`): fault kinds, error classes, ignored
argument keys from the agent's schema, paths into the fakes' state, fakes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.suggester import Suggester

from tenxeval_tui.authoring.tool_completion import (
    FakeIndex,
    complete_error_class,
    complete_fault_kind,
    complete_ignored_arg,
    complete_state_path,
)
from tenxeval_tui.widgets.editor.agent_completion import AgentCompletion


class _Live(Suggester):
    def __init__(self) -> None:
        # No cache: what completes depends on other fields (the kind, the state).
        super().__init__(use_cache=False, case_sensitive=True)


class FaultKindSuggester(_Live):
    """Completes ``raises``, ``timeout``, ``returns``."""

    async def get_suggestion(self, value: str) -> str | None:
        return complete_fault_kind(value)


class ErrorClassSuggester(_Live):
    """Completes a built-in exception class while the row's kind (``kind()``) raises."""

    def __init__(self, kind: Callable[[], str]) -> None:
        super().__init__()
        self.kind = kind

    async def get_suggestion(self, value: str) -> str | None:
        return complete_error_class(value) if self.kind().strip() == "raises" else None


class IgnoredArgSuggester(_Live):
    """Completes ``TOOL.KEY`` entries from the agent's tools and their parameters."""

    def __init__(self, completion: AgentCompletion) -> None:
        super().__init__()
        self.completion = completion

    async def get_suggestion(self, value: str) -> str | None:
        return complete_ignored_arg(self.completion.schema, value)


class StatePathSuggester(_Live):
    """Completes a JSON path from the keys of the fakes' state (``state()``, its text)."""

    def __init__(self, state: Callable[[], str]) -> None:
        super().__init__()
        self.state = state

    async def get_suggestion(self, value: str) -> str | None:
        return complete_state_path(self.state(), value)


class FakeSuggester(_Live):
    """Completes a fake's ``module:attr`` from the Python files under the agent's folder
    (listed on the first keystroke, and each module's source read, in a thread)."""

    def __init__(self, index: FakeIndex) -> None:
        super().__init__()
        self.index = index

    async def get_suggestion(self, value: str) -> str | None:
        if self.index.modules is None:
            await asyncio.to_thread(self.index.read)
        return await asyncio.to_thread(self.index.complete, value)


__all__ = [
    "ErrorClassSuggester",
    "FakeSuggester",
    "FaultKindSuggester",
    "IgnoredArgSuggester",
    "StatePathSuggester",
]
