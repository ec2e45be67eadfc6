"""A journal that cannot be written never costs a case.

The worker keeps the run's journal so that a run killed outright still leaves what
finished. The disk filling up, a quota, a file size limit or a read-only remount can make
a write fail part way through a run; the run must neither stop (a traceback) nor lose the
cases silently (``PASSED: 54/54`` for a run of 300).

- In the worker, :class:`GuardedJournal` writes the journal and catches a failed write: the
  first failure is told once on the protocol stream (a ``worker_journal_failed`` line with
  its ``message``), and each case whose line was not written is streamed whole on its
  ``case_end`` line (``LeanJsonLinesObserver.whole``) instead of lean, so the reader of the
  stream has all of it. It also continues a journal (``RunPlan.journal_started``: eval sets
  whose ``run_start`` the journal holds are not started over).
- In ``run``, :class:`KeptResults` keeps every result the stream brings once the journal
  failed, and :func:`with_kept` puts them into the reports read from the journal, in the
  order the worker planned (its ``worker_plan`` line): the report has every case the
  worker finished, and ``run`` says the journal failed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.results.journal import RunJournal

JOURNAL_FAILED = "worker_journal_failed"
"""The protocol line's ``type``: the journal could not be written (``message`` says why)."""


class GuardedJournal(RunJournal):
    """The run's journal as the worker keeps it (see the module's doc). ``failed`` is told
    the first failure; ``unwritten`` each case whose line was not written."""

    def __init__(
        self,
        path: str | Path,
        report_metadata: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        started: Collection[str] = (),
        failed: Callable[[str], None] = lambda message: None,
        unwritten: Callable[[EvalCaseResult], None] = lambda result: None,
        config_used: dict[str, Any] | None = None,
    ) -> None:
        try:
            super().__init__(path, report_metadata, config_used=config_used)
        except OSError:  # its folder cannot be made: the first write says so
            self.path = Path(path)
            self.config_used = config_used
            self.report_metadata = dict(report_metadata or {})
        self.started = set(started)
        self.failure: str | None = None
        self._failed = failed
        self._unwritten = unwritten

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        if eval_set.eval_set_id in self.started:
            self.started.discard(eval_set.eval_set_id)  # continued: not started over
            return
        self._guarded(super().on_run_start, eval_set, cases)

    def on_case_end(self, result: EvalCaseResult) -> None:
        if not self._guarded(super().on_case_end, result):
            self._unwritten(result)

    def on_run_end(self, report: EvalReport) -> None:
        self._guarded(super().on_run_end, report)

    def _guarded(self, write: Callable[..., None], *args: Any) -> bool:
        try:
            write(*args)
        except OSError as exc:
            if self.failure is None:
                self.failure = f"{self.path}: {exc.strerror or exc}"
                self._failed(self.failure)
            return False
        return True


class KeptResults(RunObserver):
    """``run``'s side: once :meth:`journal_failed`, every finished case's result."""

    def __init__(self) -> None:
        self.failure: str | None = None
        self.results: dict[tuple[str, str], EvalCaseResult] = {}

    def journal_failed(self, message: str) -> None:
        """The worker said its journal could not be written: keep what comes from now on."""
        self.failure = self.failure or message

    def on_case_end(self, result: EvalCaseResult) -> None:
        if self.failure is not None:
            self.results[(result.eval_set_id, result.eval_id)] = result


def with_kept(
    reports: Sequence[EvalReport],
    kept: KeptResults,
    planned: Sequence[dict[str, Any]],
    finished: bool,
) -> list[EvalReport]:
    """``reports`` (read from the journal) with the ``kept`` results they lack, one report
    per eval set of ``planned`` (the ``worker_plan`` line's ``eval_sets``), cases in
    planned order. A set is partial when a planned case is missing, or the run did not
    finish (``finished``)."""
    if not kept.results:
        return list(reports)
    by_set: dict[str, list[EvalReport]] = {}
    for report in reports:
        by_set.setdefault(report.eval_set_id, []).append(report)
    merged: list[EvalReport] = []
    for entry in planned:
        set_id = str(entry.get("eval_set_id", ""))
        order = [str(case[0]) for case in entry.get("cases", [])]
        found = by_set.pop(set_id, [])
        results = {r.eval_id: r for report in found for r in report.results}
        for (kept_set, eval_id), result in kept.results.items():
            if kept_set == set_id:
                results.setdefault(eval_id, result)
        position = {eval_id: i for i, eval_id in enumerate(order)}
        ordered = sorted(results.values(), key=lambda r: position.get(r.eval_id, len(order)))
        metadata = {k: v for r in found for k, v in r.metadata.items() if k != PARTIAL_KEY}
        if not finished or any(eval_id not in results for eval_id in order):
            metadata[PARTIAL_KEY] = True
        name = found[0].eval_set_name if found else str(entry.get("name", ""))
        merged.append(
            EvalReport.create(
                eval_set_id=set_id, results=ordered, eval_set_name=name, metadata=metadata
            )
        )
    merged.extend(report for rest in by_set.values() for report in rest)
    return merged


__all__ = ["JOURNAL_FAILED", "GuardedJournal", "KeptResults", "with_kept"]
