"""10xGraph's callbacks feeding a collector from a running graph (needs the ``10xgraph`` extra).

Callbacks on 10xGraph's ``CallbackManager`` feed a
:class:`~tenxeval_tui.evaluation.collectors.TrajectoryCollector` from a running graph:

- :class:`PublisherCallback`, an after-invoke callback: a model call (``AI``)
  becomes a ``NODE_EXECUTION`` event, a tool call (``TOOL``, ``MCP``) a
  ``TOOL_EXECUTION`` event; the publish is awaited.
- :class:`ToolNodeVisits`: a tool node calls no model, so it never produces a
  model event; its run is recorded as a node visit before its first tool call,
  so the node order is the graph's real one (``MAIN, TOOL, MAIN``).
- :class:`ToolErrorCallback`: a tool that raised is still recorded, with its error.
- :class:`StepStarts`, a before-invoke callback: a model call announces itself as an
  ``LLM_CALL`` ``START`` event and a tool call as a ``TOOL_EXECUTION`` ``START`` event
  (name, args, call id), so a live view shows the step in flight; the ``END`` event of
  each then carries ``metadata["started_at"]``, so every step has its duration.

(A graph lifecycle hook would see every node too, but registering one makes
10xGraph publish extra events at every step: about 1 ms per case.)

They belong to the collectors (what an agent did, captured); a graph compiled as an
evaluation target (:mod:`~tenxeval_tui.evaluation.targets.graph`) is given them by
:func:`build_callback_manager`. Importing the collectors never imports this module.
"""

from __future__ import annotations

import time
from typing import Any

from pydantic_core import to_jsonable_python
from tenxgraph.core.state.message import Message
from tenxgraph.runtime.publisher.events import ContentType
from tenxgraph.runtime.publisher.events import Event as TxEvent
from tenxgraph.runtime.publisher.events import EventModel as TxEventModel
from tenxgraph.runtime.publisher.events import EventType as TxEventType
from tenxgraph.utils.callbacks import (
    AfterInvokeCallback,
    BeforeInvokeCallback,
    CallbackContext,
    CallbackManager,
    InvocationType,
    OnErrorCallback,
)
from tenxgraph.utils.constants import END, START

from tenxeval_tui.evaluation.collectors.event_collector import EventCollector
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.json_safe import json_safe
from tenxeval_tui.evaluation.tools.current import take_call_mode

# The node whose visit was recorded last, kept on the run's config (a dict private
# to one graph run, shared by every callback of that run).
_LAST_NODE = "__tenxeval_last_node__"
# When each step in flight started (``time.time()``), keyed by _step_key, on the run's config.
_STEP_STARTS = "__tenxeval_step_starts__"
_INTERNAL_NODES = frozenset({START, END})


def _invocation_config(context: CallbackContext) -> dict[str, Any]:
    config = (context.metadata or {}).get("config")
    return config if isinstance(config, dict) else {}


def _step_key(context: CallbackContext) -> str:
    """What identifies one step in flight: a tool call by its id, a model call by its node."""
    if context.invocation_type == InvocationType.AI:
        return f"ai:{context.node_name}"
    call_id = str((context.metadata or {}).get("tool_call_id", "") or "")
    return f"tool:{call_id or context.function_name or context.node_name}"


def _started_at(context: CallbackContext) -> dict[str, Any]:
    """The ``metadata`` of a step's end event: when it started (taken off the run's config)."""
    starts = _invocation_config(context).get(_STEP_STARTS)
    started = starts.pop(_step_key(context), None) if isinstance(starts, dict) else None
    return {} if started is None else {"started_at": started}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Message):
        return value.text()
    if value is None or isinstance(value, str | int | float | bool | list | dict | bytes):
        return json_safe(value)  # bytes as their str, oversized integers as a note
    return str(value)


class _Stamp:
    """Where ``thread_id``/``run_id`` come from: a fixed config, else the run's own config."""

    def __init__(self, config: dict[str, Any] | None) -> None:
        self.config = dict(config or {})

    def ids(self, run_config: dict[str, Any]) -> dict[str, Any]:
        return {
            key: str(self.config[key] if key in self.config else run_config.get(key, "") or "")
            for key in ("thread_id", "run_id")
        }


def _content_type(event: EventModel) -> ContentType:
    if event.event == Event.TOOL_EXECUTION:
        return ContentType.TOOL_RESULT
    if event.data.get("has_tool_calls"):
        return ContentType.TOOL_CALL
    return ContentType.TEXT


