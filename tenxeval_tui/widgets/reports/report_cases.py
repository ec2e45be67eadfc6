"""The cases of one report, as a virtual table (fast for 10,000 cases)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tenxeval_tui.browsing.report_document import CaseRow
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.virtual_table import Column, VirtualTable
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
    return (
        status_text(row.status),
        Text(inert(row.eval_id)),
        Text(inert(row.name)),
        score_text(row.score),
        Text(f"{row.duration:.2f}s"),
        why,
    )


class ReportCaseTable(VirtualTable):
    """One row per case: status, id, name, mean score, duration, what failed."""

    DEFAULT_CSS = """
    ReportCaseTable {
        background: $surface;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(CASE_COLUMNS, case_cells, id=id)
