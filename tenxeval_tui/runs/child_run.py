"""``tenxeval-tui run``'s evaluation in a child process: the workbench's worker.

The agent runs in ``python -m tenxeval_tui.runs.worker`` (:mod:`tenxeval_tui.runs.worker`), so
nothing it does can end or hang the run: ``sys.exit``, ``os._exit``, a segfault,
``kill -9`` or the OOM killer end the child only, and the threads it leaves die with
it. The child keeps a run journal (:class:`~tenxeval_tui.evaluation.results.journal.RunJournal`)
next to the reports; the reports are rebuilt from it here, their results left in the
file and read a case at a time as the reports are written
(:mod:`~tenxeval_tui.evaluation.results.journal_results`: memory does not grow with the
cases), so a child that died still gives the report of the cases that finished. The journal
is removed once the reports are written; a ``run`` killed itself leaves it behind,
for ``tenxeval-tui run --from-journal``.

Ctrl-C (SIGINT) reaches the child too when it comes from the terminal; either way the
child is asked to stop (SIGTERM: finished cases are kept) and killed if it does not
within :data:`STOP_GRACE` seconds.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from tenxeval_tui.evaluation.dataset import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import (
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.observers import (
    ObserverGroup,
    RunObserver,
    replay_json_lines,
    started_case,
)
from tenxeval_tui.evaluation.results.journal_tail import CaseSeen, JournalTail
from tenxeval_tui.runs.brief_results import reads_brief_results
from tenxeval_tui.runs.case_starts import named_case, reads_case_ids
from tenxeval_tui.runs.child_setup import NOT_RUN, not_run_sets
from tenxeval_tui.runs.deadline_watch import DeadlineWatch, carry_on
from tenxeval_tui.runs.held_interrupts import HeldInterrupts
from tenxeval_tui.runs.journal_guard import JOURNAL_FAILED, KeptResults, with_kept
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.reports import marked_partial
from tenxeval_tui.runs.spare_worker import SpareWorker, worker_command

if TYPE_CHECKING:
    from tenxeval_tui.runs.batched_lines import BatchedLines

STOP_GRACE = 5.0
"""Seconds a child asked to stop may take before it is killed."""
TAIL_SECONDS = 0.05
"""The least time between two reads of the journal as the run goes (:class:`JournalTail`)."""
JOURNAL_GLOB = "run-*.journal.jsonl"


class _InFlight(RunObserver):
    """The cases started and not yet finished, in the order they started; the line of a
    case made of its ids alone (:mod:`~tenxeval_tui.runs.case_starts`) kept beside it,
    and the whole case made of it when read."""

    def __init__(self) -> None:
        self._cases: dict[tuple[str, str], EvalCase] = {}
        self._lines: dict[tuple[str, str], dict[str, Any]] = {}
        """The case_start line's data of each running case made of its ids."""

    def named_case(self, data: dict[str, Any]) -> EvalCase:
        """:func:`~tenxeval_tui.runs.case_starts.named_case`, its line's data kept."""
        case = named_case(data)
        self._lines[(str(data["eval_set_id"]), case.eval_id)] = data
        return case

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self._cases[(eval_set_id, case.eval_id)] = case

    def on_case_end(self, result: EvalCaseResult) -> None:
        key = (result.eval_set_id, result.eval_id)
        self._cases.pop(key, None)
        self._lines.pop(key, None)

    def cases(self) -> list[tuple[str, EvalCase]]:
        """Each case still running, whole as its line has it, with its eval set's id."""
        return [
            (key[0], started_case(self._lines[key]) if key in self._lines else case)
            for key, case in self._cases.items()
        ]


