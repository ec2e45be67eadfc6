"""Running an agent in a child process, so that nothing it does ends or hangs the caller.

The pytest helpers (:mod:`.testing`) run the agent here under pytest: ``sys.exit``,
``os._exit``, a segfault, ``kill -9`` or the OOM killer end the child only, and the
threads the agent leaves die with it (the child ends with ``os._exit`` once its result
is sent). The child is a **fork** of the calling process (POSIX only): it starts with
everything the test built (the graph, its closures, fixtures, monkeypatches, a scripted
model), so nothing is pickled or re-imported on the way in; only the result comes back
(pickled). What the agent changes in memory (a counter, a mock's calls) stays in the
child.

:func:`call_in_child` runs any coroutine function there; :func:`evaluate_in_child` runs
an :class:`AgentEvaluator` on an eval set and keeps a run journal, so that a child that
died still gives the report of the cases that finished (the case it was running is
an error naming how the child ended) in :class:`AgentProcessDied`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pickle
import signal
import sys
import tempfile
import traceback
import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import (
    CASE_SHA256_KEY,
    EVAL_SET_ID_KEY,
    NOT_RUN_KEY,
    PARTIAL_KEY,
    PROVENANCE_KEY,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.provenance import run_provenance
from tenxeval_tui.evaluation.provenance.hashing import case_sha256
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator

CHILD_FAILED = 70
"""The child's exit status when its result could not be sent back."""


_IN_CHILD = False
"""Set in the child: what runs there is isolated already (no child of a child)."""


def can_isolate() -> bool:
    """Whether agents can run in a forked child here (POSIX: Linux, macOS), and this is
    not such a child already."""
    return hasattr(os, "fork") and not _IN_CHILD


def how_it_ended(status: int) -> str:
    """A child's end in words: ``killed by signal 9 (SIGKILL)``, ``exited with status 7``."""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "unknown signal"
        return f"killed by signal {-status} ({name})"
    return f"exited with status {status}"


def died_result(eval_set_id: str, case: EvalCase, how: str) -> EvalCaseResult:
    """The error result of a case that was running when the agent's process died."""
    return EvalCaseResult(
        eval_id=case.eval_id,
        name=case.name,
        passed=False,
        error=f"the agent's process died while this case ran ({how})",
        metadata={
            EVAL_SET_ID_KEY: eval_set_id,
            "error_info": {"error_type": "ProcessDied"},
            **({"tags": list(case.tags)} if case.tags else {}),
            CASE_SHA256_KEY: case_sha256(case),
        },
    )


class ChildError(Exception):
    """An exception of the child that could not be sent back as itself."""


@dataclass
class ChildEnd:
    """How a child ended: its return value or its exception, or its death (neither)."""

    status: int
    """The exit status (negative: killed by that signal), as ``subprocess`` says it."""
    returned: bool = False
    value: Any = None
    error: BaseException | None = None

    @property
    def died(self) -> bool:
        """The child ended without sending a result back (os._exit, a signal...)."""
        return not self.returned and self.error is None

    def how(self) -> str:
        """How the child ended, in words."""
        return how_it_ended(self.status)


async def call_in_child(func: Callable[[], Awaitable[Any]]) -> ChildEnd:
    """Await ``func()`` on an event loop of its own in a forked child, and wait for the
    child without blocking this event loop.

    What ``func`` returns or raises comes back pickled (an exception that cannot be
    pickled comes back as :class:`ChildError` with its text; either carries the child's
    traceback as a note). Cancelling the wait kills the child.
    """
    with tempfile.TemporaryDirectory(prefix="tenxeval-child-") as folder:
        result = Path(folder) / "result.pickle"
        read_end, write_end = os.pipe()
        parent = os.getpid()
        with warnings.catch_warnings():
            # The child only runs the agent and ends with os._exit; threads of this
            # process (a judge pool, a helper loop) are not used there.
            warnings.filterwarnings(
                "ignore", "This process .* is multi-threaded", DeprecationWarning
            )
            pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            os.close(read_end)
            _die_with(parent)
            _child_main(func, result, write_end)
        os.close(write_end)
        status = await _wait(pid, read_end)
        end = ChildEnd(status=status)
        if result.is_file():
            returned, payload = pickle.loads(result.read_bytes())
            if returned:
                end.returned, end.value = True, payload
            else:
                end.error = payload
        return end


