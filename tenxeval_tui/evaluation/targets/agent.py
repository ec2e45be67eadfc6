"""Plain Python agents as evaluation targets.

An agent is an async function (a plain function works too) that takes the
user's message and a :class:`Trace`, and returns its reply::

    async def weather_agent(message: str, trace: Trace) -> str:
        city = message.removeprefix("Weather in ").rstrip("?")
        trace.node("MAIN", tool_calls=["get_weather"], tokens={"input_tokens": 12})
        report = await trace.tool("get_weather", {"city": city}, get_weather)
        trace.node("TOOL")
        reply = f"It is {report} in {city}."
        trace.node("MAIN", response=reply, tokens={"input_tokens": 30, "output_tokens": 9})
        return reply

An object with an async ``ainvoke(message, trace)`` method works the same way.
:func:`wrap_agent` turns either into the ``(app, collector)`` pair the
evaluator takes; the app remembers each thread's history and state across turns.
"""

from __future__ import annotations

import inspect
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tenxeval_tui.evaluation.case_control import tool_call_scope
from tenxeval_tui.evaluation.collectors.trajectory_collector import (
    TrajectoryCollector,
    current_capture,
)
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.json_safe import json_safe
from tenxeval_tui.evaluation.token_usage import TokenUsage
from tenxeval_tui.evaluation.tools.current import intercept, take_call_mode

AgentFunction = Callable[[str, "Trace"], Awaitable[Any] | Any]

# Threads an app remembers (history and state of multi-turn conversations).
_MAX_THREADS = 4096


