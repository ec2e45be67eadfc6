"""A report with human labels in place of the verdicts where there are labels (``l`` in the
agreement view): each case as judged and as labelled, ``✎`` where a label decided it,
the moved ones highlighted; above, the pass rate as judged, as labelled and the
difference (see :mod:`tenxeval_tui.browsing.labelled_report` for the rule). ``enter``
opens the case in review mode with its verdicts and labels shown."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tenxeval_tui.browsing.labelled_report import LabelledCase, LabelledOutcome
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import go_back_one_step
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.review import ReviewScreen
from tenxeval_tui.widgets.reports.agreement_tables import HUMAN_MARK, LabelledCaseTable
from tenxeval_tui.widgets.reports.status_text import delta_text


def rates_text(outcome: LabelledOutcome) -> Text:
    """``Pass rate as judged 75.0% · as labelled 62.5% (-12.5 pts)`` and how many cases the
    labels decided and moved."""
    return Text.assemble(
        "Pass rate as judged ",
        (f"{outcome.judged_rate:.1%}", "bold"),
        " · as labelled ",
        (f"{outcome.labelled_rate:.1%}", "bold"),
        " (",
        delta_text(outcome.difference, points=True),
        ")",
        (
            f" · {outcome.by_human} case(s) decided by a human label, {outcome.changed} moved",
            "dim",
        ),
    )


class LabelledReportScreen(Screen[None]):
    """The cases of a report as judged and as labelled."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "report as labelled"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(
        self,
        path: Path,
        title: str,
        outcome: LabelledOutcome,
        document: ReportDocument | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.document = document
        self.title_text = title
        self.outcome = outcome

    def compose(self) -> ComposeResult:
        yield Static(id="agreement-header")
        yield LabelledCaseTable(id="labelled-cases")
        yield Footer()

    def on_mount(self) -> None:
        header = Text.assemble(
            ("As labelled ", "bold"),
            (inert(self.title_text), "bold"),
            (f"  {inert(self.path.name)}", "dim"),
            "\n",
            rates_text(self.outcome),
            (f"\n{HUMAN_MARK.strip()} a human label decided the case; moved cases reversed", "dim"),
        )
        self.query_one("#agreement-header", Static).update(header)
        table = self.query_one(LabelledCaseTable)
        table.replace_items(list(self.outcome.cases))
        table.focus()

    @on(LabelledCaseTable.Selected)
    def _open(self, event: LabelledCaseTable.Selected) -> None:
        """The case in review mode, its verdicts and every label shown."""
        row: LabelledCase = event.item
        self.app.push_screen(
            ReviewScreen(self.path, self.document, reveal_all=True, start_at=row.case.eval_id)
        )

    async def action_back(self) -> None:
        """Close this view."""
        await go_back_one_step(self)


__all__ = ["LabelledReportScreen", "rates_text"]
