"""Browsing a variant matrix: the variants ranked with their figures, then cases x
variants (the separating cases first). ``enter`` opens a cell's case detail; ``T`` shows
the case's transcripts in two variants side by side (the cell's and the one marked with
``space``, else the best-ranked other)."""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tenxeval_tui.evaluation.analysis.compare import numbered_keys
from tenxeval_tui.evaluation.analysis.matrix import MatrixRow, VariantMatrix
from tenxeval_tui.evaluation.analysis.matrix_text import (
    STATUS_MARKS,
    missing_mark,
    selection_names,
    variant_line,
)
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.transcript import result_transcript
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.widgets.common.transcript_view import TranscriptView
from tenxeval_tui.widgets.run.variant_columns import mark_text


def _cell_mark(row: MatrixRow, name: str, selections: Collection[str]) -> str:
    """``name``'s mark of ``row``'s case, in the words of the command line's matrix
    (``not run`` for a case a selection did not run); a repeated case's passed runs too."""
    cell = row.cells.get(name)
    if cell is None:
        return missing_mark(name, selections)
    word = STATUS_MARKS[cell.status]
    return f"{word} {cell.passes}/{cell.runs}" if cell.runs > 1 else word


def case_result(report: EvalReport, row: MatrixRow) -> EvalCaseResult | None:
    """The result of ``row``'s case in ``report`` (``None``: it did not run it)."""
    keys = numbered_keys((r.eval_set_id or report.eval_set_id, r.eval_id) for r in report.results)
    wanted = (row.eval_set_id, row.eval_id, row.occurrence)
    return next((r for key, r in zip(keys, report.results, strict=True) if key == wanted), None)


class MatrixScreen(Screen[None]):
    """The matrix of ``reports`` (by variant name; see the module)."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "variant matrix"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "open_cell", "Case detail", tooltip="The highlighted cell's case"),
        Binding("space", "mark_variant", "Mark variant", tooltip="The other side of t"),
        Binding("T", "transcripts", "Side by side", tooltip="Two variants' transcripts"),
    ]

    def __init__(self, matrix: VariantMatrix, reports: dict[str, EvalReport]) -> None:
        super().__init__()
        self.matrix = matrix
        self.reports = reports
        self.rows = matrix.separating + [r for r in matrix.rows if r not in matrix.separating]
        self.marked: str | None = None

    def compose(self) -> ComposeResult:
        lines = [variant_line(rank, v) for rank, v in enumerate(self.matrix.variants, 1)]
        pairs = [
            f"  {p.a} vs {p.b}: {p.difference * 100:+.1f} pts, corrected p={p.p_adjusted:.3g}"
            + (f": {p.better} better" if p.better else ": no significant difference")
            for p in self.matrix.pairs
        ]
        pareto = "Pareto line: " + ", ".join(self.matrix.pareto)
        text = "\n".join([*lines, *pairs, pareto])
        yield Static(Text(inert(text, multiline=True)), id="matrix-summary")
        yield Static(id="matrix-marked")
        yield DataTable[Text](id="matrix-cases", cursor_type="cell", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#matrix-cases", DataTable)
        table.add_column("case", key="case")
        for name in self.matrix.names:
            table.add_column(inert(name), key=name)
        selections = selection_names(self.matrix)
        for index, row in enumerate(self.rows):
            where = f"{row.eval_set_id}/" if row.eval_set_id else ""
            marks = [mark_text(_cell_mark(row, name, selections)) for name in self.matrix.names]
            table.add_row(Text(inert(where + row.label)), *marks, key=str(index))
        table.move_cursor(column=1)
        table.focus()

    def _cursor(self) -> tuple[MatrixRow, str] | None:
        """The highlighted case and variant (``None`` on the case column)."""
        table = self.query_one("#matrix-cases", DataTable)
        row, column = table.cursor_coordinate
        if not self.rows or column == 0:
            return None
        return self.rows[row], self.matrix.names[column - 1]

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        """``enter`` on a cell (the table takes the key): its case detail."""
        event.stop()
        self.action_open_cell()

    def action_open_cell(self) -> None:
        """The case detail of the highlighted cell."""
        at = self._cursor()
        if at is None:
            return
        row, name = at
        result = case_result(self.reports[name], row)
        if result is None:
            self.notify(inert(f"{name} did not run this case"), markup=False)
            return
        report = self.reports[name]
        title = f"{report.eval_set_name or report.eval_set_id} ({name})"
        self.app.push_screen(CaseScreen(result, report_title=title, eval_set_id=row.eval_set_id))

    def action_mark_variant(self) -> None:
        """Mark the highlighted column's variant as the other side of ``T``."""
        at = self._cursor()
        if at is not None:
            self.marked = at[1]
            self.query_one("#matrix-marked", Static).update(
                Text(inert(f"marked: {self.marked} (t compares with it)"), style="cyan")
            )

    def action_transcripts(self) -> None:
        """The highlighted case in the cell's variant and in the marked (or best other)."""
        at = self._cursor()
        if at is None:
            return
        row, name = at
        others = [n for n in self.matrix.names if n != name]
        other = self.marked if self.marked is not None and self.marked != name else None
        if other is None and others:
            other = others[0]
        if other is None:
            return
        self.app.push_screen(
            TranscriptPairScreen(row, (name, other), self.reports, selection_names(self.matrix))
        )

    async def action_back(self) -> None:
        """Back to the screen before."""
        if can_go_back(self):
            await go_back_one_step(self)


class TranscriptPairScreen(Screen[None]):
    """One case's transcripts in two variants, side by side."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "two transcripts"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(
        self,
        row: MatrixRow,
        names: tuple[str, str],
        reports: dict[str, EvalReport],
        selections: Collection[str] = (),
    ) -> None:
        super().__init__()
        self.row = row
        self.names = names
        self.reports = reports
        self.selection_variants = selections
        """The variants whose reports are of a selection of the cases (``not run`` marks)."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="pair-sides"):
            for side, name in enumerate(self.names):
                with Vertical(classes="pair-side"):
                    result = case_result(self.reports[name], self.row)
                    mark = _cell_mark(self.row, name, self.selection_variants)
                    yield Static(Text(inert(f"{name}: {self.row.label} ({mark})"), style="bold"))
                    view = TranscriptView(id=f"pair-{side}")
                    if result is not None:
                        view.show(result_transcript(result))
                    yield view
        yield Footer()

    async def action_back(self) -> None:
        """Back to the matrix."""
        if can_go_back(self):
            await go_back_one_step(self)


__all__ = ["MatrixScreen", "TranscriptPairScreen", "case_result"]
