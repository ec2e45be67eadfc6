"""One report written in the format its file name asks for (``-o report.csv``)."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.manager import ReporterManager

REPORT_FORMATS: dict[str, str] = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".xml": "junit",
}
"""File name ending (lower case) -> report format."""


def reporter_for_path(path: str | Path, config: ReporterConfig | None = None) -> BaseReporter:
    """The reporter whose format the ending of ``path`` names, honouring ``config``'s
    ``include_*`` switches.

    ``.json`` is the full JSON report, ``.jsonl`` and ``.csv`` one row per case and
    criterion, ``.html``/``.htm`` the dashboard, ``.xml`` JUnit XML; the ending's case does
    not matter. Any other ending is a ``ValueError`` naming the path and the endings known.
    """
    suffix = Path(path).suffix.lower()
    kind = REPORT_FORMATS.get(suffix)
    if kind is None:
        known = ", ".join(REPORT_FORMATS)
        said = f"ending {suffix!r}" if suffix else "no file ending"
        raise ValueError(f"{path}: {said} names no report format (known: {known})")
    manager = ReporterManager(config)
    makers = {
        "json": manager.json_reporter,
        "jsonl": manager.jsonl_reporter,
        "csv": manager.csv_reporter,
        "html": manager.html_reporter,
        "junit": manager.junit_reporter,
    }
    return makers[kind]()


def write_report(
    report: EvalReport, path: str | Path, config: ReporterConfig | None = None
) -> Path:
    """Write ``report`` to ``path`` in the format its ending names (see
    :func:`reporter_for_path`), atomically, creating folders; returns the path.

    The format is checked before anything is written, so a wrong ending leaves no file.
    """
    return reporter_for_path(path, config).save(report, path)
