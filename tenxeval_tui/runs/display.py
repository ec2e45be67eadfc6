"""What a run session tells whoever shows it (no UI import).

A :class:`~tenxeval_tui.runs.session.RunSession` never prints: it calls a
:class:`RunDisplay`. ``tenxeval-tui run`` prints (:mod:`tenxeval_tui.cli.run_display`);
:class:`SilentDisplay` shows nothing (a test, a caller that reads the outcome only).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.runs.outcome import Published


class RunDisplay(Protocol):
    """The calls a run session makes as it goes."""

    @property
    def child_stderr(self) -> Callable[[str], None] | None:
        """Takes each line the worker child writes on stderr (``None``: this process's
        stderr)."""

    def note(self, text: str) -> None:
        """What the run does next (``resuming ...``, ``retrying ...``)."""

    def notice(self, text: str) -> None:
        """What happened to the run (``interrupted: ...``)."""

    def warning(self, text: str) -> None:
        """A problem the run carries on past (a worker died)."""

    def progress(self, total: int) -> AbstractContextManager[Sequence[RunObserver]]:
        """The observers following one pass of ``total`` cases, shown while inside."""

    def published(self, published: Published, config: EvalConfig) -> None:
        """The report is written (or some of its files failed): show it."""

    def journal_kept(self, journal: Path, *, resumable: bool) -> None:
        """The run's journal stays (``resumable``: the run stopped before its end)."""


class SilentDisplay:
    """A :class:`RunDisplay` that shows nothing."""

    child_stderr: Callable[[str], None] | None = None

    def note(self, text: str) -> None:
        """Shows nothing."""

    def notice(self, text: str) -> None:
        """Shows nothing."""

    def warning(self, text: str) -> None:
        """Shows nothing."""

    @contextlib.contextmanager
    def progress(self, total: int) -> Iterator[Sequence[RunObserver]]:
        """No observer."""
        yield []

    def published(self, published: Published, config: EvalConfig) -> None:
        """Shows nothing."""

    def journal_kept(self, journal: Path, *, resumable: bool) -> None:
        """Shows nothing."""


__all__ = ["RunDisplay", "SilentDisplay"]
