"""One turn of a case in the form: user message, expected reply, tool calls, node order."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from tenxeval_tui.authoring import case_fields as casefields
from tenxeval_tui.widgets.editor.agent_completion import AgentCompletion, NodeSuggester
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.tool_call_row import ToolCallRow, form_command


class TurnEditor(Vertical):
    """The fields of turn ``turn``; ``texts`` maps each field key to the text to show."""

    # A priority binding runs when the key arrives, before the next key goes to the focus
    # (see tenxeval_tui.screens.editor.case_commands); a tool call row's ctrl+r comes first.
    BINDINGS = [Binding("ctrl+r", "remove_turn", "Remove turn", priority=True)]

    def __init__(
        self,
        turn: int,
        case: dict[str, Any],
        texts: dict[str, str],
        completion: AgentCompletion | None = None,
    ) -> None:
        super().__init__(classes="turn")
        self.turn = turn
        self.case = case
        self.texts = texts
        self.completion = completion or AgentCompletion()
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
        calls = self.call_count(self.case, t)
        yield Label(
            "expected tool calls" if calls else "expected tool calls: none (ctrl+o adds one)",
            classes="field-label",
        )
        for c in range(calls):
            yield ToolCallRow(
                t,
                c,
                self.texts[f"turns.{t}.tools.{c}.name"],
                self.texts[f"turns.{t}.tools.{c}.args"],
                self.completion,
            )
        yield CaseField(
            f"turns.{t}.nodes",
            "expected node order (comma separated)",
            self.texts[f"turns.{t}.nodes"],
            suggester=NodeSuggester(self.completion),
        )
        with Horizontal(classes="turn-buttons"):
            yield Button("+ tool call (ctrl+o)", id="add-call", compact=True)
            yield Button("remove turn (ctrl+r)", id="remove-turn", compact=True)

    @staticmethod
    def call_count(case: dict[str, Any], turn: int) -> int:
        """How many expected tool calls turn ``turn`` of ``case`` has (its rows)."""
        return len(case["conversation"][turn].get("expected_tool_trajectory") or [])

    def fits(self, case: dict[str, Any]) -> bool:
        """Whether this editor can show its turn of ``case`` as it is (same tool calls)."""
        return self.call_count(self.case, self.turn) == self.call_count(case, self.turn)

    def show(self, case: dict[str, Any], texts: dict[str, str]) -> None:
        """Show this turn of ``case`` (one it :meth:`fits`) in the fields already here."""
        self.case = case
        self.texts = texts
        for row in self.query(ToolCallRow):
            row.name_text = texts[f"turns.{self.turn}.tools.{row.call}.name"]
            row.args_text = texts[f"turns.{self.turn}.tools.{row.call}.args"]
        for field in self.query(CaseField):
            field.show_text(texts[field.key])

    def on_mount(self) -> None:
        for button in self.query(".turn-buttons Button"):
            button.can_focus = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "remove_turn":
            focused = self.screen.focused
            # Priority bindings are tried from the screen down: leave ctrl+r to the call.
            return focused is None or not any(
                isinstance(node, ToolCallRow) for node in focused.ancestors_with_self
            )
        return True

    async def action_remove_turn(self) -> None:
        """Remove this turn."""
        await form_command(self, "remove_turn", self.turn)

    @on(Button.Pressed, "#add-call")
    async def _add_call(self, event: Button.Pressed) -> None:
        event.stop()
        await form_command(self, "add_call", self.turn)

    @on(Button.Pressed, "#remove-turn")
    async def _remove_turn(self, event: Button.Pressed) -> None:
        event.stop()
        await self.action_remove_turn()


def turn_texts(field_text: Any, case: dict[str, Any], turn: int) -> dict[str, str]:
    """Texts of every field of a turn, read through ``field_text(key)``."""
    return {key: field_text(key) for key in casefields.turn_keys(case, turn)}
