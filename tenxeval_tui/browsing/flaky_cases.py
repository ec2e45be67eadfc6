"""The flaky cases of an eval set, over the stored runs of it in the output folder.

UI-free. :func:`flaky_cases` ranks the cases of a history of runs (light
:class:`~tenxeval_tui.browsing.run_summaries.RunSummary` objects, oldest first) with
the core's :func:`~tenxeval_tui.evaluation.analysis.flakiness.case_histories`: flips between
runs, flip rate, trend and pass rate over every run and repeat; to which it adds the
flips *within* runs (between a case's consecutive repeats, from each report's
``repeat_stats``), so that the repeats of a single run already show which cases are
unstable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.browsing.run_summaries import RunSummary
from tenxeval_tui.evaluation.analysis.compare import numbered_keys
from tenxeval_tui.evaluation.analysis.flakiness import CaseHistory, case_histories

HISTORY_SIZES = (10, 20, 50, None)
"""How many of the last runs the view looks at, as ``l`` cycles them (``None``: all)."""


@dataclass(frozen=True, slots=True)
class FlakyCase:
    """One case over a history: the core's :class:`CaseHistory` and its flips within runs."""

    history: CaseHistory
    repeat_flips: int = 0
    """Outcome changes between consecutive repeats, summed over the runs."""
    latest: Path | None = None
    """The newest report the case is in."""

    @property
    def key(self) -> tuple[str, str, int]:
        """``(eval set id, eval_id, occurrence)``: the case across reports."""
        h = self.history
        return (h.eval_set_id, h.eval_id, h.occurrence)

    @property
    def label(self) -> str:
        """The case's name, or its id."""
        return self.history.name or self.history.eval_id

    @property
    def unstable(self) -> bool:
        """Whether it has flipped between runs or between repeats (or passed only sometimes)."""
        return self.history.flips > 0 or self.repeat_flips > 0 or self.history.is_flaky

    @property
    def all_flips(self) -> int:
        """Flips between runs plus flips between repeats."""
        return self.history.flips + self.repeat_flips


def _instability(case: FlakyCase) -> Any:
    h = case.history
    return (-h.flip_rate, -case.repeat_flips, abs(h.pass_rate - 0.5), h.eval_id)


FLAKY_SORT_KEYS: dict[str, Callable[[FlakyCase], Any]] = {
    "instability": _instability,
    "flips": lambda c: (-c.all_flips, c.history.eval_id),
    "pass rate": lambda c: (c.history.pass_rate, c.history.eval_id),
    "trend": lambda c: (c.history.trend, c.history.eval_id),
    "case": lambda c: (c.label.casefold(), c.history.eval_id),
}
"""How the view sorts, by the names it shows (``instability`` first: the core's order)."""


def flaky_cases(runs: Sequence[RunSummary]) -> list[FlakyCase]:
    """Every case of ``runs`` (oldest first), most unstable first."""
    histories = case_histories([run.outcome for run in runs])
    repeat_flips: dict[tuple[str, str, int], int] = {}
    latest: dict[tuple[str, str, int], Path] = {}
    for run in runs:
        keys = numbered_keys(c.key for c in run.outcome.cases)
        for key, flips in zip(keys, run.flips, strict=True):
            repeat_flips[key] = repeat_flips.get(key, 0) + flips
            latest[key] = run.path
    cases = []
    for history in histories:
        key = (history.eval_set_id, history.eval_id, history.occurrence)
        cases.append(FlakyCase(history, repeat_flips.get(key, 0), latest.get(key)))
    return sorted(cases, key=_instability)


def sort_cases(
    cases: Sequence[FlakyCase], key: str = "instability", *, reverse: bool = False
) -> list[FlakyCase]:
    """``cases`` sorted by one of :data:`FLAKY_SORT_KEYS`."""
    try:
        sort_key = FLAKY_SORT_KEYS[key]
    except KeyError:
        raise ValueError(
            f"unknown sort key {key!r}; use one of {', '.join(FLAKY_SORT_KEYS)}"
        ) from None
    return sorted(cases, key=sort_key, reverse=reverse)


__all__ = [
    "FLAKY_SORT_KEYS",
    "HISTORY_SIZES",
    "FlakyCase",
    "flaky_cases",
    "sort_cases",
]
