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
        return self.model_dump(mode="json", fallback=str)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EventModel:
        """An event from :meth:`to_dict` data (or a 10xGraph event's ``model_dump()``)."""
        return cls.model_validate(data)


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
