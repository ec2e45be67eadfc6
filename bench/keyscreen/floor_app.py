"""The floor: the least a Textual app does for a key, in the same terminal, on the same
machine. A list of 1,000 rows and a key (down, up) that moves its cursor.

Run by bench/tui_keys_to_screen.py as ``python bench/keyscreen/floor_app.py``.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import OptionList

ROWS = 1_000


def row_text(index: int) -> str:
    """The text of row ``index``."""
    return f"row {index:04d}"


class FloorApp(App[None]):
    """A 1,000-row list with the focus on it."""

    def compose(self) -> ComposeResult:
        yield OptionList(*(row_text(index) for index in range(ROWS)))


if __name__ == "__main__":
    FloorApp().run()
