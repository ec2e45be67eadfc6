"""One expected tool call in the case form: its name and its JSON arguments."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button

from tenxeval_tui.widgets.case_field import CaseField
from tenxeval_tui.widgets.messages import FormCommand


class ToolCallRow(Vertical):
    """Name and args of expected tool call ``call`` of turn ``turn``; keys act on this call."""

    BINDINGS = [
        Binding("ctrl+up", "move(-1)", "Call up"),
        Binding("ctrl+down", "move(1)", "Call down"),
        Binding("ctrl+r", "remove", "Remove call"),
    ]

    def __init__(self, turn: int, call: int, name: str, args: str) -> None:
        super().__init__(classes="tool-call")
        self.turn = turn
        self.call = call
        self.name_text = name
        self.args_text = args

    def compose(self) -> ComposeResult:
        prefix = f"turns.{self.turn}.tools.{self.call}"
        with Horizontal(classes="tool-call-fields"):
            yield CaseField(
                f"{prefix}.name", f"tool {self.call + 1}", self.name_text, placeholder="tool name"
            )
            yield CaseField(
                f"{prefix}.args", "args (JSON object)", self.args_text, placeholder="{}"
            )
            with Horizontal(classes="row-buttons"):
                yield Button("↑", id="up", compact=True, tooltip="Move call up (ctrl+up)")
                yield Button("↓", id="down", compact=True, tooltip="Move call down (ctrl+down)")
                yield Button("✕", id="remove", compact=True, tooltip="Remove call (ctrl+r)")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False

    def action_move(self, delta: int) -> None:
        """Move this call up or down within its turn."""
        self.post_message(FormCommand("move_call", self.turn, self.call, delta))

    def action_remove(self) -> None:
        """Remove this call."""
        self.post_message(FormCommand("remove_call", self.turn, self.call))

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "remove":
            self.action_remove()
        else:
            self.action_move(-1 if event.button.id == "up" else 1)
