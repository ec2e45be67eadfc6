"""The trend gate: has the pass rate of an eval set's last runs fallen, beyond noise?

The test (:func:`change_point_test`), over the last ``window`` runs (each run's pass
rate one observation, oldest first):

- for every place ``k`` where the window can be cut in two, with at least
  :data:`MIN_BEFORE` runs before and :data:`MIN_AFTER` runs after (so one bad run never
  trips it alone), the drop is ``mean(before) - mean(after)``, weighed as a two-sample
  statistic: ``drop * sqrt(k * (n - k) / n)``;
- the largest of these over every ``k`` is the statistic, and ``k`` the run where the
  drop began;
- its p-value is found by permutation: the same statistic over ``permutations``
  shufflings of the window's runs (seeded, so one window always gives one answer):
  ``p = (1 + shufflings at least as large) / (1 + permutations)``.

The gate trips when ``p <= alpha`` (0.05 by default). Because the p-value is of the
largest drop over every cut, the search over cuts is paid for: when the runs of the
window are exchangeable (a flat series, however noisy, with any distribution of
run-to-run noise), a check trips with probability at most ``alpha``. A real fall of
the last runs makes the statistic large against every shuffling and trips it.

:func:`trend_of` runs the test on a folder's history and names the cases that flipped
(passed in the run before the drop began, did not pass in it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tenxeval_tui.browsing.history.defaults import (
    ALPHA,
    MIN_AFTER,
    MIN_BEFORE,
    PERMUTATIONS,
    WINDOW,
)
from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.browsing.history.queries import case_marks, runs_of
from tenxeval_tui.browsing.history.series import RunPoint

SEED = 35
TEST_NAME = "permutation test of the largest drop over every cut of the window"


@dataclass(frozen=True, slots=True)
class ChangePoint:
    """The most likely start of a drop in a series, and how unlikely it is by chance."""

    at: int
    """Index of the first run after the cut (the run where the drop began)."""
    statistic: float
    p_value: float
    before: float
    """Mean pass rate of the runs before the cut."""
    after: float
    """Mean pass rate of the runs from the cut on."""


def _largest_drop(rates: Sequence[float], min_before: int, min_after: int) -> tuple[float, int]:
    n = len(rates)
    total = sum(rates)
    best, at = -math.inf, min_before
    before = sum(rates[:min_before]) - rates[min_before - 1]
    for k in range(min_before, n - min_after + 1):
        before += rates[k - 1]
        drop = before / k - (total - before) / (n - k)
        statistic = drop * math.sqrt(k * (n - k) / n)
        if statistic > best:
            best, at = statistic, k
    return best, at


def change_point_test(
    rates: Sequence[float],
    *,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
    min_before: int = MIN_BEFORE,
    min_after: int = MIN_AFTER,
) -> ChangePoint | None:
    """The test of the module docs over ``rates`` (oldest first); ``None`` when there are
    fewer than ``min_before + min_after`` rates."""
    n = len(rates)
    if n < min_before + min_after:
        return None
    statistic, at = _largest_drop(rates, min_before, min_after)
    before = sum(rates[:at]) / at
    after = sum(rates[at:]) / (n - at)
    if statistic <= 0:
        return ChangePoint(at, statistic, 1.0, before, after)
    rng = random.Random(seed)
    shuffled = list(rates)
    as_large = 0
    for _ in range(permutations):
        rng.shuffle(shuffled)
        if _largest_drop(shuffled, min_before, min_after)[0] >= statistic - 1e-12:
            as_large += 1
    return ChangePoint(at, statistic, (1 + as_large) / (1 + permutations), before, after)


@dataclass(frozen=True, slots=True)
class FlippedCase:
    """A case that passed in the run before the drop began and did not pass in it."""

    case_set: str
    eval_id: str
    name: str
    mark: str
    """Its mark in the run where the drop began (``F`` or ``E``)."""


@dataclass(frozen=True, slots=True)
class Trend:
    """The trend gate's verdict over an eval set's last runs."""

    eval_set_id: str
    runs: list[RunPoint]
    """The window's runs, oldest first (partial runs and selections left out)."""
    alpha: float
    change: ChangePoint | None
    flipped: list[FlippedCase] = field(default_factory=list)

    @property
    def dropped(self) -> bool:
        """Whether the pass rate fell significantly (the gate trips: exit 1)."""
        return self.change is not None and self.change.p_value <= self.alpha

    @property
    def began(self) -> RunPoint | None:
        """The run where the drop began (whether or not it is significant)."""
        return self.runs[self.change.at] if self.change is not None else None

    @property
    def before(self) -> RunPoint | None:
        """The run just before the drop began."""
        return self.runs[self.change.at - 1] if self.change is not None else None


def trend_of(
    index: HistoryIndex,
    eval_set_id: str,
    *,
    window: int = WINDOW,
    alpha: float = ALPHA,
    permutations: int = PERMUTATIONS,
) -> Trend:
    """The trend gate over the last ``window`` complete runs of ``eval_set_id``: of every
    case (a run of a selection of them, ``metadata.selection``, is left out), finished."""
    runs = [r for r in runs_of(index, eval_set_id) if not r.partial and r.series and r.total]
    runs = runs[-window:]
    change = change_point_test([r.pass_rate for r in runs], permutations=permutations)
    flipped: list[FlippedCase] = []
    if change is not None:
        before, began = runs[change.at - 1], runs[change.at]
        marks = case_marks(index, [before.report_id, began.report_id])
        earlier = marks.get(before.report_id, {})
        for key, (mark, name) in marks.get(began.report_id, {}).items():
            if mark != "P" and earlier.get(key, ("-", ""))[0] == "P":
                flipped.append(FlippedCase(key[0], key[1], name, mark))
    return Trend(eval_set_id, runs, alpha, change, flipped)


__all__ = [
    "ALPHA",
    "MIN_AFTER",
    "MIN_BEFORE",
    "PERMUTATIONS",
    "TEST_NAME",
    "WINDOW",
    "ChangePoint",
    "FlippedCase",
    "Trend",
    "change_point_test",
    "trend_of",
]
