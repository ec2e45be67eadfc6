"""How a run ended, for every front end: the report as written and the exit code (no UI
import).

``tenxeval-tui run`` exits with :attr:`RunOutcome.exit_code`: 0 when the pass rate meets the
threshold and no case errored, 1 otherwise, 130 when interrupted (2, usage errors, is the
CLI's own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import STOPPED_KEY, EvalReport

EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130


def is_incomplete(report: EvalReport) -> bool:
    """Whether ``report`` lacks cases of its run: partial (cancelled, killed, cases lost) or
    stopped early (by ``max_cost``)."""
    return report.is_partial or bool(report.metadata.get(STOPPED_KEY))


def exit_code(report: EvalReport, threshold: float, *, error_code: int | None = None) -> int:
    """0 when the pass rate meets ``threshold``, no case errored and the report is complete
    (not partial, not stopped by ``max_cost``), else 1; ``error_code`` instead when given
    and a case errored."""
    summary = report.summary
    if error_code is not None and summary.error_cases:
        return error_code
    ok = (
        summary.total_cases > 0
        and summary.pass_rate >= threshold
        and summary.error_cases == 0
        and not is_incomplete(report)
    )
    return EXIT_OK if ok else EXIT_FAILED


def incomplete_reason(
    report: EvalReport, *, interrupted: bool = False, died: bool = False
) -> str | None:
    """Why ``report`` is incomplete, in a few words (``None``: it is complete): what stopped
    it (``max_cost``), else how its run ended (``interrupted``, ``died``), else that its run
    did not finish."""
    if not is_incomplete(report):
        return None
    stopped = report.metadata.get(STOPPED_KEY)
    if stopped:
        return f"stopped by {stopped}"
    if interrupted:
        return "interrupted"
    if died:
        return "the worker process died"
    return "the run did not finish"


@dataclass
class Published:
    """A report as written: the report, every file written for it, and its verdict."""

    report: EvalReport
    files: list[str] = field(default_factory=list)
    retried: int = 0
    """How many of its cases ran more than once (``--retry-errors``, a worker's death)."""
    reused: int = 0
    """How many of its results were taken from earlier reports (``--reuse``)."""
    html: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    """``(reporter or -o file, message)`` of each report file that was not written."""
    threshold: float = 1.0
    exit_code: int = EXIT_OK
    """The report's own verdict (:func:`exit_code`), before how the run ended counts."""
    incomplete: str | None = None
    """Why the report lacks cases of its run (:func:`incomplete_reason`); ``None``: it is
    complete."""

    @property
    def passed(self) -> bool:
        """Whether the report is complete, meets the threshold and no case errored."""
        return self.exit_code == EXIT_OK


@dataclass
class RunOutcome:
    """What a run session did: its exit code, the report it wrote (``None``: none), the
    eval sets it selected and the reports of its finished cases (before they were put
    into one, for watch mode's re-scoring)."""

    exit_code: int
    published: Published | None = None
    selected: list[tuple[Path, EvalSet]] = field(default_factory=list)
    reports: list[EvalReport] = field(default_factory=list)
    journal: Path | None = None
    """The run's journal when it is kept (``SessionOptions.keep_journal``)."""


__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "Published",
    "RunOutcome",
    "exit_code",
    "incomplete_reason",
    "is_incomplete",
]
