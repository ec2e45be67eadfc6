"""The report writers a run will use, loaded (and the HTML page's case data made) while its
worker child runs the cases.

``tenxeval-tui run``'s parent writes its reports once the worker has ended, and the first
report of a process imported its writers then (the HTML one compiles its template too):
about 50 ms after the last case of a 1-case run, on the way to the exit (issue #38). The
parent waits for the worker's lines meanwhile, so :func:`load_report_writers` loads them
in a thread of their own then. What it fails to load is loaded (or told) when the reports
are written, as before.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.results.journal_results import JournalResults

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.reporters.html import PreparedCases

_JSON = "tenxeval_tui.evaluation.reporters.json"
_HTML = "tenxeval_tui.evaluation.reporters.html"


def load_report_writers(reporter: ReporterConfig) -> threading.Thread:
    """Start loading the writers ``reporter`` asks for (a daemon thread, returned)."""

    def load() -> None:
        with contextlib.suppress(Exception):  # told, if it matters, when the reports are written
            if reporter.json_report:
                importlib.import_module(_JSON)
            if reporter.html:
                importlib.import_module(_HTML).load_page_template()

    thread = threading.Thread(target=load, name="report-writers", daemon=True)
    thread.start()
    return thread


class PageCases:
    """The HTML report's case data, made as the run's parent reads each case in the journal
    (:class:`~tenxeval_tui.evaluation.reporters.html.PreparedCases`, made at the first
    case: the run's start imports nothing more)."""

    def __init__(self, reporter: ReporterConfig) -> None:
        self.reporter = reporter
        self.page: PreparedCases | None = None

    def add(self, result: EvalCaseResult, start: int) -> None:
        """Make the data of ``result``, whose journal line starts at byte ``start``."""
        if self.page is None:
            from tenxeval_tui.evaluation.reporters.casedata import ViewOptions
            from tenxeval_tui.evaluation.reporters.html import PreparedCases

            self.page = PreparedCases(ViewOptions.from_config(self.reporter))
        self.page.add(result, start)

    def attach(self, reports: Sequence[EvalReport]) -> None:
        """Let the HTML reports of ``reports`` (read from the journal the cases were read
        from) take their case data from here."""
        for report in reports:
            if self.page is not None and isinstance(report.results, JournalResults):
                self.page.attach(report.results)


def page_cases(reporter: ReporterConfig) -> PageCases | None:
    """The HTML report's case data to make as the cases finish, when ``reporter`` writes
    that report."""
    return PageCases(reporter) if reporter.enabled and reporter.html else None


__all__ = ["PageCases", "load_report_writers", "page_cases"]
