"""One report measured against its eval set's labels: the agreement figures and the
cases as labelled (what the workbench's agreement view shows). No UI."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tenxeval_tui.browsing.agreement_table import AgreementTable, agreement_table
from tenxeval_tui.browsing.labelled_report import LabelledOutcome, labelled_outcome
from tenxeval_tui.browsing.labels import LabelIndex
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.review_source import (
    ReviewSource,
    open_review_source,
    read_source_labels,
)
from tenxeval_tui.evaluation.errors import Problem


@dataclass
class ReportAgreement:
    """A report's agreement figures and its cases as labelled."""

    source: ReviewSource
    table: AgreementTable
    outcome: LabelledOutcome
    labels: int
    """How many labels the labels file holds (of every report of the eval set)."""
    reviewers: list[str]
    """Everyone with a label in the file."""
    problems: list[Problem]
    """The labels file's malformed lines (skipped)."""


def read_agreement(
    path: Path, files: list[Path], document: ReportDocument | None = None
) -> ReportAgreement:
    """The figures of ``path`` against its eval set's labels (``ReviewSourceError`` when
    they cannot be read)."""
    source = open_review_source(path, files, document)
    found = read_source_labels(source)
    index = LabelIndex(found.labels)
    table = agreement_table([(source.verdicts, index)])
    outcome = labelled_outcome(source.verdicts.cases, index)
    return ReportAgreement(
        source, table, outcome, len(found.labels), index.reviewers, found.problems
    )


__all__ = ["ReportAgreement", "read_agreement"]