def tenxgraph_event(event: EventModel) -> TxEventModel:
    """Our event as 10xGraph's own ``EventModel``, with its ``content_type``: what any
    10xGraph publisher takes (our collectors take it back, see ``as_event_model``)."""
    return TxEventModel(
        event=TxEvent(event.event.value),
        event_type=TxEventType(event.event_type.value),
        node_name=event.node_name,
        data=event.data,
        content_type=[_content_type(event)],
        thread_id=event.thread_id,
        run_id=event.run_id,
        timestamp=event.timestamp,
        metadata=event.metadata,
    )


def collected_event(event: EventModel) -> EventModel:
    """What a collector makes of ``tenxgraph_event(event)`` (``as_event_model``: 10xGraph's
    event dumped as JSON data, its ``None`` fields left out, and validated as ours), made
    without the round trip, which was two validations and a dump per model or tool call.

    Our callbacks build ``event`` from checked parts (text ids, our enums); the JSON
    dump's changes to ``data`` and ``metadata`` (tuples as lists, keys as text, inf and
    NaN as null, anything else JSON has no form for as its ``str``) are made the same way,
    and 10xGraph's fields a collector keeps (``content``, ``content_type``, ``is_error``)
    come after ours, as its dump has them.
    """
    return EventModel.model_construct(
        set(_COLLECTED_FIELDS),
        event=event.event,
        event_type=event.event_type,
        node_name=event.node_name,
        data=_as_json_data(event.data),
        timestamp=event.timestamp,
        thread_id=event.thread_id,
        run_id=event.run_id,
        metadata=_as_json_data(event.metadata),
        content="",
        content_type=[_content_type(event).value],
        is_error=False,
    )


_COLLECTED_FIELDS = frozenset(
    {*EventModel.model_fields, "content", "content_type", "is_error"}
)  # every field given, as when validated


def _as_json_data(value: dict[str, Any]) -> Any:
    return to_jsonable_python(value, fallback=str, inf_nan_mode="null")


def _takes_ours(publisher: Any) -> bool:
    """Whether ``publisher`` is one of our collectors publishing as :class:`EventCollector`
    does (``publish`` is ``on_event``, which takes our events as they are)."""
    return isinstance(publisher, EventCollector) and (
        type(publisher).publish is EventCollector.publish
    )


class PublisherCallback(AfterInvokeCallback[Any, Any]):
    """Turns 10xGraph invocations into events for any publisher (``await publisher.publish(event)``).

    Registered for ``InvocationType.AI`` it emits ``Event.NODE_EXECUTION``
    (reply text, requested tools, input messages, token usage); for ``TOOL``
    and ``MCP`` ``Event.TOOL_EXECUTION`` (name, args, result, call id); other
    types emit nothing. ``thread_id`` and ``run_id`` come from ``config`` when
    it has them, else from the run's own config. The graph's internal
    ``__start__``/``__end__`` nodes are not user nodes and emit nothing.
    Any 10xGraph publisher is given 10xGraph's own ``EventModel`` (with
    ``content_type``); one of our collectors publishing as :class:`EventCollector` does
    is given the event it would make of that, made directly (:func:`collected_event`).
    """

    def __init__(self, publisher: Any, config: dict[str, Any] | None = None) -> None:
        self._publisher = publisher
        self._stamp = _Stamp(config)
        self._publisher_takes_ours = _takes_ours(publisher)

    async def __call__(self, context: CallbackContext, input_data: Any, output_data: Any) -> Any:
        event: EventModel | None = None
        if context.invocation_type == InvocationType.AI:
            event = await self._node_event(context, input_data, output_data)
        elif context.invocation_type in (InvocationType.TOOL, InvocationType.MCP):
            event = self._tool_event(context, input_data, output_data)
        if event is not None and self._publisher_takes_ours:
            await self._publisher.on_event(collected_event(event))
        elif event is not None:
            await self._publisher.publish(tenxgraph_event(event))
        return output_data

    async def _node_event(
        self, context: CallbackContext, input_data: Any, output_data: Any
    ) -> EventModel | None:
        if context.node_name in _INTERNAL_NODES:
            return None
        run_config = _invocation_config(context)
        message = await _reply_message(output_data)
        state = input_data.get("state") if isinstance(input_data, dict) else input_data
        input_messages = [
            {"role": m.role, "content": m.text() or ""}
            for m in (getattr(state, "context", None) or [])
            if isinstance(m, Message)
        ]
        tool_names = _tool_call_names(message)
        return EventModel(
            event=Event.NODE_EXECUTION,
            event_type=EventType.END,
            node_name=context.node_name,
            data={
                "input_messages": input_messages,
                "response_text": message.text() if message is not None else "",
                "has_tool_calls": bool(tool_names),
                "tool_call_names": tool_names,
                "is_final": not tool_names,
                "token_usage": _token_usage(message),
            },
            metadata=_started_at(context),
            **self._stamp.ids(run_config),
        )

    def _tool_event(
        self, context: CallbackContext, input_data: Any, output_data: Any
    ) -> EventModel:
        run_config = _invocation_config(context)
        return EventModel(
            event=Event.TOOL_EXECUTION,
            event_type=EventType.END,
            node_name=context.function_name or context.node_name,
            data={
                "function_name": context.function_name or context.node_name,
                "args": _tool_args(context, input_data),
                "result": _jsonable(output_data),
                "tool_call_id": str((context.metadata or {}).get("tool_call_id", "") or ""),
                "graph_node": run_config.get("_node_name", ""),
                **_mode(),
            },
            metadata=_started_at(context),
            **self._stamp.ids(run_config),
        )


