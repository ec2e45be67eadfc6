"""Every criterion of a case: score, threshold, verdict, tokens, the judge's reasoning, and
how often a judge's samples disagreed (``num_samples`` > 1)."""

from __future__ import annotations

from rich.text import Text

from tenxeval_tui.evaluation.analysis.flakiness import sample_disagreement
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.section_title import TitledStatic
from tenxeval_tui.widgets.reports.status_text import delta_text, score_text


def _right(text: Text, width: int) -> Text:
    cell = text.copy()
    cell.truncate(width, overflow="ellipsis")
    cell.pad_left(width - cell.cell_len)
    return cell


class CriteriaTable(TitledStatic):
    """One line per criterion, its reasoning (or error) indented on the lines below.

    ``title`` is shown above them as a section title.
    """

    DEFAULT_CSS = """
    CriteriaTable {
        height: auto;
        padding: 0 1;
    }
    """

    def show_results(
        self, results: list[CriterionResult], baseline: list[CriterionResult] | None = None
    ) -> None:
        """Show ``results``; ``baseline`` adds the baseline score and the change."""
        if not results:
            self.show_body(Text("No criteria were scored.", style="dim"))
            return
        name_width = max(len("criterion"), *(len(cr.criterion) for cr in results))
        columns = ["score", "threshold", "", "tokens"]
        widths = [6, 10, 5, 7]
        if baseline is not None:
            columns = ["baseline", "score", "change", *columns[1:]]
            widths = [9, 6, 7, *widths[1:]]
        text = Text(f"{'criterion':<{name_width}}", style="bold")
        for title, width in zip(columns, widths, strict=True):
            text.append_text(_right(Text(title, style="bold"), width))
        before = {cr.criterion: cr for cr in baseline or []}
        for cr in results:
            old = before.get(cr.criterion)
            cells = [score_text(cr.score), Text(f"{cr.threshold:.2f}")]
            if baseline is not None:
                cells = [
                    score_text(old.score if old else None),
                    score_text(cr.score),
                    delta_text(cr.score - old.score if old else None),
                    Text(f"{cr.threshold:.2f}"),
                ]
            tokens = cr.token_usage.total_tokens
            cells += [
                Text("PASS", "green") if cr.passed else Text("FAIL", "bold red"),
                Text(str(tokens)) if tokens else Text("-", "dim"),
            ]
            text.append("\n")
            text.append(inert(f"{cr.criterion:<{name_width}}"))
            for cell, width in zip(cells, widths, strict=True):
                text.append_text(_right(cell, width))
            if cr.error:
                text.append("\n    error: ", style="magenta")
                text.append(inert(cr.error, multiline=True), style="magenta")
            elif cr.reason:
                text.append("\n    ")
                text.append(inert(cr.reason, multiline=True), style="italic")
            split = sample_disagreement(cr)
            if split is not None:
                items = len(cr.details.get("votes") or {})
                text.append(
                    f"\n    judge samples disagreed on {split:.0%} of {items} item(s)",
                    style="yellow" if split else "dim",
                )
        self.show_body(text)
