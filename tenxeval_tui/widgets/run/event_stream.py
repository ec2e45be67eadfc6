"""The live events of one case, one event a line (wrapped to the pane's width, continuation
lines indented), following the tail unless scrolled up."""

from __future__ import annotations

import json
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import Log

from tenxeval_tui.evaluation.collectors.event_collector import EventCollector
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.inert import inert

# Longest text of one field on an event line (the reports keep everything).
FIELD_LIMIT = 240


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


def describe_event(event: EventModel) -> str:
    """One line of plain text for ``event`` (node visit, tool call, model text, tokens)."""
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
        args = data.get("args") or {}
        shown = (
            ", ".join(f"{k}={_value(v)}" for k, v in args.items())
            if isinstance(args, dict)
            else _value(args)
        )
        line = f"⚙ {name}({_clip(shown)})"
        if data.get("error"):
            return f"{line} ✗ {_clip(str(data['error']))}"
        return f"{line} → {_clip(_value(data.get('result')))}"
    if event.event == Event.GRAPH_EXECUTION:
        if event.event_type == EventType.ERROR or data.get("error"):
            return f"✗ error: {_clip(str(data.get('error', '')))}"
        if event.event_type == EventType.END:
            return f"■ reply {_value(_clip(str(data.get('response_text') or '')))}"
        return f"■ run {event.event_type}"
    label = f"· {event.event} {event.event_type} {event.node_name}".rstrip()
    return label + _tokens(data)


CONTINUATION = "  "
"""The indent of an event's wrapped lines."""


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` in lines of at most ``width`` cells, broken between words where it can;
    the lines after the first indented by :data:`CONTINUATION`."""
    if width <= len(CONTINUATION) + 1 or cell_len(line) <= width:
        return [line]
    first, *rest = Text(line).wrap(_MEASURE, width)
    lines = [first.plain.rstrip()]
    body = " ".join(part.plain.strip() for part in rest)
    for part in Text(body).wrap(_MEASURE, width - len(CONTINUATION)) if body else []:
        lines.append(CONTINUATION + part.plain.strip())
    return lines


def _measure_console() -> Any:
    from rich.console import Console

    return Console(width=10_000, color_system=None, legacy_windows=False)


_MEASURE = _measure_console()


class EventStream(Log):
    """Shows the events of the case it follows; :meth:`flush` appends what arrived since.

    Each event is one line of text; the pane wraps it to its width and wraps everything
    again when its width changes.
    """

    DEFAULT_CSS = """
    EventStream {
        height: 1fr;
        overflow-x: hidden;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, auto_scroll=True)
        self._source: EventCollector | None = None
        self._shown = 0
        self._texts: list[str] = []
        """Every event line shown, unwrapped (to wrap again on a resize)."""
        self._wrap_width = 0

    @property
    def shown(self) -> int:
        """How many events of the followed case are on screen."""
        return self._shown

    def follow(self, source: EventCollector | None, placeholder: str = "") -> None:
        """Show ``source``'s events from the start (``placeholder`` when there is none)."""
        self._source = source
        self._shown = 0
        self._texts = []
        self.clear()
        if placeholder and (source is None or not source.events):
            self._write([inert(placeholder)])
        self.flush()

    @property
    def _pane_width(self) -> int:
        # The vertical scrollbar is counted in always: lines never outgrow the pane once
        # it appears.
        return max(self.content_region.width - self.styles.scrollbar_size_vertical, 0)

    def _write(self, texts: list[str]) -> None:
        self._texts += texts
        width = self._wrap_width = self._pane_width
        self.write_lines([part for text in texts for part in wrap_line(text, width)])

    def on_resize(self, event: events.Resize) -> None:
        if self._pane_width != self._wrap_width and self._texts:
            texts, self._texts = self._texts, []
            self.clear()
            self._write(texts)

    def flush(self) -> int:
        """Append the events that arrived since the last flush; returns how many."""
        source = self._source
        if source is None:
            return 0
        events = source.events
        new = events[self._shown :]
        if not new:
            return 0
        # One line per event, whatever line breaks the agent's text holds; its control
        # characters are shown, never written (Log only drops some of them).
        self._write([inert(" ".join(describe_event(event).splitlines())) for event in new])
        self._shown += len(new)
        return len(new)


__all__ = ["EventStream", "describe_event"]
