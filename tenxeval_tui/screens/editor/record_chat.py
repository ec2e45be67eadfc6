"""Record a case by talking to the agent: a chat whose conversation becomes a case.

The chat runs in a child process (:class:`~tenxeval_tui.runs.chat_process.ChatProcess`),
so the agent cannot take the editor down and a restart (``ctrl+r``) imports its code
afresh. Each turn shows the user's message, every node and tool call as the run view
shows them (:func:`~tenxeval_tui.runs.event_lines.event_line`), and the reply.
A case's conversation can be continued: its user messages are replayed first (``replay``),
then the chat goes on. ``ctrl+s`` asks which parts to keep (:class:`SaveRecordingScreen`) and closes with the
new case's JSON object; the editor adds it through the document model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, Input, Log, Static

from tenxeval_tui.authoring.recording import (
    RecordedTurn,
    case_from_recording,
    free_eval_id,
)
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.case_steps import is_start
from tenxeval_tui.runs.chat_process import ChatLine, ChatProcess
from tenxeval_tui.runs.event_lines import event_line
from tenxeval_tui.screens.editor.save_recording import SaveRecordingScreen
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter


class RecordScreen(Screen[dict[str, Any] | None]):
    """A chat with agent ``spec`` (imported from ``folder``); closes with a case or ``None``."""

    DEFAULT_CSS = """
    RecordScreen #record-log { height: 1fr; border: round $primary 40%; }
    RecordScreen #record-status { height: auto; color: $text-muted; padding: 0 1; }
    RecordScreen #record-input { margin: 0 0 1 0; }
    """

    BINDINGS = [
        Binding("ctrl+s", "save_case", "Save as case", priority=True),
        # f5, as a reload: ctrl+r runs, from every screen (one key, one meaning)
        Binding("f5", "restart", "Restart the chat", priority=True),
        Binding("escape", "close", "Close (discard the chat)", priority=True),
    ]

    def __init__(
        self, spec: str, folder: Path, taken_ids: list[str], replay: list[str] | None = None
    ) -> None:
        super().__init__()
        self.spec = spec
        self.folder = folder
        self.taken_ids = taken_ids
        self.replay = list(replay or [])
        """User messages sent first, one a turn (a case's conversation, continued)."""
        self._pending: list[str] = []
        self.turns: list[RecordedTurn] = []
        """The turns of the conversation so far, as recorded."""
        self.ready = False
        """Whether the agent is loaded and waits for a message."""
        self._chat: ChatProcess | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        yield Log(id="record-log", auto_scroll=True)
        yield Static("", id="record-status")
        yield Input(placeholder="message to the agent (enter sends)", id="record-input")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "tenxeval · record a case"
        self.sub_title = inert(self.spec)
        self.query_one("#record-input", Input).focus()
        self.start_chat()

    async def on_unmount(self) -> None:
        if self._chat is not None:  # the child goes with the screen, reaped
            await self._chat.stop()

    @property
    def log_lines(self) -> list[str]:
        """The lines the chat shows, oldest first."""
        return list(self.query_one(Log).lines)

    def _status(self, text: str) -> None:
        self.query_one("#record-status", Static).update(Text(inert(text, multiline=True)))

    def _write(self, line: str) -> None:
        self.query_one(Log).write_line(inert(" ".join(line.splitlines())))

    # --- the chat ------------------------------------------------------------------

    @work(exclusive=True, group="chat")
    async def start_chat(self) -> None:
        """Start a new conversation (a new child: the agent's code is imported afresh)."""
        if self._chat is not None:
            self._chat.kill()
        self.turns = []
        self.ready = False
        self._pending = list(self.replay)
        self.query_one(Log).clear()
        self._status(f"Loading {self.spec}…")
        chat = self._chat = ChatProcess(self.spec, self.folder)
        try:
            await chat.start()
        except OSError as exc:
            self._status(f"Cannot start the chat: {exc}")
            return
        try:
            async for line in chat.lines():
                self._show(line)
                if line.kind in ("chat_ready", "turn_end") and self._pending:
                    await self._say(self._pending.pop(0))
        finally:
            await chat.stop()
        if chat is self._chat and chat.returncode not in (None, 0, 3):
            tail = "\n".join(chat.stderr_tail[-5:])
            self.ready = False
            self._status(
                f"The agent's process ended (exit {chat.returncode}); ctrl+r restarts.\n{tail}"
            )

    def _show(self, line: ChatLine) -> None:
        if line.kind == "chat_ready":
            self.ready = True
            self._status(
                "Talking to the agent: enter sends, ctrl+s saves the conversation as a case, "
                "ctrl+r restarts, esc closes."
            )
        elif line.kind == "chat_error":
            self._status(f"{line.data.get('message', '')}\nFix it and press ctrl+r.")
        elif line.kind == "event" and line.event is not None:
            if not is_start(line.event):  # a step's start only announces it; its end is shown
                self._write("    " + event_line(line.event))
        elif line.kind == "turn_end":
            turn = RecordedTurn.from_line(line.data)
            self.turns.append(turn)
            if turn.error:
                self._write(f"✗ agent failed: {turn.error}")
            else:
                self._write(f"agent: {turn.reply}")
            self._status(f"{len(self.turns)} turn(s) recorded; ctrl+s saves them as a case.")

    @on(Input.Submitted, "#record-input")
    async def _send(self, event: Input.Submitted) -> None:
        if event.value.strip() and await self._say(event.value):
            event.input.clear()

    async def _say(self, text: str) -> bool:
        if self._chat is None or not await self._chat.say(text):
            self._status("The chat has ended; ctrl+r starts a new one.")
            return False
        self._write(f"you: {text}")
        self._status("The agent is answering…")
        return True

    # --- keys ----------------------------------------------------------------------

    def action_restart(self) -> None:
        """Start over: a new conversation with the agent loaded afresh."""
        self.start_chat()

    def action_close(self) -> None:
        """Close the chat; nothing is added."""
        self.dismiss(None)

    @work(exclusive=True, group="save")
    async def action_save_case(self) -> None:
        """Ask which parts to keep, then close with the case the conversation makes."""
        if not self.turns:
            self.notify("Nothing recorded yet: send the agent a message first.")
            return
        turns = list(self.turns)
        calls = sum(len(t.tool_calls) for t in turns)
        failed = sum(1 for t in turns if t.error)
        summary = f"{len(turns)} turn(s), {calls} tool call(s)" + (
            f"; {failed} turn(s) failed (no expected reply)" if failed else ""
        )
        taken = set(self.taken_ids)
        answer = await self.app.push_screen_wait(
            SaveRecordingScreen(free_eval_id(taken), summary, taken)
        )
        if answer is None:
            return
        parts, eval_id = answer
        self.dismiss(case_from_recording(turns, parts, eval_id))