class Trace:
    """What a plain agent reports while it works: nodes, tool calls, token usage.

    Also carries the conversation: ``thread_id``, ``user_id``, ``history``
    (earlier turns of this thread as ``{"role", "content"}`` dicts), ``state``
    (a dict kept across the turns of the thread, seeded from the case's
    ``session_input.state``), ``config`` (the run config) and ``turn`` (0-based).
    """

    def __init__(
        self,
        collector: TrajectoryCollector,
        *,
        thread_id: str,
        run_id: str,
        user_id: str,
        history: list[dict[str, Any]],
        state: dict[str, Any],
        config: dict[str, Any],
        turn: int,
    ) -> None:
        self._collector = collector
        # The case this trace belongs to, for tools that record from a worker thread.
        self._capture = current_capture()
        self.thread_id = thread_id
        self.run_id = run_id
        self.user_id = user_id
        self.history = history
        self.state = state
        self.config = config
        self.turn = turn

    def _emit(
        self,
        event: Event,
        node_name: str,
        data: dict[str, Any],
        *,
        event_type: EventType = EventType.END,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        self._collector.deliver(
            EventModel(
                event=event,
                event_type=event_type,
                node_name=node_name,
                data=data,
                thread_id=self.thread_id,
                run_id=self.run_id,
                metadata=metadata or {},
            ),
            current_capture() or self._capture,
        )

    def node(
        self,
        name: str,
        *,
        response: str = "",
        tool_calls: list[str] | tuple[str, ...] = (),
        input_messages: list[dict[str, Any]] | None = None,
        tokens: TokenUsage | dict[str, int] | None = None,
    ) -> None:
        """Record that node ``name`` finished.

        ``response`` is its reply text (the last node with a reply and no
        ``tool_calls`` gives the final response), ``tool_calls`` the tools it
        asked for, ``tokens`` what its model call cost. A node with none of
        these (e.g. a tool node) is recorded as a plain visit.
        """
        usage = tokens if isinstance(tokens, TokenUsage) else TokenUsage(**(tokens or {}))
        if not (response or tool_calls or input_messages or usage):
            self._emit(Event.NODE_EXECUTION, name, {"visit_only": True})
            return
        self._emit(
            Event.NODE_EXECUTION,
            name,
            {
                "input_messages": list(input_messages or []),
                "response_text": response,
                "has_tool_calls": bool(tool_calls),
                "tool_call_names": list(tool_calls),
                "is_final": not tool_calls,
                "token_usage": usage.model_dump(exclude={"total_tokens"}),
            },
        )

    async def tool(
        self,
        name: str,
        args: dict[str, Any] | None = None,
        fn: Callable[..., Any] | None = None,
    ) -> Any:
        """Call ``fn(**args)`` (awaited when it is async), record the call, return its result.

        A tool that raises is recorded with its error, then the error propagates. The call
        goes through the case's tools (:mod:`~tenxeval_tui.evaluation.tools.session`): a
        run may replay it, fake it or make it fail instead of calling ``fn``. The
        call is announced as it starts (a ``TOOL_EXECUTION`` ``START`` event), so a live
        view shows it in flight; its record says when it started. An async tool ended from
        the run view raises :class:`~tenxeval_tui.evaluation.case_control.ToolCallTimeout`
        (a ``TimeoutError``) here, as a real timeout would.
        """
        args = dict(args or {})
        if fn is None:
            self.record_tool(name, args)
            return None
        started = time.time()
        self._emit(
            Event.TOOL_EXECUTION,
            name,
            {"function_name": name, "args": _json_data(args)},
            event_type=EventType.START,
        )
        tool = fn

        async def run() -> Any:
            async with tool_call_scope(name):  # the run view may end it: a timeout, then
                result = tool(**args)
                if inspect.isawaitable(result):
                    result = await result
                return result

        try:
            result = await intercept(name, args, run)
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            self.record_tool(name, args, error=error, started=started, mode=take_call_mode())
            raise
        self.record_tool(name, args, result, started=started, mode=take_call_mode())
        return result

    def record_tool(
        self,
        name: str,
        args: dict[str, Any] | None = None,
        result: Any = None,
        *,
        error: str | None = None,
        call_id: str | None = None,
        started: float | None = None,
        mode: str | None = None,
    ) -> None:
        """Record a tool call the agent made itself (name, arguments, result or error).

        Arguments and result are kept as JSON data (objects JSON has no form for become
        their ``str``), as reports, journals and the live view carry them as JSON.
        ``started`` (``time.time()``) is when the call began, for its duration; ``mode``
        how it was answered (``live``, ``replayed``, ``faked``), when a run controls tools.
        """
        data: dict[str, Any] = {
            "function_name": name,
            "args": _json_data(dict(args or {})),
            "result": _json_data(result),
            "tool_call_id": call_id or "",
        }
        if error is not None:
            data["error"] = error
        if mode is not None:
            data["tool_mode"] = mode
        metadata = {"started_at": started} if started is not None else None
        self._emit(Event.TOOL_EXECUTION, name, data, metadata=metadata)


def _json_data(value: Any) -> Any:
    return json_safe(value)  # bytes as their str, oversized integers as a note


@dataclass
class _Thread:
    history: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


class AgentApp:
    """A plain agent made invocable like a compiled graph: ``await app.ainvoke(input, config)``.

    ``input`` is ``{"messages": [...], "state": {...}}``; the agent gets the
    text of the last message. ``config`` gives ``thread_id`` (turns of one
    thread share history and state), ``run_id`` and ``user_id``. Returns
    ``{"messages": history, "response": reply}``.
    """

    def __init__(self, agent: Any, collector: TrajectoryCollector) -> None:
        self.agent = agent
        self.collector = collector
        self._call = _agent_callable(agent)
        self._threads: OrderedDict[str, _Thread] = OrderedDict()

    async def ainvoke(
        self, input_data: dict[str, Any], config: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        config = dict(config or {})
        thread_id = str(config.get("thread_id") or uuid.uuid4().hex)
        run_id = str(config.get("run_id") or uuid.uuid4().hex)
        thread = self._thread(thread_id)
        thread.state.update(input_data.get("state") or {})
        text = _message_text((input_data.get("messages") or [""])[-1])
        trace = Trace(
            self.collector,
            thread_id=thread_id,
            run_id=run_id,
            user_id=str(config.get("user_id", "")),
            history=list(thread.history),
            state=thread.state,
            config=config,
            turn=sum(1 for m in thread.history if m["role"] == "user"),
        )
        reply = self._call(text, trace)
        if inspect.isawaitable(reply):
            reply = await reply
        if inspect.isasyncgen(reply):  # a streaming agent: its chunks make the reply
            reply = "".join([str(chunk) async for chunk in reply if chunk is not None])
        elif inspect.isgenerator(reply):
            reply = "".join(str(chunk) for chunk in reply if chunk is not None)
        response = "" if reply is None else str(reply)
        thread.history.append({"role": "user", "content": text})
        if response:
            thread.history.append({"role": "assistant", "content": response})
        return {"messages": list(thread.history), "response": response}

    def forget_thread(self, thread_id: str) -> None:
        """Forget thread ``thread_id`` (its history and state), if it is remembered."""
        self._threads.pop(thread_id, None)

    def _thread(self, thread_id: str) -> _Thread:
        thread = self._threads.get(thread_id)
        if thread is None:
            thread = self._threads[thread_id] = _Thread()
            if len(self._threads) > _MAX_THREADS:
                self._threads.popitem(last=False)
        else:
            self._threads.move_to_end(thread_id)
        return thread

    def __repr__(self) -> str:
        return f"AgentApp({getattr(self.agent, '__name__', type(self.agent).__name__)})"


def _agent_callable(agent: Any) -> Callable[[str, Trace], Any]:
    method = getattr(agent, "ainvoke", None)
    if callable(method):
        return method
    if callable(agent):
        return agent
    raise TypeError(
        f"an agent must be an async function (message, trace) -> reply or an object with "
        f"ainvoke(message, trace); got {type(agent).__name__}"
    )


def _message_text(message: Any) -> str:
    if isinstance(message, str):
        return message
    if isinstance(message, dict):
        content = message.get("content", "")
        if isinstance(content, list):
            return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
        return str(content)
    text = getattr(message, "text", None)
    return str(text() if callable(text) else getattr(message, "content", message))


def wrap_agent(
    agent: Any, *, capture_all_events: bool = True
) -> tuple[AgentApp, TrajectoryCollector]:
    """``(app, collector)`` for a plain agent (see the module docs for the agent's shape)."""
    collector = TrajectoryCollector(capture_all_events=capture_all_events)
    return AgentApp(agent, collector), collector


__all__ = ["AgentApp", "AgentFunction", "Trace", "wrap_agent"]
