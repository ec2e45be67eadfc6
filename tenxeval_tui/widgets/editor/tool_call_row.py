"""One expected tool call in the case form: its name and its JSON arguments."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button

from tenxeval_tui.widgets.editor.agent_completion import (
    AgentCompletion,
    ToolArgsSuggester,
    ToolNameSuggester,
)
from tenxeval_tui.widgets.editor.case_field import CaseField


async def form_command(
    widget: Widget, name: str, turn: int, call: int = -1, delta: int = 0
) -> None:
    """Ask the screen for a structural edit of the form: ``add_call``, ``remove_call``,
    ``move_call``, ``remove_turn`` (with the turn, the call and the direction).

    An action of the screen, not a message: run from a key's priority binding, it is done
    (and the focus moved) before the app hands the next key to the focused field.
    """
    await widget.run_action(f"screen.form_command({name!r}, {turn}, {call}, {delta})")


class ToolCallRow(Vertical):
    """Name and args of expected tool call ``call`` of turn ``turn``; keys act on this call."""

    BINDINGS = [  # priority: see form_command
        Binding("ctrl+up", "move(-1)", "Call up", priority=True),
        Binding("ctrl+down", "move(1)", "Call down", priority=True),
        Binding("ctrl+delete", "remove", "Remove call", priority=True),
    ]

    def __init__(
        self,
        turn: int,
        call: int,
        name: str,
        args: str,
        completion: AgentCompletion | None = None,
    ) -> None:
        super().__init__(classes="tool-call")
        self.turn = turn
        self.call = call
        self.name_text = name
        self.args_text = args
        self.completion = completion or AgentCompletion()
        prefix = f"turns.{turn}.tools.{call}"
        self.name_field = CaseField(
            f"{prefix}.name",
            f"tool {call + 1}",
            name,
            placeholder="tool name",
            suggester=ToolNameSuggester(self.completion),
            classes="lead-field",
        )
        self.args_field = CaseField(
            f"{prefix}.args",
            "args (JSON object)",
            args,
            placeholder="{}",
            suggester=ToolArgsSuggester(self.completion, lambda: self.name_field.value),
        )

    @property
    def fields(self) -> list[CaseField]:
        """The call's name and args fields, in form order."""
        return [self.name_field, self.args_field]

    def show(self, name: str, args: str) -> None:
        """Show another case's call in this row's fields (see :meth:`CaseField.show_text`)."""
        self.name_text, self.args_text = name, args
        self.name_field.show_text(name)
        self.args_field.show_text(args)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="tool-call-fields"):
            yield self.name_field
            yield self.args_field
            with Horizontal(classes="row-buttons"):
                yield Button("↑", id="up", compact=True, tooltip="Move call up (ctrl+up)")
                yield Button("↓", id="down", compact=True, tooltip="Move call down (ctrl+down)")
                yield Button("✕", id="remove", compact=True, tooltip="Remove call (ctrl+delete)")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False

    async def action_move(self, delta: int) -> None:
        """Move this call up or down within its turn."""
        await form_command(self, "move_call", self.turn, self.call, delta)

    async def action_remove(self) -> None:
        """Remove this call."""
        await form_command(self, "remove_call", self.turn, self.call)

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "remove":
            await self.action_remove()
        else:
            await self.action_move(-1 if event.button.id == "up" else 1)
