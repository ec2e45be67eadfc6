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
    """The fields of turn ``turn``; ``texts`` maps each field key to the text to show.

    It stays from one case to the next (see :class:`CaseForm`): :meth:`show` puts another
    case's turn in its fields, and shows as many tool call rows as that turn has (rows
    past them are hidden and kept for the next case that has that many).
    """

    # A priority binding runs when the key arrives, before the next key goes to the focus
    # (see tenxeval_tui.screens.editor.case_commands); a tool call row's ctrl+delete comes
    # first. Undone by ctrl+z, which the notice after it says.
    BINDINGS = [Binding("ctrl+delete", "remove_turn", "Remove turn", priority=True)]

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
        t = turn
        self._user_field = CaseField(
            f"turns.{t}.user", "user message", texts[f"turns.{t}.user"], multiline=True
        )
        self._expected_field = CaseField(
            f"turns.{t}.expected",
            "expected response (empty: none)",
            texts[f"turns.{t}.expected"],
            multiline=True,
        )
        self._nodes_field = CaseField(
            f"turns.{t}.nodes",
            "expected node order (comma separated)",
            texts[f"turns.{t}.nodes"],
            suggester=NodeSuggester(self.completion),
        )
        self._calls_label = Label(_calls_label(self.call_count(case, t)), classes="field-label")
        self._call_rows = [self._row(c) for c in range(self.call_count(case, t))]
        self._calls_shown = len(self._call_rows)
        """How many of the rows show a call (the others are hidden)."""

    def _row(self, call: int) -> ToolCallRow:
        prefix = f"turns.{self.turn}.tools.{call}"
        return ToolCallRow(
            self.turn,
            call,
            self.texts[f"{prefix}.name"],
            self.texts[f"{prefix}.args"],
            self.completion,
        )

    def compose(self) -> ComposeResult:
        yield self._user_field
        yield self._expected_field
        yield self._calls_label
        yield from self._call_rows
        yield self._nodes_field
        with Horizontal(classes="turn-buttons"):
            yield Button("+ tool call (ctrl+o)", id="add-call", compact=True)
            yield Button("remove turn (ctrl+delete)", id="remove-turn", compact=True)

    @property
    def fields(self) -> list[CaseField]:
        """The fields shown, in form order."""
        calls = [field for row in self._call_rows[: self._calls_shown] for field in row.fields]
        return [self._user_field, self._expected_field, *calls, self._nodes_field]

    @staticmethod
    def call_count(case: dict[str, Any], turn: int) -> int:
        """How many expected tool calls turn ``turn`` of ``case`` has (its rows)."""
        return len(case["conversation"][turn].get("expected_tool_trajectory") or [])

    def fits(self, case: dict[str, Any]) -> bool:
        """Whether this turn of ``case`` shows in the rows already here (none to mount)."""
        return self.call_count(case, self.turn) <= len(self._call_rows)

    async def show(self, case: dict[str, Any], texts: dict[str, str]) -> None:
        """Show this turn of ``case`` in the fields already here: a row per tool call
        (the rows past them hidden, cleared; more mounted only when none is spare)."""
        self.texts = texts
        new = [self._row(c) for c in range(len(self._call_rows), self.call_count(case, self.turn))]
        if new:
            await self.mount_all(new, before=self._nodes_field)
            self._call_rows += new
        self.fill(case, texts)

    def fill(self, case: dict[str, Any], texts: dict[str, str]) -> None:
        """Show this turn of ``case`` in the rows already here (see :meth:`fits`)."""
        self.case = case
        self.texts = texts
        calls = self.call_count(case, self.turn)
        for call, row in enumerate(self._call_rows):
            prefix = f"turns.{self.turn}.tools.{call}"
            shown = call < calls
            if shown:
                row.show(texts[f"{prefix}.name"], texts[f"{prefix}.args"])
            elif call < self._calls_shown:
                row.show("", "")  # hidden: nothing edited to report, no stale text
            row.display = shown
        if calls != self._calls_shown:
            self._calls_label.update(_calls_label(calls))
            self._calls_shown = calls
        for field in (self._user_field, self._expected_field, self._nodes_field):
            field.show_text(texts[field.key])

    def clear(self) -> None:
        """Empty the fields, for a form that hides this turn (the case shown has fewer)."""
        for field in self.fields:
            field.show_text("")

    def on_mount(self) -> None:
        for button in self.query(".turn-buttons Button"):
            button.can_focus = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "remove_turn":
            focused = self.screen.focused
            # Priority bindings are tried from the screen down: leave ctrl+delete to the call.
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


def _calls_label(calls: int) -> str:
    return "expected tool calls" if calls else "expected tool calls: none (ctrl+o adds one)"


def turn_texts(field_text: Any, case: dict[str, Any], turn: int) -> dict[str, str]:
    """Texts of every field of a turn, read through ``field_text(key)``."""
    return {key: field_text(key) for key in casefields.turn_keys(case, turn)}
