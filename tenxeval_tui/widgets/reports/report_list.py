"""The reports of an output folder: one row per file, newest first."""

from __future__ import annotations

from datetime import UTC, datetime

from rich.text import Text

from tenxeval_tui.browsing.reports_index import ReportEntry
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.row_table import RowTable


def format_time(timestamp: float) -> str:
    """A report's time in UTC (the same on every machine)."""
    if timestamp <= 0:
        return "-"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S")


def problem_text(entry: ReportEntry) -> Text:
    """Where and why a file does not load, naming the file by its name only."""
    problem = entry.problem
    if problem is None:
        return Text("")
    where = inert(entry.path.name)
    if problem.line is not None:
        where += f":{problem.line}" + (f":{problem.column}" if problem.column else "")
    detail = f"{problem.json_path}: " if problem.json_path else ""
    return Text(inert(f"{where}: {detail}{problem.message}"), style="red")


def pass_rate_text(entry: ReportEntry) -> Text:
    """The pass rate, or ``no cases``; a report of a run that did not finish says so."""
    if entry.total == 0:
        return Text("no cases", style="yellow")
    rate = Text(f"{entry.pass_rate:.1%}", style="green" if entry.pass_rate >= 1 else "")
    if entry.partial:
        rate.append(" partial", style="yellow")
    if entry.selection:  # a rerun of the failed cases, a filter: not the eval set's rate
        rate.append(inert(f" selection: {entry.selection}"), style="yellow")
    return rate


class ReportList(RowTable[Text]):
    """Report files; the row key of each row is its file path."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[ReportEntry] = []

    def on_mount(self) -> None:
        for title in (
            "Eval set",
            "Time (UTC)",
            "Pass rate",
            "Passed",
            "Failed",
            "Errored",
            "Total",
        ):
            self.add_column(title, key=title)
        self.add_column("File / problem", key="file")

    def show_entries(self, entries: list[ReportEntry]) -> None:
        """Replace the rows with ``entries`` (kept in the given order)."""
        keep = self.current_entry
        self.entries = list(entries)
        self.clear()
        for entry in self.entries:
            if entry.ok:
                title = Text(inert(entry.title))
                if entry.rescored:  # another scoring of a run listed already
                    title.append(" (rescored)", style="yellow")
                if entry.session_runs > 1:  # a watch session: its newest report stands in
                    title.append(f" (watch: {entry.session_runs} runs)", style="cyan")
                cells = [
                    title,
                    Text(format_time(entry.timestamp)),
                    pass_rate_text(entry),
                    Text(str(entry.passed), style="green"),
                    Text(str(entry.failed), style="red" if entry.failed else ""),
                    Text(str(entry.errored), style="magenta" if entry.errored else ""),
                    Text(str(entry.total)),
                    Text(inert(entry.path.name), style="dim"),
                ]
            else:
                cells = [
                    Text("cannot load", style="bold red"),
                    Text(format_time(entry.timestamp)),
                    *(Text("-", style="dim") for _ in range(5)),
                    problem_text(entry),
                ]
            self.add_row(*cells, key=str(entry.path))
        if keep is not None and keep in self.entries:
            self.move_cursor(row=self.entries.index(keep))

    @property
    def current_entry(self) -> ReportEntry | None:
        """The entry under the cursor."""
        if not self.entries or not 0 <= self.cursor_row < len(self.entries):
            return None
        return self.entries[self.cursor_row]