@dataclass
class ChildRun:
    """What a run in the child left: its reports (from the journal, their results read from
    it as they are needed) and how it ended."""

    reports: list[EvalReport] = field(default_factory=list)
    finished: bool = False
    """The worker wrote its last line and exited 0."""
    status: int | None = None
    interrupted: bool = False
    worker_error: str | None = None
    in_flight: list[tuple[str, EvalCase]] = field(default_factory=list)
    journal: Path | None = None
    worker_deaths: list[str] = field(default_factory=list)
    """With several workers: one line per worker that died mid-run (the run went on)."""
    warnings: list[str] = field(default_factory=list)
    """What else went wrong and how the run coped (a case past its deadline, a journal that
    could not be written), a line each."""

    @property
    def died(self) -> bool:
        """The child ended before the run did, unasked (os._exit, a signal, sys.exit...)."""
        return not self.finished and not self.interrupted and self.worker_error is None

    def how_it_ended(self) -> str:
        """The child's end in words: ``killed by signal 9 (SIGKILL)``, ``exited with status 7``."""
        if self.status is not None and self.status < 0:
            try:
                name = signal.Signals(-self.status).name
            except ValueError:
                name = "unknown signal"
            return f"killed by signal {-self.status} ({name})"
        return f"exited with status {self.status}"


_journals_named = itertools.count(1)


