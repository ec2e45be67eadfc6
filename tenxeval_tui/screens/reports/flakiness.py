"""The flaky cases of one eval set, over the last reports of its runs in the folder."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from tenxeval_tui.browsing.flaky_cases import (
    FLAKY_SORT_KEYS,
    HISTORY_SIZES,
    FlakyCase,
    flaky_cases,
    sort_cases,
)
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.run_summaries import RunSummaries, RunSummary, eval_set_history
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.settings.first_steps import state_dir
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.reports.flaky_table import FlakyTable
from tenxeval_tui.widgets.reports.sort_caption import (
    SHOW_ALL_KEY,
    sort_bindings,
    sort_caption,
    sorted_by,
)

SORT_ORDER = list(FLAKY_SORT_KEYS)
ORDER_WORDS = {
    "instability": ("most unstable first", "most stable first"),
    "flips": ("most flips first", "fewest flips first"),
    "pass rate": ("lowest first", "highest first"),
    "trend": ("falling first", "rising first"),
    "case": ("A to Z", "Z to A"),
}
"""What each sort lists first, as sorted and reversed (the caption says it in words)."""


class FlakinessScreen(Screen[None]):
    """Cases of ``eval_set_id`` ranked by how unstable they are over the reports in
    ``folder``; enter opens the case in the newest report that has it.

    Reports are read as light run summaries, cached in ``cache_dir`` (by default the
    user's state folder): the first look at a big history reads every report once,
    later ones read only new or changed reports."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "flaky cases"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        *sort_bindings(SORT_ORDER),
        Binding(SHOW_ALL_KEY, "toggle_stable", "Show/hide stable"),
        Binding("l", "cycle_last", "Last N runs"),
    ]

    def __init__(
        self, folder: str | Path, eval_set_id: str, *, cache_dir: Path | None = None
    ) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.eval_set_id = eval_set_id
        self.summaries = RunSummaries(cache_dir or state_dir() / "run-summaries")
        self.unreadable = 0
        self.last: int | None = HISTORY_SIZES[0]
        self.sort_key = SORT_ORDER[0]
        self.reverse = False
        self.show_stable = False
        self.cases: list[FlakyCase] = []
        self.runs: list[RunSummary] = []
        self.loaded = False
        self._reading = 0
        """Which reading is the latest: a reading the user's key overtook shows nothing."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Reading the reports…", style="dim"), id="flaky-header")
        yield Static(id="flaky-sort")
        yield FlakyTable(id="flaky-table")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._read()

    def _read(self) -> None:
        """Read the reports of the window ``last`` says, in a thread."""
        self._reading += 1
        self.loaded = False
        self._load(self._reading, self.last)

    @work(thread=True, exclusive=True, group="flaky-load")
    def _load(self, reading: int, last: int | None) -> None:
        # exclusive cancels the worker of an earlier reading, but its thread runs on: what
        # it reads is dropped in _show if a later reading started meanwhile
        summaries: list[RunSummary] = []
        unreadable = 0
        for item in self.summaries.of_folder(self.folder):
            if isinstance(item, EvalFileError):
                unreadable += 1
            else:
                summaries.append(item)
        runs = eval_set_history(summaries, self.eval_set_id, last)
        self.app.call_from_thread(self._show, runs, flaky_cases(runs), unreadable, reading)

    def _show(
        self, runs: list[RunSummary], cases: list[FlakyCase], unreadable: int, reading: int
    ) -> None:
        if reading != self._reading:
            return  # an earlier window's reading, ended after the one asked for since
        self.runs, self.cases, self.unreadable, self.loaded = runs, cases, unreadable, True
        self.query_one("#flaky-header", Static).update(self._header())
        self._refresh_cases()
        self.query_one(FlakyTable).focus()

    def _header(self) -> Text:
        title = self.runs[-1].outcome.title if self.runs else self.eval_set_id
        unstable = sum(1 for c in self.cases if c.unstable)
        window = "all runs" if self.last is None else f"the last {self.last} runs"
        skipped = f"   ({self.unreadable} file(s) there did not load)" if self.unreadable else ""
        return Text.assemble(
            ("Flaky cases of ", "bold"),
            (inert(title), "bold cyan"),
            (f"   over {window}: {len(self.runs)} report(s) in ", "dim"),
            (inert(str(self.folder)), "dim"),
            (skipped, "yellow"),
            "\n",
            (f"{unstable}", "bold yellow" if unstable else "green"),
            f" of {len(self.cases)} cases flipped between runs or repeats, or passed only sometimes",
        )

    def _refresh_cases(self) -> None:
        cases = sort_cases(self.cases, self.sort_key, reverse=self.reverse)
        if not self.show_stable:
            cases = [c for c in cases if c.unstable]
        table = self.query_one(FlakyTable)
        table.set_items(cases, keep=table.current)
        hidden = None if self.show_stable else "stable cases"
        self.query_one("#flaky-sort", Static).update(
            sort_caption(self.sort_key, ORDER_WORDS, reverse=self.reverse, hidden=hidden)
        )

    @property
    def visible_cases(self) -> list[FlakyCase]:
        """The cases the table shows now."""
        return list(self.query_one(FlakyTable).items)

    def action_sort_by(self, index: int) -> None:
        """Sort by key number ``index`` of the order; the current key again reverses it."""
        self.sort_key, self.reverse = sorted_by(SORT_ORDER, index, self.sort_key, self.reverse)
        self._refresh_cases()

    def action_toggle_stable(self) -> None:
        self.show_stable = not self.show_stable
        self._refresh_cases()

    def action_cycle_last(self) -> None:
        self.last = HISTORY_SIZES[(HISTORY_SIZES.index(self.last) + 1) % len(HISTORY_SIZES)]
        self.query_one("#flaky-header", Static).update(Text("Reading the reports…", style="dim"))
        self._read()

    @on(FlakyTable.Selected, "#flaky-table")
    def _open_case(self, event: FlakyTable.Selected) -> None:
        case: FlakyCase = event.item
        if case.latest is None:
            return
        try:
            document = ReportDocument.open(case.latest)
            index = document.index_of(*case.key)
            if index is None:
                return
            result = document.case(index)
        except (EvalFileError, OSError) as exc:
            message = str(exc.first) if isinstance(exc, EvalFileError) else str(exc)
            self.notify(message, title="Cannot open this case", severity="error", markup=False)
            return
        from tenxeval_tui.screens.reports.case_detail import CaseScreen

        self.app.push_screen(
            CaseScreen(
                result,
                report_title=document.title,
                eval_set_id=case.history.eval_set_id,
                report_path=document.path,
                run_timestamp=document.timestamp,
            )
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return can_go_back(self) if action == "back" else True

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)
