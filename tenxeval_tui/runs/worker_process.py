"""The worker as seen from the UI: start it, read its lines into a :class:`LiveRun`, stop it.

Reading happens on the UI's event loop; :meth:`WorkerProcess.pump` gives the
loop back every few milliseconds, so a flood of events never holds up input. A big
line (a case result with thousands of steps) is decoded in a thread, for the same reason.
It keeps each case's deadline too (:class:`~tenxeval_tui.runs.deadline_watch.DeadlineWatch`):
an agent that blocks the worker's event loop past its timeout has the worker killed, its
case ends as timed out (in the live run and the journal) and the run ends, errored, saying
why; the cases left are those the run view offers to run again.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.events import EventModel
from tenxeval_tui.evaluation.files.fileio import freeze_alive
from tenxeval_tui.evaluation.observers import RunObserver, replay_json_lines
from tenxeval_tui.evaluation.results.journal import RunJournal
from tenxeval_tui.runs.deadline_watch import DeadlineWatch, overdue_results
from tenxeval_tui.runs.live_run import LiveRun
from tenxeval_tui.runs.plan import RunPlan

# Longest stretch of line handling before the loop gets a turn (keeps input latency low).
SLICE_SECONDS = 0.008
# How long a cancelled worker may take to write its partial report before it is killed.
TERMINATE_GRACE = 3.0
LINE_LIMIT = 256 * 1024 * 1024
# Lines longer than this are decoded in a thread.
BIG_LINE = 64 * 1024

Call = tuple[str, tuple[Any, ...]]
DEADLINE_CALLS = frozenset({"on_case_start", "on_repeat_start", "on_case_end"})
"""The calls that start and end a case's deadline."""
EVENT_PREFIX = b'{"type": "event"'


@contextlib.contextmanager
def full_collections_deferred() -> Iterator[None]:
    """No full (generation 2) garbage collection inside; what survived is frozen after.

    A run keeps tens of thousands of events alive; a full collection scans them all
    and stops the UI for hundreds of milliseconds, every time the heap grows by a
    quarter. Young generations are still collected; after the run its objects are
    frozen (``gc.freeze``) so later full collections skip them. Freed objects are
    still freed by reference counting.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 1_000_000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        freeze_alive()


class _Recorder(RunObserver):
    """Keeps the observer calls one line decodes to, to replay them on the UI's loop."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.calls.append(("on_run_start", (eval_set, cases)))

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.calls.append(("on_case_start", (eval_set_id, case)))

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        self.calls.append(("on_event", (eval_set_id, eval_id, event)))

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        self.calls.append(("on_repeat_start", (eval_set_id, case, repeat, repeats)))

    def on_repeat_event(
        self, eval_set_id: str, eval_id: str, repeat: int, event: EventModel
    ) -> None:
        self.calls.append(("on_repeat_event", (eval_set_id, eval_id, repeat, event)))

    def on_repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        self.calls.append(("on_repeat_end", (eval_set_id, eval_id, result, repeats)))

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.calls.append(("on_case_end", (result,)))

    def on_case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        self.calls.append(("on_case_retry", (eval_set_id, eval_id, reason)))

    def on_run_end(self, report: EvalReport) -> None:
        self.calls.append(("on_run_end", (report,)))


def decode(line: bytes) -> list[Call]:
    """The :class:`LiveRun` calls one line of the worker stands for (none for noise)."""
    text = line.decode("utf-8", errors="replace")
    recorder = _Recorder()
    if replay_json_lines([text], recorder):
        return recorder.calls
    if text.startswith('{"type": "worker_'):
        with contextlib.suppress(ValueError):
            return [("on_worker_line", (json.loads(text),))]
    return []


