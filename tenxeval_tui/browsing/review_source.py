"""What reviewing a report needs: its verdicts, its eval set, and that eval set's labels file.

The report names its eval set by id; the eval set is looked up among the workspace's
files (as "edit case" finds it), and the labels live beside it. Anything that stops the
review is a :class:`ReviewSourceError` whose message says what and where. No UI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.browsing.labels import LabelsFile, labels_path_for, read_labels
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.verdicts import ReportVerdicts, document_verdicts
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.settings.workspace import find_eval_set_file


class ReviewSourceError(Exception):
    """Why a report cannot be reviewed (the message names the file)."""


@dataclass
class ReviewSource:
    """A report's verdicts, with where its labels go and its cases' expectations."""

    verdicts: ReportVerdicts
    document: ReportDocument
    """The report as opened (a case's full result, for showing it)."""
    eval_set_path: Path
    labels_path: Path
    eval_cases: dict[str, EvalCase] = field(default_factory=dict)
    """The eval set's cases by id (empty when the file does not load: the report's own
    details then say what was expected)."""


def read_source_labels(source: ReviewSource) -> LabelsFile:
    """The labels of ``source``'s eval set (none before the first); a file that exists but
    cannot be read is a :class:`ReviewSourceError` naming it."""
    try:
        return read_labels(source.labels_path)
    except OSError as exc:
        raise ReviewSourceError(
            f"cannot read the labels: {source.labels_path}: {exc.strerror or exc}"
        ) from None


def open_review_source(
    report: Path, files: Sequence[Path], document: ReportDocument | None = None
) -> ReviewSource:
    """Read ``report`` (``document``, when given whole, is used as it is) and find its eval
    set among ``files``."""
    try:
        if document is None or not document.complete:
            document = ReportDocument.open(report)
        verdicts = document_verdicts(document)
    except EvalFileError as exc:
        raise ReviewSourceError(str(exc)) from None
    except OSError as exc:
        raise ReviewSourceError(f"{report}: {exc.strerror or exc}") from None
    others = sorted({c.eval_set_id for c in verdicts.cases} - {verdicts.eval_set_id})
    if others:
        raise ReviewSourceError(
            f"{report.name} holds cases of several eval sets ({', '.join(others)}): "
            "review the report of each eval set"
        )
    eval_set_path = find_eval_set_file(files, verdicts.eval_set_id)
    if eval_set_path is None:
        raise ReviewSourceError(
            f"no eval set with id {verdicts.eval_set_id!r} in this workspace: the labels "
            "go beside it (NAME.labels.jsonl), so open the workspace that holds it"
        )
    try:
        cases = {case.eval_id: case for case in EvalSet.from_file(eval_set_path).eval_cases}
    except (EvalFileError, OSError, ValueError):
        cases = {}  # a scenario file, or one broken now: the report's details will do
    return ReviewSource(verdicts, document, eval_set_path, labels_path_for(eval_set_path), cases)


__all__ = ["ReviewSource", "ReviewSourceError", "open_review_source", "read_source_labels"]
