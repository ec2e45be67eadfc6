"""The report writers a run will use, loaded while its worker child runs the cases.

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

from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig

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


__all__ = ["load_report_writers"]
