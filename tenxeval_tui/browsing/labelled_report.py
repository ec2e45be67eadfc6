"""A report's cases with human labels in place of the verdicts where there are labels.

Per case, the status as judged and as labelled:

- a whole-case label (``"criterion": null``) of the case's reply decides the case;
- else, when some criterion of the case is labelled, the case passes when every criterion
  passes, each labelled one by its label and the others by their verdict (an errored
  criterion fails, as it failed the case);
- else the case keeps its verdict. An errored case stays an error.

Where reviewers disagree on a reply, the newest label counts. The pass rates as judged
and as labelled share one denominator (every case), so their difference is what the
labels change. No UI.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tenxeval_tui.browsing.labels import LabelIndex
from tenxeval_tui.browsing.verdicts import CaseVerdicts


@dataclass(frozen=True, slots=True)
class LabelledCase:
    """One case as judged and as labelled."""

    case: CaseVerdicts
    labelled_status: str
    """``passed``, ``failed`` or ``error``, with the labels in place of verdicts."""
    by_human: bool
    """Whether a human label decided :attr:`labelled_status`."""

    @property
    def judged_status(self) -> str:
        """The report's own status."""
        return self.case.status

    @property
    def changed(self) -> bool:
        """Whether the labels change the case's status."""
        return self.labelled_status != self.judged_status


@dataclass(frozen=True, slots=True)
class LabelledOutcome:
    """Every case as labelled, and the pass rates either way."""

    cases: tuple[LabelledCase, ...]

    @property
    def judged_rate(self) -> float:
        """The share of cases that passed as judged."""
        return self._rate(c.judged_status for c in self.cases)

    @property
    def labelled_rate(self) -> float:
        """The share of cases that pass as labelled."""
        return self._rate(c.labelled_status for c in self.cases)

    @property
    def difference(self) -> float:
        """``labelled_rate - judged_rate``."""
        return self.labelled_rate - self.judged_rate

    @property
    def by_human(self) -> int:
        """How many cases a human label decided."""
        return sum(1 for c in self.cases if c.by_human)

    @property
    def changed(self) -> int:
        """How many cases the labels moved."""
        return sum(1 for c in self.cases if c.changed)

    def _rate(self, statuses: Iterable[str]) -> float:
        found = list(statuses)
        return sum(1 for s in found if s == "passed") / len(found) if found else 0.0


def labelled_case(case: CaseVerdicts, labels: LabelIndex) -> LabelledCase:
    """``case`` with the labels of its reply in place of its verdicts."""
    if case.status == "error":
        return LabelledCase(case, "error", False)
    whole = labels.newest(case.eval_id, None, case.reply_sha256)
    if whole is not None:
        return LabelledCase(case, "passed" if whole.passed else "failed", True)
    verdicts: list[bool] = []
    by_human = False
    for criterion in case.criteria:
        label = labels.newest(case.eval_id, criterion.name, case.reply_sha256)
        by_human = by_human or label is not None
        verdicts.append(label.passed if label is not None else criterion.passed is True)
    if not by_human:
        return LabelledCase(case, case.status, False)
    return LabelledCase(case, "passed" if all(verdicts) else "failed", True)


def labelled_outcome(cases: Iterable[CaseVerdicts], labels: LabelIndex) -> LabelledOutcome:
    """Every case of a report as labelled."""
    return LabelledOutcome(tuple(labelled_case(case, labels) for case in cases))


__all__ = ["LabelledCase", "LabelledOutcome", "labelled_case", "labelled_outcome"]
