"""The bulk edit dialog: one operation on every case selected in the case list."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from tenxeval_tui.authoring.bulk_edits import LABELS, BulkEdit, BulkEditError, BulkOperation
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.button_bar import ButtonBar

HINTS = {
    BulkOperation.ADD_TAG: ("tag", ""),
    BulkOperation.REMOVE_TAG: ("tag", ""),
    BulkOperation.SET_TOOL_CALL: ("tool name", "args (JSON object, empty: {})"),
    BulkOperation.CLEAR_TOOL_CALL: ("tool name", ""),
    BulkOperation.REPLACE_IN_REPLIES: ("text to find", "replace with"),
}


class BulkEditScreen(ModalScreen[BulkEdit | None]):
    """Choose the operation (up/down in the list) and type its text; enter in a box or
    ctrl+s applies it to the ``count`` selected cases (one undo step), escape cancels."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+s", "apply", "Apply", priority=True),
    ]

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", can_focus=False) as dialog:
            dialog.border_title = f"Bulk edit: {self.count} selected case(s)"
            with RadioSet(id="bulk-operation"):
                for index, (operation, label) in enumerate(LABELS.items()):
                    yield RadioButton(label, value=index == 0, id=f"op-{operation.value}")
            yield Label("tag", id="bulk-value-label")
            yield Input(id="bulk-value", compact=True)
            yield Label("", id="bulk-other-label")
            yield Input(id="bulk-other", compact=True)
            yield Label("enter (in a box) or ctrl+s applies, esc cancels", classes="form-hint")
            yield Static("", id="bulk-problem")
            with ButtonBar(id="choices"):
                yield Button("Apply", id="apply", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(RadioSet).focus()
        self._show_boxes()

    @property
    def operation(self) -> BulkOperation:
        """The operation chosen."""
        pressed = self.query_one(RadioSet).pressed_button
        if pressed is None or pressed.id is None:
            return BulkOperation.ADD_TAG
        return BulkOperation(pressed.id.removeprefix("op-"))

    def _show_boxes(self) -> None:
        value, other = HINTS[self.operation]
        self.query_one("#bulk-value-label", Label).update(value)
        self.query_one("#bulk-other-label", Label).update(other)
        for widget_id in ("#bulk-other-label", "#bulk-other"):
            self.query_one(widget_id).display = bool(other)

    @on(RadioSet.Changed)
    def _operation_changed(self) -> None:
        self._show_boxes()

    def action_apply(self) -> None:
        """Close with the edit, unless its text cannot be used (then say why)."""
        edit = BulkEdit(
            self.operation,
            self.query_one("#bulk-value", Input).value,
            self.query_one("#bulk-other", Input).value,
        )
        try:
            edit.check()
        except BulkEditError as exc:
            self.query_one("#bulk-problem", Static).update(Text(inert(str(exc)), style="red"))
            return
        self.dismiss(edit)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
