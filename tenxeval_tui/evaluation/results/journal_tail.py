"""A run journal read as it grows: its reports ready a moment after the run's last case.

``tenxeval-tui run``'s parent used to read its worker's journal once the worker had
ended: every line parsed and checked again, half a second of the time after the last case
at 10,000 cases, while the parent sat idle through the run on the other core. A
:class:`JournalTail` reads the lines the worker has appended whenever it is asked
(:meth:`JournalTail.read_new`, as the worker's protocol lines come), and
:meth:`JournalTail.finish` reads what is left: the reports are those
:func:`~.journal_results.read_journal_runs_streamed` makes of the whole file, value for
value (the same :class:`~.journal.LineReader` reads the same bytes in the same order).

Only whole lines are read before the end (a line the worker is still writing ends with no
``b"\\n"`` yet; it is read again once it does). When a read goes wrong mid-run (the file
cut short under it, a line that cannot be read followed by another), the tail stops and
:meth:`JournalTail.finish` reads the whole file again, raising what that raises.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.files.fileio import gc_paused
from tenxeval_tui.evaluation.results.journal import JournalRuns, LineReader
from tenxeval_tui.evaluation.results.journal_results import (
    IndexedRun,
    JournalResults,
    OpenFile,
    read_journal_runs_streamed,
)

CHUNK = 1 << 20
"""Bytes read at once."""

CaseSeen = Callable[[EvalCaseResult, int], None]
"""Told of each case line read: its result and where the line starts in the file."""


class JournalTail:
    """The journal at ``path`` (it may not exist yet), read as it grows; ``on_case`` is
    called with each case read (see :data:`CaseSeen`)."""

    def __init__(self, path: Path, on_case: CaseSeen | None = None) -> None:
        self.path = path
        self.on_case = on_case
        self._source: OpenFile | None = None
        self._runs = JournalRuns(IndexedRun)
        self._reader = LineReader(path, self._take)
        self.failed = False
        """A read went wrong: :meth:`finish` reads the whole file again."""

    def _take(self, data: dict[str, Any], start: int, end: int) -> None:
        self._runs.take(data, start, end)
        if self.on_case is not None and data["type"] == "case":
            run = self._runs.latest[str(data.get("eval_set_id", ""))]
            if run.last is not None:
                self.on_case(run.last, start)

    def read_new(self) -> None:
        """Read the whole lines appended since the last read (none when the file is not
        there yet)."""
        if self.failed:
            return
        try:
            self._read(final=False)
        except (OSError, EvalFileError, ValueError, KeyError, TypeError):
            self.failed = True

    def _read(self, *, final: bool) -> None:
        if self._source is None:
            if not self.path.is_file():
                return
            self._source = OpenFile(self.path)
        with gc_paused():  # trees of plain objects made by the thousand: see journal.read_runs
            while self._read_chunk(final):
                pass

    def _read_chunk(self, final: bool) -> bool:
        """Feed the whole lines of the next :data:`CHUNK` bytes (with ``final``, the
        file's last line too); whether there may be more."""
        assert self._source is not None
        offset = self._reader.end_offset
        data = os.pread(self._source.fd, CHUNK, offset)
        whole = data.rfind(b"\n") + 1
        if not whole:  # no line ends in this chunk
            if len(data) == CHUNK:
                return self._read_long_line(offset, final)
            if final and data:  # the last line, cut short or not
                self._reader.feed(data)
            return False
        start = 0
        while start < whole:
            end = data.index(b"\n", start) + 1
            self._reader.feed(data[start:end])
            start = end
        return len(data) == CHUNK

    def _read_long_line(self, offset: int, final: bool) -> bool:
        """Feed the line at ``offset``, longer than a chunk, once it ends (or, with
        ``final``, the rest of the file); whether it was fed."""
        assert self._source is not None
        parts: list[bytes] = []
        size = 0
        while part := os.pread(self._source.fd, CHUNK, offset + size):
            end = part.find(b"\n") + 1
            if end:
                self._reader.feed(b"".join([*parts, part[:end]]))
                return True
            parts.append(part)
            size += len(part)
        if final:
            self._reader.feed(b"".join(parts))
        return False

    def finish(self) -> list[EvalReport]:
        """The journal's reports: what is left of it read (or all of it again, when a read
        went wrong); raises what :func:`read_journal_runs_streamed` raises."""
        if not self.failed:
            try:
                self._read(final=True)
            except (OSError, EvalFileError, ValueError, KeyError, TypeError):
                self.failed = True
        if self.failed or self._source is None:
            return read_journal_runs_streamed(self.path)
        return [run.streamed_report(self._source) for run in self._runs.runs]


def results_of(report: EvalReport) -> JournalResults | None:
    """``report``'s results when they are a journal's read in place."""
    results = report.results
    return results if isinstance(results, JournalResults) else None


__all__ = ["CHUNK", "CaseSeen", "JournalTail", "results_of"]
