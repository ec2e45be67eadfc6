"""The tools of the case whose agent code runs now, and the one call every tool call goes
through (:func:`intercept`); :mod:`.session` is what decides a call when a run controls
its tools (:class:`~.session.CaseTools`).

Apart from :mod:`.session` so that a run whose cases' tools just run (live, no fakes, no
faults: most runs) never imports that machinery: its agent's tool calls, the evaluator and
the 10xGraph tool nodes only look here (issue #38: the worker imported it before its first
case)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

import pydantic_core


class ToolsOfCase(Protocol):
    """What :func:`intercept` asks of a case's tools (:class:`~.session.CaseTools`)."""

    async def call(
        self, name: str, args: dict[str, Any], run: Callable[[], Awaitable[Any]]
    ) -> Any: ...


CURRENT_TOOLS: ContextVar[ToolsOfCase | None] = ContextVar("tenxeval_case_tools", default=None)
"""The tools of the case whose agent code runs now (``None``: its tools just run)."""
_CALL_MODE: ContextVar[str | None] = ContextVar("tenxeval_tool_call_mode", default=None)


def set_call_mode(mode: str) -> None:
    """Mark how the call being intercepted in this context is answered (:mod:`.session`)."""
    _CALL_MODE.set(mode)


def take_call_mode() -> str | None:
    """How the last call intercepted in this context was answered (``None``: it was not
    intercepted); read once (the mark is cleared)."""
    mode = _CALL_MODE.get()
    if mode is not None:
        _CALL_MODE.set(None)
    return mode


async def intercept(name: str, args: dict[str, Any], run: Callable[[], Awaitable[Any]]) -> Any:
    """Run one tool call through the current case's tools (see :mod:`.session`)."""
    tools = CURRENT_TOOLS.get()
    if tools is None:
        return await run()
    return await tools.call(name, args, run)


def jsonable(value: Any) -> Any:
    """``value`` as JSON data (what JSON has no form for becomes its ``str``)."""
    return pydantic_core.to_jsonable_python(value, fallback=str)


@contextmanager
def using_tools(tools: ToolsOfCase | None) -> Iterator[None]:
    """Make ``tools`` the current case's tools for the code run inside."""
    token = CURRENT_TOOLS.set(tools)
    try:
        yield
    finally:
        CURRENT_TOOLS.reset(token)


__all__ = [
    "CURRENT_TOOLS",
    "ToolsOfCase",
    "intercept",
    "jsonable",
    "set_call_mode",
    "take_call_mode",
    "using_tools",
]
