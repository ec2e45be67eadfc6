"""Edit the eval set's own fields (above its cases): name, description, id and agent."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from tenxeval_tui.authoring.eval_set_header import agent_problem, eval_set_id_problem
from tenxeval_tui.authoring.shown_value import ShownValue
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.button_bar import ButtonBar
from tenxeval_tui.widgets.editor.case_field import follow_edit


@dataclass(frozen=True)
class EvalSetDetails:
    """The eval set's top-level text fields."""

    name: str
    description: str
    eval_set_id: str
    agent: str = ""
    """``metadata.agent``: the agent the eval set runs with (empty: none named)."""


class EvalSetDetailsScreen(ModalScreen[EvalSetDetails | None]):
    """Name, description, id and agent boxes; enter in a one-line box (or ctrl+s) applies,
    escape cancels. An empty id or a malformed agent is named and nothing is applied.

    The boxes show the texts inertly and give back what they stand for (see
    :mod:`tenxeval_tui.authoring.shown_value`): a text left alone comes back byte for byte.
    """

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+s", "apply", "Apply", priority=True),
    ]

    def __init__(self, details: EvalSetDetails) -> None:
        super().__init__()
        self.details = details
        self._shown = {
            "set-name": ShownValue(details.name),
            "set-description": ShownValue(details.description, multiline=True),
            "set-id": ShownValue(details.eval_set_id),
            "set-agent": ShownValue(details.agent),
        }

    def compose(self) -> ComposeResult:
        # Scrolls: at 80x24 the boxes and buttons are taller than the screen allows.
        with VerticalScroll(id="dialog", can_focus=False) as dialog:
            dialog.border_title = "Eval set"
            yield Label("name")
            yield Input(self._shown_text("set-name"), placeholder="(none)", id="set-name")
            yield Label("description")
            yield TextArea(
                self._shown_text("set-description"), id="set-description", soft_wrap=True
            )
            yield Label("eval_set_id (names the report files)")
            yield Input(self._shown_text("set-id"), id="set-id", compact=True)
            yield Label("agent, module:attribute (metadata.agent; empty: none)")
            yield Input(
                self._shown_text("set-agent"), placeholder="(none)", id="set-agent", compact=True
            )
            yield Label("enter (in a line) or ctrl+s applies, esc cancels", classes="form-hint")
            yield Static("", id="set-problem")
            with ButtonBar(id="choices"):
                yield Button("Apply", id="apply", variant="primary")
                yield Button("Cancel", id="cancel")

    def _shown_text(self, box_id: str) -> str:
        return self._shown[box_id].shown

    def _value(self, box_id: str) -> str:
        """The value box ``box_id`` stands for (its text, with shown controls kept)."""
        return self._shown[box_id].value

    @on(Input.Changed)
    def _line_changed(self, event: Input.Changed) -> None:
        if event.input.id in self._shown:
            follow_edit(self._shown[event.input.id], event.input)

    @on(TextArea.Changed, "#set-description")
    def _description_changed(self, event: TextArea.Changed) -> None:
        follow_edit(self._shown["set-description"], event.text_area)

    def on_mount(self) -> None:
        self.query_one("#set-name", Input).focus()  # not the scrolling dialog itself

    def action_apply(self) -> None:
        """Close with what the boxes hold, unless the id or the agent cannot be used."""
        eval_set_id = self._value("set-id")
        agent = self._value("set-agent").strip()
        problem = eval_set_id_problem(eval_set_id) or agent_problem(agent)
        if problem is not None:
            self.query_one("#set-problem", Static).update(Text(inert(problem), style="red"))
            return
        self.dismiss(
            EvalSetDetails(
                name=self._value("set-name"),
                description=self._value("set-description"),
                eval_set_id=eval_set_id,
                agent=agent,
            )
        )

    @on(Input.Submitted)
    def _line_submitted(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
