"""Review mode: one verdict of a report at a time, labelled pass or fail by keyboard.

Opened from the report list or a report (``R``). Blind by default: the judge's verdict and
reason stay hidden until the reviewer has labelled the case (``V`` shows them at once;
``[review] show_verdicts`` / ``$TENXEVAL_REVIEW_SHOW_VERDICTS`` turns blind review off).
Each label is appended to the eval set's ``NAME.labels.jsonl`` and fsynced as it is given
(:class:`~tenxeval_tui.browsing.review_session.ReviewSession`), so a killed app loses
none; the screen opens at the first item the reviewer has not labelled.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tenxeval_tui.browsing.labels import Label, Verdict
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.review_queue import QueueFilter, ReviewItem
from tenxeval_tui.browsing.review_session import ReviewSession
from tenxeval_tui.browsing.review_source import (
    ReviewSource,
    ReviewSourceError,
    open_review_source,
    read_source_labels,
)
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import go_back_one_step
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.review_dialogs import NoteDialog, QueueDialog
from tenxeval_tui.settings.layers import SettingsError
from tenxeval_tui.settings.review import ReviewSettings, review_settings
from tenxeval_tui.widgets.reports.review_case import ReviewCaseView
from tenxeval_tui.widgets.reports.review_status import progress_text, status_text

REVIEW_KEY = Binding(
    "R", "review", "Review", tooltip="Label this report's verdicts by hand (review mode)"
)
AGREEMENT_KEY = Binding(
    "g",
    "agreement",
    "Judge agreement",
    show=False,
    tooltip="How far the judges agree with the human labels (kappa, TPR, TNR)",
)
"""The keys of the report list and a report that open review mode and the agreement view
(``R``, not ``v``: ``v`` views a run's report, one key one meaning)."""
QUEUE_ACTIONS = {
    "label",
    "skip",
    "previous",
    "next_unlabelled",
    "note",
    "reveal",
    "toggle_per_criterion",
}


class ReviewScreen(Screen[None]):
    """A report's verdicts, one at a time: ``p`` pass, ``f`` fail, ``space`` skip.

    Skip, show the verdict and auto-advance are not ``s``, ``v`` and ``a``: those run a
    case again, view a run's report and accept actual wherever they are bound."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "review mode"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "label('pass')", "Pass"),
        Binding("f", "label('fail')", "Fail"),
        Binding("space", "skip", "Skip", tooltip="The next item, without a label"),
        Binding("backspace", "previous", "Back", key_display="⌫", tooltip="The item before"),
        Binding(
            "u",
            "next_unlabelled",
            "Next unlabelled",
            show=False,  # the footer is full at 80 columns
            tooltip="The next item you have not labelled",
        ),
        Binding("n", "note", "Note", tooltip="A note kept with your label"),
        Binding("V", "reveal", "Verdict", tooltip="Show the judge's verdict and reason now"),
        Binding("slash", "narrow", "Narrow", tooltip="Failed only, one criterion, a sample…"),
        Binding(
            "c",
            "toggle_per_criterion",
            "Per case/criterion",
            show=False,
            tooltip="Label each criterion of a case, or the case as a whole",
        ),
        Binding(
            "ctrl+a",
            "toggle_auto_advance",
            "Auto-advance",
            show=False,
            tooltip="Move to the next item once a label is given (on/off)",
        ),
        Binding("escape", "back", "Leave review", show=False),
    ]

    def __init__(
        self,
        path: str | Path,
        document: ReportDocument | None = None,
        *,
        chosen: QueueFilter | None = None,
        reveal_all: bool = False,
        start_at: str | None = None,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.document = document
        self.chosen = chosen or QueueFilter()
        self.reveal_all = reveal_all
        """Show every verdict at once (the disagreements of the agreement view)."""
        self.start_at = start_at
        """Open at this case (its first item) rather than at the first one unlabelled."""
        self.session: ReviewSession | None = None
        self.source: ReviewSource | None = None
        self.settings: ReviewSettings | None = None
        self.auto_advance = True
        self.pending_note: str | None = None
        """A note typed before the label it goes with."""
        self.revealed: set[tuple[str, str | None, str]] = set()
        self.last: tuple[ReviewItem, Label] | None = None
        """The label given last, and the item it labelled (shown once the screen moved on)."""
        self._shown_case: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(inert(f"Reading {self.path.name}…"), "dim"), id="review-progress")
        yield Static(id="review-status")
        yield ReviewCaseView(id="review-case")
        yield Footer()

    @property
    def view(self) -> ReviewCaseView:
        """The case under review."""
        return self.query_one(ReviewCaseView)

    def on_mount(self) -> None:
        host = host_of(self.app)
        try:
            self.settings = review_settings(
                os.environ, host.preferences.settings, host.preferences.path
            )
        except SettingsError as exc:
            self._show_error(str(exc))
            return
        self._load(host.workspace.run_files(), self.settings.reviewer)

    @work(thread=True, exclusive=True, group="review-load")
    def _load(self, files: list[Path], reviewer: str) -> None:
        try:
            source = open_review_source(self.path, files, self.document)
            found = read_source_labels(source)
            session = ReviewSession(source.verdicts, found, reviewer, self.chosen)
        except ReviewSourceError as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._ready, source, session)

    def _show_error(self, message: str) -> None:
        self.query_one("#review-progress", Static).update(
            Text.assemble(
                ("Cannot review this report\n", "bold red"),
                (inert(message, multiline=True), "red"),
            )
        )
        self.refresh_bindings()

    def _ready(self, source: ReviewSource, session: ReviewSession) -> None:
        self.source, self.session = source, session
        if self.start_at is not None:
            session.go_to(self.start_at)
        if session.problems:
            shown = "\n".join(str(p) for p in session.problems[:5])
            self.notify(
                f"{len(session.problems)} malformed label line(s) skipped:\n{shown}",
                severity="warning",
                markup=False,
            )
        self.show_item()
        self.view.focus()
        self.refresh_bindings()

    # --- what is on screen --------------------------------------------------------------

    def is_revealed(self, item: ReviewItem) -> bool:
        """Whether the judge's verdict on ``item`` shows."""
        assert self.session is not None and self.settings is not None
        return (
            self.reveal_all
            or self.settings.show_verdicts
            or item.key in self.revealed
            or self.session.is_labelled(item)
        )

    def show_item(self) -> None:
        """Draw the progress, the labels and the case of the item the session is on."""
        session = self.session
        if session is None:
            return
        self._show_progress()
        item = session.current
        status = self.query_one("#review-status", Static)
        if item is None:
            self.view.display = False
            status.update(
                Text(
                    "Nothing to review: no verdict matches "
                    f"({session.chosen.describe()}). / narrows the queue differently.",
                    "yellow",
                )
            )
            return
        if self._shown_case != item.case.index:
            assert self.source is not None
            try:
                result = self.source.document.case(item.case.index)
            except EvalFileError as exc:
                status.update(Text(inert(f"Cannot show this case: {exc.first}"), "red"))
                self.view.display = False
                return
            self.view.show_case(result, self.source.eval_cases.get(item.case.eval_id))
            self._shown_case = item.case.index
        self.view.display = True
        self.view.show_judge(item, self.is_revealed(item))
        status.update(status_text(session, item, self.pending_note, self.last))

    def _show_progress(self) -> None:
        assert self.session is not None and self.settings is not None
        blind = not (self.settings.show_verdicts or self.reveal_all)
        self.query_one("#review-progress", Static).update(
            progress_text(self.session, blind=blind, auto_advance=self.auto_advance)
        )

    # --- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in QUEUE_ACTIONS or action == "narrow":
            if self.session is None:
                return False
            if action == "narrow" or action == "toggle_per_criterion":
                return True
            return self.session.current is not None
        return True

    def action_label(self, verdict: Verdict) -> None:
        """Label the item shown; then, with auto-advance on, the next item."""
        session = self.session
        if session is None or session.current is None:
            return
        item = session.current
        try:
            label = session.give(verdict, self.pending_note)
        except OSError as exc:
            self.notify(
                f"The label was not saved: {session.labels_path}: {exc.strerror or exc}",
                severity="error",
                markup=False,
            )
            return
        self.pending_note = None
        self.last = (item, label)
        if self.auto_advance:
            self._advance()
        self.show_item()

    def _advance(self) -> None:
        session = self.session
        assert session is not None
        if session.step(1):
            return
        left = session.next_unlabelled()
        if left is None:
            self.notify(f"Every item of the queue is labelled ({session.progress()}).")
        else:
            session.position = left

    def action_skip(self) -> None:
        """The next item, leaving this one as it is."""
        if self.session is not None and not self.session.step(1):
            self.notify("This is the last item of the queue.")
        self.show_item()

    def action_previous(self) -> None:
        """The item before."""
        if self.session is not None and not self.session.step(-1):
            self.notify("This is the first item of the queue.")
        self.show_item()

    def action_next_unlabelled(self) -> None:
        """The next item this reviewer has not labelled (wrapping around)."""
        session = self.session
        if session is None:
            return
        found = session.next_unlabelled()
        if found is None:
            self.notify(f"Every item of the queue is labelled ({session.progress()}).")
            return
        session.position = found
        self.show_item()

    def action_reveal(self) -> None:
        """Show the judge's verdict and reason on the item shown."""
        if self.session is not None and self.session.current is not None:
            self.revealed.add(self.session.current.key)
            self.show_item()

    def action_note(self) -> None:
        """Ask for a note: kept with the next label, or added to the label already given."""
        session = self.session
        if session is None or session.current is None:
            return
        item = session.current
        mine = session.mine(item)
        initial = self.pending_note or (mine.note if mine is not None else None) or ""

        def noted(note: str | None) -> None:
            if note is None or session.current is not item:
                return
            if mine is None:
                self.pending_note = note or None
            else:
                try:
                    session.give(mine.label, note)  # the same label again, now with the note
                except OSError as exc:
                    self.notify(f"The note was not saved: {exc}", severity="error", markup=False)
            self.show_item()

        self.app.push_screen(NoteDialog(initial), noted)

    def action_narrow(self) -> None:
        """Choose which verdicts the review goes through."""
        session = self.session
        if session is None:
            return

        def chosen(new: QueueFilter | None) -> None:
            if new is not None:
                self._narrow(new)

        self.app.push_screen(QueueDialog(session.chosen, session.report.criteria), chosen)

    def _narrow(self, chosen: QueueFilter) -> None:
        assert self.session is not None
        self.session.narrow(chosen)
        self.chosen = chosen
        self.refresh_bindings()
        self.show_item()

    def action_toggle_per_criterion(self) -> None:
        """Label criteria one by one, or whole cases."""
        if self.session is not None:
            now = self.session.chosen
            self._narrow(
                dataclasses.replace(now, per_criterion=not now.by_criterion, criterion=None)
            )

    def action_toggle_auto_advance(self) -> None:
        """Turn moving on after each label on or off."""
        self.auto_advance = not self.auto_advance
        if self.session is not None:
            self._show_progress()

    async def action_back(self) -> None:
        """Leave review mode (every label is saved already)."""
        await go_back_one_step(self)


__all__ = ["AGREEMENT_KEY", "REVIEW_KEY", "ReviewScreen"]
