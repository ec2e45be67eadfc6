"""What the run screen knows about a run, built from the worker's stream (no UI import).

:class:`LiveRun` is a :class:`RunObserver`: the screen replays each line the
worker writes into it (:func:`~tenxeval_tui.evaluation.observers.replay_json_lines`).
Every case gets a :class:`CaseState` holding its events as the lines the view shows
(:class:`EventLines`: a hundred bytes or so an event, not the few kilobytes of the
event itself, so a run of hundreds of thousands of events stays small); the screen
renders from these and from :attr:`LiveRun.dirty`, the cases changed since its last
repaint. Each running case also keeps its steps in flight
(:class:`~tenxeval_tui.runs.case_steps.StepsInFlight`: the tool call, the model call or
the scoring it is waiting on) and, for a case run several times, which repeat it is on.
Time is read from the run's ``clock`` (``time.monotonic`` unless a test drives its own).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tenxeval_tui.evaluation.case_control import CANCELLED
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.events import EventModel
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.runs.case_steps import Step, StepsInFlight, is_start
from tenxeval_tui.runs.child_setup import NOT_RUN, not_run_sets
from tenxeval_tui.runs.event_lines import EventLines
from tenxeval_tui.runs.transcript import LiveTranscript

STDERR_TAIL_LINES = 40


class CaseStatus(StrEnum):
    """Where a case is in the run."""

    QUEUED = "queued"
    RUNNING = "running"
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    CARRIED = "carried"
    """Not rerun: its result is the last run's (watch mode reruns changed cases only)."""
    CANCELLED = "cancelled"


FINISHED = frozenset({CaseStatus.PASSED, CaseStatus.FAILED, CaseStatus.ERROR})


def case_key(eval_set_id: str, eval_id: str) -> str:
    """The key of a case across eval sets (also the case table's row key)."""
    return f"{eval_set_id}::{eval_id}"


def event_tokens(event: EventModel) -> int:
    """Tokens an event reports (a model node's ``token_usage``), 0 when none."""
    usage = event.data.get("token_usage")
    if not isinstance(usage, dict):
        return 0
    total = usage.get("total_tokens")
    if isinstance(total, int):
        return total
    return int(usage.get("input_tokens") or 0) + int(usage.get("output_tokens") or 0)


@dataclass
class CaseState:
    """One case of the run: status, timing, scores, and its live events' lines."""

    eval_set_id: str
    eval_id: str
    name: str = ""
    status: CaseStatus = CaseStatus.QUEUED
    started: float | None = None
    duration: float | None = None
    tokens: int = 0
    result: EvalCaseResult | None = None
    events: EventLines = field(default_factory=EventLines)
    steps: StepsInFlight = field(default_factory=StepsInFlight)
    transcript: LiveTranscript = field(default_factory=LiveTranscript)
    """The case as a transcript (user message, model steps, tool calls, verdicts)."""
    repeats: int = 1
    """How many times the case runs (``--repeat N``, or its own ``metadata.repeats``)."""
    repeats_done: int = 0
    """How many of its runs finished."""
    repeats_passed: int = 0
    """How many of its finished runs passed."""
    retried: str | None = None
    """How the worker that first ran it died, when it runs (or ran) a second time."""

    @property
    def key(self) -> str:
        """See :func:`case_key`."""
        return case_key(self.eval_set_id, self.eval_id)

    @property
    def repeats_disagree(self) -> bool:
        """Whether its repeats disagreed so far (some passed, some did not): from its
        result's figures once it has one, else from the repeats finished."""
        stats = self.result.repeat_stats if self.result is not None else None
        if stats is not None:
            return stats.is_flaky
        return 0 < self.repeats_passed < self.repeats_done

    @property
    def scores(self) -> list[tuple[str, float, bool]]:
        """``(criterion, score, passed)`` of the finished case."""
        if self.result is None:
            return []
        return [(c.criterion, c.score, c.passed) for c in self.result.criterion_results]

    def running_for(self, now: float) -> float | None:
        """Seconds the running case has run at ``now`` (the run's clock), else ``None``."""
        if self.status != CaseStatus.RUNNING or self.started is None:
            return None
        return max(now - self.started, 0.0)

    def is_slow(self, now: float, slow_after: float | None) -> bool:
        """Running for longer than ``slow_after`` seconds (``None``: no limit)."""
        running = self.running_for(now)
        return slow_after is not None and running is not None and running > slow_after

    @property
    def current_step(self) -> Step | None:
        """What the running case waits on now (the step started last), if it is known."""
        return self.steps.current if self.status == CaseStatus.RUNNING else None

    def finish(self, result: EvalCaseResult) -> None:
        """Record the case's result."""
        self.steps.clear()
        self.result = result
        self.transcript.finish(result)
        self.duration = result.duration_seconds
        self.tokens = result.token_usage.total_tokens or self.tokens
        error_info = result.metadata.get("error_info")
        if isinstance(error_info, dict) and error_info.get("error_type") == CANCELLED:
            self.status = CaseStatus.CANCELLED  # stopped from the run view
        else:
            self.status = CaseStatus(result.status)


