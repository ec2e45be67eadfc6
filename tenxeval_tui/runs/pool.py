"""Local processes (``run --workers N``): the cases of one run handed out to N worker processes.

:class:`ProcessPool` is the driver; it runs inside the run's worker child
(:mod:`tenxeval_tui.runs.worker`) in place of the single evaluator, so every front end
(``run``, the workbench, watch) gets it through the same :class:`RunPlan` and the same
protocol lines. It starts N :mod:`tenxeval_tui.runs.pool_worker` processes, each with
its share of the run's concurrency, and hands cases out dynamically in small batches, as
each worker asks (so a slow case never leaves one worker as the tail). Every line a worker
writes comes back as it is written: its events (each tagged with its case) in order per
case; the driver feeds them to the run's observers (the protocol stream, the journal),
calls ``on_run_start`` and ``on_run_end`` for each eval set itself, and returns one
report per eval set in input order.

Faults: a worker that dies mid-run (a kill, the OOM killer, ``os._exit``): the cases it was
running run once more on another worker (:mod:`tenxeval_tui.runs.retry`; their results say
so), or end as errors saying which worker died and how when their retry's worker dies too;
the cases it was handed but had not started go to the others; nothing is counted twice.
While cases are left, a new worker starts in its place (one that cannot load ends the
replacing; one whose process is up only after the others ended every case is told at once
that nothing will come); cases no worker is left to run end as errors. A case still running past its
deadline has blocked its worker: it ends as timed out and that worker is killed (see
:mod:`~tenxeval_tui.runs.case_deadlines`). A worker that cannot load (the agent does not
import) stops the run before any case is handed out, the error said once.
:meth:`ProcessPool.cancel` stops every worker promptly; finished cases are kept.

Commands (stop one case, end its tool call: :meth:`CasePool.command`) go to the workers
holding the case as lines on their stdin, beside the batches, each with an ``ask`` number
that the worker's ``worker_ack`` line gives back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.observers import replay_json_lines
from tenxeval_tui.evaluation.results.lean_load import case_result
from tenxeval_tui.runs.case_pool import CaseId, CasePool, share_plan, shares
from tenxeval_tui.runs.retry import Key
from tenxeval_tui.runs.worker_count import MAX_WORKERS, default_workers, resolve_workers

LINE_LIMIT = 256 * 1024 * 1024
"""The longest line read from a worker (a case result with thousands of steps)."""
STOP_GRACE = 5.0
"""Seconds a worker asked to stop may take before it is killed."""
EVENT_PREFIX = b'{"type": "event"'
CASE_END_PREFIX = b'{"type": "case_end"'


def how_it_ended(status: int | None) -> str:
    """A process's end in words: ``killed by signal 9 (SIGKILL)``, ``exited with status 7``."""
    if status is not None and status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "unknown signal"
        return f"killed by signal {-status} ({name})"
    return f"exited with status {status}"


@dataclass
class _Worker:
    number: int
    process: asyncio.subprocess.Process
    share: int
    ready: bool = False
    wants: bool = False
    alive: bool = True
    handed: deque[Key] = field(default_factory=deque)
    """Cases handed over and not started yet, in order."""
    running: dict[CaseId, Key] = field(default_factory=dict)
    asked: dict[int, asyncio.Future[dict[str, Any] | None]] = field(default_factory=dict)
    """Commands sent and not answered yet, by ``ask`` number."""
    killed_for: str | None = None
    """Why the driver killed it (its death is told so)."""
    replacement: bool = False
    """Started in the place of a dead worker (a load failure does not stop the run)."""


