"""What the history of an eval set is made of: its runs, and its cases over the runs.

Plain values read from the history index (:mod:`.queries`), shown by the ``history``
command and the workbench's history view alike.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.evaluation.selection_marks import SelectionMark
from tenxeval_tui.evaluation.stats import wilson_interval

ABSENT = "-"
"""A case's mark in a run that did not have it (the other marks: ``P``, ``F``, ``E``)."""


@dataclass(frozen=True, slots=True)
class RunPoint:
    """One run of an eval set: its report, its figures and where it came from."""

    report_id: int
    path: Path
    timestamp: float
    total: int
    passed: int
    failed: int
    errored: int
    cost: float | None = None
    wall: float | None = None
    duration: float = 0.0
    partial: bool = False
    git_commit: str | None = None
    git_dirty: bool | None = None
    git_branch: str | None = None
    agent_sha256: str | None = None
    eval_set_sha256: str | None = None
    criteria: dict[str, tuple[float, float]] = field(default_factory=dict)
    """``criterion -> (avg score, pass rate)``."""
    selection: SelectionMark | None = None
    """How the run chose some of the set's cases only (``None``: it ran every case)."""

    @property
    def series(self) -> bool:
        """Whether the run is a point of the eval set's series (pass rate, cost, time,
        criteria; the chart and ``trend``): a run of every case, not a selection's."""
        return self.selection is None

    @property
    def selection_text(self) -> str:
        """``selection: rerun failed, 3 of 24 cases`` ("" for a run of every case)."""
        return f"selection: {self.selection.text}" if self.selection is not None else ""

    @property
    def pass_rate(self) -> float:
        """Cases passed of cases run (0 for an empty run)."""
        return self.passed / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the pass rate (the cases as the trials)."""
        return wilson_interval(self.passed, self.total)

    @property
    def commit(self) -> str:
        """The short commit (``+`` when the tree was dirty), ``-`` when unknown."""
        if not self.git_commit:
            return ABSENT
        return self.git_commit[:8] + ("+" if self.git_dirty else "")

    @property
    def when(self) -> str:
        """The run's local time, ``YYYY-mm-dd HH:MM``."""
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.timestamp))

    @property
    def rate_text(self) -> str:
        """``7/9 77.8%``."""
        return f"{self.passed}/{self.total} {self.pass_rate:.1%}"

    @property
    def interval_text(self) -> str:
        """``[45.3-93.7%]``: the 95% interval of the pass rate."""
        low, high = self.interval
        return f"[{low * 100:.1f}-{high * 100:.1f}%]"

    @property
    def cost_text(self) -> str:
        """``$0.0123``, or ``-`` without a price table."""
        return ABSENT if self.cost is None else f"${self.cost:.4f}"

    @property
    def wall_text(self) -> str:
        """``12.3s`` of wall time (the sum of the cases' durations when the report has
        none: a run rebuilt from a journal)."""
        return f"{self.wall:.1f}s" if self.wall is not None else f"({self.duration:.1f}s)"

    def to_json(self) -> dict[str, object]:
        """The run as ``history --json`` and ``trend --json`` print it."""
        low, high = self.interval
        return {
            "file": str(self.path),
            "timestamp": self.timestamp,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(self.timestamp)),
            "git_commit": self.git_commit,
            "git_dirty": self.git_dirty,
            "git_branch": self.git_branch,
            "total": self.total,
            "passed": self.passed,
            "failed": self.failed,
            "errored": self.errored,
            "pass_rate": self.pass_rate,
            "interval": [low, high],
            "cost_usd": self.cost,
            "wall_seconds": self.wall,
            "duration_seconds": self.duration,
            "partial": self.partial,
            "selection": self.selection.to_json() if self.selection is not None else None,
            "criteria": {
                name: {"avg_score": avg, "pass_rate": rate}
                for name, (avg, rate) in self.criteria.items()
            },
        }


@dataclass(frozen=True, slots=True)
class CaseStrip:
    """One case over the runs shown: its mark in each, and the run where it last changed."""

    case_set: str
    eval_id: str
    name: str
    marks: str
    """One letter per run shown, oldest first: ``P``, ``F``, ``E`` or ``-`` (not run)."""
    last_change: RunPoint | None = None
    """The latest run where the case went from passing to not passing or back (over all
    runs, not only those shown); ``None`` when it never did."""
    last_change_from: str | None = None
    """Its mark in its run before that change."""
    last_change_to: str | None = None
    """Its mark in the run of that change."""

    @property
    def label(self) -> str:
        """The case's name, or its id."""
        return self.name or self.eval_id

    @property
    def last_mark(self) -> str:
        """Its mark in the newest run that had it (``-`` when none shown had it)."""
        return next((m for m in reversed(self.marks) if m != ABSENT), ABSENT)

    @property
    def failing(self) -> bool:
        """Whether some run shown did not pass it."""
        return any(m in "FE" for m in self.marks)


@dataclass(frozen=True, slots=True)
class EvalSetHistory:
    """An eval set's runs (oldest first) and its cases over the last ``window`` of them."""

    eval_set_id: str
    title: str
    runs: list[RunPoint]
    window: int
    cases: list[CaseStrip]

    @property
    def shown(self) -> list[RunPoint]:
        """The runs the case strips cover (the last ``window``)."""
        return self.runs[-self.window :] if self.window else list(self.runs)

    @property
    def criteria(self) -> list[str]:
        """Every criterion some run scored, in first-seen order."""
        return list(dict.fromkeys(name for run in self.runs for name in run.criteria))

    def run_of(self, report_id: int) -> RunPoint | None:
        """The run with the report ``report_id``."""
        return next((r for r in self.runs if r.report_id == report_id), None)


@dataclass(frozen=True, slots=True)
class EvalSetEntry:
    """One eval set of the folder, as the history lists them."""

    eval_set_id: str
    title: str
    runs: int
    last: RunPoint


__all__ = ["ABSENT", "CaseStrip", "EvalSetEntry", "EvalSetHistory", "RunPoint"]
