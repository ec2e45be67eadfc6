"""How far a report's judges agree with the human labels of its replies (``g``).

The same figures as ``tenxeval-tui agreement REPORT.json``: per criterion (and ``case``)
the pairs, raw agreement, kappa with its 95% interval, TPR, TNR and the confusion matrix;
with several reviewers, theirs with each other. Above them, the pass rate as judged and
as labelled. ``d`` (or ``enter``) opens the highlighted criterion's disagreements in
review mode, each with both verdicts and the judge's reason; ``l`` lists the cases with
the labels in place of the verdicts. Coming back from either reads the labels again.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tenxeval_tui.browsing.labels import CASE
from tenxeval_tui.browsing.report_agreement import ReportAgreement, read_agreement
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.review_queue import QueueFilter
from tenxeval_tui.browsing.review_source import ReviewSourceError
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import go_back_one_step
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.labelled_report import LabelledReportScreen, rates_text
from tenxeval_tui.screens.reports.review import REVIEW_KEY, ReviewScreen
from tenxeval_tui.widgets.reports.agreement_tables import FigureRow, FigureTable, confusion_text


class AgreementScreen(Screen[None]):
    """Each criterion's agreement with the human labels; ``d`` its disagreements."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "judge agreement"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding(
            "d", "disagreements", "Disagreements", tooltip="Review where judge and human differ"
        ),
        REVIEW_KEY,
        Binding(
            "l", "labelled", "As labelled", tooltip="The cases with labels in place of verdicts"
        ),
        Binding("f5", "refresh", "Refresh"),
    ]

    def __init__(self, path: str | Path, document: ReportDocument | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.document = document
        self.agreement: ReportAgreement | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(inert(f"Reading {self.path.name}…"), "dim"), id="agreement-header")
        yield Static("Judge (first) against human labels (second)", classes="agreement-title")
        yield FigureTable(id="agreement-criteria")
        yield Static(
            "Reviewers against each other", classes="agreement-title", id="reviewers-title"
        )
        yield FigureTable(id="agreement-reviewers")
        yield Static(id="agreement-detail")
        yield Footer()

    def on_mount(self) -> None:
        self.action_refresh()

    def on_screen_resume(self) -> None:
        if self.agreement is not None:  # back from reviewing: the labels may have changed
            self.action_refresh()

    def action_refresh(self) -> None:
        """Read the report and its labels again."""
        self._load(host_of(self.app).workspace.run_files())

    @work(thread=True, exclusive=True, group="agreement-load")
    def _load(self, files: list[Path]) -> None:
        try:
            found = read_agreement(self.path, files, self.document)
        except ReviewSourceError as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._show, found)

    def _show_error(self, message: str) -> None:
        self.query_one("#agreement-header", Static).update(
            Text.assemble(
                ("Cannot measure this report\n", "bold red"),
                (inert(message, multiline=True), "red"),
            )
        )

    def _show(self, found: ReportAgreement) -> None:
        self.agreement = found
        table = found.table
        header = Text.assemble(
            ("Judge agreement ", "bold"),
            (inert(found.source.verdicts.title), "bold"),
            (f"  {inert(self.path.name)}", "dim"),
            "\n",
            rates_text(found.outcome),
            "\n",
            (
                f"{found.labels} label(s) by {len(found.reviewers)} reviewer(s) in "
                f"{inert(found.source.labels_path.name)}",
                "dim",
            ),
        )
        if found.problems:
            header.append(
                f"\n{len(found.problems)} malformed line(s) skipped, the first: "
                f"{inert(str(found.problems[0]))}",
                style="yellow",
            )
        if not table.criteria:
            header.append(
                "\nNo verdict has a human label on the same reply yet: "
                f"{REVIEW_KEY.key} reviews this report.",
                style="yellow",
            )
        self.query_one("#agreement-header", Static).update(header)
        criteria = self.query_one("#agreement-criteria", FigureTable)
        keep = criteria.current
        rows = [FigureRow(name, figures, name) for name, figures in table.criteria.items()]
        criteria.set_items(rows, keep=next((r for r in rows if keep and r.name == keep.name), None))
        reviewers = [
            FigureRow(
                f"{name}: {item.first} vs {item.second}",
                item.figures,
                name,
                (item.first, item.second),
            )
            for name, items in table.reviewers.items()
            for item in items
        ]
        self.query_one("#agreement-reviewers", FigureTable).replace_items(reviewers)
        self.query_one("#agreement-reviewers").display = bool(reviewers)
        self.query_one("#reviewers-title").display = bool(reviewers)
        criteria.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("disagreements", "labelled", "review"):
            return self.agreement is not None
        return True

    @on(FigureTable.Highlighted)
    def _highlighted(self, event: FigureTable.Highlighted) -> None:
        row: FigureRow | None = event.item
        detail = self.query_one("#agreement-detail", Static)
        detail.update(confusion_text(row) if row is not None else "")

    @on(FigureTable.Selected, "#agreement-criteria")
    def _selected(self) -> None:
        self.action_disagreements()

    def action_disagreements(self) -> None:
        """Review the highlighted criterion's disagreements, both verdicts shown."""
        row: FigureRow | None = self.query_one("#agreement-criteria", FigureTable).current
        if row is None or self.agreement is None:
            return
        if not self.agreement.table.disagreements(row.criterion):
            self.notify(f"Judge and humans agree on every labelled {row.criterion} verdict.")
            return
        chosen = (
            QueueFilter(disagreements_only=True)
            if row.criterion == CASE
            else QueueFilter(criterion=row.criterion, disagreements_only=True)
        )
        self.app.push_screen(ReviewScreen(self.path, self.document, chosen=chosen, reveal_all=True))

    def action_review(self) -> None:
        """Label this report's verdicts (blind, as from the report)."""
        self.app.push_screen(ReviewScreen(self.path, self.document))

    def action_labelled(self) -> None:
        """The report's cases with the human labels in place of the verdicts."""
        if self.agreement is None:
            return
        title = self.agreement.source.verdicts.title
        self.app.push_screen(
            LabelledReportScreen(self.path, title, self.agreement.outcome, self.document)
        )

    async def action_back(self) -> None:
        """Close this view."""
        await go_back_one_step(self)


__all__ = ["AgreementScreen"]
