"""The cases of a comparison: how each moved from the baseline run to this one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tenxeval_tui.evaluation.compare import CaseChange, CaseComparison
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.virtual_table import Column, VirtualTable
from tenxeval_tui.widgets.reports.status_text import delta_text, score_text, status_text

CHANGE_STYLES = {
    CaseChange.REGRESSED: "bold red",
    CaseChange.FIXED: "bold green",
    CaseChange.NEW: "cyan",
    CaseChange.REMOVED: "yellow",
    CaseChange.STILL_FAILING: "red",
    CaseChange.UNCHANGED: "dim",
}

COMPARISON_COLUMNS = (
    Column("Change", 13),
    Column("Case", 24),
    Column("Baseline", 8),
    Column("Current", 8),
    Column("Score", 13),
    Column("Δ score", 7),
    Column("Name"),
)


def comparison_cells(case: CaseComparison) -> Sequence[Text]:
    """The cells of one compared case."""
    scores = Text.assemble(score_text(case.baseline_score), " → ", score_text(case.current_score))
    return (
        Text(case.change.value.replace("_", " "), style=CHANGE_STYLES[case.change]),
        Text(inert(case.eval_id)),
        status_text(case.baseline_status),
        status_text(case.current_status),
        scores,
        delta_text(case.score_delta),
        Text(inert(case.name)),
    )


class ComparisonTable(VirtualTable):
    """One row per case of either run."""

    DEFAULT_CSS = """
    ComparisonTable {
        background: $surface;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(COMPARISON_COLUMNS, comparison_cells, id=id)
