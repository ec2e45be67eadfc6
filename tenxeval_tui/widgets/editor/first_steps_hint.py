"""One line on the first screen telling a newcomer what to press: run, keys, commands."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.keys import format_key
from textual.message import Message
from textual.widgets import Static


def key_name(binding: Binding) -> str:
    """A binding's first key as a person writes it: ``?``, ``ctrl+r``."""
    key = binding.key.split(",")[0].strip()
    *modifiers, last = key.split("+")
    return "+".join([*modifiers, format_key(last)])


def hint_text(run: str, palette: str, hide: str) -> Text:
    """The hint, keys in bold: keys that act from any focus (a letter would be typed into
    the box being edited)."""
    text = Text("New here? ", style="bold")
    for i, (key, what) in enumerate(
        (
            (run, "runs the eval sets"),
            (palette, "every command and key"),
            (hide, "hide tip"),
        )
    ):
        if i > 0:
            text.append(" · ")
        text.append(key, style="bold reverse")
        text.append(f" {what}")
    return text


class FirstStepsHint(Static):
    """The newcomer's hint; a click (or the screen's hide key) dismisses it."""

    DEFAULT_CSS = """
    FirstStepsHint {
        height: auto;
        padding: 0 1;
        color: $text-muted;
        background: $boost;
    }
    """

    class Dismissed(Message):
        """The user hid the hint."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Dismissed())
