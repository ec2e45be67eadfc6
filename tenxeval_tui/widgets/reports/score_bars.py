"""Per-criterion bars of a report: average score and pass rate."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.reports.status_text import bar


class ScoreBars(Static):
    """One line per criterion: avg score bar, pass-rate bar, passed/total."""

    DEFAULT_CSS = """
    ScoreBars {
        height: auto;
        padding: 0 1;
    }
    """

    def show_stats(self, criterion_stats: dict[str, dict[str, Any]]) -> None:
        """Render ``summary.criterion_stats`` (entries without figures are skipped)."""
        if not criterion_stats:
            self.update(Text("No criteria were scored.", style="dim"))
            return
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        for _ in range(4):
            table.add_column(no_wrap=True)
        table.add_row(
            Text("criterion", style="bold"),
            Text("avg score", style="bold"),
            Text(""),
            Text("pass rate", style="bold"),
            Text(""),
        )
        for name, stats in criterion_stats.items():
            try:
                avg = float(stats["avg_score"])
                rate = float(stats["pass_rate"])
            except (KeyError, TypeError, ValueError):
                continue
            counts = f"{stats.get('passed', '?')}/{stats.get('total', '?')}"
            table.add_row(
                Text(inert(name)),
                bar(avg),
                Text(f"{avg:.2f}"),
                bar(rate),
                Text(f"{rate:.0%} ({counts})"),
            )
        self.update(table)
