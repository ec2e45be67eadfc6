"""The report last opened from the report list, kept to be shown again."""

from __future__ import annotations

import os
from pathlib import Path

from textual.app import App

from tenxeval_tui.screens.reports.report_detail import ReportScreen


def file_signature(path: Path) -> tuple[int, int] | None:
    """What says a file changed: its size and modification time (``None``: unreadable)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


class KeptReport:
    """The report screen last opened, kept (installed in the app) and shown again while
    its file is unchanged: back to a 10,000-case report is then a switch of screens,
    not a new read and a new screen. It is shown as it was left (its cursor, filter and
    selection). One report is kept: another one opened takes its place."""

    def __init__(self, app: App[None]) -> None:
        self.app = app
        self._screen: ReportScreen | None = None
        self._signature: tuple[int, int] | None = None

    def open(self, path: Path) -> None:
        """Show the report at ``path``: the kept screen if it is that report, unchanged,
        else a new screen (kept from then on)."""
        signature = file_signature(path)
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
        screen = ReportScreen(path)
        if self._screen is None:  # none kept, or the one kept is open elsewhere: not this one
            self.app.install_screen(screen, f"kept-report-{id(screen)}")
            self._screen, self._signature = screen, signature
        self.app.push_screen(screen)

    def _on_a_stack(self, screen: ReportScreen) -> bool:
        return any(screen in stack for stack in self.app._screen_stacks.values())

    def _drop(self, screen: ReportScreen) -> None:
        self.app.uninstall_screen(screen)
        self._screen = self._signature = None
        self.app.call_later(screen.remove)
