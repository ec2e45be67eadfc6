"""Log records of ``tenxeval-tui run`` (``--log-level``, ``-v``) on the same console as the
progress bar.

Records of this process and the lines of the worker child's stderr (the agent's prints and
log records) are written to whatever ``sys.stderr`` is at that moment: while the rich
progress bar is shown, that is its console's proxy, which prints each line above the bar
instead of through it. On a terminal the child's lines, untrusted, go through
:func:`~tenxeval_tui.evaluation.inert.inert` first; in a pipe or a CI log they pass as they
are.
"""

from __future__ import annotations

import logging
import sys

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.redact import redact_urls

FORMAT = "%(levelname)s %(name)s: %(message)s"


def log_level(args_level: str | None, verbose: bool) -> str | None:
    """The level records are shown from: ``--log-level``, else ``info`` with ``-v``, else
    none (``None``: only critical records, and those nowhere)."""
    return args_level or ("info" if verbose else None)


class CurrentStderrHandler(logging.Handler):
    """Writes each record to ``sys.stderr`` as it is when the record comes (never a stream
    remembered from before a progress bar started)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            write_stderr_line(self.format(record) + "\n")
        except Exception:
            self.handleError(record)


def write_stderr_line(line: str) -> None:
    """Write one line (ending in a newline) to the current ``sys.stderr``; control
    characters are shown, not written, when it is a terminal. The credentials of any URL
    in it (a judge endpoint's, in an HTTP library's debug record) are hidden."""
    line = redact_urls(line)
    stream = sys.stderr
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        line = inert(line.rstrip("\n")) + "\n"
    stream.write(line)
    stream.flush()


def configure_logging(level: str | None) -> None:
    """Show this process's records from ``level`` up through :class:`CurrentStderrHandler`;
    ``None``: none but critical, shown nowhere (the report says what failed)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, CurrentStderrHandler | logging.NullHandler):
            root.removeHandler(handler)
    if level is None:
        root.addHandler(logging.NullHandler())
        root.setLevel(logging.CRITICAL)
        return
    handler = CurrentStderrHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(level.upper())


__all__ = ["CurrentStderrHandler", "configure_logging", "log_level", "write_stderr_line"]