def _die_with(parent: int) -> None:
    """Have the kernel kill this child when ``parent`` ends (Linux), so that a pytest
    killed outright (a CI timeout, ``pytest-timeout``'s thread method) leaves no agent
    running on; elsewhere, or if it cannot be set, nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the signal was set
        os._exit(CHILD_FAILED)


_PR_SET_PDEATHSIG = 1


def _child_main(func: Callable[[], Awaitable[Any]], result: Path, keep_open: int) -> NoReturn:
    """Run ``func`` in this child, pickle its outcome into ``result`` and end now (the
    threads the agent left are not waited for). ``keep_open`` is the pipe the parent
    waits on: it closes when this process ends, however it ends."""
    global _IN_CHILD
    del keep_open  # held open until the process ends
    _IN_CHILD = True
    code = 0
    try:
        try:
            # Not asyncio.run: its end waits for the executor threads the agent left.
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            payload: tuple[bool, Any] = (True, loop.run_until_complete(func()))
        except BaseException as exc:  # SystemExit, KeyboardInterrupt too: sent back
            payload = (False, _sendable(exc))
        try:
            data = pickle.dumps(payload)
        except Exception as exc:
            data = pickle.dumps((False, ChildError(f"the result cannot be sent back: {exc}")))
        partial = result.with_suffix(".partial")
        partial.write_bytes(data)
        os.replace(partial, result)
    except BaseException:
        traceback.print_exc()
        code = CHILD_FAILED
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _sendable(exc: BaseException) -> BaseException:
    """``exc`` with the child's traceback as a note, or a :class:`ChildError` saying it
    when ``exc`` does not survive pickling."""
    told = "".join(traceback.format_exception(exc)).rstrip()
    try:
        copy = pickle.loads(pickle.dumps(exc))
        if not isinstance(copy, BaseException):
            raise TypeError(type(copy).__name__)
    except Exception:
        copy = ChildError(f"{type(exc).__name__}: {exc}")
    copy.add_note(f"(raised in the agent's child process)\n{told}")
    return copy


async def _wait(pid: int, read_end: int) -> int:
    """Wait for the child's end (its end of the pipe closing), then reap it."""
    loop = asyncio.get_running_loop()
    closed: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not os.read(read_end, 4096) and not closed.done():
            closed.set_result(None)

    reaped = False
    try:
        loop.add_reader(read_end, readable)
        await closed
        _, status = os.waitpid(pid, 0)
        reaped = True
        return os.waitstatus_to_exitcode(status)
    finally:
        loop.remove_reader(read_end)
        os.close(read_end)
        if not reaped:  # the wait was cancelled (a timeout, Ctrl-C): the child goes too
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


class _StartsJournal(RunJournal):
    """A :class:`RunJournal` that also notes each case as it starts (``case_start``
    lines, which :func:`read_journal_runs` passes over), to tell which case a dead child
    was running."""

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self._append(
            {
                "type": "case_start",
                "eval_set_id": eval_set_id,
                "eval_id": case.eval_id,
            }
        )


class AgentProcessDied(RuntimeError):
    """The agent's process died before its evaluation finished.

    ``report`` holds the cases that finished, the cases that were running as errors
    naming how the process ended, and the ids of those that never ran under
    ``metadata["not_run"]``; it is marked partial.
    """

    def __init__(self, report: EvalReport, how: str, running: Sequence[str]) -> None:
        self.report = report
        self.how = how
        self.running = list(running)
        finished = len(report.results) - len(self.running)
        told = ", ".join(map(repr, self.running)) or "no case"
        not_run = len(report.metadata.get(NOT_RUN_KEY) or [])
        super().__init__(
            f"the agent's process died ({how}) while {told} ran: {finished} case(s) of "
            f"{report.eval_set_name or report.eval_set_id!r} finished, {not_run} never ran"
        )


def _in_flight(journal: Path, eval_set: EvalSet) -> list[EvalCase]:
    """The cases of ``eval_set`` the journal saw start and not finish, in start order."""
    cases = {case.eval_id: case for case in eval_set.eval_cases}
    started: dict[str, EvalCase] = {}
    if not journal.is_file():
        return []
    for line in journal.read_text(encoding="utf-8").split("\n"):  # not at U+2028 (see journal)
        try:
            data = json.loads(line)
        except ValueError:
            continue  # a torn last line
        if data.get("type") == "case_start" and data.get("eval_id") in cases:
            started[data["eval_id"]] = cases[data["eval_id"]]
        elif data.get("type") == "case":
            started.pop(str(data["result"].get("eval_id")), None)
    return list(started.values())


def died_report(journal: Path, eval_set: EvalSet, how: str) -> tuple[EvalReport, list[str]]:
    """The partial report of a child that died running ``eval_set`` with ``journal``, and
    the ids of the cases it was running."""
    runs = read_journal_runs(journal) if journal.is_file() else []
    finished = list(runs[-1].results) if runs else []
    running = _in_flight(journal, eval_set)
    results = [*finished, *(died_result(eval_set.eval_set_id, c, how) for c in running)]
    seen = {r.eval_id for r in results}
    not_run = [c.eval_id for c in eval_set.eval_cases if c.eval_id not in seen]
    report = EvalReport.create(
        eval_set_id=eval_set.eval_set_id,
        results=results,
        eval_set_name=eval_set.name,
        metadata={PARTIAL_KEY: True, NOT_RUN_KEY: not_run},
    )
    return report, [c.eval_id for c in running]


async def evaluate_in_child(
    evaluator: AgentEvaluator, eval_set: EvalSet, *, verbose: bool = False
) -> EvalReport:
    """``await evaluator.evaluate(eval_set, verbose=verbose)`` in a forked child.

    Returns the child's report (its reporters ran there); re-raises what the run raised;
    raises :class:`AgentProcessDied`, with the partial report (also written by the
    configured reporters here), when the child died.
    """
    from tenxeval_tui.evaluation.agent_evaluator import write_reports

    with tempfile.TemporaryDirectory(prefix="tenxeval-journal-") as folder:
        journal = Path(folder) / "run.journal.jsonl"

        async def evaluate() -> EvalReport:
            evaluator.observers.append(_StartsJournal(journal))
            return await evaluator.evaluate(eval_set, verbose=verbose)

        end = await call_in_child(evaluate)
        if end.returned:
            report: EvalReport = end.value
            return report
        if end.error is not None:
            raise end.error
        report, running = died_report(journal, eval_set, end.how())
    report.metadata[PROVENANCE_KEY] = run_provenance(
        eval_set, evaluator.config, agent_module=evaluator.agent_module
    )
    write_reports(report, evaluator.config)
    raise AgentProcessDied(report, end.how(), running)


__all__ = [
    "AgentProcessDied",
    "ChildEnd",
    "ChildError",
    "call_in_child",
    "can_isolate",
    "died_report",
    "died_result",
    "evaluate_in_child",
    "how_it_ended",
]
