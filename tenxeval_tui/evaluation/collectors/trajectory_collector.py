"""Collectors: where the events of an agent run go, and what is made of them.

- :class:`EventCollector` keeps raw events (for debugging and live views) and
  lets any number of consumers follow them live (:meth:`EventCollector.subscribe`).
- :class:`TrajectoryCollector` turns events into what criteria score: tool calls
  with arguments and results, node visits, node responses, the final reply.

Per-case isolation: :meth:`TrajectoryCollector.capture` routes every event that
reaches a collector *from the current asyncio context* into a fresh collector of
its own (a ``contextvars`` variable, so concurrent cases never see each other's
events and nothing shared is rebound). The evaluator runs each case inside one.

:class:`PublisherCallback` and :func:`make_trajectory_callback` need the optional
``10xgraph`` package and are loaded from :mod:`.tenxgraph_callbacks` on first use.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.collectors.event_collector import EventCollector, EventListener
from tenxeval_tui.evaluation.dataset.eval_set import StepType, ToolCall, TrajectoryStep
from tenxeval_tui.evaluation.events import Event, EventModel, EventType, as_event_model
from tenxeval_tui.evaluation.execution.result import ExecutionResult, NodeResponseData
from tenxeval_tui.evaluation.lean import shared_name, token_usage, trusted
from tenxeval_tui.evaluation.subscription import Subscription
from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.collectors.tenxgraph_callbacks import PublisherCallback

# Tool arguments that frameworks inject and that are not the model's arguments.
_INJECTED_ARGS = frozenset({"tool_call_id", "state", "config"})


# (collector the events were sent to, collector that receives them) for the running case.
Capture = tuple["TrajectoryCollector", "TrajectoryCollector"]
_ACTIVE_CAPTURE: contextvars.ContextVar[Capture | None] = contextvars.ContextVar(
    "tenxeval_active_capture", default=None
)


def current_capture() -> Capture | None:
    """Where events sent from the current context go (``None``: nowhere special).

    A sender that will emit from elsewhere (a worker thread: executors do not copy
    the context) takes it now and passes it to :meth:`TrajectoryCollector.deliver`.
    """
    return _ACTIVE_CAPTURE.get()


class TrajectoryCollector(EventCollector):
    """Builds the trajectory of a run from its events.

    ``events`` keeps raw events only when ``capture_all_events`` is true; live
    subscribers see every event either way. Node steps are appended when a
    node finishes, so a tool node's step follows the tool calls it made.
    """

    def __init__(self, capture_all_events: bool = False) -> None:
        super().__init__()
        self.capture_all_events = capture_all_events
        self.keep_last_case = True
        """Whether the evaluator leaves each finished case's trajectory here (see
        :meth:`absorb`); a run that streams its results elsewhere turns it off, so that
        the steps of its last case are not kept twice."""
        self.keep_threads = True
        """Whether the evaluator leaves each finished case's conversation thread in its app
        (a 10xGraph graph's checkpointed state, a plain agent's history); a run that never
        goes back to a finished case's thread turns it off, so that memory holds the
        cases running rather than every case run."""
        self.defer_node_views = False
        """With ``keep_last_case`` off: whether the evaluator leaves each case result's
        ``node_responses`` and ``node_details`` pending (see
        :mod:`~tenxeval_tui.evaluation.results.node_views`), for a run that writes its results
        rather than reads them."""
        self.trajectory: list[TrajectoryStep] = []
        self.tool_calls: list[ToolCall] = []
        self.node_visits: list[str] = []
        self.node_responses: list[NodeResponseData] = []
        self.messages: list[dict[str, Any]] = []
        self.final_response: str = ""
        self.start_time: float | None = None
        self.end_time: float | None = None
        self._pending_tools: dict[str, tuple[str, dict[str, Any]]] = {}
        self._message_keys: set[tuple[str, str]] = set()

    # -- routing ---------------------------------------------------------

    async def on_event(self, event: EventModel) -> None:
        self.on_event_sync(event)

    def on_event_sync(self, event: EventModel) -> None:
        self.deliver(event, _ACTIVE_CAPTURE.get())

    def deliver(self, event: EventModel, capture: Capture | None) -> None:
        """Record ``event`` as :meth:`on_event_sync` does in the context of ``capture``
        (see :func:`current_capture`): for senders running outside that context."""
        event = as_event_model(event)  # 10xGraph's own events too
        active = capture
        if active is not None and active[0] is self:
            active[1]._record(event)
            self._broadcast(event)
        else:
            self._record(event)

    @contextmanager
    def capture(self, listener: EventListener | None = None) -> Iterator[TrajectoryCollector]:
        """Route this collector's events from the current context into a new collector.

        Everything the agent does inside the ``with`` block (including tasks it
        starts) lands in the yielded collector and nowhere else; other contexts
        are unaffected. ``listener`` sees each of those events as it arrives.
        """
        child = TrajectoryCollector(capture_all_events=self.capture_all_events)
        if listener is not None:
            child.add_listener(listener)
        token = _ACTIVE_CAPTURE.set((self, child))
        try:
            yield child
        finally:
            _ACTIVE_CAPTURE.reset(token)

    def absorb(self, other: TrajectoryCollector) -> None:
        """Replace what this collector holds by what ``other`` collected."""
        self.reset()
        self.events.extend(other.events)
        self.trajectory.extend(other.trajectory)
        self.tool_calls.extend(other.tool_calls)
        self.node_visits.extend(other.node_visits)
        self.node_responses.extend(other.node_responses)
        self.messages.extend(other.messages)
        self._message_keys.update(other._message_keys)
        self.final_response = other.final_response
        self.start_time, self.end_time = other.start_time, other.end_time

    # -- recording -------------------------------------------------------

    def _record(self, event: EventModel) -> None:
        now = time.time()
        if self.start_time is None:
            self.start_time = now
        self.end_time = now
        if self.capture_all_events:
            self.events.append(event)
        if event.event == Event.NODE_EXECUTION:
            self._node_event(event)
        elif event.event == Event.TOOL_EXECUTION:
            self._tool_event(event)
        elif event.event == Event.GRAPH_EXECUTION:
            self._graph_event(event)
        self._broadcast(event)

    def _node_event(self, event: EventModel) -> None:
        name = shared_name(event.node_name or str(event.data.get("node_name", "")))
        if not name:
            return
        if event.event_type == EventType.START:
            # 10xGraph's own publisher announces nodes (its graph's "__start__" first);
            # 0.10.3's collector records each as a visit, and so do we. No model call
            # has happened yet, so it makes no node response.
            self.node_visits.append(name)
            self.trajectory.append(
                TrajectoryStep.node(name, timestamp=event.timestamp, event_type="start")
            )
            return
        data = event.data
        self.node_visits.append(name)
        # One step and one response per event: built lean (see .lean), as validation
        # would build them.
        self.trajectory.append(
            trusted(
                TrajectoryStep,
                {
                    "step_type": StepType.NODE,
                    "name": name,
                    "args": {},
                    "timestamp": float(event.timestamp),
                    "metadata": {"step": data["step"]} if "step" in data else {},
                },
            )
        )
        if data.get("visit_only"):
            return
        has_tool_calls = bool(data.get("has_tool_calls", False))
        response = trusted(
            NodeResponseData,
            {
                "node_name": name,
                "input_messages": _messages(data.get("input_messages")),
                "response_text": str(data.get("response_text") or ""),
                "has_tool_calls": has_tool_calls,
                "tool_call_names": [str(n) for n in data.get("tool_call_names") or []],
                "is_final": bool(data.get("is_final", not has_tool_calls)),
                "timestamp": float(event.timestamp),
                "token_usage": token_usage(data.get("token_usage")),
            },
        )
        self.node_responses.append(response)
        self._add_messages(response.input_messages)
        if response.is_final and response.response_text:
            self.final_response = response.response_text

    def _tool_event(self, event: EventModel) -> None:
        data = event.data
        name = str(data.get("function_name") or event.node_name or "")
        call_id = str(data.get("tool_call_id") or "")
        args = {k: v for k, v in (data.get("args") or {}).items() if k not in _INJECTED_ARGS}
        if not name:
            return
        if event.event_type == EventType.START:
            if call_id:
                self._pending_tools[call_id] = (name, args)
            return
        if call_id in self._pending_tools:
            pending_name, pending_args = self._pending_tools.pop(call_id)
            name, args = pending_name or name, pending_args or args
        metadata: dict[str, Any] = {"tool_call_id": call_id} if call_id else {}
        if data.get("error"):
            metadata["error"] = data["error"]
        marks: dict[str, Any] = {}
        if data.get("tool_mode"):  # how a run that controls tools answered the call
            metadata["tool_mode"] = marks["mode"] = data["tool_mode"]
        self.tool_calls.append(
            ToolCall(
                name=name, args=args, call_id=call_id or None, result=data.get("result"), **marks
            )
        )
        self.trajectory.append(
            TrajectoryStep(
                step_type=StepType.TOOL,
                name=name,
                args=args,
                timestamp=event.timestamp,
                metadata=metadata,
            )
        )

    def _graph_event(self, event: EventModel) -> None:
        if event.event_type != EventType.END:
            return
        self._add_messages(event.data.get("messages") or [])
        text = str(event.data.get("response_text") or "")
        if text:
            self.final_response = text
            self._add_messages([{"role": "assistant", "content": text}])

    def _add_messages(self, messages: list[dict[str, Any]]) -> None:
        for message in messages:
            key = (str(message.get("role", "")), str(message.get("content", "")))
            if key not in self._message_keys:
                self._message_keys.add(key)
                self.messages.append(message)

    # -- reading ---------------------------------------------------------

    def get_tool_names(self) -> list[str]:
        """Tool names in call order."""
        return [call.name for call in self.tool_calls]

    def get_trajectory_steps(self, step_type: StepType | None = None) -> list[TrajectoryStep]:
        """The trajectory, or only its steps of ``step_type``."""
        if step_type is None:
            return list(self.trajectory)
        return [step for step in self.trajectory if step.step_type == step_type]

    @property
    def duration(self) -> float:
        """Seconds from the first event to the last."""
        if self.start_time is None or self.end_time is None:
            return 0.0
        return self.end_time - self.start_time

    @property
    def token_usage(self) -> TokenUsage:
        """Tokens of every node response."""
        return sum((n.token_usage for n in self.node_responses), TokenUsage())

    def to_execution_result(
        self, duration_seconds: float | None = None, fallback_response: str = ""
    ) -> ExecutionResult:
        """What criteria score; ``fallback_response`` when no event carried a final reply."""
        return ExecutionResult(
            tool_calls=list(self.tool_calls),
            trajectory=list(self.trajectory),
            messages=list(self.messages),
            actual_response=self.final_response or fallback_response,
            node_responses=list(self.node_responses),
            node_visits=list(self.node_visits),
            duration_seconds=self.duration if duration_seconds is None else duration_seconds,
        )

    def to_dict(self) -> dict[str, Any]:
        """Everything collected, as JSON-ready data."""
        return {
            "trajectory": [s.model_dump(mode="json") for s in self.trajectory],
            "tool_calls": [c.model_dump(mode="json") for c in self.tool_calls],
            "node_visits": list(self.node_visits),
            "node_responses": [n.model_dump(mode="json") for n in self.node_responses],
            "final_response": self.final_response,
            "duration_seconds": self.duration,
        }

    def reset(self) -> None:
        """Forget everything collected (live subscriptions stay open)."""
        super().reset()
        self.trajectory.clear()
        self.tool_calls.clear()
        self.node_visits.clear()
        self.node_responses.clear()
        self.messages.clear()
        self._message_keys.clear()
        self._pending_tools.clear()
        self.final_response = ""
        self.start_time = None
        self.end_time = None

    def __repr__(self) -> str:
        return (
            f"TrajectoryCollector(nodes={len(self.node_visits)}, tools={len(self.tool_calls)}, "
            f"responses={len(self.node_responses)}, steps={len(self.trajectory)})"
        )


def _messages(value: Any) -> list[dict[str, Any]]:
    """An event's ``input_messages`` as validation makes them: a new list of dicts (a
    mapping becomes a dict; anything else is refused, as validation refuses it)."""
    messages: list[dict[str, Any]] = []
    for message in value or []:
        if isinstance(message, Mapping) and not isinstance(message, dict):
            message = dict(message)
        if not isinstance(message, dict):
            raise ValueError(f"input_messages holds a {type(message).__name__}, not a dict")
        messages.append(message)
    return messages


def make_trajectory_callback(
    collector: TrajectoryCollector, config: dict[str, Any] | None = None
) -> tuple[TrajectoryCollector, Any]:
    """Wire ``collector`` into a new 10xGraph ``CallbackManager``: ``(collector, manager)``.

    Pass the manager to ``StateGraph.compile(callback_manager=...)``. Needs the
    ``10xgraph`` extra. A graph compiled that way records events only if it is the
    first graph compiled in the process: 10xGraph's shared dependency container keeps
    the first callback manager it is given (10xgraph 0.10.3). Prefer
    :func:`~tenxeval_tui.evaluation.testing.create_eval_app`, which gives each graph a
    container of its own.
    """
    from tenxeval_tui.evaluation.collectors.tenxgraph_callbacks import build_callback_manager

    return collector, build_callback_manager(collector, config)


# 10xGraph's name for one model call's snapshot (ours is NodeResponseData, a pydantic model).
NodeResponse = NodeResponseData


def __getattr__(name: str) -> Any:
    if name == "PublisherCallback":
        from tenxeval_tui.evaluation.collectors.tenxgraph_callbacks import PublisherCallback

        return PublisherCallback
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EventCollector",
    "EventListener",
    "NodeResponse",
    "PublisherCallback",
    "Subscription",
    "TrajectoryCollector",
    "make_trajectory_callback",
]
