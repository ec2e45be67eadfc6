"""Which verdicts of a report a reviewer goes through, and in what order.

A review item is one case (its whole pass/fail) or, per criterion, one criterion of one
case. The queue holds a report's items in report order, narrowed by a
:class:`QueueFilter`: failed verdicts only, one criterion, disagreements with a label
already given, never labelled, and a seeded random sample of N. Errored cases and
criteria are never in it (they gave no verdict to check). No UI.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tenxeval_tui.browsing.labels import CASE, LabelIndex
from tenxeval_tui.browsing.verdicts import CaseVerdicts, ReportVerdicts


@dataclass(frozen=True, slots=True)
class QueueFilter:
    """How the review queue is narrowed (all off: every case, one item each)."""

    per_criterion: bool = False
    """One item per criterion of each case, instead of one per case."""
    criterion: str | None = None
    """Only this criterion (its items are per criterion whatever :attr:`per_criterion`)."""
    failed_only: bool = False
    """Only verdicts that failed."""
    disagreements_only: bool = False
    """Only verdicts some reviewer's label disagrees with."""
    unlabelled_only: bool = False
    """Only verdicts nobody labelled (on this reply)."""
    sample: int | None = None
    """A random sample of this many of what the rest leaves (seeded by :attr:`seed`)."""
    seed: int = 0

    @property
    def by_criterion(self) -> bool:
        """Whether the items are criteria rather than whole cases."""
        return self.per_criterion or self.criterion is not None

    def describe(self) -> str:
        """``per criterion · failed only · sample of 20 (seed 0)``."""
        if self.criterion is not None:
            scope = f"only {self.criterion}"
        else:
            scope = "per criterion" if self.per_criterion else "per case"
        parts = [
            scope,
            "failed only" if self.failed_only else "",
            "disagreements only" if self.disagreements_only else "",
            "never labelled" if self.unlabelled_only else "",
            f"sample of {self.sample} (seed {self.seed})" if self.sample is not None else "",
        ]
        return " · ".join(part for part in parts if part)


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One verdict to label: a whole case (``criterion`` ``None``) or one criterion."""

    case: CaseVerdicts
    criterion: str | None

    @property
    def judge(self) -> bool | None:
        """The verdict under review."""
        return self.case.verdict(self.criterion)

    @property
    def name(self) -> str:
        """The criterion, or ``case``."""
        return self.criterion if self.criterion is not None else CASE

    @property
    def key(self) -> tuple[str, str | None, str]:
        """``(eval_id, criterion, reply_sha256)``: how labels find it."""
        return (self.case.eval_id, self.criterion, self.case.reply_sha256)


def _items_of(case: CaseVerdicts, chosen: QueueFilter) -> list[ReviewItem]:
    if case.status == "error":
        return []
    if not chosen.by_criterion:
        return [ReviewItem(case, None)]
    return [
        ReviewItem(case, criterion.name)
        for criterion in case.criteria
        if criterion.passed is not None and chosen.criterion in (None, criterion.name)
    ]


def _kept(item: ReviewItem, labels: LabelIndex, chosen: QueueFilter) -> bool:
    if chosen.failed_only and item.judge is not False:
        return False
    given = labels.on_reply(*item.key)
    if chosen.unlabelled_only and given:
        return False
    return not chosen.disagreements_only or any(
        label.passed != item.judge for label in given.values()
    )


def review_items(
    report: ReportVerdicts, labels: LabelIndex, chosen: QueueFilter
) -> list[ReviewItem]:
    """The items of ``report`` that ``chosen`` keeps, in report order."""
    items = [
        item
        for case in report.cases
        for item in _items_of(case, chosen)
        if _kept(item, labels, chosen)
    ]
    if chosen.sample is not None and chosen.sample < len(items):
        picked = random.Random(chosen.seed).sample(range(len(items)), max(chosen.sample, 0))
        items = [items[i] for i in sorted(picked)]
    return items


__all__ = ["QueueFilter", "ReviewItem", "review_items"]
