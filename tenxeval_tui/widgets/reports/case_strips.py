"""The history view's case table: each case's pass/fail strip over the runs shown, its
last mark, and the run where it last changed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from tenxeval_tui.browsing.history.series import ABSENT, CaseStrip
from tenxeval_tui.evaluation.inert import inert

_STYLES = {"P": "green", "F": "red", "E": "bold red", ABSENT: "dim"}
_SHOWN = {"P": "✓", "F": "✗", "E": "!", ABSENT: "·"}
STRIP_WIDTH = 30
"""Runs a strip shows at most (the latest ones): the table fits 80 columns."""


def strip_text(marks: str, selected: int | None) -> Text:
    """A strip: one coloured mark per run, the selected run's reversed."""
    text = Text()
    for index, mark in enumerate(marks):
        style = _STYLES.get(mark, "")
        text.append(_SHOWN.get(mark, "?"), style=f"{style} reverse" if index == selected else style)
    return text


class CaseStrips(DataTable[Text | str]):
    """Cases (failing first, then by name) with their strips; the cursor is on a row."""

    DEFAULT_CSS = """
    CaseStrips {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.cases: list[CaseStrip] = []

    def on_mount(self) -> None:
        self.add_columns("Case", "Runs", "Last change")

    def show_cases(self, cases: Sequence[CaseStrip], selected: int | None) -> None:
        """Show ``cases``; ``selected`` is the index of the selected run among the runs
        the strips cover (``None``: none of them), its mark reversed."""
        ordered = sorted(cases, key=lambda c: (not c.failing, c.label.casefold()))
        row = self.cursor_row
        self.clear()
        self.cases = ordered
        start = max(0, max((len(c.marks) for c in ordered), default=0) - STRIP_WIDTH)
        for case in ordered:
            where = None if selected is None or selected < start else selected - start
            change = case.last_change
            self.add_row(
                Text(inert(case.label)),
                strip_text(case.marks[start:], where),
                Text(f"{change.when} {change.commit}" if change else "never", style="dim"),
            )
        if ordered:
            self.move_cursor(row=min(row, len(ordered) - 1))


__all__ = ["STRIP_WIDTH", "CaseStrips", "strip_text"]