class LiveRun(RunObserver):
    """The state of one run of the worker, fed line by line."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        slow_after: float | None = None,
        step_durations: bool = True,
    ) -> None:
        self.clock = clock
        self.step_durations = step_durations
        """Event lines say how long each step took (off: lines that are the same each run)."""
        self.slow_after = slow_after
        """Seconds after which a running case is shown as slow (``None``: never)."""
        self.cases: dict[str, CaseState] = {}
        self._places: dict[str, int] = {}  # each case's place in ``cases`` (take_dirty)
        self.eval_set_names: dict[str, str] = {}
        self.reports: list[EvalReport] = []
        self.report_files: list[str] = []
        self.html_reports: list[str] = []
        self.partial = False
        self.worker_error: str | None = None
        self.not_run: list[tuple[str, str]] = []
        """``(path, problem)`` of each eval set the worker left out (no agent for it)."""
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self.exit_code: int | None = None
        self.events_received = 0
        self.dirty: set[str] = set()
        self.acks: deque[dict[str, Any]] = deque(maxlen=STDERR_TAIL_LINES)
        """The worker's answers to commands (``worker_ack`` lines) not yet shown."""
        self.planned = False
        """The worker said every case it will run (``worker_plan``): :attr:`total` is final."""
        self.started = clock()
        self.ended: float | None = None
        self.expected_seconds: dict[str, float] = {}
        """Case key -> how long the case took when it last ran (the estimate of the time
        left counts on it for a case running now)."""

    # -- the observer protocol (the worker's lines) ---------------------------

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.eval_set_names[eval_set.eval_set_id] = eval_set.name
        for case in cases:
            self._queue(eval_set.eval_set_id, case.eval_id, case.name)

    def _queue(self, eval_set_id: str, eval_id: str, name: str) -> None:
        """List a case about to run (queued, or as it is if already listed by the plan)."""
        key = case_key(eval_set_id, eval_id)
        known = self.cases.get(key)
        if known is None or known.status == CaseStatus.CARRIED:
            self.cases[key] = CaseState(eval_set_id, eval_id, name)
        self.dirty.add(key)

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        state = self._case(eval_set_id, case.eval_id)
        state.name = case.name or state.name
        state.status = CaseStatus.RUNNING
        state.started = self.clock()
        state.transcript.start(case)

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        state = self._case(eval_set_id, case.eval_id)
        state.repeats = max(repeats, 1)
        if repeat > 0:
            state.transcript.start(case, f"#{repeat + 1} ")

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        self.on_repeat_event(eval_set_id, eval_id, 0, event)

    def on_repeat_event(
        self, eval_set_id: str, eval_id: str, repeat: int, event: EventModel
    ) -> None:
        state = self._case(eval_set_id, eval_id)
        state.steps.update(event, self.clock())
        self.events_received += 1
        if is_start(event):
            return  # shown as the step in flight; its end event gets the line
        # A case run several times says which run each line is of.
        prefix = f"#{repeat + 1} " if state.repeats > 1 else ""
        state.events.add(event, prefix, duration=self.step_durations)
        state.transcript.add_event(event, prefix)
        state.tokens += event_tokens(event)

    def on_repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        state = self._case(eval_set_id, eval_id)
        state.repeats = max(repeats, 1)
        state.repeats_done += 1
        state.repeats_passed += result.passed
        state.steps.clear()

    def on_case_end(self, result: EvalCaseResult) -> None:
        self._case(result.eval_set_id, result.eval_id).finish(result)

    def on_run_end(self, report: EvalReport) -> None:
        self.reports.append(report)
        self.partial = self.partial or report.is_partial

    def on_case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        """The case's worker died: it runs again from the start on another, its first
        run's lines are dropped (its events, tokens and steps are counted once)."""
        old = self._case(eval_set_id, eval_id)
        state = CaseState(eval_set_id, eval_id, old.name, repeats=old.repeats)
        state.retried = reason
        self.cases[state.key] = state

    def _case(self, eval_set_id: str, eval_id: str) -> CaseState:
        key = case_key(eval_set_id, eval_id)
        if key not in self.cases:
            self.cases[key] = CaseState(eval_set_id, eval_id)
        self.dirty.add(key)
        return self.cases[key]

    # -- what the worker says besides the observer calls ----------------------

    def on_worker_line(self, data: dict[str, Any]) -> None:
        """A ``worker_plan``, ``worker_not_run``, ``worker_error``, ``worker_ack`` or
        ``worker_reports`` line."""
        if data.get("type") == "worker_plan":
            self._plan(data.get("eval_sets") or [])
        elif data.get("type") == NOT_RUN:
            self.not_run += not_run_sets(data)
        elif data.get("type") == "worker_error":
            self.worker_error = str(data.get("message", "the worker failed"))
        elif data.get("type") == "worker_ack":
            self.acks.append(data)
        elif data.get("type") == "worker_reports":
            self.report_files = [str(f) for f in data.get("files", [])]
            self.html_reports = [str(f) for f in data.get("html", [])]
            self.partial = self.partial or bool(data.get("partial"))

    def _plan(self, eval_sets: list[Any]) -> None:
        for entry in eval_sets:
            set_id = str(entry.get("eval_set_id", ""))
            self.eval_set_names.setdefault(set_id, str(entry.get("name") or ""))
            for eval_id, name in entry.get("cases") or []:
                self._queue(set_id, str(eval_id), str(name or ""))
        self.planned = True

    def carry(
        self,
        results: Iterable[EvalCaseResult],
        *,
        order: Sequence[CaseState] = (),
        rerun: Iterable[str] = (),
    ) -> None:
        """Show ``results`` of an earlier run as carried over (not rerun this time).

        ``order`` is the earlier run's cases as they were listed: carried ones and those
        about to ``rerun`` (keys) keep their places, so a rerun does not reshuffle the view.
        """
        carried: dict[str, CaseState] = {}
        for result in results:
            state = CaseState(result.eval_set_id, result.eval_id, result.name)
            state.finish(result)
            state.status = CaseStatus.CARRIED
            carried[state.key] = state
        again = set(rerun)
        for earlier in order:
            if earlier.key in carried:
                self._add(carried.pop(earlier.key))
            elif earlier.key in again:
                self._add(CaseState(earlier.eval_set_id, earlier.eval_id, earlier.name))
        for state in carried.values():
            self._add(state)

    def _add(self, state: CaseState) -> None:
        self.cases[state.key] = state
        self.dirty.add(state.key)

    def finish(self, exit_code: int | None, *, cancelled: bool = False) -> None:
        """The worker exited; cases that never finished are cancelled (or errored)."""
        self.exit_code = exit_code
        self.ended = self.clock()
        for state in self.cases.values():
            if state.status in (CaseStatus.QUEUED, CaseStatus.RUNNING):
                state.steps.clear()
                state.status = CaseStatus.CANCELLED
                self.dirty.add(state.key)
        if cancelled:
            self.partial = True

    # -- figures ---------------------------------------------------------------

    @property
    def crashed(self) -> bool:
        """The worker could not start the run or died (not a clean exit, not a cancel)."""
        if self.worker_error is not None:
            return True
        return self.exit_code is not None and self.exit_code != 0 and not self.partial

    @property
    def done(self) -> bool:
        """The worker has exited."""
        return self.ended is not None

    def counts(self) -> dict[str, int]:
        """How many cases are in each :class:`CaseStatus`."""
        found = dict.fromkeys(CaseStatus, 0)
        for state in self.cases.values():
            found[state.status] += 1
        return {str(status): count for status, count in found.items()}

    @property
    def total(self) -> int:
        """Every case of the run (carried over included)."""
        return len(self.cases)

    @property
    def completed(self) -> int:
        """Cases with a result (carried over included)."""
        return sum(1 for s in self.cases.values() if s.result is not None)

    @property
    def pass_rate(self) -> float | None:
        """Passed over cases with a result, or ``None`` before any."""
        done = [s for s in self.cases.values() if s.result is not None]
        if not done:
            return None
        return sum(1 for s in done if s.result is not None and s.result.passed) / len(done)

    @property
    def tokens(self) -> int:
        """Tokens of every case so far."""
        return sum(s.tokens for s in self.cases.values())

    def elapsed(self, now: float | None = None) -> float:
        """Seconds since the run started (until it ended)."""
        end = self.ended if self.ended is not None else (now or self.clock())
        return end - self.started

    def running_keys(self) -> list[str]:
        """The keys of the cases running now (their clocks tick)."""
        return [key for key, s in self.cases.items() if s.status == CaseStatus.RUNNING]

    def results(self) -> list[EvalCaseResult]:
        """Every case result, in table order."""
        return [s.result for s in self.cases.values() if s.result is not None]

    def take_dirty(self) -> list[str]:
        """The cases changed since the last call, in table order."""
        dirty, self.dirty = self.dirty, set()
        if 8 * len(dirty) >= len(self.cases):
            return [key for key in self.cases if key in dirty]
        # a few of many (a repaint a frame): sorted by place, not found by a walk of all
        places = self._places
        if any(key not in places for key in dirty):  # cases are only ever added, at the end
            places = self._places = {key: place for place, key in enumerate(self.cases)}
        return sorted((key for key in dirty if key in self.cases), key=places.__getitem__)


__all__ = [
    "FINISHED",
    "CaseState",
    "CaseStatus",
    "LiveRun",
    "case_key",
    "event_tokens",
]
