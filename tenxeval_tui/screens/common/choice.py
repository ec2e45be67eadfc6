"""A modal question with a few answers (confirmations, unsaved-changes prompts)."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.button_bar import ButtonBar


class ChoiceScreen(ModalScreen[str]):
    """Ask ``question``; dismisses with the chosen answer's key, or ``cancel`` on escape.

    ``choices`` maps an answer key to its button label; the first letter of each label is
    its keyboard shortcut (``Reload`` -> ``r``). ``details`` lists what the question is
    about. Question, details and title are plain text, never markup, and their control
    characters are shown, never written (they name files and cases).
    """

    BINDINGS = [Binding("escape", "dismiss('cancel')", "Cancel")]

    def __init__(
        self,
        question: str,
        choices: dict[str, str],
        *,
        details: str = "",
        title: str = "",
    ) -> None:
        super().__init__(classes="choice-screen")
        self.question = question
        self.choices = choices
        self.details = details
        self.dialog_title = title
        self._shortcuts = {label[0].lower(): key for key, label in choices.items()}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = Text(inert(self.dialog_title))
            yield Static(Text(inert(self.question, multiline=True)), id="question")
            if self.details:
                with VerticalScroll(id="details"):
                    yield Static(Text(inert(self.details, multiline=True)))
            with ButtonBar(id="choices"):
                for key, label in self.choices.items():
                    yield Button(f"{label} ({label[0].lower()})", id=f"choice-{key}")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.dismiss(event.button.id.removeprefix("choice-"))

    def on_key(self, event: events.Key) -> None:
        if event.key in self._shortcuts:
            event.stop()
            self.dismiss(self._shortcuts[event.key])