class ProcessPool(CasePool):
    """Runs the cases of ``eval_sets`` (as ``plan`` selects them) in ``workers`` processes
    (the constructor's arguments and the results are :class:`CasePool`'s)."""

    def _init_backend(self) -> None:
        self.workers: list[_Worker] = []
        self._done_sent = False
        self._asks = 0
        self._serving = False
        """Every first worker has loaded (or failed to): cases are handed out."""
        self._folder = Path()
        self._following: set[asyncio.Task[None]] = set()

    # -- starting ---------------------------------------------------------

    async def _start(self, folder: Path) -> None:
        self._folder = folder
        for number, share in enumerate(shares(self.config.effective_concurrency, self.count)):
            await self._spawn(number + 1, share)

    async def _spawn(self, number: int, share: int, *, replacement: bool = False) -> None:
        """Start worker ``number`` (in the place of the dead one when a ``replacement``)."""
        plan_file = self._folder / f"worker-{number}.json"
        if not plan_file.exists():
            plan_file.write_text(
                share_plan(self.plan, self.config, share).model_dump_json(), encoding="utf-8"
            )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tenxeval_tui.runs.pool_worker",
            f"@{plan_file}",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=self.plan.worker_env(),
            limit=LINE_LIMIT,
        )
        worker = _Worker(number, process, share, replacement=replacement)
        if number <= len(self.workers):
            self.workers[number - 1] = worker
        else:
            self.workers.append(worker)
        if self.cancelled:  # stopped while it started
            process.terminate()
        elif self._done_sent:  # a replacement up after every case ended: nothing will come
            self._send(worker, {"type": "done"})
        task = asyncio.get_running_loop().create_task(self._follow(worker))
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    # -- running ----------------------------------------------------------

    async def _run_cases(self) -> None:
        with tempfile.TemporaryDirectory(prefix="tenxeval-pool-") as tmp:
            await self._start(Path(tmp))
            while self._following:  # a dead worker's replacement is followed too
                await asyncio.wait(set(self._following))

    def cancel(self) -> None:
        """Stop every worker now (SIGTERM, then SIGKILL after :data:`STOP_GRACE`)."""
        self.cancelled = True
        loop = asyncio.get_running_loop()
        for worker in self.workers:
            if worker.alive and worker.process.returncode is None:
                worker.process.terminate()
                loop.call_later(STOP_GRACE, _kill, worker.process)

    async def _follow(self, worker: _Worker) -> None:
        stream = worker.process.stdout
        assert stream is not None
        while raw := await stream.readline():
            if raw.startswith(EVENT_PREFIX):
                self._event_line(raw)
                self._event(raw.decode("utf-8", errors="replace"))
                continue
            self._handle(worker, raw)
        status = await worker.process.wait()
        worker.alive = False
        self._ended(worker, status)

    def _handle(self, worker: _Worker, raw: bytes) -> None:
        try:
            data = json.loads(raw)
        except ValueError as exc:
            if raw.startswith(CASE_END_PREFIX):  # a result no one could read: never waited for
                self._kill_worker(
                    worker.number,
                    f"{self._worker_name(worker.number)} sent a "
                    f"case result that cannot be read ({exc})",
                )
            return  # not a protocol line
        if not isinstance(data, dict):
            return
        kind = data.get("type")
        if kind == "pool_ready":
            worker.ready = True
            self._serve_all()
        elif kind == "want":
            worker.wants = True
            self._serve_all()
        elif kind == "worker_error":
            message = str(data.get("message", "a worker failed to start"))
            if worker.replacement:  # the run goes on without it; no more replacing
                self.max_replacements = self.replaced
                name = self._worker_name(worker.number)
                worker.killed_for = f"{name}'s replacement could not load: {message}"
            elif self.worker_error is None:
                self.worker_error = message
                self.cancel()
        elif kind == "case_start":
            key = (str(data.get("eval_set_id")), str(data.get("eval_id")))
            started = self._started(worker, key)
            if started is not None:
                worker.running[key] = started
                self._case_running(key)
            replay_json_lines([raw.decode("utf-8", errors="replace")], self.observer)
        elif kind == "repeat_start":
            self._case_running((str(data.get("eval_set_id")), str(data.get("eval_id"))))
            replay_json_lines([raw.decode("utf-8", errors="replace")], self.observer)
        elif kind == "worker_ack":
            answer = worker.asked.pop(int(data.get("ask") or 0), None)
            if answer is not None and not answer.done():
                answer.set_result(data)
        elif kind == "case_end":
            result = case_result(data["result"])  # made lean (see lean_load)
            found = worker.running.pop((result.eval_set_id, result.eval_id), None)
            if self._record(found, result):
                self._serve_all()
        else:
            replay_json_lines([raw.decode("utf-8", errors="replace")], self.observer)

    def _holders(self, case: CaseId) -> list[int]:
        return [
            w.number
            for w in self.workers
            if w.alive
            and (case in w.running or any(self._case_id(key) == case for key in w.handed))
        ]

    async def _ask(self, worker: int, data: dict[str, Any]) -> dict[str, Any] | None:
        target = self.workers[worker - 1]
        self._asks += 1
        answer: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        target.asked[self._asks] = answer
        self._send(target, {**data, "ask": self._asks})
        return await answer

    def _started(self, worker: _Worker, case: CaseId) -> Key | None:
        for index, key in enumerate(worker.handed):
            if self._case_id(key) == case:
                del worker.handed[index]
                return key
        return None

    def _outstanding(self) -> int:
        return sum(len(w.handed) + len(w.running) for w in self.workers if w.alive)

    def _serve_all(self) -> None:
        if not self._serving:
            if not all(w.ready or not w.alive for w in self.workers):
                return  # no case starts before every worker has loaded (or failed to)
            self._serving = True
        for worker in self.workers:
            if worker.wants and worker.alive and worker.ready:
                self._serve(worker)
        if not self._left() and not self._outstanding():
            self._finish()

    def _serve(self, worker: _Worker) -> None:
        if self.cancelled or not self._left():
            return  # parked: a dead worker's cases may come back to the queue
        # Small batches (one case per slot of the worker), asked for as its queue runs dry:
        # a slow case never leaves one worker holding the tail.
        batch = self._next_batch(worker.share, [*worker.handed, *worker.running.values()])
        if not batch:
            return  # it holds a retried case, or the retried one waits for a free worker
        worker.handed.extend(batch)
        worker.wants = False
        self._send(worker, {"type": "batch", "cases": [list(key) for key in batch]})

    def _finish(self) -> None:
        if self._done_sent:
            return
        self._done_sent = True
        for worker in self.workers:
            if worker.alive:
                self._send(worker, {"type": "done"})

    def _send(self, worker: _Worker, data: dict[str, object]) -> None:
        stdin = worker.process.stdin
        if stdin is None or stdin.is_closing():
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            stdin.write((json.dumps(data) + "\n").encode())

    def _ended(self, worker: _Worker, status: int) -> None:
        """A worker's output ended: what it was running goes back to the queue once (else
        is an error), unless the run was stopped; what it had not started goes back too;
        while cases are left, a new worker starts in its place."""
        retried: list[Key] = []
        how = worker.killed_for or f"{self._worker_name(worker.number)} {how_it_ended(status)}"
        busy = bool(worker.running or worker.handed)
        loading = not worker.ready and not worker.replacement
        if not self.cancelled and status != 0 and loading and self.worker_error is None:
            self.worker_error = f"worker {worker.number} {how_it_ended(status)} while loading"
            self.cancel()
        elif not self.cancelled and self.worker_error is None and busy:
            others = any(w.alive for w in self.workers if w is not worker) or (
                worker.ready and self.replaced < self.max_replacements
            )
            retried = self._settle_lost(how, worker.running, others, len(worker.handed))
        elif status != 0 and not self.cancelled:
            self._last_death = how
        self._requeue(list(worker.handed), retried=retried)
        worker.handed.clear()
        worker.running.clear()
        if worker.ready and self._may_replace():
            replacing = self._spawn(worker.number, worker.share, replacement=True)
            task = asyncio.get_running_loop().create_task(replacing)
            self._following.add(task)
            task.add_done_callback(self._following.discard)
        for answer in worker.asked.values():  # it will never answer: it held nothing now
            if not answer.done():
                answer.set_result(None)
        worker.asked.clear()
        if any(w.alive for w in self.workers):
            self._serve_all()

    # -- deadlines ----------------------------------------------------------

    def _take_running(self, case: CaseId) -> tuple[int, Key] | None:
        for worker in self.workers:
            if worker.alive and case in worker.running:
                return worker.number, worker.running.pop(case)
        return None

    def _worker_name(self, worker: int) -> str:
        return f"worker {worker} of {self.count}"

    def _kill_worker(self, worker: int, how: str) -> None:
        target = self.workers[worker - 1]
        if target.alive and target.process.returncode is None:
            target.killed_for = target.killed_for or how
            _kill(target.process)


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()


__all__ = [
    "MAX_WORKERS",
    "ProcessPool",
    "default_workers",
    "how_it_ended",
    "resolve_workers",
    "shares",
]