class ToolErrorCallback(OnErrorCallback):
    """Records a tool call that raised (with its error); never handles the error itself."""

    def __init__(self, publisher: Any, config: dict[str, Any] | None = None) -> None:
        self._publisher = publisher
        self._stamp = _Stamp(config)

    async def __call__(self, context: CallbackContext, input_data: Any, error: Exception) -> None:
        run_config = _invocation_config(context)
        await record_tool_node_visit(self._publisher, self._stamp, run_config)
        await self._publisher.publish(
            EventModel(
                event=Event.TOOL_EXECUTION,
                event_type=EventType.END,
                node_name=context.function_name or context.node_name,
                data={
                    "function_name": context.function_name or context.node_name,
                    "args": _tool_args(context, input_data),
                    "result": None,
                    "error": f"{type(error).__name__}: {error}",
                    "tool_call_id": str((context.metadata or {}).get("tool_call_id", "") or ""),
                    "graph_node": run_config.get("_node_name", ""),
                    **_mode(),
                },
                metadata=_started_at(context),
                **self._stamp.ids(run_config),
            )
        )
        return None


class StepStarts(BeforeInvokeCallback[Any, Any]):
    """Announces each model and tool call as it starts (see the module's docstring).

    A model call is an ``LLM_CALL`` ``START`` event of its node (the trajectory does not
    count it: the node's visit is its ``NODE_EXECUTION`` event, published when the model
    replied); a tool call a ``TOOL_EXECUTION`` ``START`` event with its name, args and
    call id. The time each started is kept on the run's config for its end event.
    """

    def __init__(self, publisher: Any, config: dict[str, Any] | None = None) -> None:
        self._publisher = publisher
        self._stamp = _Stamp(config)

    async def __call__(self, context: CallbackContext, input_data: Any) -> Any:
        if context.node_name in _INTERNAL_NODES:
            return input_data
        run_config = _invocation_config(context)
        now = time.time()
        starts = run_config.setdefault(_STEP_STARTS, {})
        if isinstance(starts, dict):
            starts[_step_key(context)] = now
        if context.invocation_type == InvocationType.AI:
            event = EventModel(
                event=Event.LLM_CALL,
                event_type=EventType.START,
                node_name=context.node_name,
                timestamp=now,
                **self._stamp.ids(run_config),
            )
        else:
            name = context.function_name or context.node_name
            event = EventModel(
                event=Event.TOOL_EXECUTION,
                event_type=EventType.START,
                node_name=name,
                timestamp=now,
                data={
                    "function_name": name,
                    "args": _tool_args(context, input_data),
                    "tool_call_id": str((context.metadata or {}).get("tool_call_id", "") or ""),
                    "graph_node": run_config.get("_node_name", ""),
                },
                **self._stamp.ids(run_config),
            )
        await self._publisher.publish(event)
        return input_data


