"""One report: summary, per-criterion bars and the filterable table of its cases."""

from __future__ import annotations

import asyncio
from concurrent.futures import CancelledError, Future
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from tenxeval_tui.browsing.report_document import (
    CaseRow,
    ReportDocument,
    ReportReader,
    StatusFilter,
    open_first_page,
)
from tenxeval_tui.browsing.simulated_case import is_simulated
from tenxeval_tui.evaluation.cost import format_cost
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.accept.one_case import ACCEPT_KEY, accept_actual, accepted_run
from tenxeval_tui.screens.accept.report_cases import (
    ACCEPT_MANY_KEY,
    accept_chosen,
    accept_replies,
)
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.copy_menu import copy_from_case, copy_text, report_path
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.common.steady_screen import SteadyScreen
from tenxeval_tui.screens.common.typing_keys import hidden_while_typing
from tenxeval_tui.screens.reports.agreement import AgreementScreen
from tenxeval_tui.screens.reports.case_requests import (
    EDIT_ACTION,
    RERUN_ACTION,
    app_supports,
    request_case_action,
)
from tenxeval_tui.screens.reports.html_report import open_html_report
from tenxeval_tui.screens.reports.review import AGREEMENT_KEY, REVIEW_KEY, ReviewScreen
from tenxeval_tui.screens.reports.save_as_case import SAVE_ACTION, SAVE_BINDINGS, CaseSaver
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.reports.case_detail_view import (
    REPEAT_ACTIONS,
    REPEAT_KEYS,
    TRANSCRIPT_ACTION,
    TRANSCRIPT_KEY,
    CaseDetailView,
)
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.reports.report_list import format_time
from tenxeval_tui.widgets.reports.score_bars import ScoreBars
from tenxeval_tui.widgets.reports.status_text import PARTIAL_MARK

_NEXT_FILTER = {
    StatusFilter.ALL: StatusFilter.FAILED,
    StatusFilter.FAILED: StatusFilter.ERRORED,
    StatusFilter.ERRORED: StatusFilter.ALL,
}


def run_time_parts(summed: float, wall: float | None) -> list[tuple[str, str] | str]:
    """``7.0s wall · 21.2s summed over cases``: how long the run took, and the sum of its
    cases' durations (more, when cases ran side by side); only the sum when the report
    does not know the wall time (one written before it was recorded)."""
    summed_part = (f"{summed:.1f}s", "cyan")
    if wall is None:
        return [summed_part, " summed over cases"]
    return [(f"{wall:.1f}s", "cyan"), " wall · ", summed_part, " summed over cases"]


def summary_text(doc: ReportDocument) -> Text:
    """The report's header: eval set, time, counts, pass rate, duration, tokens."""
    s = doc.summary
    text = Text.assemble(
        (inert(doc.title), "bold"),
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
        *run_time_parts(s.total_duration_seconds, s.wall_seconds),
        "   ",
        (f"{s.total_token_usage.total_tokens} tokens", "cyan"),
    )
    if s.total_cost_usd is not None:  # only with a price table
        text.append("   ")
        text.append(format_cost(s.total_cost_usd), style="cyan")
        text.append(" cost")
    if doc.partial:
        text.append(PARTIAL_MARK, style="bold yellow")
    if not doc.complete:
        text.append(f"   reading cases… {len(doc.rows)} of {s.total_cases} so far", style="yellow")
    return text


