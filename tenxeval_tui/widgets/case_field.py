"""One labelled field of the case form, with the message of its problem under it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Static, TextArea

from tenxeval_tui.shown_value import ShownValue, shows_controls
from tenxeval_tui.widgets.messages import FieldEdited

CONTROLS_NOTE = " (holds control characters, shown as ␛ ␇ \\x9b …)"


def follow_edit(shown: ShownValue, box: Input | TextArea) -> str:
    """The value ``box`` stands for after an edit; a pasted control is shown as a glyph."""
    text = box.value if isinstance(box, Input) else box.text
    value = shown.edited(text)
    if shown.shown != text:  # the paste is kept in the value; the box shows it inertly
        if isinstance(box, Input):
            cursor = box.cursor_position + len(shown.shown) - len(text)
            box.value = shown.shown
            box.cursor_position = cursor
        else:
            location = box.cursor_location
            box.load_text(shown.shown)
            box.cursor_location = location
    return value


def field_id(key: str) -> str:
    """The widget id of the input for field ``key`` (``turns.0.user`` -> ``f-turns-0-user``)."""
    return "f-" + key.replace(".", "-")


class CaseField(Vertical):
    """A label, an input (one line) or a text area (several lines), and a problem line.

    The box shows ``text`` inertly (see :mod:`tenxeval_tui.shown_value`): control
    characters appear as glyphs and the label says the value holds some. Edits go up
    as the value they stand for, so a field nobody edits saves back byte for byte.
    """

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
        self._shown = ShownValue(text, multiline=multiline)

    def compose(self) -> ComposeResult:
        note = CONTROLS_NOTE if shows_controls(self.text, multiline=self.multiline) else ""
        yield Label(Text(self.label + note), classes="field-label")
        if self.multiline:
            area = TextArea(
                self._shown.shown,
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
                self._shown.shown,
                id=field_id(self.key),
                placeholder=self.placeholder,
                compact=True,
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
        self.post_message(FieldEdited(self.key, follow_edit(self._shown, event.input), self))

    @on(TextArea.Changed)
    def _area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(FieldEdited(self.key, follow_edit(self._shown, event.text_area), self))
