"""Keeps a screen's flip marks fresh: which cases flipped over their eval sets' last runs.

The editor's case list and the run view's case table mark the cases that flipped
(:mod:`~tenxeval_tui.browsing.case_flips`). :class:`FlipMarks` reads the flip
histories of the eval sets a screen shows in a worker thread (never on the UI
thread: the first look at a big folder reads every report once), hands them to
the screen, and reads them again when a report lands in the folder (followed on
disk when the host follows files) or when the screen asks (after a run).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual.css.query import NoMatches
from textual.screen import Screen
from textual.worker import get_current_worker

from tenxeval_tui.browsing.case_flips import CaseFlipIndex, FlipHistory
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
        from watchfiles import awatch

        folder = self.folder
        while True:
            # The folder itself, or (until it is made) its nearest folder that exists.
            watched = next((p for p in (folder, *folder.parents) if p.is_dir()), None)
            if watched is None:
                await asyncio.sleep(1)
                continue
            try:
                # A report written while the watcher was starting is missed by it: the
                # first time it wakes up (a change, or a second without any), read again.
                started = False
                async for changes in awatch(
                    watched,
                    watch_filter=partial(_is_report_change, folder),
                    debounce=300,
                    step=50,
                    recursive=False,
                    rust_timeout=1000,
                    yield_on_timeout=True,
                ):
                    if changes or not started:
                        started = True
                        self.refresh()
                    if not watched.is_dir() or (watched != folder and folder.is_dir()):
                        self.refresh()
                        break
            except OSError:  # the folder went away while watched: look again shortly
                await asyncio.sleep(1)


def _is_report_change(folder: Path, _change: object, changed: str) -> bool:
    """A JSON file in ``folder`` (a report), or ``folder`` itself (created or removed)."""
    path = Path(changed)
    return path == folder or (path.parent == folder and path.suffix == ".json")


__all__ = ["FlipHandler", "FlipMarks"]
