"""For comparison only (bench/tui_run_table.py; not a benchmark itself): the run view's case table as it was, on
Textual's ``DataTable``, frozen at the commit that replaced it with a virtual table.

The cases of a run, one row each, updated in place as their state changes.

The columns share the table's width by priority (:mod:`~tenxeval_tui.widgets.run.run_columns`):
each case's score numbers stay on screen down to 80 columns; when the width (or the widest
scores) calls for other columns, the table is rebuilt from the cases it shows.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.live_run import CaseState, CaseStatus
from tenxeval_tui.widgets.common.row_table import ROW_KEYS, RowTable
from tenxeval_tui.widgets.run.run_columns import ColumnPlan, plan_columns, score_label, scores_width

STATUS_STYLE = {
    CaseStatus.QUEUED: ("· queued", "dim"),
    CaseStatus.RUNNING: ("▶ running", "bold yellow"),
    CaseStatus.PASSED: ("✓ passed", "green"),
    CaseStatus.FAILED: ("✗ failed", "bold red"),
    CaseStatus.ERROR: ("! error", "bold magenta"),
    CaseStatus.CARRIED: ("↺ carried", "cyan"),
    CaseStatus.CANCELLED: ("- cancelled", "dim"),
}


def status_text(status: CaseStatus, *, short: bool = False) -> Text:
    """The status cell: a sign and a word (only the sign when ``short``), coloured."""
    label, style = STATUS_STYLE[status]
    return Text(label.split()[0] if short else label, style=style)


def scores_text(state: CaseState, form: str = "full") -> Text:
    """``criterion score`` pairs written in ``form`` (see
    :data:`~tenxeval_tui.widgets.run.run_columns.SCORE_FORMS`), failed ones in red; the error
    when the case errored."""
    if state.result is not None and state.result.error:
        return Text(inert(state.result.error[:80]), style="magenta")
    text = Text(no_wrap=True, overflow="ellipsis")
    for index, (criterion, score, passed) in enumerate(state.scores):
        if index:
            text.append("  ")
        text.append(score_label(inert(criterion), score, form), style="green" if passed else "red")
    return text


def _fingerprint(value: Text | str) -> str:
    return value.markup if isinstance(value, Text) else value


class LegacyRunCaseTable(RowTable[Text | str]):
    """Rows keyed by case key; :meth:`show` adds or updates one row; enter opens its detail."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *ROW_KEYS,
        Binding("enter", "select_cursor", "Case detail", tooltip="The selected case's detail"),
    ]

    DEFAULT_CSS = """
    LegacyRunCaseTable {
        height: 1fr;
    }
    """

    def __init__(self, *, timings: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timings = timings
        self._shown: dict[str, dict[str, str]] = {}
        self._states: dict[str, tuple[CaseState, str]] = {}
        """Every row's case and eval set label, in row order (to rebuild the rows from)."""
        self._widest: list[tuple[str, float]] = []
        """The scores of the case with the longest scores, which the column should fit."""
        self.plan: ColumnPlan = plan_columns(80, [])

    def on_mount(self) -> None:
        self._add_columns()

    def on_resize(self, event: events.Resize) -> None:
        self._replan()

    @property
    def _width(self) -> int:
        # A vertical scrollbar is counted in always, so rows arriving never change the plan.
        return max(self.size.width - self.styles.scrollbar_size_vertical, 0)

    def _add_columns(self) -> None:
        for column, width in self.plan.widths.items():
            label = "" if column == "status" and self.plan.status_short else column
            self.add_column(label, width=width, key=column)

    def _replan(self) -> None:
        """Rebuild the table if the width or the widest scores call for other columns."""
        if not self._width:
            return
        plan = plan_columns(self._width, self._widest)
        if plan == self.plan:
            return
        self.plan = plan
        cursor = self.selected_key
        self.clear(columns=True)
        self._shown.clear()
        self._add_columns()
        for state, label in self._states.values():
            self._show_row(state, label)
        if cursor is not None and cursor in self.rows:
            self.move_cursor(row=self.get_row_index(cursor))

    def show(self, state: CaseState, eval_set_label: str = "") -> None:
        """Add the row of ``state`` (in eval set ``eval_set_label``), or update its cells."""
        self._states[state.key] = (state, eval_set_label)
        scores = [(criterion, score) for criterion, score, _ in state.scores]
        if scores_width(scores, "full") > scores_width(self._widest, "full"):
            self._widest = scores
            self._replan()
        self._show_row(state, eval_set_label)

    def _cells(self, state: CaseState, eval_set_label: str) -> dict[str, Text | str]:
        plan = self.plan
        cells: dict[str, Text | str] = {
            "status": status_text(state.status, short=plan.status_short),
            "eval set": Text(inert(eval_set_label or state.eval_set_id)),
            "case": Text(inert(state.name or state.eval_id)),
            "time": self._duration(state),
            "tokens": str(state.tokens) if state.tokens else "",
            "scores": scores_text(state, plan.score_form),
        }
        return {column: cells[column] for column in plan.widths}

    def _show_row(self, state: CaseState, eval_set_label: str) -> None:
        cells = self._cells(state, eval_set_label)
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
        self._states.pop(key, None)

    def reset(self) -> None:
        """Remove every row (the columns stay)."""
        self.clear()
        self._shown.clear()
        self._states.clear()

    @property
    def selected_key(self) -> str | None:
        """The key of the row under the cursor."""
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return None if row_key.value is None else str(row_key.value)


__all__ = ["LegacyRunCaseTable"]
