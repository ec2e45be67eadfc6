"""The "save as case" dialog of a recorded chat: the new case's id and what it expects."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from tenxeval_tui.authoring.recording import RecordParts
from tenxeval_tui.evaluation.inert import inert, quoted
from tenxeval_tui.widgets.common.button_bar import ButtonBar

PARTS = {
    "part-replies": ("expected replies", "replies"),
    "part-calls": ("expected tool calls", "tool_calls"),
    "part-args": ("with their arguments", "args"),
    "part-nodes": ("expected node order", "nodes"),
}


class SaveRecordingScreen(ModalScreen[tuple[RecordParts, str] | None]):
    """Asks for the case's ``eval_id`` and which parts of the chat it expects (the user's
    messages always); enter in the id box or ctrl+s saves, escape cancels."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+s", "save", "Save", priority=True),
    ]

    def __init__(self, eval_id: str, summary: str, taken: set[str]) -> None:
        super().__init__()
        self.eval_id = eval_id
        self.summary = summary
        self.taken = taken

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", can_focus=False) as dialog:
            dialog.border_title = "Save the conversation as a case"
            yield Static(Text(inert(self.summary)))
            yield Label("eval_id")
            yield Input(self.eval_id, id="record-id", compact=True)
            yield Label("the case expects (the user's messages are always kept):")
            for box_id, (label, _) in PARTS.items():
                yield Checkbox(label, True, id=box_id, compact=True)
            yield Label("enter (in the id) or ctrl+s saves, esc cancels", classes="form-hint")
            yield Static("", id="record-problem")
            with ButtonBar(id="choices"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#record-id", Input).focus()

    def parts(self) -> RecordParts:
        """The parts the boxes choose."""
        chosen = {
            field: self.query_one(f"#{box}", Checkbox).value for box, (_, field) in PARTS.items()
        }
        return RecordParts(**chosen)

    def action_save(self) -> None:
        """Close with the parts and the id, unless the id is empty or taken."""
        eval_id = self.query_one("#record-id", Input).value.strip()
        problem = None
        if not eval_id:
            problem = "the case needs an eval_id"
        elif eval_id in self.taken:
            problem = f"eval_id {quoted(eval_id)} is taken in this eval set"
        if problem is not None:
            self.query_one("#record-problem", Static).update(Text(inert(problem), style="red"))
            return
        self.dismiss((self.parts(), eval_id))

    @on(Input.Submitted, "#record-id")
    def _submitted(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
