"""One labelled field of the case form, with the message of its problem under it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, Label, Static, TextArea

from tenxeval_tui.authoring.shown_value import ShownValue, shows_controls
from tenxeval_tui.widgets.common.steady_input import SteadyInput
from tenxeval_tui.widgets.editor.messages import FieldEdited, FieldEditReceiver

CONTROLS_NOTE = " (holds control characters, shown as ␛ ␇ ⟦U+009B⟧ …)"


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


def _by_key(bindings: Iterable[BindingType]) -> dict[str, Binding]:
    found: dict[str, Binding] = {}
    for binding in Binding.make_bindings(bindings):
        found.setdefault(binding.key, binding)
    return found


async def _run_own_binding(widget: Widget, own: dict[str, Binding], event: events.Key) -> None:
    """Run ``widget``'s binding of the key now, in the widget's turn.

    Textual resolves a widget's bindings only once the key has gone up through every
    parent to the app, against whatever holds the focus *then*: typed fast, a backspace
    landed after the letters that followed it, or in the next field. Run here, every key
    acts on this field in the order it was typed.
    """
    binding = own.get(event.key)
    if binding is None or event.is_printable:
        return
    event.stop()
    event.prevent_default()  # nor Input's / TextArea's own handler, nor the app's lookup
    await widget.run_action(binding.action)


class FieldInput(SteadyInput):
    """A one-line input of the case form whose editing keys act where they were typed,
    and which reports each change of its text at once to ``on_change`` (without a layout
    pass: see :class:`SteadyInput`)."""

    _OWN = _by_key(Input.BINDINGS)

    keys_waiting = 0
    """Keys (and pastes) sent to the box that it has not handled yet."""

    def post_message(self, message: Message) -> bool:
        posted = super().post_message(message)
        if posted and isinstance(message, events.Key | events.Paste):
            self.keys_waiting += 1
        return posted

    async def _on_key(self, event: events.Key) -> None:
        self.keys_waiting = max(self.keys_waiting - 1, 0)
        await _run_own_binding(self, self._OWN, event)

    def _on_paste(self, event: events.Paste) -> None:
        # Input's own handler runs next (Textual calls each class's in turn).
        self.keys_waiting = max(self.keys_waiting - 1, 0)


class FieldArea(TextArea):
    """A text area of the case form whose editing keys act where they were typed, and
    which reports each change of its text at once to ``on_change`` (an edit, an undo, a
    redo: every path that posts ``Changed``)."""

    _OWN = _by_key(TextArea.BINDINGS)
    on_change: Callable[[], None] | None = None

    def on_mount(self) -> None:
        # Brackets are matched where the user types: a field reused for another case (see
        # CaseField.show_text) has its cursor at a "{" without being edited.
        self.match_cursor_bracket = self.has_focus

    def on_focus(self) -> None:
        self.match_cursor_bracket = True

    def on_blur(self) -> None:
        self.match_cursor_bracket = False

    keys_waiting = 0
    """Keys (and pastes) sent to the box that it has not handled yet."""

    def post_message(self, message: Message) -> bool:
        if isinstance(message, TextArea.Changed) and self.on_change is not None:
            self.on_change()
        posted = super().post_message(message)
        if posted and isinstance(message, events.Key | events.Paste):
            self.keys_waiting += 1
        return posted

    async def _on_key(self, event: events.Key) -> None:
        self.keys_waiting = max(self.keys_waiting - 1, 0)
        await _run_own_binding(self, self._OWN, event)

    async def _on_paste(self, event: events.Paste) -> None:
        # TextArea's own handler runs next (Textual calls each class's in turn).
        self.keys_waiting = max(self.keys_waiting - 1, 0)


class CaseField(Vertical):
    """A label, an input (one line) or a text area (several lines), and a problem line.

    The box shows ``text`` inertly (see :mod:`tenxeval_tui.authoring.shown_value`): control
    characters appear as glyphs and the label says the value holds some. Edits go up
    as the value they stand for, so a field nobody edits saves back byte for byte.
    """

    def __init__(
        self,
        key: str,
        label: str,
        text: str,
        *,
        multiline: bool = False,
        placeholder: str = "",
        suggester: Suggester | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(classes=f"case-field {classes}")
        self.key = key
        self.label = label
        self.text = text
        self.multiline = multiline
        self.placeholder = placeholder
        self.suggester = suggester
        """Completes a one-line field as it is typed (→ at its end accepts)."""
        self._problem: str | None = None
        self._warning: str | None = None
        self._hint: str | None = None
        self._shown = ShownValue(text, multiline=multiline)
        self._box: FieldInput | FieldArea | None = None
        self._label: Label | None = None
        self._error: Static | None = None
        """The line of the field's problem: made when it first has one (most never do)."""
        self._note: Static | None = None
        """The line of the agent's note: made when it first has one."""
        self._label_shown = self.label_text_for(text)
        self._showing = False
        """While :meth:`show_text` puts a text in the box: not an edit, not reported."""

    def compose(self) -> ComposeResult:
        self._label = Label(self._label_shown, classes="field-label")
        yield self._label
        if self.multiline:
            area = FieldArea(
                self._shown.shown,
                id=field_id(self.key),
                soft_wrap=True,
                tab_behavior="focus",
                show_line_numbers=False,
                compact=True,
            )
            area.placeholder = self.placeholder
            area.on_change = self._report_edit
            self._box = area
            yield area
        else:
            line = FieldInput(
                self._shown.shown,
                id=field_id(self.key),
                placeholder=self.placeholder,
                compact=True,
                suggester=self.suggester,
            )
            line.on_change = self._report_edit
            self._box = line
            yield line
        # The problem and note lines only when there is something to show: a form is a
        # dozen fields, and these were a fifth of its widgets to mount, style and lay out.
        self._error = self._note = None
        if self._problem is not None:
            self._error = Static(Text(self._problem), classes="field-error")
            yield self._error
        if self._note_text():
            self._note = Static(Text(self._note_text()), classes="field-note")
            yield self._note

    @property
    def keys_waiting(self) -> int:
        """Keys (and pastes) sent to the box that it has not handled yet."""
        return 0 if self._box is None else self._box.keys_waiting

    @property
    def editor(self) -> Input | TextArea | None:
        """The input or text area of the field (``None`` before it is composed)."""
        return self._box

    def show_text(self, text: str) -> None:
        """Show ``text`` (another case's value, or this one's after an undo) in the field
        as it is: the widgets stay, only their text changes (rebuilding a form of a dozen
        fields took most of a key's time when moving through the case list). Not an edit:
        nothing is reported."""
        label = self.label_text_for(text)
        self.text = text
        self._shown = ShownValue(text, multiline=self.multiline)
        if self._label is not None and label != self._label_shown:
            self._label.update(label)
        self._label_shown = label
        box = self._box
        if box is None:
            return  # not composed yet: compose shows the new text
        shown = self._shown.shown
        self._showing = True
        # Not an edit, so no Changed message either (one per field and case shown, for
        # the box to handle and drop).
        try:
            with box.prevent(Input.Changed, TextArea.Changed):
                if isinstance(box, Input):
                    if box.value != shown:
                        box.value = shown
                        box.cursor_position = len(shown)  # where a new field's would be
                elif box.text != shown:
                    box.load_text(shown)
        finally:
            self._showing = False

    def label_text_for(self, text: str) -> Text:
        """The label shown above ``text`` (it says when the text holds control characters)."""
        note = CONTROLS_NOTE if shows_controls(text, multiline=self.multiline) else ""
        return Text(self.label + note)

    @property
    def value(self) -> str:
        """The value the field stands for now: what the user typed so far, every control
        character it was shown with (as a glyph) kept as it was (see :func:`follow_edit`)."""
        editor = self.editor
        return self.text if editor is None else follow_edit(self._shown, editor)

    @property
    def edited(self) -> bool:
        """Whether the text differs from the one the field was shown with."""
        return self.value != self.text

    def set_problem(self, message: str | None) -> None:
        """Show (or clear) the problem of this field (also before it is composed)."""
        if message == self._problem:
            return  # called on every keystroke: an unchanged line costs no restyle or layout
        self._problem = message
        self.set_class(message is not None, "-invalid")
        if self._error is not None:
            self._error.update(Text(message or ""))
        elif message is not None and self._box is not None and self.is_attached:
            self._error = Static(Text(message), classes="field-error")
            self.mount(self._error, after=self._box)
        self._show_note()

    def set_agent_note(self, warning: str | None, hint: str | None) -> None:
        """Show what the agent's schema says of this field, under it: a ``warning`` (it
        does not fit the agent; no obstacle to saving), else a ``hint`` (the called tool's
        signature, the agent's nodes). A problem of the field's own hides the warning."""
        if (warning, hint) == (self._warning, self._hint):
            return
        self._warning, self._hint = warning, hint
        self._show_note()

    def _note_text(self) -> str:
        if self._warning is not None and self._problem is None:
            return "⚠ " + self._warning
        return self._hint or ""

    @property
    def note(self) -> str:
        """The agent's warning or hint shown under the field ("" when none is)."""
        return self._note_text()

    def _show_note(self) -> None:
        text = self._note_text()
        self.set_class(bool(self._warning) and self._problem is None, "-warning")
        if self._note is not None:
            self._note.update(Text(text))
            self._note.display = bool(text)
        elif text and self._box is not None and self.is_attached:
            self._note = Static(Text(text), classes="field-note")
            self.mount(self._note)

    def _report_edit(self) -> None:
        """Hand the value the field stands for now to the form's handler (see
        :class:`FieldEditReceiver`), in the step of the key that changed it."""
        if self._showing or not self.is_attached:
            return
        for node in self.ancestors:
            if isinstance(node, FieldEditReceiver):
                if node.field_edit_handler is not None:
                    node.field_edit_handler(FieldEdited(self.key, self.value, self))
                return

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _box_changed(self, event: Input.Changed | TextArea.Changed) -> None:
        event.stop()  # reported at once by the box (see _report_edit)
