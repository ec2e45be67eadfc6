"""A case's live events as the run view shows them: one line of inert text an event.

The run view keeps every event of every case of a run, so that selecting any case shows
all of its events. An :class:`EventModel` with its data dict costs a few kilobytes; the
line the view shows for it costs a hundred bytes or so. :class:`EventLines` keeps only
the lines (made once, as the event arrives), which bounds the view's memory to what it
can show; the full events are in the reports and the run journal. No UI import.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, overload

from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.inert import inert

FIELD_LIMIT = 240
"""Longest text of one field on an event line (the reports keep everything)."""


def _clip(text: str, limit: int = FIELD_LIMIT) -> str:
    text = " ⏎ ".join(text.splitlines())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    try:
        return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _tokens(data: dict[str, Any]) -> str:
    usage = data.get("token_usage")
    if not isinstance(usage, dict):
        return ""
    tokens_in = int(usage.get("input_tokens") or 0)
    tokens_out = int(usage.get("output_tokens") or 0)
    if not (tokens_in or tokens_out):
        return ""
    return f"  [tokens {tokens_in} in / {tokens_out} out]"


def call_text(name: str, args: Any) -> str:
    """``get_weather(location="Paris")``: a tool call with its arguments (clipped)."""
    args = args or {}
    shown = (
        ", ".join(f"{k}={_value(v)}" for k, v in args.items())
        if isinstance(args, dict)
        else _value(args)
    )
    return f"{name}({_clip(shown)})"


def step_duration(event: EventModel) -> float | None:
    """Seconds the step ``event`` ends took (its ``metadata["started_at"]``), if known."""
    started = event.metadata.get("started_at")
    if not isinstance(started, int | float) or isinstance(started, bool):
        return None
    return max(event.timestamp - float(started), 0.0)


def duration_text(seconds: float) -> str:
    """``0.42s``, ``4.2s``, ``1m05s``: a step's duration, short."""
    if seconds < 10:
        return f"{seconds:.2f}s"
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s"


def mode_mark(data: dict[str, Any]) -> str:
    """`` · replayed`` (``live``, ``faked``, ``unrecorded``) for a tool call a run that
    controls tools answered; ``""`` otherwise."""
    mode = data.get("tool_mode")
    return f" · {mode}" if isinstance(mode, str) and mode else ""


def describe_event(event: EventModel) -> str:
    """One line of plain text for ``event`` (node visit, tool call, model text, tokens; a
    simulated user's message as ``● user "..."``, each turn's reply as ``■ reply "..."``)."""
    data = event.data
    if event.event == Event.NODE_EXECUTION:
        if data.get("visit_only"):
            return f"▸ {event.node_name}"
        parts = [f"▸ {event.node_name}"]
        text = str(data.get("response_text") or "")
        if text:
            parts.append(f" says {_value(_clip(text))}")
        names = data.get("tool_call_names") or []
        if names:
            parts.append(" → calls " + ", ".join(str(n) for n in names))
        return "".join(parts) + _tokens(data)
    if event.event == Event.TOOL_EXECUTION:
        name = str(data.get("function_name") or event.node_name)
        line = f"⚙ {call_text(name, data.get('args'))}{mode_mark(data)}"
        if data.get("error"):
            return f"{line} ✗ {_clip(str(data['error']))}"
        return f"{line} → {_clip(_value(data.get('result')))}"
    if event.event == Event.GRAPH_EXECUTION:
        if event.event_type == EventType.ERROR or data.get("error"):
            return f"✗ error: {_clip(str(data.get('error', '')))}"
        if data.get("simulated_user"):  # user simulation: the message the model wrote
            return f"● user {_value(_clip(str(data.get('user_message') or '')))}"
        if event.event_type == EventType.END:
            return f"■ reply {_value(_clip(str(data.get('response_text') or '')))}"
        return f"■ run {event.event_type}"
    label = f"· {event.event} {event.event_type} {event.node_name}".rstrip()
    return label + _tokens(data)


def event_line(event: EventModel, *, duration: bool = True) -> str:
    """The line shown for ``event``: :func:`describe_event` on one line, made inert (the
    agent's line breaks and control characters are shown, never written), with the step's
    duration when the event says when it started (unless ``duration`` is off)."""
    line = " ".join(describe_event(event).splitlines())
    took = step_duration(event) if duration else None
    if took is not None:
        line += f"  [{duration_text(took)}]"
    return inert(line)


class EventLines(Sequence[str]):
    """The shown lines of one case's events, in arrival order (see the module's docstring)."""

    __slots__ = ("_lines",)

    def __init__(self) -> None:
        self._lines: list[str] = []

    def add(self, event: EventModel, prefix: str = "", *, duration: bool = True) -> None:
        """Keep the line of ``event`` (the event itself is not kept), after ``prefix``
        (which run of a repeated case it is of); ``duration``: with the step's duration."""
        self._lines.append(prefix + event_line(event, duration=duration))

    def __len__(self) -> int:
        return len(self._lines)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._lines[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)


__all__ = [
    "FIELD_LIMIT",
    "EventLines",
    "call_text",
    "describe_event",
    "duration_text",
    "event_line",
    "step_duration",
]
