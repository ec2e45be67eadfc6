"""The help screen (``?``): every key binding of the app, the current screen's first."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tenxeval_tui.widgets.common.row_table import RowTable

BindingSection = tuple[str, Sequence[BindingType]]


def _normalise(bindings: Iterable[BindingType]) -> Iterable[Binding]:
    for item in bindings:
        if isinstance(item, Binding):
            yield item
        else:
            key, action, *rest = item
            yield Binding(key, action, rest[0] if rest else "")


_KEY_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "escape": "esc",
    "number_sign": "#",
    "asterisk": "*",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "comma": ",",
    "full_stop": ".",
}


def format_keys(key: str) -> str:
    """``"ctrl+s,f2"`` -> ``"ctrl+s / f2"``; named keys as typed (``question_mark`` -> ``?``)."""
    return " / ".join(_KEY_NAMES.get(part.strip(), part.strip()) for part in key.split(","))


def binding_rows(sections: Sequence[BindingSection]) -> list[tuple[str, str, str]]:
    """``(where, keys, what)`` for every binding with a description."""
    rows: list[tuple[str, str, str]] = []
    for where, bindings in sections:
        for binding in _normalise(bindings):
            if binding.description and not binding.system:
                rows.append((where, format_keys(binding.key), binding.description))
    return rows


class HelpScreen(ModalScreen[None]):
    """A table of every binding, the first section's (the current screen's) on top;
    escape, ``q`` or ``?`` closes it.

    A modal screen keeps the app's keys from the keyboard; ``passthrough`` are those that
    still work over the help (the keys that go to a screen: the help is read, not answered).
    """

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close help")]

    def __init__(
        self, sections: Sequence[BindingSection], passthrough: Sequence[Binding] = ()
    ) -> None:
        super().__init__()
        self.sections = sections
        self.rows = binding_rows(sections)
        self._passthrough = {
            key.strip(): binding.action for binding in passthrough for key in binding.key.split(",")
        }

    async def on_key(self, event: events.Key) -> None:
        action = self._passthrough.get(event.key)
        if action is not None:
            event.stop()
            # Run by the app, not in this handler: the action closes this screen, and
            # closing a screen waits for its handlers to end (awaiting it here deadlocked).
            self.app.call_later(self.app.run_action, action)

    def compose(self) -> ComposeResult:
        first = self.sections[0][0] if self.sections else ""
        with Vertical(id="help-dialog") as dialog:
            dialog.border_title = "Keys"
            yield Static(
                f"This screen ({first}) first, then every key of the workbench."
                "  j/k, home/end move; ctrl+p: command palette; esc closes.",
                id="help-intro",
            )
            table: RowTable[str] = RowTable(id="help-table")
            table.add_columns("where", "keys", "does")
            table.add_rows(self.rows)
            yield table

    def on_mount(self) -> None:
        self.query_one(RowTable).focus()
