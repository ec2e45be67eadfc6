"""Writing a run's reports: the one place the worker, ``tenxeval-tui run`` and the run
view's recovery from a journal turn :class:`EvalReport` s into files.

The reporters themselves are the core's (:class:`ReporterManager`); this module adds
what a run needs around them: several reports at once, the console reporter kept quiet
in a process that must not print, partial marks, and the reports a journal kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, VARIANT_KEY, EvalReport


@dataclass
class WrittenReports:
    """The files the reporters wrote, and what each failing reporter said."""

    files: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    """``(reporter name, message)`` of each reporter that failed."""


def write_reports(
    reports: Sequence[EvalReport], reporter: ReporterConfig, *, console: bool = True
) -> WrittenReports:
    """Write ``reports`` with the configured reporters (nothing when they are disabled).

    ``console=False`` keeps the console reporter quiet (a UI process, or a CLI that
    prints its own summary).
    """
    from tenxeval_tui.evaluation.reporters import ReporterManager

    config = reporter if console else reporter.model_copy(update={"console": False})
    written = WrittenReports()
    if not config.enabled:
        return written
    manager = ReporterManager(config)
    for report in reports:
        output = manager.run_all(report)
        written.files += output.generated_files
        written.errors += output.errors
        if output.html_path:
            written.html.append(output.html_path)
    return written


def write_outputs(
    report: EvalReport, outputs: Sequence[str], config: ReporterConfig
) -> tuple[list[str], list[tuple[str, str]]]:
    """Write ``report`` to each of ``outputs`` (``run -o FILE``: the format its ending
    names); ``(files written, (file, problem) failed)``."""
    from tenxeval_tui.evaluation.reporters.files import write_report

    written: list[str] = []
    failed: list[tuple[str, str]] = []
    for output in outputs:
        try:
            written.append(str(write_report(report, output, config).absolute()))
        except (OSError, ValueError) as exc:
            failed.append((output, getattr(exc, "strerror", None) or str(exc)))
    return written, failed


def named_variant(report: EvalReport, variant: str) -> EvalReport:
    """``report`` naming the variant it is of (``metadata.variant``)."""
    return report.model_copy(update={"metadata": {**report.metadata, VARIANT_KEY: variant}})


def marked_partial(report: EvalReport) -> EvalReport:
    """``report`` marked as the report of a run that did not finish."""
    if report.is_partial:
        return report
    return report.model_copy(update={"metadata": {**report.metadata, PARTIAL_KEY: True}})


def journal_reports(journal: Path) -> list[EvalReport]:
    """The reports of the cases ``journal`` recorded, each marked partial (empty ones left
    out); raises what reading the journal raises."""
    from tenxeval_tui.evaluation.results.journal import read_journal

    return [marked_partial(r) for r in read_journal(journal).values() if r.results]


__all__ = [
    "WrittenReports",
    "journal_reports",
    "marked_partial",
    "named_variant",
    "write_outputs",
    "write_reports",
]
