"""Edit the eval set's own name and description (the fields above its cases)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, TextArea

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.shown_value import ShownValue
from tenxeval_tui.widgets.case_field import follow_edit


@dataclass(frozen=True)
class EvalSetDetails:
    """The eval set's top-level text fields."""

    name: str
    description: str


class EvalSetDetailsScreen(ModalScreen[EvalSetDetails | None]):
    """Name and description boxes; enter in the name (or ctrl+s) applies, escape cancels.

    The boxes show the texts inertly and give back what they stand for (see
    :mod:`tenxeval_tui.shown_value`): a text left alone comes back byte for byte.
    """

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+s", "apply", "Apply", priority=True),
    ]

    def __init__(self, eval_set_id: str, details: EvalSetDetails) -> None:
        super().__init__()
        self.eval_set_id = eval_set_id
        self.details = details
        self._shown_name = ShownValue(details.name)
        self._shown_description = ShownValue(details.description, multiline=True)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = Text(f"Eval set {inert(self.eval_set_id)}")
            yield Label("name")
            yield Input(self._shown_name.shown, placeholder="(none)", id="set-name")
            yield Label("description")
            yield TextArea(self._shown_description.shown, id="set-description", soft_wrap=True)
            yield Label("enter (in the name) or ctrl+s applies, esc cancels", classes="form-hint")
            with Horizontal(id="choices"):
                yield Button("Apply", id="apply", variant="primary")
                yield Button("Cancel", id="cancel")

    def action_apply(self) -> None:
        """Close with what the boxes hold."""
        self.dismiss(
            EvalSetDetails(
                name=self._shown_name.edited(self.query_one("#set-name", Input).value),
                description=self._shown_description.edited(
                    self.query_one("#set-description", TextArea).text
                ),
            )
        )

    @on(Input.Changed, "#set-name")
    def _name_changed(self, event: Input.Changed) -> None:
        follow_edit(self._shown_name, event.input)

    @on(TextArea.Changed, "#set-description")
    def _description_changed(self, event: TextArea.Changed) -> None:
        follow_edit(self._shown_description, event.text_area)

    @on(Input.Submitted, "#set-name")
    def _name_submitted(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
