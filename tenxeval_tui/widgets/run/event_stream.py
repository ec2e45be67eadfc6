"""The live events of one case, one event a line (wrapped to the pane's width, continuation
lines indented), following the tail unless scrolled up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import Log

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.event_lines import describe_event

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

    It follows the case's event lines (:class:`~tenxeval_tui.runs.event_lines.EventLines`,
    one line of inert text an event); the pane wraps each to its width and wraps
    everything again when its width changes.
    """

    DEFAULT_CSS = """
    EventStream {
        height: 1fr;
        overflow-x: hidden;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, auto_scroll=True)
        self._source: Sequence[str] | None = None
        self._shown = 0
        self._texts: list[str] = []
        """Every event line shown, unwrapped (to wrap again on a resize)."""
        self._wrap_width = 0

    @property
    def shown(self) -> int:
        """How many events of the followed case are on screen."""
        return self._shown

    def follow(self, source: Sequence[str] | None, placeholder: str = "") -> None:
        """Show ``source``'s event lines from the start (``placeholder`` when there is none)."""
        self._source = source
        self._shown = 0
        self._texts = []
        self.clear()
        if placeholder and not source:
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
        new = list(source[self._shown :])
        if not new:
            return 0
        self._write(new)
        self._shown += len(new)
        return len(new)


__all__ = ["EventStream", "describe_event"]
