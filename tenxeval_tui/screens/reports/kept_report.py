"""The report last opened from the report list, kept to be shown again; and the report
under the list's cursor, read ahead to be shown at once."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from textual.app import App

from tenxeval_tui.browsing.report_document import ReportDocument, ReportReader, open_first_page
from tenxeval_tui.evaluation.files.stamp import FileStamp, file_stamp
from tenxeval_tui.screens.reports.report_detail import ReportScreen

Reading = Future[tuple[ReportReader, ReportDocument]]
"""A report's first cases being read (see :func:`open_first_page`)."""


class KeptReport:
    """The report screen last opened, kept (installed in the app) and shown again while
    its file is unchanged: back to a 10,000-case report is then a switch of screens,
    not a new read and a new screen. It is shown as it was left (its cursor, filter and
    selection). One report is kept: another one opened takes its place.

    The report under the list's cursor is read ahead (:meth:`prepare`), in a thread of
    its own: a big report's first cases take a few hundred milliseconds to read, now
    spent while the user looks at the list, not after enter.
    """

    def __init__(self, app: App[None]) -> None:
        self.app = app
        self._screen: ReportScreen | None = None
        self._signature: FileStamp | None = None
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="report-ahead")
        """One reading at a time: a cursor moving through the list queues the reports it
        passes, and each queued one is cancelled by the next (:meth:`prepare`)."""
        self._ahead: tuple[Path, FileStamp | None, Reading] | None = None
        """The report read ahead: its path, its file's signature then, its reading."""

    def prepare(self, path: Path) -> None:
        """Start reading the report at ``path`` (the list's cursor is on it), unless it is
        the kept screen's or already being read."""
        signature = file_stamp(path)
        kept = self._screen
        if kept is not None and kept.path == path and signature == self._signature:
            return
        ahead = self._ahead
        if ahead is not None:
            if ahead[:2] == (path, signature):
                return
            ahead[2].cancel()  # not started yet: never read
        self._ahead = (path, signature, self._reader.submit(open_first_page, path))

    def open(self, path: Path) -> None:
        """Show the report at ``path``: the kept screen if it is that report, unchanged,
        else a new screen (kept from then on)."""
        signature = file_stamp(path)
        kept = self._screen
        if kept is not None and not self._on_a_stack(kept):
            if kept.path == path and signature is not None and signature == self._signature:
                kept.reopening = True
                try:
                    self.app.push_screen(kept)
                finally:
                    kept.reopening = False
                return
            self._drop(kept)
        screen = ReportScreen(path, reading=self._take_reading(path, signature))
        if self._screen is None:  # none kept, or the one kept is open elsewhere: not this one
            self.app.install_screen(screen, f"kept-report-{id(screen)}")
            self._screen, self._signature = screen, signature
        self.app.push_screen(screen)

    def _take_reading(self, path: Path, signature: FileStamp | None) -> Reading | None:
        """The reading ahead of ``path`` if it reads the file as it is now (it is no longer
        kept here: the screen holds what it read)."""
        ahead, self._ahead = self._ahead, None
        if ahead is None:
            return None
        if signature is not None and ahead[:2] == (path, signature) and not ahead[2].cancelled():
            return ahead[2]
        ahead[2].cancel()
        return None

    def close(self) -> None:
        """Stop reading ahead (the list is gone); a reading under way ends on its own."""
        self._ahead = None
        self._reader.shutdown(wait=False, cancel_futures=True)

    def _on_a_stack(self, screen: ReportScreen) -> bool:
        return any(screen in stack for stack in self.app._screen_stacks.values())

    def _drop(self, screen: ReportScreen) -> None:
        self.app.uninstall_screen(screen)
        self._screen = self._signature = None
        self.app.call_later(screen.remove)