def journal_path(output_dir: Path) -> Path:
    """A new journal file in ``output_dir``: ``run-YYYYmmdd-HHMMSS-PID.journal.jsonl``,
    ``-2``, ``-3``... before ``.journal.jsonl`` for the later ones of this process. Two
    passes of one run (``--retry-errors``) can start within one second: with one name, the
    second appended to the first's journal, and its cases were counted twice."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    number = next(_journals_named)
    suffix = "" if number == 1 else f"-{number}"
    path = output_dir / f"run-{stamp}-{os.getpid()}{suffix}.journal.jsonl"
    while path.exists():  # another process of this pid (a reused pid) named it: the next
        number = next(_journals_named)
        path = output_dir / f"run-{stamp}-{os.getpid()}-{number}.journal.jsonl"
    return path


def child_plan(
    plan: RunPlan,
    journal: Path,
    verbose: bool,
    log_level: str | None = None,
    *,
    brief: bool = False,
) -> RunPlan:
    """``plan`` as the worker runs it here: keeping ``journal``, its reporters off (the
    reports are written by the caller, from the journal), only the event lines the
    deadline watch reads (the command line shows cases, not steps); ``brief``: its
    ``case_end`` lines brief (:mod:`~tenxeval_tui.runs.brief_results`)."""
    config = plan.resolved_config()
    config.reporter.enabled = False
    update = {
        "config": config,
        "journal": journal,
        "verbose": verbose,
        "log_level": log_level,
        "events": "judging",
        "case_end": "brief" if brief else plan.case_end,
    }
    return plan.model_copy(update=update)


def _start(
    plan: RunPlan, plan_file: Path, *, pipe_stderr: bool, spare: SpareWorker | None = None
) -> subprocess.Popen[bytes]:
    """The worker child running ``plan``: ``spare`` handed it when given and still there,
    else a new one (its plan in ``plan_file``)."""
    if spare is not None and (
        child := spare.hand(plan.model_dump_json(), plan.worker_env(), plan.told_spare())
    ):
        return child
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    env = plan.worker_env()
    return subprocess.Popen(
        worker_command(f"@{plan_file}"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if pipe_stderr else None,
        env=env,
    )


def _to_stderr(line: str) -> None:
    sys.stderr.write(line)


def _forward_lines(stream: IO[bytes], write: Callable[[str], None]) -> threading.Thread:
    """A thread handing each line of ``stream`` to ``write`` until it ends."""

    def pump() -> None:
        with stream:
            for raw in stream:
                write(raw.decode("utf-8", errors="replace"))

    thread = threading.Thread(target=pump, name="child-stderr", daemon=True)
    thread.start()
    return thread


class _Fanout(RunObserver):
    """One observer calling several (what one raises is logged, never raised)."""

    def __init__(self, observers: Sequence[RunObserver]) -> None:
        self.group = ObserverGroup(observers)

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.group.run_start(eval_set, cases)

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.group.case_start(eval_set_id, case)

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        self.group.repeat_start(eval_set_id, case, repeat, repeats)

    def on_case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        self.group.case_retry(eval_set_id, eval_id, reason)

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.group.case_end(result)

    def on_run_end(self, report: EvalReport) -> None:
        self.group.run_end(report)


class _Follower:
    """Reads the child's lines into the observers, and stops the child when asked.

    The agent's events are not decoded: the command line shows cases, not steps; nor a
    started case's turns when no observer reads them (:mod:`~tenxeval_tui.runs.case_starts`).
    """

    def __init__(
        self,
        child: subprocess.Popen[bytes],
        observers: Sequence[RunObserver],
        timeout: float | None,
        kept: KeptResults,
        tail: JournalTail | None = None,
    ) -> None:
        self.child = child
        self.tail = tail
        self._tail_read = 0.0
        self.in_flight = _InFlight()
        self.watch = DeadlineWatch(timeout, self.kill)
        self.kept = kept
        self.observer = _Fanout([*observers, self.in_flight, self.watch, kept])
        self._make_case = self.in_flight.named_case if reads_case_ids(observers) else started_case
        self.reports_written = False
        self.worker_error: str | None = None
        self.worker_deaths: list[str] = []
        self.not_run: list[tuple[str, str]] = []
        """``(path, problem)`` of each eval set the worker left out (no agent for it)."""
        self.planned_line = b""
        """The worker's ``worker_plan`` line (every case it will run), compressed: read
        only when the journal failed (:func:`planned_sets`), and as text it was bytes a
        case kept through the run (its ids and names; parsed, objects a case)."""
        self._killer: threading.Timer | None = None
        self._lines: BatchedLines | None = None  # made by the first pump

    def pump(self, stream: IO[bytes]) -> None:
        """Hand the child's lines on until ``stream`` ends (called again after a Ctrl-C: it
        goes on from the next line)."""
        import json
        import zlib

        from tenxeval_tui.runs.batched_lines import BatchedLines  # lazy: a child started

        if self._lines is None or self._lines.stream is not stream:
            self._lines = BatchedLines(stream)
        for raw in self._lines:
            if raw.startswith(b'{"type": "event"'):
                self.watch.event_line(raw)
                continue
            if raw.startswith(b'{"type": "worker_plan"'):
                self.planned_line = zlib.compress(raw, 1)
                continue
            text = raw.decode("utf-8", errors="replace")
            if replay_json_lines([text], self.observer, make_case=self._make_case):
                if self.tail is not None and text.startswith('{"type": "case_end"'):
                    self._follow_journal()
                continue
            if not text.startswith('{"type": "worker_'):
                continue
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if data.get("type") == "worker_error":
                self.worker_error = str(data.get("message", "the worker failed"))
            elif data.get("type") == NOT_RUN:
                self.not_run += [s for s in not_run_sets(data) if s not in self.not_run]
            elif data.get("type") == "worker_died":
                self.worker_deaths.append(str(data.get("message", "a worker died")))
            elif data.get("type") == "worker_reports":
                self.reports_written = True
            elif data.get("type") == JOURNAL_FAILED:
                self.kept.journal_failed(str(data.get("message", "the journal failed")))

    def _follow_journal(self) -> None:
        """Read what the journal gained (its case lines come before their ``case_end``),
        at most every :data:`TAIL_SECONDS`: the reports are ready soon after the last."""
        now = time.monotonic()
        if self.tail is not None and now - self._tail_read >= TAIL_SECONDS:
            self._tail_read = now
            # A Ctrl-C in the middle of a line's read lost the line (its offset was taken,
            # its case not): the read is whole, then the interrupt is raised.
            with HeldInterrupts() as held:
                self.tail.read_new()
            if held.pending:
                raise KeyboardInterrupt

    def stop(self) -> None:
        """SIGTERM (a clean cancel), then SIGKILL after :data:`STOP_GRACE` seconds."""
        if self.child.poll() is not None:
            return
        self.child.terminate()
        self._killer = threading.Timer(STOP_GRACE, self.kill)
        self._killer.daemon = True
        self._killer.start()

    def kill(self) -> None:
        if self.child.poll() is None:
            self.child.kill()

    def done(self) -> None:
        if self._killer is not None:
            self._killer.cancel()


def run_in_child(
    plan: RunPlan,
    observers: Sequence[RunObserver],
    *,
    verbose: bool = False,
    log_level: str | None = None,
    stderr: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
    spare: SpareWorker | None = None,
    on_journal_case: CaseSeen | None = None,
    on_handed: Callable[[], object] | None = None,
) -> ChildRun:
    """Run ``plan`` in the worker, feeding ``observers``; never raises
    ``KeyboardInterrupt`` (it stops the child and says so in :attr:`ChildRun.interrupted`).
    ``stop``, set from another thread, stops the child the same way (a run off the main
    thread, which Ctrl-C never reaches). ``spare``: a worker started already, handed the
    plan instead of starting one (:mod:`~tenxeval_tui.runs.spare_worker`).
    ``on_journal_case`` is told of each case as this process reads it in the journal,
    while the run goes (:class:`~tenxeval_tui.evaluation.results.journal_tail.JournalTail`).
    ``on_handed`` is called once, as soon as the (first) worker has the plan.

    The child's stderr (the agent's prints, the log records of ``verbose`` or
    ``log_level``) goes to this process's stderr as it is, or each line to ``stderr`` when
    given (so a progress bar can print it above itself)."""
    config = plan.resolved_config()
    output_dir = Path(config.reporter.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    journal = journal_path(output_dir)
    outcome = ChildRun(journal=journal)
    kept = KeptResults()
    tail = JournalTail(journal, on_journal_case)
    planned = b""
    # The follower's own observers (cases in flight, deadlines, results kept once the
    # journal failed, which the worker then sends lean) read no more than a brief line.
    brief = reads_brief_results(observers)
    segment: RunPlan | None = child_plan(plan, journal, verbose, log_level, brief=brief)
    with tempfile.TemporaryDirectory(prefix="tenxeval-run-") as tmp:
        while segment is not None:  # a child killed past a case's deadline: the rest anew
            follower = _run_child(
                segment, Path(tmp), observers, outcome, kept, tail, stderr, stop, spare, on_handed
            )
            spare = on_handed = None  # a later segment starts its own
            planned = planned or follower.planned_line
            outcome.worker_deaths += follower.worker_deaths
            for path, problem in follower.not_run:  # each segment's worker says it again
                if (line := f"skipped {path}: {problem}") not in outcome.warnings:
                    outcome.warnings.append(line)
            ran, segment = segment, None
            if follower.watch.overdue and not outcome.interrupted:
                segment, line = carry_on(ran, journal, follower.watch, follower.observer)
                outcome.warnings.append(line)
                outcome.finished = segment is None  # nothing was left: the run is whole
    outcome.finished = outcome.finished or (follower.reports_written and outcome.status == 0)
    outcome.worker_error = follower.worker_error
    outcome.in_flight = follower.in_flight.cases()
    try:
        outcome.reports = tail.finish() if journal.is_file() else []
    except (OSError, EvalFileError) as exc:
        outcome.warnings.append(f"the run's journal could not be read: {exc}")
    if kept.failure is not None:
        outcome.reports = with_kept(outcome.reports, kept, planned_sets(planned), outcome.finished)
        outcome.warnings.append(
            f"the run's journal could not be written ({kept.failure}): the report holds "
            f"the {len(kept.results)} case(s) it lacks as the worker sent them"
        )
    return outcome


def planned_sets(line: bytes) -> list[dict[str, Any]]:
    """The ``eval_sets`` of a ``worker_plan`` line compressed by :mod:`zlib` (none when
    it is not one)."""
    import json
    import zlib

    try:
        data = json.loads(zlib.decompress(line).decode("utf-8", errors="replace")) if line else {}
    except ValueError:
        return []
    return list(data.get("eval_sets") or []) if isinstance(data, dict) else []


def _run_child(
    plan: RunPlan,
    folder: Path,
    observers: Sequence[RunObserver],
    outcome: ChildRun,
    kept: KeptResults,
    tail: JournalTail,
    stderr: Callable[[str], None] | None,
    stop: threading.Event | None = None,
    spare: SpareWorker | None = None,
    on_handed: Callable[[], object] | None = None,
) -> _Follower:
    """Run ``plan`` in one worker child until it ends, following its lines;
    ``on_handed`` called once the child has the plan."""
    with HeldInterrupts() as held:  # until the loop below can stop the child
        child = _start(plan, folder / "plan.json", pipe_stderr=stderr is not None, spare=spare)
        if on_handed is not None:
            on_handed()
        forwarder = None
        if child.stderr is not None:  # a spare's stderr is a pipe whoever reads it
            forwarder = _forward_lines(child.stderr, stderr or _to_stderr)
        # A pooled run's driver keeps its workers' deadlines (its own loop runs no agent).
        timeout = None if plan.pooled else plan.resolved_config().timeout
        follower = _Follower(child, observers, timeout, kept, tail)
        ended = threading.Event()
        if stop is not None:
            _stop_when(stop, ended, outcome, follower)
    if held.pending:
        outcome.interrupted = True
        follower.stop()
    assert child.stdout is not None
    while True:
        try:
            follower.pump(child.stdout)
            break
        except KeyboardInterrupt:
            if outcome.interrupted:  # a second Ctrl-C: no more waiting
                follower.kill()
            outcome.interrupted = True
            follower.stop()
    outcome.status = _wait(child, follower)
    ended.set()
    follower.watch.close()
    if forwarder is not None:
        forwarder.join(timeout=1.0)  # its last lines (a grandchild may hold the pipe)
    return follower


def _stop_when(
    stop: threading.Event, ended: threading.Event, outcome: ChildRun, follower: _Follower
) -> None:
    """A thread stopping the child as Ctrl-C would once ``stop`` is set (until ``ended``)."""

    def watch() -> None:
        while not ended.is_set():
            if stop.wait(0.1):
                if not ended.is_set():
                    outcome.interrupted = True
                    follower.stop()
                return

    threading.Thread(target=watch, name="child-stop", daemon=True).start()


def _wait(child: subprocess.Popen[bytes], follower: _Follower) -> int:
    while True:
        try:
            status = child.wait()
            follower.done()
            return status
        except KeyboardInterrupt:
            follower.kill()


def child_reports(outcome: ChildRun, config_used: dict[str, Any]) -> list[EvalReport]:
    """The reports of a child run: its cases in flight when it died added as errors, every
    report marked partial unless the run finished."""
    reports = list(outcome.reports)
    if outcome.died:
        # here, not at the top: the parent hands its plan over without it (issue #38)
        from tenxeval_tui.evaluation.isolation import died_result
        from tenxeval_tui.evaluation.results.streamed_reports import with_results_added

        how = outcome.how_it_ended()
        for set_id, case in outcome.in_flight:
            index = next(
                (i for i in range(len(reports) - 1, -1, -1) if reports[i].eval_set_id == set_id),
                None,
            )
            if index is None:
                reports.append(EvalReport.create(eval_set_id=set_id, results=[]))
                index = len(reports) - 1
            reports[index] = with_results_added(reports[index], [died_result(set_id, case, how)])
    if not outcome.finished:
        reports = [marked_partial(r) for r in reports]
    return [r.model_copy(update={"config_used": config_used}) for r in reports]


__all__ = [
    "JOURNAL_GLOB",
    "ChildRun",
    "child_plan",
    "child_reports",
    "journal_path",
    "run_in_child",
]
