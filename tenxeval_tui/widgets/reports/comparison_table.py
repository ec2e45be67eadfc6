"""The cases of a comparison: how each moved from the baseline run to this one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tenxeval_tui.evaluation.analysis.compare import CaseChange, CaseComparison
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
    CaseChange.NOT_RUN: "dim",
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


NOISE_COLUMNS = (Column("Runs passed", 11), Column("p", 6))
"""Added after the statuses when some case was compared by its repeats."""
NOISE_STYLE = "yellow"


def change_text(case: CaseComparison) -> Text:
    """The change, or ``noise flip`` for a status flip the pass rates do not support."""
    if case.noise_flip:
        return Text("noise flip", style=NOISE_STYLE)
    return Text(case.change.value.replace("_", " "), style=CHANGE_STYLES[case.change])


def runs_cells(case: CaseComparison) -> tuple[Text, Text]:
    """``5/5 → 1/5`` and the p-value, for a case compared by its repeats (else blank)."""
    if case.p_value is None:
        return Text(""), Text("")
    return (
        Text(
            f"{case.baseline_passes}/{case.baseline_runs} → "
            f"{case.current_passes}/{case.current_runs}"
        ),
        Text(f"{case.p_value:.3f}", style="bold" if case.p_value < 0.05 else "dim"),
    )


def comparison_cells(case: CaseComparison) -> Sequence[Text]:
    """The cells of one compared case."""
    scores = Text.assemble(score_text(case.baseline_score), " → ", score_text(case.current_score))
    return (
        change_text(case),
        Text(inert(case.eval_id)),
        status_text(case.baseline_status),
        status_text(case.current_status),
        scores,
        delta_text(case.score_delta),
        Text(inert(case.name)),
    )


class ComparisonTable(VirtualTable):
    """One row per case of either run (with repeats: runs passed on each side and the
    p-value of the change, see :mod:`tenxeval_tui.evaluation.analysis.compare`)."""

    DEFAULT_CSS = """
    ComparisonTable {
        background: $surface;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(COMPARISON_COLUMNS, comparison_cells, id=id)
        self.with_runs = False

    def show_runs(self, with_runs: bool) -> None:
        """Add (or drop) the runs-passed and p-value columns."""
        if with_runs == self.with_runs:
            return
        self.with_runs = with_runs
        base = list(COMPARISON_COLUMNS)
        self.columns = [*base[:4], *NOISE_COLUMNS, *base[4:]] if with_runs else base
        self.replace_items(self.items)

    def row_cells(self, index: int) -> Sequence[Text]:
        case: CaseComparison = self.items[index]
        cells = list(comparison_cells(case))
        return [*cells[:4], *runs_cells(case), *cells[4:]] if self.with_runs else cells
