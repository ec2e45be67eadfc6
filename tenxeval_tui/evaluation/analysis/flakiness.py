"""How unstable cases are: where two runs of a case part ways, and cases over a history.

- :func:`first_divergence` compares two runs of one case (two repeats, or the same
  case in two reports): the first trajectory step where they differ (a node or a
  tool, by name and, for tools, arguments) and whether their replies differ.
- :func:`sample_disagreement` says how often a judged criterion's samples
  (``num_samples`` > 1) disagreed, from the ``votes`` its details record.
- :func:`case_histories` takes the outcomes of several runs of an eval set
  (:class:`~tenxeval_tui.evaluation.analysis.compare.RunOutcome`, oldest first: from full
  reports or from a report index's light rows) and gives each case's outcome in each
  run (passed or not, by the run's pass rule), flips and flip rate between runs,
  trend (share passed of the later half of the runs minus the earlier half), and
  pass rate over every recorded run (a run's repeats each count), most unstable first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tenxeval_tui.evaluation.analysis.compare import RunOutcome, numbered_keys
from tenxeval_tui.evaluation.dataset.eval_set import StepType, TrajectoryStep
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.stats import flip_count


@dataclass(frozen=True)
class Divergence:
    """Where two runs of a case differ (``step`` is ``None`` when their trajectories agree)."""

    step: int | None
    """Index of the first differing trajectory step (one run may have ended there)."""
    left: TrajectoryStep | None = None
    right: TrajectoryStep | None = None
    replies_differ: bool = False

    @property
    def diverged(self) -> bool:
        """Whether the runs differ at all."""
        return self.step is not None or self.replies_differ


def _same_step(a: TrajectoryStep, b: TrajectoryStep) -> bool:
    if a.step_type != b.step_type or a.name != b.name:
        return False
    return a.step_type != StepType.TOOL or a.args == b.args


def first_divergence(left: EvalCaseResult, right: EvalCaseResult) -> Divergence:
    """The first trajectory step where ``left`` and ``right`` differ, and their replies."""
    a, b = left.actual_trajectory, right.actual_trajectory
    step = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if not _same_step(x, y)), None
    )
    if step is None and len(a) != len(b):
        step = min(len(a), len(b))
    return Divergence(
        step=step,
        left=a[step] if step is not None and step < len(a) else None,
        right=b[step] if step is not None and step < len(b) else None,
        replies_differ=left.actual_response != right.actual_response,
    )


def sample_disagreement(result: CriterionResult) -> float | None:
    """Share of the judged items on which a criterion's samples did not all agree.

    Read from ``details["votes"]`` (``{"item": "yes/samples"}``, what judged criteria
    record); ``None`` when there are no votes or a single sample (nothing to disagree).
    """
    votes = result.details.get("votes")
    if not isinstance(votes, dict) or not votes:
        return None
    split = 0
    for value in votes.values():
        try:
            yes, total = (int(part) for part in str(value).split("/"))
        except ValueError:
            return None
        if total < 2:
            return None
        split += 0 < yes < total
    return split / len(votes)


@dataclass
class CaseHistory:
    """One case over a history of runs."""

    eval_set_id: str
    eval_id: str
    name: str = ""
    occurrence: int = 0
    outcomes: list[bool] = field(default_factory=list)
    """Whether the case passed in each run it was in, oldest first."""
    passes: int = 0
    """Runs of the case that passed, repeats counted one by one (of :attr:`total`)."""
    total: int = 0

    @property
    def runs(self) -> int:
        """How many runs (reports) the case was in."""
        return len(self.outcomes)

    @property
    def pass_rate(self) -> float:
        """Share of every recorded run of the case (repeats included) that passed."""
        return self.passes / self.total if self.total else 0.0

    @property
    def flips(self) -> int:
        """Outcome changes between consecutive runs."""
        return flip_count(self.outcomes)

    @property
    def flip_rate(self) -> float:
        """Flips per chance to flip (0 when it never changed, 1 when it always did)."""
        return self.flips / (len(self.outcomes) - 1) if len(self.outcomes) > 1 else 0.0

    @property
    def trend(self) -> float:
        """Pass rate of the later half of the outcomes minus the earlier half's."""
        half = len(self.outcomes) // 2
        if half == 0:
            return 0.0
        early, late = self.outcomes[:half], self.outcomes[-half:]
        return sum(late) / half - sum(early) / half

    @property
    def is_flaky(self) -> bool:
        """Whether it has both passed and not passed (a repeat counts)."""
        return 0 < self.passes < self.total


def case_histories(runs: Sequence[RunOutcome], last: int | None = None) -> list[CaseHistory]:
    """Each case's history over ``runs`` (oldest first; only the ``last`` ones when given),
    most unstable first: by flip rate, then by how close its pass rate is to one half."""
    chosen = list(runs[-last:] if last else runs)
    histories: dict[tuple[str, str, int], CaseHistory] = {}
    for run in chosen:
        for key, case in zip(numbered_keys(c.key for c in run.cases), run.cases, strict=True):
            history = histories.get(key)
            if history is None:
                history = histories[key] = CaseHistory(key[0], key[1], case.name, key[2])
            passes, total = case.counts
            history.outcomes.append(case.passed)
            history.passes += passes
            history.total += total
    return sorted(
        histories.values(),
        key=lambda h: (-h.flip_rate, abs(h.pass_rate - 0.5), h.eval_set_id, h.eval_id),
    )


__all__ = [
    "CaseHistory",
    "Divergence",
    "case_histories",
    "first_divergence",
    "sample_disagreement",
]
