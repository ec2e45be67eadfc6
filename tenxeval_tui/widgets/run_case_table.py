"""The cases of a run, one row each, updated in place as their state changes."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runstate import CaseState, CaseStatus
from tenxeval_tui.widgets.row_table import ROW_KEYS, RowTable

STATUS_STYLE = {
    CaseStatus.QUEUED: ("· queued", "dim"),
    CaseStatus.RUNNING: ("▶ running", "bold yellow"),
    CaseStatus.PASSED: ("✓ passed", "green"),
    CaseStatus.FAILED: ("✗ failed", "bold red"),
    CaseStatus.ERROR: ("! error", "bold magenta"),
    CaseStatus.CARRIED: ("↺ carried", "cyan"),
    CaseStatus.CANCELLED: ("- cancelled", "dim"),
}
# Column widths (None: sized to the content when the row is added); fixed ones never
# depend on when a row first appeared (a case added as "running" is wider than "passed").
COLUMNS: dict[str, int | None] = {
    "status": 11,
    "eval set": 12,
    "case": 24,
    "time": 7,
    "tokens": 6,
    "scores": None,
}


def status_text(status: CaseStatus) -> Text:
    """The status cell: a sign and a word, coloured."""
    label, style = STATUS_STYLE[status]
    return Text(label, style=style)


def scores_text(state: CaseState) -> Text:
    """``criterion score`` pairs, failed ones in red; the error when the case errored."""
    if state.result is not None and state.result.error:
        return Text(inert(state.result.error[:80]), style="magenta")
    text = Text()
    for index, (criterion, score, passed) in enumerate(state.scores):
        if index:
            text.append("  ")
        text.append(f"{inert(criterion)} {score:.2f}", style="green" if passed else "red")
    return text


def _fingerprint(value: Text | str) -> str:
    return value.markup if isinstance(value, Text) else value


class RunCaseTable(RowTable[Text | str]):
    """Rows keyed by case key; :meth:`show` adds or updates one row; enter opens its detail."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *ROW_KEYS,
        Binding("enter", "select_cursor", "Case detail", tooltip="The selected case's detail"),
    ]

    DEFAULT_CSS = """
    RunCaseTable {
        height: 1fr;
    }
    """

    def __init__(self, *, timings: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timings = timings
        self._shown: dict[str, dict[str, str]] = {}

    def on_mount(self) -> None:
        for column, width in COLUMNS.items():
            self.add_column(column, width=width, key=column)

    def show(self, state: CaseState, eval_set_label: str = "") -> None:
        """Add the row of ``state`` (in eval set ``eval_set_label``), or update its cells."""
        cells: dict[str, Text | str] = {
            "status": status_text(state.status),
            "eval set": Text(inert(eval_set_label or state.eval_set_id)),
            "case": Text(inert(state.name or state.eval_id)),
            "time": self._duration(state),
            "tokens": str(state.tokens) if state.tokens else "",
            "scores": scores_text(state),
        }
        # Cells are compared as markup so that a repaint only touches what changed.
        seen = {column: _fingerprint(value) for column, value in cells.items()}
        if state.key not in self.rows:
            self.add_row(*cells.values(), key=state.key)
            self._shown[state.key] = seen
            return
        before = self._shown[state.key]
        for column, value in cells.items():
            if before.get(column) != seen[column]:
                self.update_cell(state.key, column, value)
        self._shown[state.key] = seen

    def _duration(self, state: CaseState) -> str:
        if not self.timings or state.duration is None:
            return ""
        return f"{state.duration:.2f}s"

    def forget(self, key: str) -> None:
        """Remove the row of case ``key`` (if shown)."""
        if key in self.rows:
            self.remove_row(key)
        self._shown.pop(key, None)

    def reset(self) -> None:
        """Remove every row (the columns stay)."""
        self.clear()
        self._shown.clear()

    @property
    def selected_key(self) -> str | None:
        """The key of the row under the cursor."""
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return None if row_key.value is None else str(row_key.value)


__all__ = ["RunCaseTable", "scores_text", "status_text"]