class ReportScreen(SteadyScreen):
    """A report; enter opens the case under the cursor."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "one report"

    AUTO_FOCUS = "#case-table"
    """The case list has the focus from the first frame: the footer is built once, with
    its keys (focusing it later rebuilt the footer a frame after the cases showed)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("f", "cycle_status", "Status filter"),
        Binding("slash", "focus_filter", "Filter"),
        Binding("o", "open_html", "HTML report"),
        Binding("c", "compare", "Compare with…"),
        Binding(
            "h",
            "flaky_cases",
            "Flaky cases",
            show=False,  # the footer is full: the repeat keys come first
            tooltip="This eval set's cases over its runs",
        ),
        Binding(
            "i",  # t ends a tool call (the run view): one key, one meaning
            "what_if",
            "What-if thresholds",
            show=False,
            tooltip="Change criteria thresholds and see the verdicts move (no agent run)",
        ),
        Binding("ctrl+e", "edit_case", "Edit case", tooltip="This case in the editor"),
        Binding("s", "rerun_case", "Run again", tooltip="Run this case again in the run view"),
        ACCEPT_KEY,
        ACCEPT_MANY_KEY,
        REVIEW_KEY,
        AGREEMENT_KEY,
        *REPEAT_KEYS,
        TRANSCRIPT_KEY,
        Binding(
            "E",  # x stops a case (the run view): one key, one meaning
            "export",
            "Export…",
            show=False,  # in the help and the command palette
            tooltip="Write this report as CSV or JSONL (or JSON, HTML, JUnit XML)",
            id="report.export",
        ),
        Binding(
            "y",
            "copy",
            "Copy…",
            show=False,
            tooltip="The case's reply, tool calls or diff; the report's path",
        ),
        *SAVE_BINDINGS,
    ]

    def __init__(
        self,
        path: str | Path,
        document: ReportDocument | None = None,
        *,
        reading: Future[tuple[ReportReader, ReportDocument]] | None = None,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.document = document
        self._reading = reading
        """The reading of the report's first cases, when already under way (see
        :meth:`~tenxeval_tui.screens.reports.kept_report.KeptReport.prepare`)."""
        self.status_filter = StatusFilter.ALL
        self._view = CaseDetailView(id="report-case")
        self._view_lock = asyncio.Lock()
        self.case_saver = CaseSaver(self)
        self._shown_row: CaseRow | None = None
        """The row whose case the case view shows (or tried to: it did not load)."""
        self.reopening = False
        """True while the report list shows this screen again, kept as it was (see
        :class:`~tenxeval_tui.screens.reports.kept_report.KeptReport`)."""

    def shown_again_as_it_was(self) -> bool:
        return self.reopening

    def compose(self) -> ComposeResult:
        with Vertical(id="report-overview"):
            yield Static(Text(inert(f"Loading {self.path.name}…"), "dim"), id="report-header")
            yield ScoreBars(id="report-bars")
            with Horizontal(id="case-filters"):
                yield Static(id="status-filter")
                yield Input(placeholder="filter: words, tag:NAME or #NAME", id="case-filter")
        yield ReportCaseTable(id="case-table")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one(ReportCaseTable).follow = self._follow_now
        self._update_filter_label()
        if self.document is not None:
            self._show(self.document)
        elif (read := self._read_ahead()) is not None:
            # Shown as the screen mounts: its first frame has the cases, not "Loading".
            reader, document = read
            self._show(document)
            if not document.complete:
                self.call_after_refresh(self._load_rest, reader, document)
        else:
            self._load()

    def _read_ahead(self) -> tuple[ReportReader, ReportDocument] | None:
        """The first cases read ahead, if their reading is done and went well (else
        :meth:`_load` waits for it, or reads again and shows the error)."""
        reading = self._reading
        if reading is None or not reading.done() or reading.cancelled():
            return None
        if reading.exception() is not None:
            return None
        return reading.result()

    @work(thread=True, exclusive=True, group="report-load")
    def _load(self) -> None:
        # The first cases show at once; a big report's other cases follow.
        try:
            reader, document = self._first_page()
        except (EvalFileError, OSError) as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._show, document)
        if not document.complete:
            # once the first cases are painted: reading the rest holds the GIL for a while
            self.app.call_from_thread(self.call_after_refresh, self._load_rest, reader, document)

    def _first_page(self) -> tuple[ReportReader, ReportDocument]:
        """The reader and first cases: those read ahead, if they were, else read now."""
        if self._reading is not None:
            try:
                return self._reading.result()
            except CancelledError:  # the list that read ahead was closed before it began
                pass
        return open_first_page(self.path)

    @work(thread=True, exclusive=True, group="report-rest")
    def _load_rest(self, reader: ReportReader, document: ReportDocument) -> None:
        try:
            rest = reader.rest()
        except EvalFileError as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._add_rest, document, rest)

    def _add_rest(self, document: ReportDocument, rest: list[Any]) -> None:
        document.add_results(rest)
        self.query_one("#report-header", Static).update(summary_text(document))
        self._apply_filter()

    def _show_error(self, message: str) -> None:
        self.query_one("#report-header", Static).update(
            Text.assemble(
                ("Cannot open this report\n", "bold red"), (inert(message, multiline=True), "red")
            )
        )

    def _show(self, document: ReportDocument) -> None:
        self.document = document
        self.query_one("#report-header", Static).update(summary_text(document))
        self.query_one(ScoreBars).show_stats(document.summary.criterion_stats)
        self.query_one(ReportCaseTable).show_runs(document.has_repeats)
        self._apply_filter()
        self.query_one(ReportCaseTable).focus()
        self.call_after_refresh(self._case_view)  # ready before the first case is opened

    def _update_filter_label(self) -> None:
        label = Text.assemble(("Status: ", "bold"), (self.status_filter.value, "cyan"))
        marked = self.query_one(ReportCaseTable).mark_count
        if marked:
            label.append(f"   {marked} selected", style="bold green")
            label.append(" · A accepts · esc clears ", style="dim")
        self.query_one("#status-filter", Static).update(label)

    @on(ReportCaseTable.MarksChanged, "#case-table")
    def _marks_changed(self) -> None:
        self._update_filter_label()

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
        if self.showing_case is not None:
            self._set_case_open(False)  # the filter box is in the overview
        self.set_focus(self.query_one("#case-filter", Input))  # now: the keys typed next go there

    @on(Input.Changed, "#case-filter")
    def _filter_changed(self) -> None:
        self._apply_filter()

    @on(Input.Submitted, "#case-filter")
    def _filter_done(self) -> None:
        self.query_one(ReportCaseTable).focus()

    @on(ReportCaseTable.Selected, "#case-table")
    async def _open_case(self, event: ReportCaseTable.Selected) -> None:
        row: CaseRow = event.item
        await self.open_case(row)

    @property
    def showing_case(self) -> EvalCaseResult | None:
        """The case on screen, or ``None`` while only the overview and table are."""
        view = self._view
        return view.result if view.is_mounted and view.display else None

    async def _case_view(self) -> CaseDetailView:
        """The case view, mounted on first use (not part of the first paint)."""
        async with self._view_lock:
            if not self._view.is_mounted:
                await self.mount(self._view, before=self.query_one(SteadyFooter))
        return self._view

    async def open_case(self, row: CaseRow) -> None:
        """Show ``row``'s case under the table; the table keeps the keyboard.

        While a case is shown, moving the table's cursor shows the case under
        it; escape closes the case and brings the overview back.
        """
        if self.document is None:
            return
        await self._case_view()
        self._show_row(row)

    def _show_row(self, row: CaseRow) -> None:
        """Show ``row``'s case in the case view (mounted)."""
        assert self.document is not None
        self._shown_row = row
        try:
            result = self.document.case(row.index)
        except EvalFileError as exc:
            self.notify(
                str(exc.first), title="Cannot open this case", severity="error", markup=False
            )
            return
        view = self._view
        had_repeats = view.is_mounted and view.display and view.repeat_count > 0
        simulated_before = self._simulated_shown
        view.show_case(result, report_title=self.document.title)
        eval_set_id = result.eval_set_id or self.document.eval_set_id
        view.look_up_expectations(host_of(self.app).workspace.eval_set_files, eval_set_id)
        if not view.display:
            self._set_case_open(True)
        elif had_repeats != (view.repeat_count > 0) or self._simulated_shown != simulated_before:
            self.refresh_bindings()  # the repeat keys and "save as case" come and go with the case

    def _follow_now(self, row: CaseRow | None) -> None:
        """A key moved the table's cursor with a case open: its case shows in the same
        frame as the cursor (``Highlighted``, handled a frame or more later, finds it shown)."""
        if self.showing_case is not None and row is not None and self.document is not None:
            self._show_row(row)

    def _set_case_open(self, case_open: bool) -> None:
        # display is set on the widgets themselves: toggling a class on the screen
        # would restyle every widget of it (and cost each case open ~100 ms).
        self.query_one("#report-overview").display = not case_open
        self._view.display = case_open
        self.refresh_bindings()  # accept and the repeat keys show only with a case open

    @on(ReportCaseTable.Highlighted, "#case-table")
    async def _follow_cursor(self, event: ReportCaseTable.Highlighted) -> None:
        shown = event.item is self._shown_row  # by _follow_now, in the key's step
        if self.showing_case is not None and event.item is not None and not shown:
            await self.open_case(event.item)

    async def action_back(self) -> None:
        """Close the case, else this report."""
        if self.showing_case is not None:
            self._set_case_open(False)
        else:
            await go_back_one_step(self)

    def action_open_html(self) -> None:
        open_html_report(self, self.path.with_suffix(".html"))

    def action_compare(self) -> None:
        if self.document is None:
            return
        from tenxeval_tui.screens.reports.baseline_picker import pick_baseline_then_compare

        pick_baseline_then_compare(self, self.path, self.document.eval_set_id)

    def action_flaky_cases(self) -> None:
        """This report's eval set: its cases over the runs in the report's folder."""
        if self.document is None:
            return
        from tenxeval_tui.screens.reports.flakiness import FlakinessScreen

        self.app.push_screen(FlakinessScreen(self.path.parent, self.document.eval_set_id))

    def action_what_if(self) -> None:
        """Try other thresholds on this report."""
        if self.document is None:
            return
        if not self.document.complete:
            self.notify("Still reading the report's cases: try again in a moment.")
            return
        from tenxeval_tui.screens.reports.what_if import WhatIfScreen

        self.app.push_screen(WhatIfScreen(self.path, self.document))

    def action_review(self) -> None:
        """Label this report's verdicts (review mode)."""
        self.app.push_screen(ReviewScreen(self.path, self.document))

    def action_agreement(self) -> None:
        """How far this report's judges agree with the human labels."""
        self.app.push_screen(AgreementScreen(self.path, self.document))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if hidden_while_typing(self, action):
            return False  # the filter box has the focus: the key types there
        if action in (EDIT_ACTION, RERUN_ACTION):
            return True if app_supports(self.app, action) else None
        if action == "back":
            return self.showing_case is not None or can_go_back(self)
        if action == SAVE_ACTION:
            return self._simulated_shown  # hidden unless a simulated conversation is open
        if action in REPEAT_ACTIONS:
            return bool(self.showing_case is not None and self._view.repeat_count)
        if action in ("accept_actual", TRANSCRIPT_ACTION):
            return self.showing_case is not None
        return True

    @work(exclusive=True, group="accept")
    async def action_accept_actual(self) -> None:
        """Write what the case shown (or its repeat shown) did as its expectations."""
        result = self.showing_case
        if result is None or self.document is None:
            return
        run = accepted_run(result, self._view.repeat)
        set_id = result.eval_set_id or self.document.eval_set_id
        await accept_actual(self, run, set_id, self.document.timestamp)

    def action_toggle_transcript(self) -> None:
        """Show the open case as a transcript, or its detail again."""
        if self.showing_case is not None:
            self._view.toggle_transcript()

    @work(exclusive=True, group="accept")
    async def action_accept_many(self) -> None:
        """Accept the actual of the selected cases, else the reply of every case that
        failed on its reply alone (asks first)."""
        if self.document is None:
            return
        marked = self.query_one(ReportCaseTable).marked_indexes
        if marked:
            await accept_chosen(self, self.document, marked)
        else:
            await accept_replies(self, self.document)

    def action_next_repeat(self) -> None:
        self._view.step_repeat(1)

    def action_previous_repeat(self) -> None:
        self._view.step_repeat(-1)

    @property
    def _simulated_shown(self) -> bool:
        """Whether the case on screen is a simulated conversation (it can be saved as a case)."""
        result = self.showing_case
        return result is not None and is_simulated(result)

    def action_save_as_case(self) -> None:
        """Save the simulated conversation on screen as a case of an eval set (asks which)."""
        self.case_saver.save(self.showing_case)

    async def action_undo_save_as_case(self) -> None:
        """Take the case saved last out of its eval set again."""
        await self.case_saver.undo()

    def _case_action(self, action: str) -> None:
        row: CaseRow | None = self.query_one(ReportCaseTable).current
        if row is None or self.document is None:
            return
        # the case shown is always the one under the table's cursor
        request_case_action(self, action, row.eval_set_id or self.document.eval_set_id, row.eval_id)

    def action_copy(self) -> None:
        """With a case open: ask what to copy of it (or the report's path); else the path."""
        result = self.showing_case
        if result is None:
            copy_text(self, report_path(self.path))
        else:
            copy_from_case(self, result, path=self.path)

    def action_export(self) -> None:
        """Write the report to a file the user names (its ending names the format)."""
        from tenxeval_tui.screens.reports.export_dialog import export_report

        export_report(self, self.path)

    def action_edit_case(self) -> None:
        """Ask the app to open the case under the cursor in the editor."""
        self._case_action(EDIT_ACTION)

    def action_rerun_case(self) -> None:
        """Ask the app to run the case under the cursor again in the run view."""
        self._case_action(RERUN_ACTION)
