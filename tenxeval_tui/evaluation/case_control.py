"""Stopping one running case, or its tool call in flight, while the rest of the run goes on.

The evaluator opens a :class:`CaseControl` for each case it runs (around the agent's
turns, under the case's own deadline) and makes it the current one for the agent's code
(a context variable, inherited by every task the agent starts):

- :meth:`CaseControl.stop` ends the case now: the agent's turn in progress is cancelled
  through the case's deadline, exactly as a timeout would, and the evaluator records the
  case as cancelled (``error_info.error_type == "Cancelled"``) or, when asked, scores it on
  what it did so far.
- :meth:`CaseControl.end_tool_calls` ends the tool calls in flight: each raises
  :class:`ToolCallTimeout` (a ``TimeoutError``) where the agent awaits it, so the agent
  sees the failed call as it would see a real timeout, and goes on. Tool calls are in
  flight through :func:`tool_call_scope`: ``Trace.tool`` and 10xGraph targets' tools
  use it. A synchronous tool blocking its thread cannot be interrupted; only its await is.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from enum import StrEnum

CANCELLED = "Cancelled"
"""``error_info["error_type"]`` of a case a user stopped."""
STOPPED_EARLY_KEY = "stopped_early"
"""``metadata`` key (``True``) of a case a user stopped and chose to score as it was."""


class StopMode(StrEnum):
    """What becomes of a stopped case."""

    CANCEL = "cancel"
    """It ends as cancelled (an error case, not scored)."""
    SCORE = "score"
    """It is scored on what it did so far."""


class ToolCallTimeout(TimeoutError):
    """A tool call was ended while in flight (what the agent sees: a timeout)."""


class CaseControl:
    """One running case: its deadline, how it was stopped, its tool calls in flight."""

    def __init__(self, deadline: asyncio.Timeout) -> None:
        self._deadline = deadline
        self._loop = asyncio.get_running_loop()
        self.stopped: StopMode | None = None
        self._tool_calls: dict[int, tuple[str, asyncio.Timeout]] = {}

    def stop(self, mode: StopMode = StopMode.CANCEL) -> None:
        """End the case now (on the loop running it); ``mode`` says what becomes of it."""
        self.stopped = mode
        self._deadline.reschedule(self._loop.time())

    def end_tool_calls(self) -> list[str]:
        """End every tool call in flight (each raises :class:`ToolCallTimeout` where it is
        awaited); returns their names."""
        now = self._loop.time()
        ended = []
        for name, scope in list(self._tool_calls.values()):
            scope.reschedule(now)
            ended.append(name)
        return ended

    @property
    def tool_calls(self) -> list[str]:
        """The names of the tool calls in flight."""
        return [name for name, _ in self._tool_calls.values()]

    @asynccontextmanager
    async def _tool_call(self, name: str) -> AsyncIterator[None]:
        scope = asyncio.timeout(None)
        key = id(scope)
        try:
            async with scope:
                self._tool_calls[key] = (name, scope)
                yield
        except TimeoutError:
            if not scope.expired():
                raise  # the tool's own timeout, not ours
            raise ToolCallTimeout(f"{name}: the tool call timed out (ended by the user)") from None
        finally:
            self._tool_calls.pop(key, None)


CURRENT_CASE: ContextVar[CaseControl | None] = ContextVar("tenxeval_current_case", default=None)


def current_case() -> CaseControl | None:
    """The control of the case whose agent code runs now (``None`` outside a run)."""
    return CURRENT_CASE.get()


@asynccontextmanager
async def tool_call_scope(name: str) -> AsyncIterator[None]:
    """Await a tool call inside this, so that :meth:`CaseControl.end_tool_calls` can end it
    (it then raises :class:`ToolCallTimeout`); outside a run it does nothing."""
    control = current_case()
    if control is None:
        yield
        return
    async with control._tool_call(name):
        yield


__all__ = [
    "CANCELLED",
    "CURRENT_CASE",
    "STOPPED_EARLY_KEY",
    "CaseControl",
    "StopMode",
    "ToolCallTimeout",
    "current_case",
    "tool_call_scope",
]
