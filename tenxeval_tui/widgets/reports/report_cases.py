"""The cases of one report, as a virtual table (fast for 10,000 cases)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import BindingType

from tenxeval_tui.browsing.report_document import CaseRow
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.markable_table import MARK_KEYS, MarkableTable
from tenxeval_tui.widgets.common.virtual_table import Column
from tenxeval_tui.widgets.reports.status_text import score_text, status_text

CASE_COLUMNS = (
    Column("Status", 6),
    Column("Case", 24),
    Column("Name", 24),
    Column("Score", 5),
    Column("Time", 7),
    Column("Failed criteria / error"),
)


def case_cells(row: CaseRow) -> Sequence[Text]:
    """The cells of one case row."""
    why = (
        Text(inert(row.error), style="magenta")
        if row.error
        else Text(inert(", ".join(row.failed_criteria)))
    )
    if row.stopped_early:
        why = Text.assemble(("stopped early", "bold yellow"), " · " if why.plain else "", why)
    return (
        status_text(row.status, stopped_early=row.stopped_early),
        Text(inert(row.eval_id)),
        Text(inert(row.name)),
        score_text(row.score),
        Text(f"{row.duration:.2f}s"),
        why,
    )


RUNS_COLUMN = Column("Runs", 7)


def runs_text(row: CaseRow) -> Text:
    """``3/5`` repeats passed: green when all, red when none, yellow (flaky) between."""
    if row.runs is None or row.passes is None:
        return Text("")
    style = "green" if row.passes == row.runs else ("red" if not row.passes else "bold yellow")
    return Text(row.rate, style=style)


class ReportCaseTable(MarkableTable):
    """One row per case: status, id, name, mean score, duration, what failed; and, for a
    run with repeats, how many of each case's repeats passed (``3/5``). Cases can be
    selected (``space``, ``*``) for an action on several: the selection is of case indexes
    in the report, so a filter keeps it."""

    BINDINGS: ClassVar[list[BindingType]] = MARK_KEYS  # with the table's own (inherited)

    DEFAULT_CSS = """
    ReportCaseTable {
        background: $surface;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(CASE_COLUMNS, case_cells, id=id)
        self.with_runs = False

    def show_runs(self, with_runs: bool) -> None:
        """Add (or drop) the ``Runs`` column, for a report whose cases have repeats."""
        if with_runs == self.with_runs:
            return
        self.with_runs = with_runs
        self.columns = (
            [CASE_COLUMNS[0], RUNS_COLUMN, *CASE_COLUMNS[1:]] if with_runs else list(CASE_COLUMNS)
        )
        self.replace_items(self.items)

    def mark_key(self, item: Any) -> Hashable:
        row: CaseRow = item
        return row.index

    @property
    def marked_indexes(self) -> list[int]:
        """The selected cases' indexes in the report (hidden by a filter too)."""
        return [int(str(key)) for key in self.marked_keys]

    def is_failed(self, item: Any) -> bool:
        row: CaseRow = item
        return row.status == "failed"

    def row_cells(self, index: int) -> Sequence[Text]:
        row: CaseRow = self.items[index]
        cells = case_cells(row)
        return [cells[0], runs_text(row), *cells[1:]] if self.with_runs else cells
