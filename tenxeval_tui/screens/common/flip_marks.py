"""Keeps a screen's flip marks fresh: which cases flipped over their eval sets' last runs.

The editor's case list and the run view's case table mark the cases that flipped
(:mod:`~tenxeval_tui.browsing.case_flips`). :class:`FlipMarks` reads the flip
histories of the eval sets a screen shows in a worker thread (never on the UI
thread: the first look at a big folder reads every report once), hands them to
the screen, and reads them again when a report lands in the folder (followed on
disk when the host follows files) or when the screen asks (after a run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual.css.query import NoMatches
from textual.screen import Screen
from textual.worker import get_current_worker

from tenxeval_tui.browsing.case_flips import CaseFlipIndex, FlipHistory
from tenxeval_tui.browsing.report_folder_watch import follow_report_folder
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.settings.first_steps import state_dir
from tenxeval_tui.settings.layers import report_folder

FlipHandler = Callable[[dict[str, FlipHistory]], None]
"""What the screen does with the histories read (eval set id -> its history)."""


class FlipMarks:
    """The flip histories of the eval sets ``screen`` shows, read off the UI thread and
    given to ``show`` (on the UI thread) each time they may have changed."""

    def __init__(
        self, screen: Screen[Any], show: FlipHandler, *, folder: Path | None = None
    ) -> None:
        self.screen = screen
        self.show = show
        self._folder = folder
        self._index: CaseFlipIndex | None = None
        self.eval_set_ids: tuple[str, ...] = ()
        self.reads = 0
        """Histories handed to the screen so far (tests wait on it)."""
        self.histories: dict[str, FlipHistory] = {}
        """The histories handed to the screen last."""

    @property
    def folder(self) -> Path:
        """The report folder: as given, else where the workbench's runs write reports."""
        if self._folder is None:
            host = host_of(self.screen.app)
            self._folder = report_folder(host.workspace, host.preferences.settings).resolve()
        return self._folder

    @property
    def index(self) -> CaseFlipIndex:
        """The flip index of the folder (the run summaries cached in the user's state)."""
        if self._index is None:
            self._index = CaseFlipIndex(self.folder, state_dir() / "run-summaries")
        return self._index

    def follow(self, eval_set_ids: Iterable[str]) -> None:
        """Mark the cases of these eval sets from now on (read their histories now)."""
        self.eval_set_ids = tuple(dict.fromkeys(i for i in eval_set_ids if i))
        self.refresh()

    def refresh(self) -> None:
        """Read the histories again (a report may have landed)."""
        index, ids = self.index, self.eval_set_ids
        self.screen.run_worker(
            partial(self._read, index, ids),
            thread=True,
            exclusive=True,
            group="flip-marks",
            description="read the flip history of the reports",
        )

    def _read(self, index: CaseFlipIndex, ids: tuple[str, ...]) -> None:
        histories = index.histories(ids) if ids else {}
        app = self.screen.app
        if not get_current_worker().is_cancelled and app.is_running:
            app.call_from_thread(self._deliver, ids, histories)

    def _deliver(self, ids: tuple[str, ...], histories: dict[str, FlipHistory]) -> None:
        if ids != self.eval_set_ids or not self.screen.is_attached:
            return  # asked for other eval sets meanwhile (their answer comes), or closed
        self.reads += 1
        self.histories = histories
        try:
            self.show(histories)
        except NoMatches:
            return  # the screen is being taken down (the app quits): nothing to mark

    def start_following(self) -> None:
        """Read the histories again whenever a report file in the folder changes (when
        the host follows files on disk)."""
        if host_of(self.screen.app).watch_files:
            self.screen.run_worker(self._follow_folder(), exclusive=True, group="flip-watch")

    async def _follow_folder(self) -> None:
        await follow_report_folder(self.folder, self.refresh)


__all__ = ["FlipHandler", "FlipMarks"]