class WorkerProcess:
    """One worker child process and the :class:`LiveRun` it feeds."""

    def __init__(self, plan: RunPlan, run: LiveRun, *, cwd: Path | None = None) -> None:
        self.plan = plan
        self.run = run
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None
        self.cancelled = False
        self.watch: DeadlineWatch | None = None

    async def start(self) -> None:
        """Start the child process (fresh imports of the agent every time)."""
        env = self.plan.worker_env()
        command = self.plan.command()
        self.process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,  # commands (runs.worker_commands)
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.cwd,
            env=env,
            limit=LINE_LIMIT,
            start_new_session=True,
        )

    async def pump(self) -> int:
        """Read every line until the worker exits; returns its exit status."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stderr_task = asyncio.create_task(self._read_stderr(process.stderr))
        try:  # a pooled run's driver keeps its workers' deadlines itself
            timeout = None if self.plan.pooled else self.plan.resolved_config().timeout
        except Exception:  # a config that does not load: the worker says why
            timeout = None
        watch = DeadlineWatch(timeout, self._kill_blocked) if timeout else None
        self.watch = watch
        try:
            with full_collections_deferred():
                await self._read_lines(process.stdout)
        finally:
            if watch is not None:
                watch.close()
        code = await process.wait()
        await stderr_task
        if watch is not None and watch.overdue and not self.cancelled:
            self._end_overdue(watch)
        self.run.finish(code, cancelled=self.cancelled)
        return code

    def _kill_blocked(self) -> None:
        """The deadline watch's thread: a case blocked the worker past its deadline."""
        self._signal(signal.SIGKILL)

    def _end_overdue(self, watch: DeadlineWatch) -> None:
        """The cases the worker was killed for end as timed out (in the journal too)."""
        for result in overdue_results(watch):
            self.run.on_case_end(result)
            if self.plan.journal is not None:
                RunJournal(self.plan.journal).on_case_end(result)
            self.run.worker_error = (
                f"case {result.eval_id} ran past its deadline ({watch.timeout:g}s) without "
                "giving control back (a blocked event loop): the worker was killed"
            )

    async def _read_lines(self, stdout: asyncio.StreamReader) -> None:
        deadline = time.perf_counter() + SLICE_SECONDS
        while True:
            line = await stdout.readline()
            if not line:
                break
            if self.watch is not None and line.startswith(EVENT_PREFIX):
                self.watch.event_line(line)
            if len(line) > BIG_LINE:
                self._apply(await asyncio.to_thread(decode, line))
            else:
                self._apply(decode(line))
            if time.perf_counter() >= deadline:
                await asyncio.sleep(0)
                deadline = time.perf_counter() + SLICE_SECONDS

    def _apply(self, calls: list[Call]) -> None:
        for name, args in calls:
            getattr(self.run, name)(*args)
            if self.watch is not None and name in DEADLINE_CALLS:
                getattr(self.watch, name)(*args)

    async def _read_stderr(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self.run.stderr_tail.append(line.decode("utf-8", errors="replace").rstrip("\n"))

    async def send(self, command: dict[str, Any]) -> bool:
        """Write ``command`` (see :mod:`~tenxeval_tui.runs.worker_commands`) to the worker;
        ``False`` when it is gone. Its answer comes as a ``worker_ack`` line."""
        process = self.process
        if process is None or process.returncode is not None or process.stdin is None:
            return False
        try:
            process.stdin.write((json.dumps(command) + "\n").encode("utf-8"))
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True

    async def cancel(self) -> None:
        """Ask the worker to stop (SIGTERM: it writes a partial report); kill it if it hangs."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        self.cancelled = True
        self._signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), TERMINATE_GRACE)
        except TimeoutError:
            self._signal(signal.SIGKILL)

    def kill(self) -> None:
        """Kill the worker (and anything it started) at once."""
        self.cancelled = True
        self._signal(signal.SIGKILL)

    def _signal(self, sig: signal.Signals) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        # The worker leads its own process group: the agent's children go too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)

    @property
    def running(self) -> bool:
        """The child process has started and not exited."""
        return self.process is not None and self.process.returncode is None


__all__ = ["WorkerProcess"]
