"""The run view's event pane as a transcript: the key that switches, and keeping it current.

The pane shows the followed case's events (one line an event) or its transcript (user
message, model steps, tool calls, verdicts: :class:`~tenxeval_tui.runs.transcript.LiveTranscript`).
The run screen calls :meth:`TranscriptSwitch.follow` when another case is followed and
:meth:`TranscriptSwitch.flush` at each repaint.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from tenxeval_tui.runs.live_run import CaseState
from tenxeval_tui.widgets.common.transcript_view import PANE_SHOWN_BLOCKS, TranscriptPane
from tenxeval_tui.widgets.run.event_stream import EventStream

TRANSCRIPT_ACTION = "toggle_transcript"
TRANSCRIPT_KEY = Binding(
    "ctrl+t",
    TRANSCRIPT_ACTION,
    "Transcript",
    tooltip="The case's events or its transcript (messages, steps, tool calls, verdicts)",
)


class TranscriptSwitch:
    """Which of events and transcript the run view's event pane shows, kept current."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.on = False
        """The transcript shows (else the events)."""
        self._state: CaseState | None = None
        self._version = -1

    @property
    def pane(self) -> TranscriptPane:
        """The transcript pane."""
        return self.screen.query_one("#run-transcript", TranscriptPane)

    def toggle(self) -> None:
        """Switch between the events and the transcript (the one shown keeps the focus)."""
        self.on = not self.on
        events = self.screen.query_one(EventStream)
        pane = self.pane
        focused = self.screen.focused in (events, pane)
        events.display, pane.display = not self.on, self.on
        self._version = -1
        self.flush(from_start=True)
        if focused:
            (pane if self.on else events).focus()

    def follow(self, state: CaseState | None) -> None:
        """Show ``state``'s transcript from its start (when the transcript is on)."""
        self._state, self._version = state, -1
        self.flush(from_start=True)

    def flush(self, *, from_start: bool = False) -> None:
        """Show what the followed case's transcript gained since the last call (only the
        new blocks are rendered; more than the pane shows at once starts it over)."""
        state = self._state
        if not self.on:
            return
        pane = self.pane
        if state is None:
            pane.show([])
            return
        transcript = state.transcript
        new = transcript.version - self._version
        if new == 0:
            return
        if 0 < new <= min(len(transcript), PANE_SHOWN_BLOCKS) and not from_start:
            pane.append([transcript[i] for i in range(len(transcript) - new, len(transcript))])
        else:
            pane.show(transcript, transcript.dropped)
        self._version = transcript.version


__all__ = ["TRANSCRIPT_ACTION", "TRANSCRIPT_KEY", "TranscriptSwitch"]
