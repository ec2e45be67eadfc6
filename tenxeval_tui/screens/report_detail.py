"""One report: summary, per-criterion bars and the filterable table of its cases."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.report_document import CaseRow, ReportDocument, StatusFilter
from tenxeval_tui.screens.case_actions import (
    EDIT_ACTION,
    RERUN_ACTION,
    app_supports,
    request_case_action,
)
from tenxeval_tui.widgets.report_cases import ReportCaseTable
from tenxeval_tui.widgets.report_list import format_time
from tenxeval_tui.widgets.score_bars import ScoreBars

_NEXT_FILTER = {
    StatusFilter.ALL: StatusFilter.FAILED,
    StatusFilter.FAILED: StatusFilter.ERRORED,
    StatusFilter.ERRORED: StatusFilter.ALL,
}


def summary_text(doc: ReportDocument) -> Text:
    """The report's header: eval set, time, counts, pass rate, duration, tokens."""
    s = doc.summary
    text = Text.assemble(
        (doc.title, "bold"),
        ("  " + format_time(doc.timestamp) + " UTC", "dim"),
        "\n",
        (f"{s.pass_rate:.1%}", "bold green" if s.pass_rate >= 1 else "bold yellow"),
        " pass rate   ",
        (str(s.passed_cases), "green"),
        " passed  ",
        (str(s.failed_cases), "red" if s.failed_cases else ""),
        " failed  ",
        (str(s.error_cases), "magenta" if s.error_cases else ""),
        " errored  ",
        f"of {s.total_cases}   ",
        (f"{s.total_duration_seconds:.1f}s", "cyan"),
        "   ",
        (f"{s.total_token_usage.total_tokens} tokens", "cyan"),
    )
    return text


class ReportScreen(Screen[None]):
    """A report; enter opens the case under the cursor."""

    CSS_PATH = "../styles/reports.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("f", "cycle_status", "Status filter"),
        Binding("slash", "focus_filter", "Filter"),
        Binding("o", "open_html", "HTML report"),
        Binding("c", "compare", "Compare with…"),
        Binding("e", "edit_case", "Edit case"),
        Binding("r", "rerun_case", "Rerun case"),
    ]

    def __init__(self, path: str | Path, document: ReportDocument | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.document = document
        self.status_filter = StatusFilter.ALL

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Loading {self.path.name}…", style="dim"), id="report-header")
        yield ScoreBars(id="report-bars")
        with Horizontal(id="case-filters"):
            yield Static(id="status-filter")
            yield Input(placeholder="filter: words, tag:NAME or #NAME", id="case-filter")
        yield ReportCaseTable(id="case-table")
        yield Footer()

    def on_mount(self) -> None:
        self._update_filter_label()
        if self.document is not None:
            self._show(self.document)
        else:
            self._load()

    @work(thread=True, exclusive=True, group="report-load")
    def _load(self) -> None:
        try:
            document = ReportDocument.open(self.path)
        except (EvalFileError, OSError) as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._show, document)

    def _show_error(self, message: str) -> None:
        self.query_one("#report-header", Static).update(
            Text.assemble(("Cannot open this report\n", "bold red"), (message, "red"))
        )

    def _show(self, document: ReportDocument) -> None:
        self.document = document
        self.query_one("#report-header", Static).update(summary_text(document))
        self.query_one(ScoreBars).show_stats(document.summary.criterion_stats)
        self._apply_filter()
        self.query_one(ReportCaseTable).focus()

    def _update_filter_label(self) -> None:
        self.query_one("#status-filter", Static).update(
            Text.assemble(("Status: ", "bold"), (self.status_filter.value, "cyan"))
        )

    def _apply_filter(self) -> None:
        if self.document is None:
            return
        table = self.query_one(ReportCaseTable)
        text = self.query_one("#case-filter", Input).value
        table.set_items(self.document.filter_rows(self.status_filter, text), keep=table.current)

    @property
    def visible_rows(self) -> list[CaseRow]:
        """The rows the case table shows now."""
        return list(self.query_one(ReportCaseTable).items)

    def action_cycle_status(self) -> None:
        self.status_filter = _NEXT_FILTER[self.status_filter]
        self._update_filter_label()
        self._apply_filter()

    def action_focus_filter(self) -> None:
        self.query_one("#case-filter", Input).focus()

    @on(Input.Changed, "#case-filter")
    def _filter_changed(self) -> None:
        self._apply_filter()

    @on(Input.Submitted, "#case-filter")
    def _filter_done(self) -> None:
        self.query_one(ReportCaseTable).focus()

    @on(ReportCaseTable.Selected, "#case-table")
    def _open_case(self, event: ReportCaseTable.Selected) -> None:
        row: CaseRow = event.item
        self.open_case(row)

    def open_case(self, row: CaseRow) -> None:
        """Push the detail screen of ``row``'s case."""
        if self.document is None:
            return
        from tenxeval_tui.screens.case_detail import CaseScreen

        try:
            result = self.document.case(row.index)
        except EvalFileError as exc:
            self.notify(
                str(exc.first), title="Cannot open this case", severity="error", markup=False
            )
            return
        self.app.push_screen(
            CaseScreen(
                result,
                report_title=self.document.title,
                eval_set_id=row.eval_set_id or self.document.eval_set_id,
            )
        )

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()

    def action_open_html(self) -> None:
        from tenxeval_tui.screens.reports import open_html_report

        open_html_report(self, self.path.with_suffix(".html"))

    def action_compare(self) -> None:
        if self.document is None:
            return
        from tenxeval_tui.screens.baseline_picker import pick_baseline_then_compare

        pick_baseline_then_compare(self, self.path, self.document.eval_set_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in (EDIT_ACTION, RERUN_ACTION):
            return True if app_supports(self.app, action) else None
        return True

    async def _case_action(self, action: str) -> None:
        row: CaseRow | None = self.query_one(ReportCaseTable).current
        if row is None or self.document is None:
            return
        await request_case_action(
            self.app, action, row.eval_set_id or self.document.eval_set_id, row.eval_id
        )

    async def action_edit_case(self) -> None:
        await self._case_action(EDIT_ACTION)

    async def action_rerun_case(self) -> None:
        await self._case_action(RERUN_ACTION)
