"""What the two worker backends share: one run's cases handed out to N workers.

:class:`CasePool` is the base of :class:`~tenxeval_tui.runs.pool.ProcessPool` (local
processes) and :class:`~tenxeval_tui.runs.ray_backend.RayPool` (Ray actors). It holds the
queue of cases not handed out yet, the results by case, the cases retried after a
worker's death (:mod:`tenxeval_tui.runs.retry`), and the run's lifetime as the observers
see it: ``on_run_start`` for each eval set, the backend's own :meth:`CasePool._run_cases`,
then one report per eval set (``on_run_end``), cases in input order. A backend decides how
cases reach its workers and how a worker's death shows; what becomes of a dead worker's
cases (:meth:`CasePool._settle_lost`) and of a finished case (:meth:`CasePool._record`) is
decided here, once; so is the replacing of a dead worker (a backend starts a new one in
its place while cases are left, :meth:`CasePool._may_replace`), the end of the cases no
worker is left to run (errors, :meth:`CasePool._abandon_pending`), and the deadline of each
running case (:mod:`~tenxeval_tui.runs.case_deadlines`): a case still running past it has
blocked its worker's event loop, so it ends as timed out and the backend kills that worker
(:meth:`CasePool._kill_worker`; its other cases are retried on the others). So is where a front end's command goes (stop one case, end its tool
call: :mod:`tenxeval_tui.runs.worker_commands`): :meth:`CasePool.command` asks every worker
holding the case (:meth:`CasePool._holders`, :meth:`CasePool._ask`) and answers with their
acks merged.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.observers import RunObserver, replay_json_lines
from tenxeval_tui.runs.case_deadlines import (
    CaseDeadlines,
    judging_case,
    lost_result,
    overdue_result,
)
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.retry import Key, Retries, death_line
from tenxeval_tui.runs.worker_commands import merged_ack

CaseId = tuple[str, str]
"""A case as its lines name it: (eval set id, eval id)."""


def shares(concurrency: int, workers: int) -> list[int]:
    """The run's concurrency split between ``workers`` (each at least 1)."""
    base, extra = divmod(max(concurrency, 1), workers)
    return [max(1, base + (1 if i < extra else 0)) for i in range(workers)]


def share_plan(plan: RunPlan, config: EvalConfig, share: int) -> RunPlan:
    """The plan one worker (a process or a Ray actor) runs: ``config`` with ``share`` of the
    concurrency, no reporters and no journal of its own (the driver writes both), in-process."""
    config = config.model_copy(deep=True)
    config.max_concurrency, config.parallel = share, True
    config.reporter.enabled = False
    return plan.model_copy(
        update={"config": config, "journal": None, "workers": None, "backend": "process"}
    )


