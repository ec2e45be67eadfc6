"""Two runs compared: what regressed, what was fixed, what is new or gone, criterion deltas."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.evaluation.analysis.compare import (
    CASE_SORT_KEYS,
    CaseChange,
    CaseComparison,
    ReportComparison,
    compare_runs,
)
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.stats import wilson_interval
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.reports.comparison_table import (
    CHANGE_STYLES,
    NOISE_STYLE,
    ComparisonTable,
)
from tenxeval_tui.widgets.reports.report_list import format_time
from tenxeval_tui.widgets.reports.sort_caption import (
    SHOW_ALL_KEY,
    sort_bindings,
    sort_caption,
    sorted_by,
)
from tenxeval_tui.widgets.reports.status_text import PARTIAL_MARK, delta_text, score_text

SORT_ORDER = list(CASE_SORT_KEYS)
ORDER_WORDS = {
    "change": ("regressed first", "unchanged first"),
    "case": ("A to Z", "Z to A"),
    "baseline": ("error, failed, passed", "passed, failed, error"),
    "current": ("error, failed, passed", "passed, failed, error"),
    "delta": ("biggest drop first", "biggest gain first"),
}
"""What each sort lists first, as sorted and reversed (the caption says it in words)."""


def _selection_mark(selection: str | None) -> str:
    """After a run's title when it ran a selection of its eval set's cases."""
    if not selection:
        return ""
    return inert(f"   selection: {selection}; the cases it did not run are not run")


def comparison_header(
    comparison: ReportComparison, baseline: ReportDocument, current: ReportDocument
) -> Text:
    """Both runs, the pass rates and the count of each change."""
    counts = comparison.counts()
    warning = comparison.eval_set_warning()
    text = Text.assemble(
        (inert(f"{warning}\n") if warning else "", "bold yellow"),
        ("Baseline ", "bold"),
        (inert(baseline.title), ""),
        (f"  {format_time(baseline.timestamp)}", "dim"),
        (PARTIAL_MARK if comparison.baseline_partial else "", "bold yellow"),
        (_selection_mark(comparison.baseline_selection), "bold yellow"),
        ("\nCurrent  ", "bold"),
        (inert(current.title), ""),
        (f"  {format_time(current.timestamp)}", "dim"),
        (PARTIAL_MARK if comparison.current_partial else "", "bold yellow"),
        (_selection_mark(comparison.current_selection), "bold yellow"),
        ("\nPass rate ", "bold"),
        (
            f"(over the {comparison.pass_rate_cases} case(s) both ran) "
            if comparison.pass_rate_cases is not None
            else ""
        ),
        f"{comparison.baseline_pass_rate:.1%} → {comparison.current_pass_rate:.1%} ",
    )
    text.append_text(
        delta_text(comparison.current_pass_rate - comparison.baseline_pass_rate, points=True)
    )
    if comparison.significance:
        ran = [c for c in comparison.cases if c.current_status is not None]
        passed = sum(1 for c in ran if c.current_status == "passed")
        low, high = wilson_interval(passed, len(ran))
        text.append(f"   (95% CI {low:.0%} to {high:.0%})", style="dim")
        text.append("\nNoise-aware ", style="bold")
        text.append(f"{comparison.significance}: ")
        flips = len(comparison.noise_flips)
        text.append(
            f"{flips} status flip{'s' if flips != 1 else ''} within noise (not counted)",
            style=NOISE_STYLE if flips else "dim",
        )
    text.append("\n")
    shown = [c for c in CaseChange if c != CaseChange.NOT_RUN or counts[c]]
    for i, change in enumerate(shown):
        if i:
            text.append("  ")
        text.append(
            f"{counts[change]} {change.value.replace('_', ' ')}", style=CHANGE_STYLES[change]
        )
    return text


def criteria_deltas(comparison: ReportComparison) -> Table | Text:
    """A table of each criterion's avg score and pass rate in both runs."""
    if not comparison.criteria:
        return Text("No criteria in either run.", style="dim")
    table = Table(box=None, padding=(0, 1))
    for title in ("criterion", "avg score", "", "pass rate", ""):
        table.add_column(Text(title, style="bold"), no_wrap=True)
    for d in comparison.criteria:
        rates = Text.assemble(
            "-" if d.baseline_pass_rate is None else f"{d.baseline_pass_rate:.0%}",
            " → ",
            "-" if d.current_pass_rate is None else f"{d.current_pass_rate:.0%}",
        )
        table.add_row(
            Text(inert(d.criterion)),
            Text.assemble(score_text(d.baseline_avg_score), " → ", score_text(d.current_avg_score)),
            delta_text(d.avg_score_delta),
            rates,
            delta_text(d.pass_rate_delta, points=True),
        )
    return table


