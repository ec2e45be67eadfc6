"""Every criterion of a case: score, threshold, verdict, judge's reasoning, tokens."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tenxeval_tui.evaluation.results import CriterionResult
from tenxeval_tui.widgets.status_text import delta_text, score_text


def _why(cr: CriterionResult) -> Text:
    if cr.error:
        return Text(f"error: {cr.error}", style="magenta")
    reason = cr.reason
    return Text(reason) if reason else Text("-", style="dim")


class CriteriaTable(Static):
    """The criterion results of one case (with the baseline's scores when comparing)."""

    DEFAULT_CSS = """
    CriteriaTable {
        height: auto;
        padding: 0 1;
    }
    """

    def show_results(
        self, results: list[CriterionResult], baseline: list[CriterionResult] | None = None
    ) -> None:
        """Render ``results``; ``baseline`` adds the baseline score and the change."""
        table = Table(expand=True, box=None, padding=(0, 1))
        table.add_column(Text("criterion", style="bold"), no_wrap=True)
        if baseline is not None:
            table.add_column(Text("baseline", style="bold"), justify="right", no_wrap=True)
        table.add_column(Text("score", style="bold"), justify="right", no_wrap=True)
        if baseline is not None:
            table.add_column(Text("change", style="bold"), justify="right", no_wrap=True)
        table.add_column(Text("threshold", style="bold"), justify="right", no_wrap=True)
        table.add_column(Text("", style="bold"), no_wrap=True)
        table.add_column(Text("tokens", style="bold"), justify="right", no_wrap=True)
        table.add_column(Text("reasoning", style="bold"), ratio=1)
        before = {cr.criterion: cr for cr in baseline or []}
        for cr in results:
            verdict = Text("PASS", "green") if cr.passed else Text("FAIL", "bold red")
            cells: list[Text] = [Text(cr.criterion)]
            if baseline is not None:
                old = before.get(cr.criterion)
                cells.append(score_text(old.score if old else None))
            cells.append(score_text(cr.score))
            if baseline is not None:
                old = before.get(cr.criterion)
                cells.append(delta_text(cr.score - old.score if old else None))
            tokens = cr.token_usage.total_tokens
            cells += [
                Text(f"{cr.threshold:.2f}"),
                verdict,
                Text(str(tokens) if tokens else "-", style="" if tokens else "dim"),
                _why(cr),
            ]
            table.add_row(*cells)
        if not results:
            self.update(Text("No criteria were scored.", style="dim"))
            return
        self.update(table)
