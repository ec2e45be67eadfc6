"""One turn of a case in the form: user message, expected reply, tool calls, node order."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from tenxeval_tui import casefields
from tenxeval_tui.widgets.case_field import CaseField
from tenxeval_tui.widgets.messages import FormCommand
from tenxeval_tui.widgets.tool_call_row import ToolCallRow


class TurnEditor(Vertical):
    """The fields of turn ``turn``; ``texts`` maps each field key to the text to show."""

    BINDINGS = [Binding("ctrl+r", "remove_turn", "Remove turn")]

    def __init__(self, turn: int, case: dict[str, Any], texts: dict[str, str]) -> None:
        super().__init__(classes="turn")
        self.turn = turn
        self.case = case
        self.texts = texts
        self.border_title = f"Turn {turn + 1}"

    def compose(self) -> ComposeResult:
        t = self.turn
        yield CaseField(
            f"turns.{t}.user", "user message", self.texts[f"turns.{t}.user"], multiline=True
        )
        yield CaseField(
            f"turns.{t}.expected",
            "expected response (empty: none)",
            self.texts[f"turns.{t}.expected"],
            multiline=True,
        )
        calls = self.case["conversation"][t].get("expected_tool_trajectory") or []
        yield Label(
            "expected tool calls" if calls else "expected tool calls: none (ctrl+o adds one)",
            classes="field-label",
        )
        for c in range(len(calls)):
            yield ToolCallRow(
                t,
                c,
                self.texts[f"turns.{t}.tools.{c}.name"],
                self.texts[f"turns.{t}.tools.{c}.args"],
            )
        yield CaseField(
            f"turns.{t}.nodes",
            "expected node order (comma separated)",
            self.texts[f"turns.{t}.nodes"],
        )
        with Horizontal(classes="turn-buttons"):
            yield Button("+ tool call (ctrl+o)", id="add-call", compact=True)
            yield Button("remove turn (ctrl+r)", id="remove-turn", compact=True)

    def on_mount(self) -> None:
        for button in self.query(".turn-buttons Button"):
            button.can_focus = False

    def action_remove_turn(self) -> None:
        """Remove this turn."""
        self.post_message(FormCommand("remove_turn", self.turn))

    @on(Button.Pressed, "#add-call")
    def _add_call(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(FormCommand("add_call", self.turn))

    @on(Button.Pressed, "#remove-turn")
    def _remove_turn(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_remove_turn()


def turn_texts(field_text: Any, case: dict[str, Any], turn: int) -> dict[str, str]:
    """Texts of every field of a turn, read through ``field_text(key)``."""
    return {key: field_text(key) for key in casefields.turn_keys(case, turn)}
