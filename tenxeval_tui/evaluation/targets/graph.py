"""10xGraph graphs as evaluation targets (needs the ``10xgraph`` extra).

A graph is compiled with the collectors' 10xGraph callbacks
(:mod:`~tenxeval_tui.evaluation.collectors.tenxgraph_callbacks`: model calls, tool calls,
tool node visits, step starts, each an event for a
:class:`~tenxeval_tui.evaluation.collectors.TrajectoryCollector`).

One process, many apps: 10xGraph resolves its callback manager, checkpointer and
nodes through a dependency container shared by every graph built without an
explicit one, and the first callback manager resolved there stays (a second app
captures nothing). :func:`compile_graph` gives each graph a private container
(carrying over whatever the user bound in the old one) and makes the compiled
app's entry points run inside it, through the container library's context
variable. Apps made before or after, with or without our callbacks, then never
see each other's events (see :mod:`.graph_container`).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Iterator
from typing import Any

from injectq import InjectQ
from tenxgraph.core.graph.compiled_graph import CompiledGraph
from tenxgraph.core.graph.state_graph import StateGraph
from tenxgraph.core.state.message import Message
from tenxgraph.storage.checkpointer import InMemoryCheckpointer
from tenxgraph.utils.thread_info import ThreadInfo

from tenxeval_tui.evaluation.collectors.tenxgraph_callbacks import build_callback_manager
from tenxeval_tui.evaluation.targets.graph_container import (
    CONTAINER_VAR,
    active,
    private_container,
)
from tenxeval_tui.evaluation.targets.graph_tools import make_tools_endable

_CONTAINER = "_tenxeval_container"
"""The attribute of an app compiled by :func:`compile_graph` holding its container."""


def is_state_graph(obj: Any) -> bool:
    """Whether ``obj`` is an uncompiled 10xGraph ``StateGraph``."""
    return isinstance(obj, StateGraph)


def is_compiled_graph(obj: Any) -> bool:
    """Whether ``obj`` is a compiled 10xGraph graph."""
    return isinstance(obj, CompiledGraph)


def compile_graph(graph: Any, publisher: Any) -> CompiledGraph[Any]:
    """Compile ``graph`` in a container of its own, with an in-memory checkpointer and our callbacks.

    Raises ``AttributeError`` for an already-compiled graph (its callbacks can no
    longer be changed) and ``TypeError`` for anything that is not a ``StateGraph``.
    """
    if isinstance(graph, CompiledGraph):
        raise AttributeError(
            "create_eval_app() needs the uncompiled StateGraph, but got a compiled graph "
            "(its callbacks are fixed at compile time): pass the StateGraph itself, "
            "e.g. create_eval_app(build_graph()) instead of create_eval_app(build_graph().compile())"
        )
    if not isinstance(graph, StateGraph):
        raise TypeError(f"expected a 10xGraph StateGraph, got {type(graph).__name__}")
    make_tools_endable(graph)  # the run view can end a tool call in flight
    container = private_container(graph._container)
    graph._container = container
    graph._setup()  # re-binds the graph's own services into the new container
    with active(container):
        app = graph.compile(
            checkpointer=InMemoryCheckpointer(),
            callback_manager=build_callback_manager(publisher),
        )
    _run_entry_points_in(app, container)
    setattr(app, _CONTAINER, container)
    return app


def _run_entry_points_in(app: CompiledGraph[Any], container: InjectQ) -> None:
    ainvoke, invoke, astream, stream = app.ainvoke, app.invoke, app.astream, app.stream

    @functools.wraps(ainvoke)
    async def ainvoke_in_container(*args: Any, **kwargs: Any) -> Any:
        with active(container):
            return await ainvoke(*args, **kwargs)

    @functools.wraps(invoke)
    def invoke_in_container(*args: Any, **kwargs: Any) -> Any:
        with active(container):
            return invoke(*args, **kwargs)

    @functools.wraps(astream)
    async def astream_in_container(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        token = CONTAINER_VAR.set(container)
        try:
            async for chunk in astream(*args, **kwargs):
                yield chunk
        finally:
            with contextlib.suppress(ValueError):  # consumed from another context
                CONTAINER_VAR.reset(token)

    @functools.wraps(stream)
    def stream_in_container(*args: Any, **kwargs: Any) -> Iterator[Any]:
        with active(container):
            yield from stream(*args, **kwargs)

    patched: Any = app  # the instance's entry points shadow the class's
    patched.ainvoke = ainvoke_in_container
    patched.invoke = invoke_in_container
    patched.astream = astream_in_container
    patched.stream = stream_in_container


async def forget_graph_thread(app: Any, config: dict[str, Any]) -> None:
    """Drop what ``app``'s in-memory checkpointer keeps of the thread ``config`` names:
    its state, cached state, messages and recorded tool results (an app not compiled by
    :func:`compile_graph` is left alone).

    For a run that never reads a finished case's thread again (the worker): kept, every
    case's graph state stayed in memory to the end of the run (about 10 kB a case of
    the echo graph) and every full garbage collection walked them all. The thread is
    registered first because the checkpointer's own ``aclean_thread`` only cleans a
    thread it knows of (a run never registers one); ``config`` is the run's own, so an
    owner-scoped checkpointer sees the same caller.
    """
    checkpointer = getattr(app, "_checkpointer", None)
    if not isinstance(checkpointer, InMemoryCheckpointer):
        return
    thread_id = config.get("thread_id")
    if thread_id is None:
        return
    await checkpointer.aput_thread(config, ThreadInfo(thread_id=thread_id))
    await checkpointer.aclean_thread(config)
    # Recorded so that a replayed tool call is not fired twice: keyed "thread:call id".
    prefix = f"{thread_id}:"
    results = checkpointer._tool_results
    for key in [key for key in results if key.startswith(prefix)]:
        del results[key]


def user_message(text: str, app: Any = None) -> Message:
    """A 10xGraph user message; for ``app`` (compiled by :func:`compile_graph`), made in
    its container: its id comes from the app's own id generator, as the graph's own
    messages' ids do, not from that of whichever graph the process built last (the shared
    container's), and its lookup is our container's (:mod:`.graph_container`)."""
    container = getattr(app, _CONTAINER, None)
    if container is None:
        return Message.text_message(text, role="user")
    with active(container):
        return Message.text_message(text, role="user")


__all__ = [
    "compile_graph",
    "forget_graph_thread",
    "is_compiled_graph",
    "is_state_graph",
    "user_message",
]
