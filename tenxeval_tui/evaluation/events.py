"""Events an agent run emits: what ran (graph, node, tool), when, in which thread and run.

The shapes are 10xGraph's (``event``, ``event_type``, ``node_name``, ``data``,
``timestamp``, ``thread_id``, ``run_id``), defined here so the core needs no
10xGraph import. An :class:`EventModel` goes to JSON and back unchanged, which is
how the TUI's worker process streams a run to the screen.

What ``data`` holds, by event:

- ``NODE_EXECUTION``: ``response_text``, ``input_messages``, ``has_tool_calls``,
  ``tool_call_names``, ``is_final``, ``token_usage`` (a model node), or
  ``visit_only: True`` plus ``step`` (a node that called no model, e.g. a tool node).
- ``TOOL_EXECUTION``: ``function_name``, ``args``, ``result``, ``tool_call_id``
  (and ``error`` when the tool raised).
- ``GRAPH_EXECUTION`` ``END``: ``response_text`` (the run's final reply);
  ``ERROR``: ``error``.
"""

from __future__ import annotations

import time
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Event(StrEnum):
    """Where an event comes from."""

    GRAPH_EXECUTION = "graph_execution"
    NODE_EXECUTION = "node_execution"
    LLM_CALL = "llm_call"
    TOOL_EXECUTION = "tool_execution"
    STREAMING = "streaming"
    REALTIME = "realtime"


class EventType(StrEnum):
    """The phase an event marks."""

    START = "start"
    PROGRESS = "progress"
    RESULT = "result"
    END = "end"
    UPDATE = "update"
    ERROR = "error"
    INTERRUPTED = "interrupted"


class EventModel(BaseModel):
    """One event of an agent run.

    Unknown fields (e.g. 10xGraph's ``content_type``) are kept, so an event read
    from another tool's stream is written back as it came.
    """

    model_config = ConfigDict(extra="allow")

    event: Event
    event_type: EventType = EventType.END
    node_name: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
    timestamp: float = Field(default_factory=time.time)
    thread_id: str = ""
    run_id: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("thread_id", "run_id", mode="before")
    @classmethod
    def _ids_as_text(cls, value: Any) -> Any:
        # 10xGraph allows integer thread ids; ours are always text.
        return "" if value is None else str(value)

    def to_json(self) -> str:
        """The event as one line of JSON (non-JSON values in ``data`` become strings)."""
        return self.model_dump_json(fallback=str)

    @classmethod
    def from_json(cls, text: str | bytes) -> EventModel:
        """An event from its JSON text (as written by :meth:`to_json`)."""
        return cls.model_validate_json(text)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        plain = _plain_dict(self)
        return plain if plain is not None else self.model_dump(mode="json", fallback=str)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EventModel:
        """An event from :meth:`to_dict` data (or a 10xGraph event's ``model_dump()``)."""
        return cls.model_validate(data)


_NOT_PLAIN = object()
_LEAVES = frozenset({str, int, bool, type(None)})


def _plain_copy(value: Any) -> Any:
    """A copy of ``value`` when it holds only text, integers, finite floats, flags, ``None``,
    lists and text-keyed dicts (what ``model_dump(mode="json")`` gives back as it is, copied);
    ``_NOT_PLAIN`` otherwise."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is float:  # NaN and the infinities are pydantic's to write
        return value if value - value == 0.0 else _NOT_PLAIN
    if kind is list:
        items = [_plain_copy(item) for item in value]
        return _NOT_PLAIN if any(item is _NOT_PLAIN for item in items) else items
    if kind is dict:
        copied = {}
        for key, item in value.items():
            item = _plain_copy(item)
            if type(key) is not str or item is _NOT_PLAIN:
                return _NOT_PLAIN
            copied[key] = item
        return copied
    return _NOT_PLAIN


def _plain_dict(event: EventModel) -> dict[str, Any] | None:
    """``event.model_dump(mode="json", fallback=str)`` made by hand for a plain event (the
    evaluator's own, e.g. the "judging" one of every case): exactly an :class:`EventModel`,
    no extra fields or metadata, its enums and texts of their types, a finite timestamp
    and plain ``data`` (see :func:`_plain_copy`); ``None`` for any other (pydantic's)."""
    stamp = event.timestamp
    if (
        type(event) is not EventModel
        or event.__pydantic_extra__
        or type(event.metadata) is not dict
        or event.metadata
        or type(event.event) is not Event
        or type(event.event_type) is not EventType
        or type(stamp) is not float
        or stamp - stamp != 0.0  # NaN or an infinity
        or not (type(event.node_name) is type(event.thread_id) is type(event.run_id) is str)
    ):
        return None
    data = _plain_copy(event.data)
    if type(data) is not dict:
        return None
    return {
        "event": event.event.value,
        "event_type": event.event_type.value,
        "node_name": event.node_name,
        "data": data,
        "timestamp": stamp,
        "thread_id": event.thread_id,
        "run_id": event.run_id,
        "metadata": {},
    }


def as_event_model(event: Any) -> EventModel:
    """``event`` as our :class:`EventModel`: ours as is, another pydantic event (10xGraph's
    own ``EventModel``) by its fields, its extra ones (``content_type``...) kept."""
    if isinstance(event, EventModel):
        return event
    if isinstance(event, BaseModel):
        return EventModel.model_validate(
            event.model_dump(mode="json", fallback=str, exclude_none=True)
        )
    return EventModel.model_validate(event)


__all__ = ["Event", "EventModel", "EventType", "as_event_model"]
