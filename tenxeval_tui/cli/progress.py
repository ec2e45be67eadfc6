"""Progress of a headless run: a rich progress bar on a terminal, plain lines otherwise (CI logs).

Eval set ids, case ids and errors are untrusted: they are shown through
:func:`~tenxeval_tui.evaluation.inert.inert` and never read as Rich markup.

Both are run observers (:class:`~tenxeval_tui.evaluation.observers.RunObserver`)
and context managers (the bar is shown while the run is inside the ``with``).
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, TextIO

from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.observers import RunObserver


class _Counts:
    def __init__(self) -> None:
        self.passed = self.failed = self.errored = 0

    def add(self, result: EvalCaseResult) -> None:
        if result.is_error:
            self.errored += 1
        elif result.passed:
            self.passed += 1
        else:
            self.failed += 1

    @property
    def done(self) -> int:
        return self.passed + self.failed + self.errored


class LineProgress(RunObserver):
    """One line per finished case (``PASS``/``FAIL``/``ERROR``), nothing when ``quiet``."""

    reads_brief_results = True
    """Reads a result's ids, verdict, time, error and failed criteria only: its run's
    worker sends no more (:mod:`tenxeval_tui.runs.brief_results`)."""
    reads_case_ids = True
    """Reads no started case (:mod:`tenxeval_tui.runs.case_starts`)."""

    def __init__(self, total: int, *, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.total = total
        self.quiet = quiet
        self.stream = stream or sys.stdout
        self.counts = _Counts()

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.counts.add(result)
        if self.quiet:
            return
        status = "ERROR" if result.is_error else "PASS" if result.passed else "FAIL"
        where = f"{result.eval_set_id}/{result.eval_id}" if result.eval_set_id else result.eval_id
        line = f"[{self.counts.done}/{self.total}] {status:<5} {where} ({result.duration_seconds:.2f}s)"
        if result.is_error:
            line += f": {result.error}"
        elif not result.passed:
            line += ": " + ", ".join(
                f"{c.criterion} {c.score:.2f} < {c.threshold:.2f}" for c in result.failed_criteria
            )
        print(inert(line), file=self.stream, flush=True)


class BarProgress(RunObserver):
    """A rich progress bar with pass/fail/error counts, for a terminal."""

    reads_brief_results = True
    """Reads a result's verdict only (:mod:`tenxeval_tui.runs.brief_results`)."""
    reads_case_ids = True
    """Reads a started case's ids only (:mod:`tenxeval_tui.runs.case_starts`)."""

    def __init__(self, total: int, *, console: Any = None) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.counts = _Counts()
        self.progress = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(
                "[green]{task.fields[passed]} passed[/] [red]{task.fields[failed]} failed[/]"
                " [yellow]{task.fields[errored]} errored[/]"
            ),
            transient=False,
            console=console,
        )
        self.task = self.progress.add_task("evaluating", total=total, passed=0, failed=0, errored=0)

    def __enter__(self) -> BarProgress:
        self.progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.progress.stop()

    def on_case_start(self, eval_set_id: str, case: Any) -> None:
        self.progress.update(self.task, description=inert(f"{eval_set_id}/{case.eval_id}"))

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.counts.add(result)
        c = self.counts
        self.progress.update(
            self.task, advance=1, passed=c.passed, failed=c.failed, errored=c.errored
        )


def make_progress(total: int, *, quiet: bool = False) -> LineProgress | BarProgress:
    """A bar on an interactive terminal (unless ``quiet``), else plain lines.

    The bar needs a terminal that redraws in place: ``FORCE_COLOR`` colours the plain
    lines of a CI log (see :mod:`tenxeval_tui.cli.colour`), it does not make them a bar.
    """
    if not quiet and sys.stdout.isatty():
        return BarProgress(total)
    return LineProgress(total, quiet=quiet)


__all__ = ["BarProgress", "LineProgress", "make_progress"]
