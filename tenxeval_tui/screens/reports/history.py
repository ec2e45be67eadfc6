"""The history view of one eval set: its runs over time, from the folder's history index.

A chart of one metric (pass rate with its 95% interval, cost, wall time, or each
criterion's pass rate) over the last runs, a cursor on one run, that run's figures and
commit, and each case's pass/fail strip with the run where it last changed. From the
run under the cursor, ``o`` opens its report and ``c`` compares it with the latest run.
The view follows the folder: a report landing is added to the index (read alone) and
shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.browsing.history.queries import eval_set_history
from tenxeval_tui.browsing.history.series import EvalSetHistory, RunPoint
from tenxeval_tui.browsing.report_folder_watch import follow_report_folder
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.reports.case_strips import CaseStrips
from tenxeval_tui.widgets.reports.history_chart import METRICS, HistoryChart

WINDOWS: tuple[int, ...] = (50, 20, 200, 0)
"""Runs charted, in the order ``l`` cycles through them (0: every run)."""


class HistoryScreen(Screen[None]):
    """The runs of ``eval_set_id`` in ``folder`` over time (see the module docs)."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "history"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("m", "next_metric", "Chart", tooltip="Pass rate, cost, wall time, criteria"),
        Binding("o", "open_run", "Open run", tooltip="Open the report of the run under the cursor"),
        Binding(
            "c",
            "compare_latest",
            "Compare w/ latest",
            tooltip="The run under the cursor against the latest",
        ),
        Binding("l", "cycle_window", "Last N runs"),
        Binding("comma", "move(-1)", "Earlier run", show=False),
        Binding("full_stop", "move(1)", "Later run", show=False),
    ]

    def __init__(self, folder: str | Path, eval_set_id: str) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.eval_set_id = eval_set_id
        self.window = WINDOWS[0]
        self.history: EvalSetHistory | None = None
        self.loaded = False
        self._reading = 0
        """Which reading is the latest: one a newer reading overtook shows nothing."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Reading the history…", style="dim"), id="history-header")
        yield HistoryChart(id="history-chart")
        yield Static(id="history-run")
        yield CaseStrips(id="history-cases")
        yield Footer()

    @property
    def chart(self) -> HistoryChart:
        """The chart of the runs."""
        return self.query_one(HistoryChart)

    @property
    def cases(self) -> CaseStrips:
        """The cases' strips."""
        return self.query_one(CaseStrips)

    def on_mount(self) -> None:
        self.read()
        if host_of(self.app).watch_files:
            self._follow_folder()

    def read(self) -> None:
        """Bring the index up to date and read the history again (in a thread)."""
        self._reading += 1
        self._load(self._reading, self.window)

    @work(thread=True, exclusive=True, group="history-load")
    def _load(self, reading: int, window: int) -> None:
        with HistoryIndex(self.folder) as index:
            index.sync()
            found = eval_set_history(index, self.eval_set_id, last=window)
        self.app.call_from_thread(self._show, found, reading)

    @work(exclusive=True, group="history-watch")
    async def _follow_folder(self) -> None:
        await follow_report_folder(self.folder, self.read)

    def _show(self, found: EvalSetHistory, reading: int) -> None:
        if reading != self._reading:
            return  # an older reading, ended after a newer one started
        kept = self.history is not None and self.chart.selected < len(self.chart.runs) - 1
        self.history, self.loaded = found, True
        self.chart.show_runs(found.shown, self.chart.selected if kept else None)
        self._show_header()
        self._show_run()
        if self.focused is None:
            self.chart.focus()

    def _show_header(self) -> None:
        found = self.history
        if found is None:
            return
        window = "every run" if not self.window else f"the last {len(found.shown)}"
        self.query_one("#history-header", Static).update(
            Text.assemble(
                ("History of ", "bold"),
                (inert(found.title), "bold cyan"),
                (f"  {len(found.runs)} run(s), {window} charted", "dim"),
                ("   chart: ", "dim"),
                (self.chart.metric, "bold"),
            )
        )

    @property
    def selected_run(self) -> RunPoint | None:
        """The run under the chart's cursor."""
        runs = self.chart.runs
        return runs[self.chart.selected] if runs else None

    def _show_run(self) -> None:
        run = self.selected_run
        line = self.query_one("#history-run", Static)
        if run is None or self.history is None:
            line.update(Text("No runs of this eval set in the folder yet.", style="dim"))
            self.cases.show_cases([], None)
            return
        number = self.history.runs.index(run) + 1
        line.update(
            Text.assemble(
                (f"Run {number}/{len(self.history.runs)}  ", "bold"),
                f"{run.when}  ",
                (run.commit, "yellow"),
                f"  {run.rate_text} {run.interval_text}  {run.cost_text}  {run.wall_text}",
                (" partial" if run.partial else "", "yellow"),
                (f"  {inert(run.selection_text)} (not charted)" if run.selection else "", "yellow"),
                "\n",
                (inert(run.path.name), "dim"),
            )
        )
        self.cases.show_cases(self.history.cases, self.chart.selected)

    @on(HistoryChart.Selected)
    def _selected(self) -> None:
        self._show_run()

    @on(DataTable.RowSelected, "#history-cases")
    def _case_chosen(self) -> None:
        self.action_open_run()

    def action_move(self, step: int) -> None:
        """Move the chart's cursor ``step`` runs."""
        self.chart.action_move(step)

    def action_next_metric(self) -> None:
        """Chart the next metric."""
        self.chart.metric = METRICS[(METRICS.index(self.chart.metric) + 1) % len(METRICS)]
        self._show_header()

    def action_cycle_window(self) -> None:
        """Chart the last 20, 50, 200 or every run."""
        self.window = WINDOWS[(WINDOWS.index(self.window) + 1) % len(WINDOWS)]
        self.read()

    def action_open_run(self) -> None:
        """Open the report of the run under the cursor."""
        run = self.selected_run
        if run is None:
            return
        self.app.push_screen(ReportScreen(run.path))

    def action_compare_latest(self) -> None:
        """Compare the run under the cursor (the baseline) with the latest run."""
        run, runs = self.selected_run, self.chart.runs
        if run is None or run is runs[-1]:
            self.notify("The run under the cursor is the latest: pick an earlier one.")
            return
        self.app.push_screen(CompareScreen(run.path, runs[-1].path))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return can_go_back(self) if action == "back" else True

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)


__all__ = ["WINDOWS", "HistoryScreen"]
