"""One reviewer going through a report's review queue: where they are, what they gave.

The review screen draws a :class:`ReviewSession` and sends it the reviewer's keys. Each
label is appended to the eval set's labels file (and fsynced) the moment it is given, so
nothing is lost when the app is killed; opening the same report again resumes at the
first item this reviewer has not labelled. No UI.
"""

from __future__ import annotations

from collections.abc import Mapping

from tenxeval_tui.browsing.labels import Label, LabelIndex, LabelsFile, Verdict, append_label
from tenxeval_tui.browsing.review_queue import QueueFilter, ReviewItem, review_items
from tenxeval_tui.browsing.verdicts import ReportVerdicts
from tenxeval_tui.evaluation.errors import Problem


class ReviewSession:
    """A report's review queue for one reviewer, with their place in it; ``found``: the
    labels already given (:func:`~tenxeval_tui.browsing.labels.read_labels`), where the new
    ones are appended."""

    def __init__(
        self,
        report: ReportVerdicts,
        found: LabelsFile,
        reviewer: str,
        chosen: QueueFilter | None = None,
    ) -> None:
        self.report = report
        self.labels_path = found.path
        self.reviewer = reviewer
        self.problems: list[Problem] = found.problems
        """The labels file's malformed lines (skipped)."""
        self.labels = LabelIndex(found.labels)
        self.chosen = chosen or QueueFilter()
        self.items: list[ReviewItem] = review_items(report, self.labels, self.chosen)
        self.position = self.first_unlabelled()

    # --- the queue ----------------------------------------------------------------------

    def narrow(self, chosen: QueueFilter) -> None:
        """Rebuild the queue with ``chosen``; stay on the item shown when it is still in the
        queue, else go to the first this reviewer has not labelled."""
        shown = self.current
        self.chosen = chosen
        self.items = review_items(self.report, self.labels, chosen)
        keys = [item.key for item in self.items]
        if shown is not None and shown.key in keys:
            self.position = keys.index(shown.key)
        else:
            self.position = self.first_unlabelled()

    @property
    def current(self) -> ReviewItem | None:
        """The item shown (``None`` when the queue is empty)."""
        return self.items[self.position] if self.items else None

    def go_to(self, eval_id: str) -> bool:
        """Move to case ``eval_id``'s first item; whether it is in the queue."""
        for index, item in enumerate(self.items):
            if item.case.eval_id == eval_id:
                self.position = index
                return True
        return False

    def step(self, delta: int) -> bool:
        """Move ``delta`` items (no wrapping); whether it moved."""
        target = self.position + delta
        if not self.items or not 0 <= target < len(self.items):
            return False
        self.position = target
        return True

    def first_unlabelled(self) -> int:
        """Where the first item this reviewer has not labelled is (0 when all are)."""
        found = self.next_unlabelled(-1, wrap=False)
        return found if found is not None else 0

    def next_unlabelled(self, after: int | None = None, *, wrap: bool = True) -> int | None:
        """The next item after ``after`` (default: the one shown) this reviewer has not
        labelled, wrapping around to the start; ``None`` when every item is labelled."""
        start = self.position if after is None else after
        count = len(self.items)
        order = range(start + 1, start + 1 + count) if wrap else range(start + 1, count)
        for index in order:
            if not self.is_labelled(self.items[index % count]):
                return index % count
        return None

    # --- labels -------------------------------------------------------------------------

    def mine(self, item: ReviewItem) -> Label | None:
        """This reviewer's label of ``item`` (on its reply) that counts."""
        return self.labels.of(*item.key, self.reviewer)

    def is_labelled(self, item: ReviewItem) -> bool:
        """Whether this reviewer has labelled ``item``'s reply."""
        return self.mine(item) is not None

    def given(self, item: ReviewItem) -> Mapping[str, Label]:
        """Every reviewer's label of ``item``'s reply."""
        return self.labels.on_reply(*item.key)

    def history(self, item: ReviewItem) -> list[Label]:
        """Labels of the same case and criterion on other replies (earlier runs)."""
        return self.labels.history(*item.key)

    @property
    def reviewed(self) -> int:
        """How many items of the queue this reviewer has labelled."""
        return sum(1 for item in self.items if self.is_labelled(item))

    def progress(self) -> str:
        """``37 of 120 reviewed``."""
        return f"{self.reviewed} of {len(self.items)} reviewed"

    def give(self, verdict: Verdict, note: str | None = None) -> Label:
        """Label the item shown ``verdict`` (with ``note``): appended to the file and
        fsynced before this returns. ``OSError`` when the file cannot be written (the label
        is then not counted either)."""
        item = self.current
        if item is None:
            raise ValueError("the review queue is empty")
        label = Label(
            eval_id=item.case.eval_id,
            criterion=item.criterion,
            label=verdict,
            reviewer=self.reviewer,
            report=self.report.path.name,
            reply_sha256=item.case.reply_sha256,
            note=note or None,
        )
        append_label(self.labels_path, label)
        self.labels.add(label)
        return label


__all__ = ["ReviewSession"]
