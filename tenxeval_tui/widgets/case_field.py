"""One labelled field of the case form, with the message of its problem under it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Static, TextArea

from tenxeval_tui.widgets.messages import FieldEdited


def field_id(key: str) -> str:
    """The widget id of the input for field ``key`` (``turns.0.user`` -> ``f-turns-0-user``)."""
    return "f-" + key.replace(".", "-")


class CaseField(Vertical):
    """A label, an input (one line) or a text area (several lines), and a problem line."""

    def __init__(
        self, key: str, label: str, text: str, *, multiline: bool = False, placeholder: str = ""
    ) -> None:
        super().__init__(classes="case-field")
        self.key = key
        self.label = label
        self.text = text
        self.multiline = multiline
        self.placeholder = placeholder
        self._problem: str | None = None

    def compose(self) -> ComposeResult:
        yield Label(self.label, classes="field-label")
        if self.multiline:
            area = TextArea(
                self.text,
                id=field_id(self.key),
                soft_wrap=True,
                tab_behavior="focus",
                show_line_numbers=False,
                compact=True,
            )
            area.placeholder = self.placeholder
            yield area
        else:
            yield Input(
                self.text, id=field_id(self.key), placeholder=self.placeholder, compact=True
            )
        yield Static(Text(self._problem or ""), classes="field-error")

    def set_problem(self, message: str | None) -> None:
        """Show (or clear) the problem of this field (also before it is composed)."""
        self._problem = message
        self.set_class(message is not None, "-invalid")
        for error in self.query(".field-error").results(Static):
            error.update(Text(message or ""))

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(FieldEdited(self.key, event.value, self))

    @on(TextArea.Changed)
    def _area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(FieldEdited(self.key, event.text_area.text, self))
