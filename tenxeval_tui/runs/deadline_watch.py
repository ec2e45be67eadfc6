"""``run``'s watch over its worker child's case deadlines, and carrying on past a kill.

The worker child times its cases out on its own event loop, which an agent that blocks
that loop (a sync agent's ``time.sleep``, a C call) keeps from ever firing. So the process
that started the child keeps each case's deadline too (:mod:`.case_deadlines`):
:class:`DeadlineWatch`, an observer of the child's lines with a thread of its own, kills
the child when a case is still running :data:`~.case_deadlines.GRACE` seconds past its
deadline. Then :func:`carry_on` ends that case as timed out (in the journal and for the
observers) and makes the plan of what the child left (:func:`rest_of`): every selected
case the journal does not hold, the cases that were running beside the blocked one
included. That plan runs in a new child, appending to the same journal (its eval sets
already started are not started over: ``RunPlan.journal_started``), so the run's report
and a later ``--resume`` see one run.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from tenxeval_tui.evaluation.dataset import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs
from tenxeval_tui.runs.case_deadlines import CaseDeadlines, CaseKey, judging_case, overdue_result
from tenxeval_tui.runs.plan import RunPlan, selected_eval_sets

THE_CHILD = "the run's worker process"


class DeadlineWatch(RunObserver):
    """Follows the child's cases (as an observer of its lines) and calls ``kill`` once a
    case runs past its deadline; :attr:`overdue` then holds the cases it was for.

    ``timeout`` ``None`` watches nothing: a pooled run's driver keeps its workers' deadlines
    itself (:mod:`.case_pool`), and its own loop runs no agent."""

    def __init__(self, timeout: float | None, kill: Callable[[], None]) -> None:
        self.timeout = timeout or 0.0
        self.deadlines = CaseDeadlines(self.timeout)
        self.cases: dict[CaseKey, EvalCase] = {}
        self.overdue: list[tuple[str, EvalCase]] = []
        self._kill = kill
        self._lock = threading.Lock()
        self._moved = threading.Event()
        self._waiting_until = math.inf
        """The deadline the watching thread sleeps until (``inf``: none): a case due later
        does not wake it (waking it at every case cost the command a tenth of its CPU)."""
        self._closed = timeout is None
        self._thread = threading.Thread(target=self._watch, name="case-deadlines", daemon=True)
        if timeout is not None:
            self._thread.start()

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        if self._closed:
            return
        with self._lock:
            self.cases[(eval_set_id, case.eval_id)] = case
            self._started((eval_set_id, case.eval_id))

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        with self._lock:
            self._started((eval_set_id, case.eval_id))

    def _started(self, key: CaseKey) -> None:
        """(Under the lock.) ``key``'s run started: the watching thread is woken only when
        it is due sooner than the thread sleeps until."""
        self.deadlines.started(key)
        if self.deadlines.due[key] < self._waiting_until:
            self._moved.set()

    def on_case_end(self, result: EvalCaseResult) -> None:
        key = (result.eval_set_id, result.eval_id)
        with self._lock:
            self.deadlines.ended(key)
            self.cases.pop(key, None)  # a run of a million cases holds those running only

    def event_line(self, line: bytes) -> None:
        """An event line of the child: a case being scored has no deadline any more."""
        scoring = judging_case(line)
        if scoring is not None:
            with self._lock:
                self.deadlines.ended(scoring)

    def close(self) -> None:
        """Stop watching (the child ended)."""
        self._closed = True
        self._moved.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)

    def _watch(self) -> None:
        while not self._closed:
            with self._lock:
                due = self.deadlines.next_due()
                wait = None if due is None else max(0.0, due - self.deadlines.clock())
                self._waiting_until = math.inf if due is None else due
            self._moved.wait(wait)
            self._moved.clear()
            with self._lock:
                late = [] if self._closed else self.deadlines.overdue()
                self.overdue = [(key[0], self.cases[key]) for key in late if key in self.cases]
            if self.overdue:
                self._kill()
                return


def overdue_results(watch: DeadlineWatch) -> list[EvalCaseResult]:
    """The cases ``watch`` killed the child for, each ended as timed out."""
    return [
        overdue_result(set_id, case, watch.timeout, THE_CHILD) for set_id, case in watch.overdue
    ]


def rest_of(plan: RunPlan, journal: Path, ended: Sequence[EvalCaseResult]) -> RunPlan | None:
    """The plan of what a killed child left of ``plan``: its selected cases that neither
    ``journal`` holds nor ``ended`` names, appending to ``journal``; ``None`` when none."""
    runs = read_journal_runs(journal) if journal.is_file() else []
    done = {(r.eval_set_id, r.eval_id) for report in runs for r in report.results}
    done |= {(r.eval_set_id, r.eval_id) for r in ended}
    left: dict[Path, list[str]] = {}
    sets: list[EvalSet] = []
    for path, eval_set in selected_eval_sets(plan):
        ids = [
            c.eval_id for c in eval_set.eval_cases if (eval_set.eval_set_id, c.eval_id) not in done
        ]
        if ids:
            left[path] = ids
            sets.append(eval_set)
    if not left:
        return None
    rest = plan.rerunning(left)
    started = sorted({report.eval_set_id for report in runs})
    update = {"limit": None, "sample": None, "seed": None, "shard": None}
    return rest.model_copy(update={**update, "journal_started": started})


def carry_on(
    plan: RunPlan, journal: Path, watch: DeadlineWatch, observer: RunObserver
) -> tuple[RunPlan | None, str]:
    """After ``watch`` killed the child: its overdue cases end as timed out (written to the
    journal, told to ``observer``); the plan of the rest (``None``: nothing is left) and
    the line that says what happened."""
    results = overdue_results(watch)
    record = RunJournal(journal)
    for result in results:
        record.on_case_end(result)
        observer.on_case_end(result)
    rest = rest_of(plan, journal, results)
    if rest is None:  # every case ended: the runs the child left open are whole
        for report in read_journal_runs(journal):
            if report.is_partial:
                record.on_run_end(EvalReport.create(eval_set_id=report.eval_set_id, results=[]))
    names = ", ".join(f"{r.eval_set_id}/{r.eval_id}" for r in results)
    line = (
        f"case {names} ran past its deadline ({watch.timeout:g}s) without giving control "
        f"back (a blocked event loop): {THE_CHILD} was killed and the case timed out"
    )
    if rest is not None:
        line += "; the cases left run in a new process"
    return rest, line


__all__ = ["DeadlineWatch", "carry_on", "overdue_results", "rest_of"]
