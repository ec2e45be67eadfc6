"""10xGraph tools run through the case's tools, and endable from the run view (needs the
``10xgraph`` extra).

:func:`make_tools_endable` wraps each tool function of the graph's tool nodes so that its
call goes through :func:`~tenxeval_tui.evaluation.tools.session.intercept` (a run may
record it, replay it, fake it or make it fail, as for a plain agent's ``Trace.tool``)
and runs inside :func:`~tenxeval_tui.evaluation.case_control.tool_call_scope`: ended from
the run view, the call raises a ``ToolCallTimeout`` (a ``TimeoutError``) that 10xGraph
hands the model as the failed tool result, as a real timeout would be. A synchronous tool
runs in a thread as 10xGraph runs it (``call_sync_or_async``); ending it ends the wait
for it, not the thread. Outside a run (no case current) the wrapper only calls the tool.

The arguments the case's tools see are those the model gave: what 10xGraph injects
(``state``, ``config``, ``tool_call_id``...) is left out, and values it validated into
models are given back as JSON data.

The wrapper keeps the tool's name, docstring, signature and attributes
(``functools.wraps``: 10xGraph reads the schema and what to inject through
``__wrapped__``). It relies on a tool node's ``_funcs`` table (10xgraph 0.10.3, pinned
and tested); a node without one is left as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from tenxgraph.core.graph.tool_node.constants import INJECTABLE_PARAMS
from tenxgraph.utils.callable_utils import call_sync_or_async

from tenxeval_tui.evaluation.case_control import tool_call_scope
from tenxeval_tui.evaluation.tools.current import intercept, jsonable

_ENDABLE = "__tenxeval_endable__"


def model_arguments(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A tool call's arguments as the model gave them: no injected ones, JSON data."""
    return {k: jsonable(v) for k, v in kwargs.items() if k not in INJECTABLE_PARAMS}


def endable(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as an async tool whose call goes through the case's tools and can be ended
    (see the module's docstring)."""
    if getattr(fn, _ENDABLE, False):
        return fn

    @functools.wraps(fn)
    async def tool(*args: Any, **kwargs: Any) -> Any:
        async def run() -> Any:
            async with tool_call_scope(name):
                return await call_sync_or_async(fn, *args, **kwargs)

        return await intercept(name, model_arguments(kwargs), run)

    setattr(tool, _ENDABLE, True)
    return tool


def make_tools_endable(graph: Any) -> int:
    """Wrap the tool functions of every tool node of ``graph`` (a ``StateGraph``) with
    :func:`endable`; returns how many were wrapped."""
    wrapped = 0
    for node in getattr(graph, "nodes", {}).values():
        funcs = getattr(getattr(node, "func", None), "_funcs", None)
        if not isinstance(funcs, dict):
            continue
        for name, fn in list(funcs.items()):
            if callable(fn) and not getattr(fn, _ENDABLE, False):
                funcs[name] = endable(name, fn)
                wrapped += 1
    return wrapped


__all__ = ["endable", "make_tools_endable"]
