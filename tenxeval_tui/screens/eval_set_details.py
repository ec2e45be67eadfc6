"""Edit the eval set's own name and description (the fields above its cases)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, TextArea


@dataclass(frozen=True)
class EvalSetDetails:
    """The eval set's top-level text fields."""

    name: str
    description: str


class EvalSetDetailsScreen(ModalScreen[EvalSetDetails | None]):
    """Name and description boxes; enter in the name (or ctrl+s) applies, escape cancels."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+s", "apply", "Apply", priority=True),
    ]

    def __init__(self, eval_set_id: str, details: EvalSetDetails) -> None:
        super().__init__()
        self.eval_set_id = eval_set_id
        self.details = details

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = f"Eval set {self.eval_set_id}"
            yield Label("name")
            yield Input(self.details.name, placeholder="(none)", id="set-name")
            yield Label("description")
            yield TextArea(self.details.description, id="set-description", soft_wrap=True)
            yield Label("enter (in the name) or ctrl+s applies, esc cancels", classes="form-hint")
            with Horizontal(id="choices"):
                yield Button("Apply", id="apply", variant="primary")
                yield Button("Cancel", id="cancel")

    def action_apply(self) -> None:
        """Close with what the boxes hold."""
        self.dismiss(
            EvalSetDetails(
                name=self.query_one("#set-name", Input).value,
                description=self.query_one("#set-description", TextArea).text,
            )
        )

    @on(Input.Submitted, "#set-name")
    def _name_submitted(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
