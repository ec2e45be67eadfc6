"""The report browser's first screen: every JSON report of the output folder.

The list follows the folder: a report written by a run (here or elsewhere) appears
without pressing ``f5``. Before the folder exists, its parent is watched for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widgets import DataTable, Static

from tenxeval_tui.browsing.report_folder_watch import follow_report_folder
from tenxeval_tui.browsing.reports_index import (
    ReportEntries,
    ReportEntry,
    group_watch_sessions,
    list_reports,
)
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.mode_screen import ModeScreen
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.agreement import AgreementScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.flakiness import FlakinessScreen
from tenxeval_tui.screens.reports.history import HistoryScreen
from tenxeval_tui.screens.reports.html_report import open_html_report
from tenxeval_tui.screens.reports.kept_report import KeptReport
from tenxeval_tui.screens.reports.labelled_report import LabelledReportScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.review import AGREEMENT_KEY, REVIEW_KEY, ReviewScreen
from tenxeval_tui.screens.reports.what_if import WhatIfScreen
from tenxeval_tui.settings.layers import report_folder
from tenxeval_tui.widgets.common.markable_table import MARK_KEYS
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.common.virtual_table import VirtualTable
from tenxeval_tui.widgets.reports.history_chart import HistoryChart
from tenxeval_tui.widgets.reports.report_list import ReportList, problem_text


class ReportsScreen(ModeScreen):
    """The reports in ``folder``, newest first; enter opens one."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "report list"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("f5", "refresh", "Refresh"),
        Binding("o", "open_html", "HTML report"),
        Binding("c", "compare", "Compare with…"),
        Binding("h", "flaky_cases", "Flaky cases", tooltip="The eval set's cases over its runs"),
        REVIEW_KEY,
        AGREEMENT_KEY,
        Binding("H", "history", "History", tooltip="The eval set's runs over time: chart, strips"),
        Binding("y", "copy_path", "Copy path", show=False, tooltip="Copy the report's path"),
    ]

    def __init__(self, folder: str | Path | None = None) -> None:
        super().__init__()
        self._folder = Path(folder) if folder is not None else None
        self._reading = 0
        """Which listing is the latest: one that a newer listing overtook shows nothing."""
        self._entries = ReportEntries()
        """The folder's reports as listed: a file is read again only once it changed."""
        self._kept: KeptReport | None = None
        """The report opened last, shown again as it was while its file is unchanged;
        and the report under the cursor, read ahead."""

    @classmethod
    def help_sections(cls) -> list[tuple[str, list[Any]]]:
        """Bindings of the report browser's screens, for the help screen."""
        return [
            (cls.HELP_WHERE, list(cls.BINDINGS)),
            (ReportScreen.HELP_WHERE, list(ReportScreen.BINDINGS)),
            ("case and comparison tables", list(VirtualTable.BINDINGS)),
            ("one report's case table", list(MARK_KEYS)),
            (CompareScreen.HELP_WHERE, list(CompareScreen.BINDINGS)),
            (CaseScreen.HELP_WHERE, list(CaseScreen.BINDINGS)),
            (FlakinessScreen.HELP_WHERE, list(FlakinessScreen.BINDINGS)),
            (HistoryScreen.HELP_WHERE, [*HistoryScreen.BINDINGS, *HistoryChart.BINDINGS]),
            (WhatIfScreen.HELP_WHERE, list(WhatIfScreen.BINDINGS)),
            (ReviewScreen.HELP_WHERE, list(ReviewScreen.BINDINGS)),
            (AgreementScreen.HELP_WHERE, list(AgreementScreen.BINDINGS)),
            (LabelledReportScreen.HELP_WHERE, list(LabelledReportScreen.BINDINGS)),
        ]

    @property
    def folder(self) -> Path:
        """The folder listed: as given, else where runs write reports (``$TENXEVAL_OUTPUT_DIR``,
        the workspace's ``output_dir``, the user's ``run.output_dir``, ``eval_reports``)."""
        if self._folder is not None:
            return self._folder
        host = host_of(self.app)
        return report_folder(host.workspace, host.preferences.settings)

    def compose(self) -> ComposeResult:
        yield Static(id="reports-title", classes="reports-title")
        yield ReportList(id="report-list")
        yield Static(id="report-entry-detail")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._folder = self.folder  # fixed now: the listing runs in a thread
        self._show_title(any_reports=True)
        self.action_refresh()
        if host_of(self.app).watch_files:
            self._follow_folder()

    def show_from_start(self) -> None:
        """The list as its key (``b``) shows it: the newest report highlighted, not the one
        highlighted on the last visit (``c`` then compares the newest)."""
        table = self.query_one(ReportList)
        if table.entries:
            table.move_cursor(row=0)

    def on_unmount(self) -> None:
        if self._kept is not None:
            self._kept.close()

    def action_refresh(self) -> None:
        """Reread the folder (in a thread: big reports take a moment)."""
        self._reading += 1
        self._load(self._reading)

    @work(thread=True, exclusive=True, group="reports-list")
    def _load(self, reading: int) -> None:
        # exclusive cancels the worker of an earlier listing, but its thread runs on: what
        # it lists is dropped in _show if a later listing started meanwhile
        entries = list_reports(self.folder, self._entries)
        self.app.call_from_thread(self._show, entries, reading)

    @work(exclusive=True, group="reports-watch")
    async def _follow_folder(self) -> None:
        """Reread the list whenever a report file in the folder changes."""
        await follow_report_folder(self.folder, self.action_refresh)

    def _show(self, entries: list[ReportEntry], reading: int) -> None:
        if reading != self._reading:
            return  # an older listing, ended after a newer one started: the folder changed
        try:
            table = self.query_one(ReportList)
            table.show_entries(group_watch_sessions(entries))  # a watch session: one row
            self._show_title(any_reports=bool(entries))
        except NoMatches:
            return  # the screen is being taken down (the app quits) as a report landed
        table.focus()

    def _show_title(self, *, any_reports: bool) -> None:
        folder = (inert(str(self.folder)), "bold cyan")
        title = (
            Text.assemble(("Reports in ", "bold"), folder)
            if any_reports
            else Text.assemble(
                ("No reports in ", "bold"), folder, (" yet: run an eval set to write one.", "")
            )
        )
        self.query_one("#reports-title", Static).update(title)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return can_go_back(self) if action == "back" else True

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)

    @property
    def _entry(self) -> ReportEntry | None:
        return self.query_one(ReportList).current_entry

    @on(DataTable.RowHighlighted, "#report-list")
    def _highlighted(self) -> None:
        entry = self._entry
        detail = self.query_one("#report-entry-detail", Static)
        if entry is None:
            detail.update("")
        elif entry.ok:
            html = "  (+ HTML report)" if entry.html_path.is_file() else ""
            detail.update(Text(inert(f"{entry.path.name}{html}"), style="dim"))
            self.kept.prepare(entry.path)  # enter on it shows it at once
        else:
            detail.update(Text.assemble(("Cannot load: ", "bold red"), problem_text(entry)))

    @on(DataTable.RowSelected, "#report-list")
    def _open(self, event: DataTable.RowSelected) -> None:
        entry = self._entry
        if entry is None:
            return
        if not entry.ok:
            self.notify(
                str(entry.problem), title="Cannot open this report", severity="error", markup=False
            )
            return
        self.kept.open(entry.path)

    @property
    def kept(self) -> KeptReport:
        """The report kept from the last opening, and the one read ahead."""
        if self._kept is None:
            self._kept = KeptReport(self.app)
        return self._kept

    def action_open_html(self) -> None:
        entry = self._entry
        if entry is not None:
            open_html_report(self, entry.html_path)

    def action_copy_path(self) -> None:
        """Copy the highlighted report's path to the clipboard."""
        entry = self._entry
        if entry is not None:
            from tenxeval_tui.screens.common.copy_menu import copy_text, report_path

            copy_text(self, report_path(entry.path))

    def action_flaky_cases(self) -> None:
        """The highlighted report's eval set: its cases over the runs in this folder."""
        entry = self._entry
        if entry is not None and entry.ok:
            self.app.push_screen(FlakinessScreen(self.folder, entry.eval_set_id))

    def action_review(self) -> None:
        """Label the highlighted report's verdicts (review mode)."""
        entry = self._entry
        if entry is not None and entry.ok:
            self.app.push_screen(ReviewScreen(entry.path))

    def action_agreement(self) -> None:
        """How far the highlighted report's judges agree with the human labels."""
        entry = self._entry
        if entry is not None and entry.ok:
            self.app.push_screen(AgreementScreen(entry.path))

    def action_history(self) -> None:
        """The highlighted report's eval set: its runs in this folder over time."""
        entry = self._entry
        if entry is not None and entry.ok:
            self.app.push_screen(HistoryScreen(self.folder, entry.eval_set_id))

    def action_compare(self) -> None:
        entry = self._entry
        if entry is None or not entry.ok:
            return
        from tenxeval_tui.screens.reports.baseline_picker import pick_baseline_then_compare

        pick_baseline_then_compare(self, entry.path, entry.eval_set_id)
