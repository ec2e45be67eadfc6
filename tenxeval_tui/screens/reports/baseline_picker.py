"""Choosing the baseline run a report is compared with."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static

from tenxeval_tui.browsing.previous_run import previous_run
from tenxeval_tui.browsing.reports_index import ReportEntry, list_reports
from tenxeval_tui.evaluation.inert import inert, quoted
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.widgets.reports.report_list import ReportList


def default_baseline(entries: list[ReportEntry], current: ReportEntry, eval_set_id: str) -> int:
    """Index of the best guess: the previous run among the same eval set's earlier reports
    (:func:`~tenxeval_tui.browsing.previous_run.previous_run`: the newest full run that
    ran to its end, a rerun of the failed cases or a ``--shard`` part passed over), else
    the first. A selection can still be picked by hand: the list marks it.

    ``entries`` are the other reports, newest first; ``current`` is the one compared.
    """
    earlier = [
        i
        for i, entry in enumerate(entries)
        if entry.ok and entry.eval_set_id == eval_set_id and entry.timestamp < current.timestamp
    ]
    found = previous_run([entries[i] for i in earlier])  # as `compare previous` picks
    return earlier[found] if found is not None else 0


def baseline_warning(entry: ReportEntry, eval_set_id: str) -> str | None:
    """A warning when ``entry`` is a report of another eval set than ``eval_set_id``, a
    report with no case or of a run that did not finish, or of a selection of the cases."""
    if not entry.ok:
        return None
    if entry.eval_set_id != eval_set_id:
        return (
            f"⚠ This is a report of another eval set ({quoted(entry.eval_set_id)}, not "
            f"{quoted(eval_set_id)}): cases are matched by id, so most will show as new or removed."
        )
    caveat = entry.caveat
    if caveat is not None:
        return f"⚠ This report {caveat}."
    if entry.selection:
        return (
            f"⚠ This is a run of some of the eval set's cases ({inert(entry.selection)}): the cases "
            "it did not run show as not run, the pass rates are over the cases both ran."
        )
    return None


class BaselinePicker(ModalScreen[Path | None]):
    """The other reports of the folder; enter picks one as the baseline, escape cancels."""

    CSS_PATH = REPORTS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: Path, eval_set_id: str) -> None:
        super().__init__()
        self.current = current
        self.eval_set_id = eval_set_id

    def compose(self) -> ComposeResult:
        with Vertical(id="baseline-dialog"):
            yield Static(
                Text.assemble(
                    ("Compare ", "bold"), (inert(self.current.name), "cyan"), (" with…", "bold")
                ),
                id="baseline-title",
            )
            yield ReportList(id="baseline-list")
            yield Static("", id="baseline-warning")

    def on_mount(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, group="baseline-list")
    def _load(self) -> None:
        listed = list_reports(self.current.parent)
        current = next((e for e in listed if e.path == self.current), None)
        entries = [e for e in listed if e.path != self.current]
        self.app.call_from_thread(self._show, entries, current)

    def _show(self, entries: list[ReportEntry], current: ReportEntry | None) -> None:
        table = self.query_one(ReportList)
        table.show_entries(entries)
        if entries:
            guess = default_baseline(entries, current, self.eval_set_id) if current else 0
            table.move_cursor(row=guess)
        else:
            self.query_one("#baseline-title", Static).update(
                Text("No other report in this folder to compare with.", style="yellow")
            )
        table.focus()

    @on(DataTable.RowHighlighted, "#baseline-list")
    def _highlighted(self) -> None:
        entry = self.query_one(ReportList).current_entry
        warning = baseline_warning(entry, self.eval_set_id) if entry is not None else None
        self.query_one("#baseline-warning", Static).update(Text(warning or "", style="bold yellow"))

    @on(DataTable.RowSelected, "#baseline-list")
    def _picked(self, event: DataTable.RowSelected) -> None:
        entry = self.query_one(ReportList).current_entry
        if entry is None:
            return
        if not entry.ok:
            self.notify(str(entry.problem), severity="error", markup=False)
            return
        warning = baseline_warning(entry, self.eval_set_id)
        if warning is not None:
            self.notify(warning, severity="warning", markup=False)
        self.dismiss(entry.path)

    def action_cancel(self) -> None:
        self.dismiss(None)


def pick_baseline_then_compare(screen: Screen[Any], current: Path, eval_set_id: str) -> None:
    """Ask for a baseline, then open the comparison of ``current`` against it."""

    def chosen(baseline: Path | None) -> None:
        if baseline is None:
            return
        from tenxeval_tui.screens.reports.compare import CompareScreen

        screen.app.push_screen(CompareScreen(baseline, current))

    screen.app.push_screen(BaselinePicker(current, eval_set_id), chosen)