class ToolNodeVisits(AfterInvokeCallback[Any, Any]):
    """Records a tool node's run as a node visit (before its first tool call).

    Register it for ``AI`` as well as ``TOOL``/``MCP``: a model node's call
    marks that node as the last one visited, so the next tool call starts a
    new tool-node visit. Several tool calls of one tool-node run make one visit.
    """

    def __init__(self, publisher: Any, config: dict[str, Any] | None = None) -> None:
        self._publisher = publisher
        self._stamp = _Stamp(config)

    async def __call__(self, context: CallbackContext, input_data: Any, output_data: Any) -> Any:
        run_config = _invocation_config(context)
        if context.invocation_type == InvocationType.AI:
            run_config[_LAST_NODE] = context.node_name
        elif context.invocation_type in (InvocationType.TOOL, InvocationType.MCP):
            await record_tool_node_visit(self._publisher, self._stamp, run_config)
        return output_data


async def record_tool_node_visit(publisher: Any, stamp: _Stamp, run_config: dict[str, Any]) -> None:
    """Publish a visit of the tool node running now, unless it is already recorded."""
    node = str(run_config.get("_node_name") or "")
    if not node or run_config.get(_LAST_NODE) == node:
        return
    run_config[_LAST_NODE] = node  # before awaiting: parallel tool calls see it
    await publisher.publish(
        EventModel(
            event=Event.NODE_EXECUTION,
            event_type=EventType.END,
            node_name=node,
            data={"visit_only": True},
            **stamp.ids(run_config),
        )
    )


def build_callback_manager(publisher: Any, config: dict[str, Any] | None = None) -> CallbackManager:
    """A ``CallbackManager`` feeding ``publisher`` from model calls, tool calls and node runs."""
    manager = CallbackManager()
    starts = StepStarts(publisher, config)
    visits = ToolNodeVisits(publisher, config)
    callback = PublisherCallback(publisher, config)
    for invocation_type in (InvocationType.AI, InvocationType.TOOL, InvocationType.MCP):
        manager.register_before_invoke(invocation_type, starts)
        manager.register_after_invoke(invocation_type, visits)
        manager.register_after_invoke(invocation_type, callback)
    errors = ToolErrorCallback(publisher, config)
    for invocation_type in (InvocationType.TOOL, InvocationType.MCP):
        manager.register_on_error(invocation_type, errors)
    return manager


async def _reply_message(output: Any) -> Message | None:
    if isinstance(output, dict):
        messages = output.get("messages") or []
        output = messages[-1] if messages else None
    elif isinstance(output, list):
        output = output[-1] if output else None
    if isinstance(output, Message):
        return output
    # A model-response converter holding an already-made response can be read
    # without calling the model again; one holding a callable cannot.
    response = getattr(output, "response", None)
    if response is not None and not callable(response) and hasattr(output, "invoke"):
        try:
            message = await output.invoke()
        except Exception:
            return None
        return message if isinstance(message, Message) else None
    return None


def _tool_call_names(message: Message | None) -> list[str]:
    names: list[str] = []
    for call in getattr(message, "tools_calls", None) or []:
        if isinstance(call, dict):
            function = call.get("function")
            name = function.get("name") if isinstance(function, dict) else call.get("name")
        else:
            name = getattr(call, "name", None)
        if name:
            names.append(str(name))
    return names


def _token_usage(message: Message | None) -> dict[str, int]:
    usage = getattr(message, "usages", None)
    if usage is None:
        return {}
    return {
        "input_tokens": usage.prompt_tokens or 0,
        "output_tokens": usage.completion_tokens or 0,
        "cache_read_tokens": usage.cache_read_input_tokens or 0,
        "cache_creation_tokens": usage.cache_creation_input_tokens or 0,
    }


def _mode() -> dict[str, str]:
    """``{"tool_mode": ...}`` of the tool call that just ended, when the case's tools
    answered it (see :mod:`~tenxeval_tui.evaluation.tools.session`)."""
    mode = take_call_mode()
    return {} if mode is None else {"tool_mode": mode}


def _tool_args(context: CallbackContext, input_data: Any) -> dict[str, Any]:
    args = input_data if isinstance(input_data, dict) else (context.metadata or {}).get("args")
    return json_safe(dict(args)) if isinstance(args, dict) else {}


__all__ = [
    "PublisherCallback",
    "StepStarts",
    "ToolErrorCallback",
    "ToolNodeVisits",
    "build_callback_manager",
    "collected_event",
    "tenxgraph_event",
]