class CompareScreen(Screen[None]):
    """The current report compared with a baseline; enter shows a case from both runs."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "comparison"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        *sort_bindings(SORT_ORDER),
        Binding(SHOW_ALL_KEY, "toggle_unchanged", "Show/hide unchanged"),
    ]

    def __init__(self, baseline: str | Path, current: str | Path) -> None:
        super().__init__()
        self.baseline_path = Path(baseline)
        self.current_path = Path(current)
        self.comparison: ReportComparison | None = None
        self.documents: tuple[ReportDocument, ReportDocument] | None = None
        self.sort_key = "change"
        self.reverse = False
        self.show_unchanged = False

    def compose(self) -> ComposeResult:
        yield Static(Text("Loading both reports…", style="dim"), id="compare-header")
        yield Static(id="compare-criteria")
        yield Static(id="compare-sort")
        yield ComparisonTable(id="compare-table")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, group="compare-load")
    def _load(self) -> None:
        try:
            baseline = ReportDocument.open(self.baseline_path)
            current = ReportDocument.open(self.current_path)
        except (EvalFileError, OSError) as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        comparison = compare_runs(baseline.outcome(), current.outcome())
        self.app.call_from_thread(self._show, baseline, current, comparison)

    def _show_error(self, message: str) -> None:
        self.query_one("#compare-header", Static).update(
            Text.assemble(("Cannot compare\n", "bold red"), (inert(message, multiline=True), "red"))
        )

    def _show(
        self, baseline: ReportDocument, current: ReportDocument, comparison: ReportComparison
    ) -> None:
        self.documents = (baseline, current)
        self.comparison = comparison
        self.query_one("#compare-header", Static).update(
            comparison_header(comparison, baseline, current)
        )
        self.query_one("#compare-criteria", Static).update(criteria_deltas(comparison))
        self.query_one(ComparisonTable).show_runs(comparison.significance is not None)
        self._refresh_cases()
        self.query_one(ComparisonTable).focus()

    def _refresh_cases(self) -> None:
        if self.comparison is None:
            return
        cases = self.comparison.sorted_cases(self.sort_key, reverse=self.reverse)
        if not self.show_unchanged:
            # a flip within noise stays listed: the user should see it was not counted
            hidden_changes = (CaseChange.UNCHANGED, CaseChange.NOT_RUN)
            cases = [c for c in cases if c.change not in hidden_changes or c.noise_flip]
        table = self.query_one(ComparisonTable)
        table.set_items(cases, keep=table.current)
        not_run = any(c.change == CaseChange.NOT_RUN for c in self.comparison.cases)
        hidden: str | None = "unchanged and not run cases" if not_run else "unchanged cases"
        if self.show_unchanged:
            hidden = None
        self.query_one("#compare-sort", Static).update(
            sort_caption(self.sort_key, ORDER_WORDS, reverse=self.reverse, hidden=hidden)
        )

    @property
    def visible_cases(self) -> list[CaseComparison]:
        """The compared cases the table shows now."""
        return list(self.query_one(ComparisonTable).items)

    def action_sort_by(self, index: int) -> None:
        """Sort by key number ``index`` of the order; the current key again reverses it."""
        self.sort_key, self.reverse = sorted_by(SORT_ORDER, index, self.sort_key, self.reverse)
        self._refresh_cases()

    def action_toggle_unchanged(self) -> None:
        self.show_unchanged = not self.show_unchanged
        self._refresh_cases()

    @on(ComparisonTable.Selected, "#compare-table")
    def _open_case(self, event: ComparisonTable.Selected) -> None:
        if self.documents is None:
            return
        case: CaseComparison = event.item
        baseline, current = self.documents
        try:
            before = _find(baseline, case)
            after = _find(current, case)
        except EvalFileError as exc:
            self.notify(
                str(exc.first), title="Cannot open this case", severity="error", markup=False
            )
            return
        shown = after or before
        if shown is None:
            return
        from tenxeval_tui.screens.reports.case_detail import CaseScreen

        self.app.push_screen(
            CaseScreen(
                shown,
                report_title=current.title,
                eval_set_id=case.eval_set_id or current.eval_set_id,
                baseline=before if after is not None else None,
                report_path=self.current_path if after is not None else self.baseline_path,
                run_timestamp=(current if after is not None else baseline).timestamp,
            )
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return can_go_back(self) if action == "back" else True

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)


def _find(document: ReportDocument, case: CaseComparison) -> EvalCaseResult | None:
    index = document.index_of(case.eval_set_id, case.eval_id, case.occurrence)
    return document.case(index) if index is not None else None
