"""A dialog's row of buttons that never cuts one off: too narrow for one row, it stacks.

A ``Horizontal`` of buttons wider than its dialog drew the last ones past the border
(``Node order only`` and ``Cancel`` of the accept dialog at 80 columns). The bar measures
its buttons against its own width on every resize and, when they do not fit side by side,
lays them out in a grid of as many columns as fit (one at the narrowest), one line each.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.containers import Horizontal
from textual.widgets import Button

GAP = 2
"""Cells between two buttons (their right margin)."""


def button_width(button: Button) -> int:
    """The cells ``button`` takes at its natural width (label, padding, Textual's minimum)."""
    return max(16, cell_len(str(button.label)) + 4)


def columns_that_fit(widths: list[int], room: int) -> int:
    """How many buttons of ``widths`` go side by side in ``room`` cells: all of them, or as
    many of the widest as fit (at least one)."""
    if sum(w + GAP for w in widths) - GAP <= room:
        return len(widths)
    widest = max(widths) + GAP
    return max(1, min(len(widths), (room + GAP) // widest))


class ButtonBar(Horizontal):
    """Buttons side by side while they fit, else in a grid of as many columns as fit."""

    DEFAULT_CSS = """
    ButtonBar {
        height: auto;
    }
    ButtonBar > Button {
        margin-right: 2;
    }
    ButtonBar.-stacked {
        layout: grid;
        grid-gutter: 0 2;
        grid-rows: auto;
    }
    ButtonBar.-stacked > Button {
        width: 100%;
        min-width: 0;
        margin-right: 0;
        height: 1;  /* one line each: a tall stack would push the dialog off a short screen */
        border: none;
    }
    """

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width)

    def fit(self, room: int) -> None:
        """Lay the buttons out for ``room`` cells of width."""
        buttons = list(self.query_children(Button))
        if not buttons or room <= 0:
            return
        columns = columns_that_fit([button_width(b) for b in buttons], room)
        stacked = columns < len(buttons)
        self.set_class(stacked, "-stacked")
        if stacked:
            self.styles.grid_size_columns = columns


__all__ = ["ButtonBar", "button_width", "columns_that_fit"]