class CasePool(ABC):
    """Runs the cases of ``eval_sets`` (as ``plan`` selects them) on ``workers`` workers.

    ``observer`` sees every call as if one evaluator ran the run; event lines go to
    ``raw_events`` as they are (already in the observer protocol's format) when given,
    else they are decoded for ``observer``. After :meth:`run`, :attr:`worker_error` says
    why the run could not start (a worker failed to load) and :attr:`deaths` what each
    worker that died mid-run did to its cases.
    """

    def __init__(
        self,
        plan: RunPlan,
        config: EvalConfig,
        eval_sets: Sequence[EvalSet],
        workers: int,
        observer: RunObserver,
        *,
        raw_events: Callable[[str], object] | None = None,
    ) -> None:
        self.plan = plan
        self.config = config
        self.eval_sets = list(eval_sets)
        self.observer = observer
        self.raw_events = raw_events
        self.pending: deque[Key] = deque(
            (s, c)
            for s, eval_set in enumerate(self.eval_sets)
            for c in range(len(eval_set.eval_cases))
        )
        """Cases not handed to a worker yet (a dead worker's come back to its front)."""
        self.retrying: deque[Key] = deque()
        """Cases a dead worker was running, to run once more, each alone on its worker (so
        an agent that kills its worker takes no other case down with its retry)."""
        self.total = len(self.pending)
        self.count = max(1, min(workers, self.total))
        """Workers started: at most one per case (more would have nothing to run)."""
        self.results: dict[Key, EvalCaseResult] = {}
        self._run_began = time.perf_counter()
        self._set_ended: dict[int, float] = {}
        """When each eval set's last result so far came (its wall time runs from the start)."""
        self.cancelled = False
        self.worker_error: str | None = None
        self.deaths: list[str] = []
        """One line per worker that died mid-run: which, how, and what became of its cases."""
        self.retries = Retries()
        self._asking: set[asyncio.Task[None]] = set()
        """Commands sent to workers whose answers are awaited."""
        self.deadlines = CaseDeadlines(config.timeout)
        self._deadlines_moved: asyncio.Event | None = None
        self.replaced = 0
        """Workers started in the place of dead ones."""
        self.max_replacements = 2 * self.total + self.count
        """At most this many: a case runs at most twice, so even an agent that kills every
        worker it runs on has its two tries per case (and the run always ends)."""
        self._last_death = ""
        self._init_backend()

    @abstractmethod
    def _init_backend(self) -> None:
        """Set up the backend's own state (the last step of the constructor)."""

    async def run(self) -> list[EvalReport]:
        """Run every case; one report per eval set, cases in input order (partial when
        cancelled, or when cases could not run)."""
        self._run_began = time.perf_counter()
        for eval_set in self.eval_sets:
            self.observer.on_run_start(eval_set, eval_set.eval_cases)
        self._deadlines_moved = asyncio.Event()
        keeper = asyncio.get_running_loop().create_task(self._keep_deadlines())
        try:
            await self._run_cases()
        finally:
            keeper.cancel()
        self._abandon_pending()
        reports = self._reports()
        for report in reports:
            self.observer.on_run_end(report)
        return reports

    @abstractmethod
    async def _run_cases(self) -> None:
        """Start the workers, hand every case out, and return when all have ended."""

    @abstractmethod
    def cancel(self) -> None:
        """Stop every worker now; finished cases are kept."""

    # -- deaths, replacements, deadlines ------------------------------------

    def _may_replace(self) -> bool:
        """Whether a worker that died may be replaced now (so counts one more replacement):
        cases are left to run, the run goes on, and replacements are not used up."""
        if self.cancelled or self.worker_error is not None or not self._left():
            return False
        if self.replaced >= self.max_replacements:
            return False
        self.replaced += 1
        return True

    def _abandon_pending(self) -> None:
        """Every worker is gone and cases were left to run: each ends as an error saying so
        (never dropped from the report). Not when the run was stopped or could not start."""
        if self.cancelled or self.worker_error is not None:
            return
        why = f"every worker died ({self._last_death})" if self._last_death else "no worker ran it"
        while self._left():
            key = (self.retrying or self.pending).popleft()
            eval_set = self.eval_sets[key[0]]
            result = lost_result(eval_set.eval_set_id, eval_set.eval_cases[key[1]], why)
            self._record(key, result)

    def _case_running(self, case: CaseId) -> None:
        """A run of ``case`` started on a worker (its deadline starts now)."""
        self.deadlines.started(case)
        if self._deadlines_moved is not None:
            self._deadlines_moved.set()

    def _event_line(self, line: bytes | str) -> None:
        """An event line from a worker: a case being scored has no deadline any more."""
        raw = line.encode("utf-8", "replace") if isinstance(line, str) else line
        scoring = judging_case(raw)
        if scoring is not None:
            self.deadlines.ended(scoring)

    async def _keep_deadlines(self) -> None:
        """Until cancelled: end each case found past its deadline (see the module's doc)."""
        assert self._deadlines_moved is not None
        while True:
            due = self.deadlines.next_due()
            self._deadlines_moved.clear()
            wait = None if due is None else max(0.0, due - self.deadlines.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._deadlines_moved.wait(), wait)
            for case in self.deadlines.overdue():
                self.deadlines.ended(case)
                self._overdue(case)

    def _overdue(self, case: CaseId) -> None:
        """``case`` is past its deadline: it ends as timed out, and its worker is killed."""
        found = self._take_running(case)
        if found is None:
            return
        worker, key = found
        how = self._worker_name(worker)
        eval_set = self.eval_sets[key[0]]
        result = overdue_result(
            eval_set.eval_set_id, eval_set.eval_cases[key[1]], self.config.timeout, how
        )
        self._record(key, result)
        self._kill_worker(worker, f"{how} killed: case {case[1]} ran past its deadline")

    @abstractmethod
    def _take_running(self, case: CaseId) -> tuple[int, Key] | None:
        """The live worker (its number) running ``case`` and the case's key, the case no
        longer counted as running there; ``None`` when no worker runs it."""

    @abstractmethod
    def _worker_name(self, worker: int) -> str:
        """Worker ``worker`` in words (``worker 1 of 2``, ``Ray actor 2 of 2``)."""

    @abstractmethod
    def _kill_worker(self, worker: int, how: str) -> None:
        """Kill worker ``worker`` now; its death is then told as ``how``."""

    # -- commands from the front end ----------------------------------------

    def command(self, data: dict[str, Any], emit: Callable[[dict[str, Any]], None]) -> None:
        """Carry out a front end's command (``stop_case``, ``end_tool_call``) where its case
        runs: every live worker holding the case (started, or handed and maybe starting:
        a case's repeats on several workers are all reached) is asked, and their acks,
        merged, go to ``emit`` as one ``worker_ack``. A case held by no worker (finished,
        not handed out yet) is answered at once: it was not running. Called on the loop."""
        case = (str(data.get("eval_set_id", "")), str(data.get("eval_id", "")))
        holders = self._holders(case)
        if not holders:
            emit(merged_ack(data, []))
            return
        task = asyncio.get_running_loop().create_task(self._ask_all(holders, data, emit))
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)

    async def _ask_all(
        self, holders: Sequence[int], data: dict[str, Any], emit: Callable[[dict[str, Any]], None]
    ) -> None:
        answers = await asyncio.gather(
            *(self._ask(h, data) for h in holders), return_exceptions=True
        )
        emit(merged_ack(data, [a for a in answers if isinstance(a, dict)]))

    @abstractmethod
    def _holders(self, case: CaseId) -> list[int]:
        """The live workers (the backend's numbers) that hold ``case``: running it, or
        handed it and not known to have started it."""

    @abstractmethod
    async def _ask(self, worker: int, data: dict[str, Any]) -> dict[str, Any] | None:
        """Have worker ``worker`` carry out command ``data``; its ``worker_ack`` (``None``
        when it died first)."""

    def _case_id(self, key: Key) -> CaseId:
        eval_set = self.eval_sets[key[0]]
        return (eval_set.eval_set_id, eval_set.eval_cases[key[1]].eval_id)

    def _event(self, line: str) -> None:
        """An event line from a worker, passed on as it is or decoded for the observer."""
        if self.raw_events is not None:
            self.raw_events(line)
        else:
            replay_json_lines([line], self.observer)

    def _record(self, key: Key | None, result: EvalCaseResult) -> bool:
        """Keep ``result`` as case ``key``'s (marked when it was retried) and tell the
        observer; ``False`` when the case is unknown or already has its result."""
        self.deadlines.ended((result.eval_set_id, result.eval_id))
        if key is None or key in self.results:
            return False
        self._keep(key, result)
        return True

    def _keep(self, key: Key, result: EvalCaseResult) -> None:
        """``result`` is case ``key``'s (marked when it was retried): kept, timed, told."""
        self.results[key] = self.retries.mark(key, result)
        self._set_ended[key[0]] = time.perf_counter()
        self.observer.on_case_end(result)

    def _settle_lost(
        self,
        how: str,
        running: Mapping[CaseId, Key],
        others: bool,
        not_started: int,
        unsure: Mapping[CaseId, Key] | None = None,
    ) -> list[Key]:
        """A worker died ``how`` while running ``running``: each of those cases is retried
        once when ``others`` (other workers are alive), else ends as an error; the death is
        written to :attr:`deaths`. ``unsure`` cases may have started (their start was not
        read yet): they are settled alike, but observers are told of no retry (they saw
        no start). Returns the cases to run again (the caller queues them)."""
        from tenxeval_tui.evaluation.isolation import died_result

        retried: list[Key] = []
        seen = set(running)
        for case, key in {**(unsure or {}), **running}.items():
            if others and self.retries.take(key, how):
                retried.append(key)
                if case in seen:
                    self.observer.on_case_retry(case[0], case[1], how)
                continue
            eval_set = self.eval_sets[key[0]]
            self._keep(key, died_result(eval_set.eval_set_id, eval_set.eval_cases[key[1]], how))
        errored = len(running) + len(unsure or {}) - len(retried)
        self.deaths.append(death_line(how, len(retried), errored, not_started))
        self._last_death = how
        for case in [*running, *(unsure or {})]:
            self.deadlines.ended(case)
        return retried

    def _requeue(self, keys: Sequence[Key], *, retried: Sequence[Key] = ()) -> None:
        """Put ``keys`` back at the front of the queue, in this order, and the ``retried``
        ones in the queue of cases that run alone."""
        self.pending.extendleft(reversed(keys))
        self.retrying.extend(sorted(retried))

    def _left(self) -> int:
        """Cases not handed out yet (retried ones included)."""
        return len(self.pending) + len(self.retrying)

    def _next_batch(self, size: int, holding: Sequence[Key]) -> list[Key]:
        """The next cases for a worker holding ``holding`` (handed or running), at most
        ``size``: a retried case alone, to a worker holding nothing; none to a worker
        holding a retried case; else the next cases of the queue."""
        if any(key in self.retries.reasons for key in holding):
            return []
        if self.retrying and not holding:
            return [self.retrying.popleft()]
        count = min(len(self.pending), max(1, size))
        return [self.pending.popleft() for _ in range(count)]

    def _reports(self) -> list[EvalReport]:
        used = self.config.model_dump(mode="json")
        reports = []
        for s, eval_set in enumerate(self.eval_sets):
            count = len(eval_set.eval_cases)
            results = [self.results[(s, c)] for c in range(count) if (s, c) in self.results]
            partial = self.cancelled or len(results) < count
            ended = self._set_ended.get(s)
            reports.append(
                EvalReport.create(
                    eval_set_id=eval_set.eval_set_id,
                    results=results,
                    eval_set_name=eval_set.name,
                    config_used=used,
                    metadata={PARTIAL_KEY: True} if partial else {},
                    # the eval sets' cases are handed out together from the start
                    wall_seconds=None if ended is None else ended - self._run_began,
                )
            )
        return reports


__all__ = ["CaseId", "CasePool", "share_plan", "shares"]
