"""AgentEvaluator: runs an agent on eval cases and scores what it did.

For each case: a thread id of its own, one user message per turn (the case's
``session_input`` goes into the first turn's state and every turn's config),
everything the agent does collected across all turns, then every criterion
scored once on that accumulated execution.

Cases run at most ``config.effective_concurrency`` at a time; results come back
in input order. Each case's events are routed to that case alone through the
collector's context-variable capture, so concurrent cases never mix.

A case with repeats (:mod:`.repeats`) runs that many times, each run an
independent one (thread id, events, trace of its own) counted against the same
concurrency bound; its result aggregates the runs once the last one finished.

Failures stay inside their case: an agent that raises or runs past
``config.timeout`` makes an error case (what, where, which turn); a criterion
that raises fails that criterion only. Cancelling a run keeps the finished
cases (a partial report) and counts the others nowhere.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.case_control import (
    CANCELLED,
    CURRENT_CASE,
    STOPPED_EARLY_KEY,
    CaseControl,
    StopMode,
)
from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.cost import CostBudget, price_case
from tenxeval_tui.evaluation.criteria import BaseCriterion, build_criteria
from tenxeval_tui.evaluation.criteria.base import SyncCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet, Invocation, MessageContent
from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
    PARTIAL_KEY,
    REPEAT_KEY,
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    EvalSummary,
    NodeDetail,
)
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.judges.errors import JudgeError
from tenxeval_tui.evaluation.observers import ObserverGroup, RunObserver
from tenxeval_tui.evaluation.provenance import (
    CASE_SHA256_KEY,
    PROVENANCE_KEY,
    run_provenance,
)
from tenxeval_tui.evaluation.provenance.hashing import read_case_sha256
from tenxeval_tui.evaluation.repeats import aggregate_repeats, resolve_repeats
from tenxeval_tui.evaluation.results.node_views import defer, node_detail, node_response_dict
from tenxeval_tui.evaluation.results.verdicts import no_verdict_error, without_verdict
from tenxeval_tui.evaluation.targets import forget_thread, response_text, turn_input
from tenxeval_tui.evaluation.targets.agent import AgentApp
from tenxeval_tui.evaluation.token_usage import TokenUsage
from tenxeval_tui.evaluation.tools.current import using_tools
from tenxeval_tui.evaluation.tools.run import TOOL_SPEC_ERROR, ToolRun
from tenxeval_tui.evaluation.tools.spec import ToolSpecError

if TYPE_CHECKING:  # the cases' tools are imported only for a run that controls them
    from tenxeval_tui.evaluation.tools.session import CaseTools

logger = logging.getLogger("tenxeval_tui.evaluation")

NextTurn = Callable[[int, Sequence[str]], Awaitable[str | None]]
"""Writes a conversation as it goes: given the turn's index and the agent's replies so
far, the next user message, or ``None`` to end the conversation (user simulation)."""
Scorer = Callable[[ExecutionResult, EvalCase], Awaitable[list[CriterionResult]]]
"""Scores a finished case instead of the evaluator's own criteria."""


_THREAD_NUMBERS = itertools.count(int.from_bytes(os.urandom(6)))
"""Each run of a case has a thread of its own, ``eval-<run>-<12 hex digits>``: numbered in
this process from a random start, so two runs of a process never share one and two
processes' hardly ever (a random id each run took a system call for: 16 us of each case in
a profile of 10,000)."""
_THREAD_DIGITS = (1 << 48) - 1


class AgentEvaluator:
    """Evaluates one agent (``app`` with its ``collector``) on eval sets or single cases.

    ``app`` is what :func:`~tenxeval_tui.evaluation.testing.create_eval_app`
    returns (a compiled 10xGraph graph or a wrapped plain agent) and
    ``collector`` the :class:`TrajectoryCollector` wired into it. ``config``
    defaults to ``EvalConfig.default()``; its criteria are built here, so a
    misconfigured criterion raises :class:`CriterionConfigError` before anything runs.
    ``observers`` follow every run (see :mod:`.observers`). ``budget`` shares one
    :class:`~.cost.CostBudget` between evaluators (``EvaluationRunner`` does, so that
    ``max_cost`` holds for the whole run); by default each :meth:`evaluate` makes its own
    from ``config.max_cost``. ``tools`` controls the agent's tools (record, replay, fakes,
    faults: :mod:`.tools`); without it they run live, as the cases' ``metadata.tools`` say.

    After a case the collector holds that case's trajectory (the last case to
    finish, when several run at once), unless its ``keep_last_case`` is off.

    Each case's result holds its case's content hash (``metadata.case_sha256``) and
    :meth:`evaluate`'s report its provenance (``metadata.provenance``: git state, eval
    set, agent code, config and judge hashes, versions; see :mod:`.provenance`). The
    agent's code is hashed from :attr:`agent_module`.
    """

    def __init__(
        self,
        app: Any,
        collector: TrajectoryCollector,
        config: EvalConfig | None = None,
        *,
        observers: Sequence[RunObserver] = (),
        budget: CostBudget | None = None,
        tools: ToolRun | None = None,
    ) -> None:
        self.app = app
        self.budget = budget
        self.tools = tools or ToolRun()
        if self.tools.write and self.tools.settings.records:
            observers = [*observers, self.tools.writer()]
        self.collector = collector
        self.config = config or EvalConfig.default()
        self.criteria: list[BaseCriterion] = build_criteria(self.config)
        self.observers = list(observers)
        self.partial_report: EvalReport | None = None
        self.agent_module: str | None = _agent_module(app)
        """The module of the agent's code, which the report's provenance hashes (with its
        package and the project files it imports): a plain agent's own module by default;
        ``None`` (no agent hash) for a 10xGraph graph unless set."""
        self.provenance: dict[str, Any] | None = None
        """The provenance of the eval set :meth:`evaluate` runs when its caller worked it
        out already (a run's worker, for every eval set of its plan); ``None``: worked out
        by :meth:`evaluate` from the eval set it runs."""
        self._run_id = uuid.uuid4().hex[:8]
        self._stopping = False
        self._workers: set[asyncio.Task[None]] = set()
        self._controls: dict[str, list[CaseControl]] = {}
        """The running cases' controls, by eval id, one a repeat running (what
        :meth:`stop_case` can reach)."""
        self._stopped: dict[str, StopMode] = {}
        """Cases the user stopped, by eval id: their later repeats do not run."""

    @property
    def graph(self) -> Any:
        """The app under evaluation (10xGraph's name for it)."""
        return self.app

    # -- public API ------------------------------------------------------

    async def evaluate(
        self,
        eval_set: EvalSet | str | Path,
        parallel: bool | None = None,
        max_concurrency: int | None = None,
        verbose: bool = False,
        output_dir: str | None = None,
        *,
        run_reporters: bool = True,
    ) -> EvalReport:
        """Evaluate every case of ``eval_set`` (an :class:`EvalSet` or the path of its file).

        Concurrency is ``config.effective_concurrency`` unless ``parallel``
        (``False``: one at a time) or ``max_concurrency`` say otherwise. The
        report is written by the configured reporters (unless
        ``config.reporter.enabled`` is false or ``run_reporters`` is false) into
        ``output_dir`` or ``config.reporter.output_dir``. If the run is
        cancelled (:meth:`cancel`), the returned report holds the finished cases
        and is marked partial; if the calling task is cancelled, that partial
        report is kept in :attr:`partial_report` and the cancellation propagates.
        """
        source = None if isinstance(eval_set, EvalSet) else Path(eval_set)
        if source is not None:
            eval_set = EvalSet.from_file(source)
            self.tools.add_eval_set(eval_set, source)
        assert isinstance(eval_set, EvalSet)
        if source is None and not self.tools.knows(eval_set.eval_set_id):
            self.tools.add_eval_set(eval_set)
        provenance = self.provenance
        if provenance is None:
            provenance = run_provenance(
                eval_set, self.config, eval_set_file=source, agent_module=self.agent_module
            )
        cases = list(eval_set.eval_cases)
        repeats = [resolve_repeats(self.config, eval_set, case) for case in cases]
        concurrency = self._concurrency(parallel, max_concurrency)
        notify = self._begin_run(concurrency)
        if verbose:
            logger.info(
                "Evaluating %r: %d cases, %d at a time",
                eval_set.name or eval_set.eval_set_id,
                len(cases),
                concurrency,
            )
        notify.run_start(eval_set, cases)
        started = time.perf_counter()
        results: list[EvalCaseResult | None] = [None] * len(cases)
        budget = self.budget
        if budget is None and self.config.max_cost is not None:
            budget = CostBudget(self.config.max_cost)

        def finished(index: int, result: EvalCaseResult) -> None:
            results[index] = result

        try:
            await self._run_all(
                zip(cases, repeats, strict=True),
                finished,
                len(cases),
                eval_set.eval_set_id,
                min(concurrency, sum(repeats)),
                notify,
                verbose,
                budget,
            )
        except asyncio.CancelledError:
            self.partial_report = self._report(
                eval_set,
                results,
                partial=True,
                wall=time.perf_counter() - started,
                provenance=provenance,
            )
            notify.run_end(self.partial_report)
            raise
        report = self._report(
            eval_set,
            results,
            partial=any(r is None for r in results),
            stopped=budget.stop_note(cases, results) if budget is not None else None,
            wall=time.perf_counter() - started,
            provenance=provenance,
        )
        if report.is_partial:
            self.partial_report = report
        notify.run_end(report)
        if verbose:
            logger.info(
                "Evaluation complete: %d/%d passed (%.1f%%)",
                report.summary.passed_cases,
                report.summary.total_cases,
                report.summary.pass_rate * 100,
            )
        if run_reporters:
            write_reports(report, self.config, output_dir)
        return report

    async def evaluate_case(
        self,
        case: EvalCase,
        eval_set_id: str = "",
        *,
        next_turn: NextTurn | None = None,
        score: Scorer | None = None,
        finish: Callable[[EvalCaseResult], None] | None = None,
    ) -> EvalCaseResult:
        """Run and score one case (observers see it as a case of ``eval_set_id``).

        With ``next_turn`` the conversation is written as it runs (user simulation):
        before each turn it is asked for the user's message, which is appended to
        ``case.conversation``, until it answers ``None``; ``case`` may start with no
        turns. ``score`` replaces the evaluator's criteria for this case. The
        case's timeout covers the whole conversation, ``next_turn`` included, and an
        exception ``next_turn`` raises makes an error case like the agent's own.
        ``finish`` may complete the result (its metadata) before observers see it.

        The case runs as many times as its ``metadata["repeats"]`` or
        ``config.repeats`` says, one repeat after the other (see :mod:`.repeats`); a
        simulated conversation (``next_turn``) runs once.
        """
        notify = ObserverGroup(self.observers)
        return await self._run_case(
            case, eval_set_id, notify, next_turn=next_turn, score=score, finish=finish
        )

    def stop_case(self, eval_id: str, mode: StopMode = StopMode.CANCEL) -> bool:
        """Stop the running case ``eval_id`` now, the rest of the run going on: it ends
        cancelled, or (``StopMode.SCORE``) is scored on what it did so far; each of its
        repeats running or not yet run ends the same way. ``False`` when no such case is
        running."""
        controls = self._controls.get(eval_id)
        if not controls:
            return False
        self._stopped[eval_id] = mode
        for control in list(controls):
            control.stop(mode)
        return True

    def tool_calls_in_flight(self, eval_id: str) -> list[str]:
        """The names of case ``eval_id``'s tool calls in flight that can be ended (of
        every repeat running)."""
        return [name for c in self._controls.get(eval_id, []) for name in c.tool_calls]

    def end_tool_calls(self, eval_id: str) -> list[str]:
        """End the tool calls in flight of case ``eval_id`` (every repeat running): each
        fails with a timeout the agent sees (:class:`~.case_control.ToolCallTimeout`).
        Returns their names."""
        return [name for c in list(self._controls.get(eval_id, [])) for name in c.end_tool_calls()]

    def cancel(self) -> None:
        """Stop the running :meth:`evaluate`: no new case starts, running cases are cancelled."""
        self._stopping = True
        for worker in list(self._workers):
            worker.cancel()

    # -- running ---------------------------------------------------------

    def _begin_run(self, concurrency: int) -> ObserverGroup:
        """A run starts (:meth:`evaluate`, :meth:`evaluate_stream`): judges bounded by its
        concurrency, nothing stopped, no partial report yet; its observers, as one."""
        self._bound_judges(concurrency)
        self._stopping = False
        self._stopped.clear()
        self.partial_report = None
        return ObserverGroup(self.observers)

    def _bound_judges(self, concurrency: int) -> None:
        # Judge calls in flight are bounded together with the run's cases.
        pools = {id(pool): pool for c in self.criteria if (pool := c.shared_judge_pool)}
        for pool in pools.values():
            pool.limit_to(concurrency)

    def _concurrency(self, parallel: bool | None, max_concurrency: int | None) -> int:
        if parallel is False:
            return 1
        if max_concurrency is not None:
            return max(1, max_concurrency)
        if parallel is True:
            return self.config.max_concurrency
        return self.config.effective_concurrency

    async def evaluate_stream(
        self,
        eval_set: EvalSet,
        cases: Iterable[EvalCase],
        planned: Sequence[EvalCase],
        *,
        provenance: dict[str, Any] | None = None,
    ) -> EvalReport:
        """Evaluate ``cases`` of ``eval_set`` (the cases' own fields are not read from it)
        as they come, keeping none of their results: for a run whose observers keep them
        (a run journal), at any number of cases in memory flat in that number.

        ``planned`` are the cases that will run as observers see them at the run's start
        (what ``on_run_start`` reads: their ids and names); ``cases`` yields them whole,
        in the same order, each built as it is about to run. Concurrency, repeats,
        stopping and cancelling (:meth:`cancel`) are :meth:`evaluate`'s; the run has no
        ``max_cost`` budget (``ValueError`` when the config sets one: which cases were not
        run is worked out from every result) and writes no report. The returned report
        has no results: its summary counts them (``total_cases``, ``passed_cases``,
        ``failed_cases``, ``error_cases``, ``pass_rate``, the durations); it is partial
        when the run was cancelled. Its provenance is ``provenance``, as given.
        """
        if self.budget is not None or self.config.max_cost is not None:
            raise ValueError("a streamed evaluation has no max_cost budget")
        concurrency = self._concurrency(None, None)
        notify = self._begin_run(concurrency)
        notify.run_start(eval_set, planned)
        started = time.perf_counter()
        totals = _Totals()
        with_repeats = ((case, resolve_repeats(self.config, eval_set, case)) for case in cases)
        try:
            await self._run_all(
                with_repeats,
                lambda _index, result: totals.add(result),
                len(planned),
                eval_set.eval_set_id,
                min(concurrency, len(planned)),
                notify,
                False,
            )
        except asyncio.CancelledError:
            self.partial_report = self._totals_report(
                eval_set, totals, True, time.perf_counter() - started, provenance
            )
            notify.run_end(self.partial_report)
            raise
        report = self._totals_report(
            eval_set,
            totals,
            totals.summary().total_cases < len(planned),
            time.perf_counter() - started,
            provenance,
        )
        if report.is_partial:
            self.partial_report = report
        notify.run_end(report)
        return report

    def _totals_report(
        self,
        eval_set: EvalSet,
        totals: _Totals,
        partial: bool,
        wall: float,
        provenance: dict[str, Any] | None,
    ) -> EvalReport:
        report = self._report(eval_set, [], partial=partial, wall=wall, provenance=provenance)
        report.summary = totals.summary().model_copy(update={"wall_seconds": wall})
        return report

    async def _run_all(
        self,
        cases: Iterable[tuple[EvalCase, int]],
        finished: Callable[[int, EvalCaseResult], None],
        count: int,
        eval_set_id: str,
        workers: int,
        notify: ObserverGroup,
        verbose: bool,
        budget: CostBudget | None = None,
    ) -> None:
        """Run each of ``cases`` (``count`` of them, each with how many times it runs),
        ``workers`` runs at once; ``finished(index, result)`` as each case ends."""
        # One unit of work per repeat of each case, in case order: the concurrency bound
        # (and the cost budget) counts runs, so a case's repeats run side by side. The
        # cases are taken from ``cases`` as the runs reach them (a streamed run builds
        # each case then), and a finished case's runs are let go.
        runs: dict[int, list[EvalCaseResult]] = {}

        def pending() -> Iterator[tuple[int, EvalCase, int, int]]:
            for index, (case, repeats) in enumerate(cases):
                for repeat in range(repeats):
                    yield index, case, repeat, repeats

        ahead = pending()

        async def worker() -> None:
            # All workers share one iterator: each run is taken exactly once, in order, so a
            # case's first repeat (and its case_start) comes before its other repeats.
            for index, case, repeat, repeats in ahead:
                if self._stopping:
                    return
                if budget is not None and not budget.allows_another():
                    return  # max_cost would be passed: this run and the rest are not run
                if repeat == 0:
                    if verbose:
                        logger.info(
                            "Case %d/%d: %s%s",
                            index + 1,
                            count,
                            case.name or case.eval_id,
                            f" ({repeats} repeats)" if repeats > 1 else "",
                        )
                    notify.case_start(eval_set_id, case)
                if budget is not None:
                    budget.started()
                run = await self._run_once(case, eval_set_id, notify, repeat, repeats)
                if budget is not None:
                    budget.ended(run)
                done = runs.setdefault(index, [])
                done.append(run)
                if len(done) == repeats:
                    del runs[index]
                    result = aggregate_repeats(done, self.config.pass_rule)
                    finished(index, result)
                    notify.case_end(result)
                # An agent that never waits would keep the loop from ever running anything
                # else: a cancel, a command, a timer (and its clean-up of each case's
                # cancelled deadline, whose context holds the case: a case a run kept).
                await asyncio.sleep(0)

        async with asyncio.TaskGroup() as group:
            for _ in range(workers):
                task = group.create_task(worker())
                self._workers.add(task)
                task.add_done_callback(self._workers.discard)

    async def _run_case(
        self,
        case: EvalCase,
        eval_set_id: str,
        notify: ObserverGroup,
        *,
        next_turn: NextTurn | None = None,
        score: Scorer | None = None,
        finish: Callable[[EvalCaseResult], None] | None = None,
    ) -> EvalCaseResult:
        """Every repeat of ``case``, one after the other, and the case's result."""
        count = 1 if next_turn is not None else resolve_repeats(self.config, None, case)
        notify.case_start(eval_set_id, case)
        runs = [
            await self._run_once(
                case, eval_set_id, notify, repeat, count, next_turn=next_turn, score=score
            )
            for repeat in range(count)
        ]
        result = aggregate_repeats(runs, self.config.pass_rule)
        if finish is not None:
            finish(result)
        notify.case_end(result)
        return result

    async def _run_once(
        self,
        case: EvalCase,
        eval_set_id: str,
        notify: ObserverGroup,
        repeat: int,
        repeats: int,
        *,
        next_turn: NextTurn | None = None,
        score: Scorer | None = None,
    ) -> EvalCaseResult:
        """One run of ``case`` (repeat ``repeat`` of ``repeats``): its own thread and trace."""
        notify.repeat_start(eval_set_id, case, repeat, repeats)
        # Before the turns (a simulated user appends to the case); read_case_sha256 takes
        # the hash a streamed run noted as it read the case, if it did.
        digest = read_case_sha256(case)
        thread_id = f"eval-{self._run_id}-{next(_THREAD_NUMBERS) & _THREAD_DIGITS:012x}"
        listener = None
        if notify:

            def listener(event: EventModel) -> None:
                notify.event(eval_set_id, case.eval_id, event, repeat)

        replies: list[str] = []
        error: str | None = None
        error_info: dict[str, Any] = {}
        started = time.perf_counter()
        # Where each turn ended in the trace: (tool calls, node visits, trajectory steps).
        turn_ends: list[tuple[int, int, int]] = []
        tools: CaseTools | None = None
        with self.collector.capture(listener) as trace:

            def turn_ended() -> None:
                turn_ends.append(
                    (len(trace.tool_calls), len(trace.node_visits), len(trace.trajectory))
                )

            try:
                tools = self.tools.open_case(eval_set_id, case)
            except ToolSpecError as exc:
                error, error_info = str(exc), {"error_type": TOOL_SPEC_ERROR}
            else:
                with using_tools(tools):
                    error, error_info = await self._run_turns(
                        case, thread_id, replies, turn_ended, next_turn
                    )
                if tools is not None:
                    error, error_info = tools.outcome(error, error_info)
            stopped_early = bool(error_info.pop(STOPPED_EARLY_KEY, False))
            if stopped_early:
                error_info = {}
            if error is not None:
                self._publish(Event.GRAPH_EXECUTION, EventType.ERROR, thread_id, {"error": error})
        duration = time.perf_counter() - started
        keep = getattr(self.collector, "keep_last_case", True)
        try:
            execution = trace.to_execution_result(duration)
            if tools is not None and tools.has_state:
                execution.tool_state = tools.state
            if not keep:  # the execution holds the case now (see _case_result's consume)
                trace.reset()
            if replies and replies[-1]:
                # What the app returned is the reply; the events' idea of it is the fallback.
                execution.actual_response = replies[-1]
            scorer = score or self._score
            if not error:
                self._announce_scoring(notify, eval_set_id, case.eval_id, repeat, thread_id, score)
            criterion_results = [] if error else await scorer(execution, case)
            unjudged = no_verdict_error(criterion_results)
            if unjudged is not None:  # a judge gave no verdict: the case errs (see verdicts)
                error, error_info = unjudged
            result = _case_result(
                case,
                execution,
                criterion_results,
                replies,
                turn_ends,
                thread_id,
                eval_set_id,
                error,
                error_info,
                consume=not keep,
                defer_views=getattr(self.collector, "defer_node_views", False),
            )
        except Exception as exc:  # what the agent left cannot make a result: this case errs
            logger.warning("case %s: no result could be built: %s", case.eval_id, exc)
            result = _unbuildable_result(case, exc, duration, thread_id, eval_set_id)
        result.metadata[CASE_SHA256_KEY] = digest
        if repeats > 1:
            result.metadata[REPEAT_KEY] = repeat
        if stopped_early:
            result.metadata[STOPPED_EARLY_KEY] = True
        self.tools.finish_case(tools, result)
        price_case(result, self.config.prices, self.config.agent_model)
        if keep:
            self.collector.absorb(trace)
        notify.repeat_end(eval_set_id, case.eval_id, result, repeats)
        return result

    async def _run_turns(
        self,
        case: EvalCase,
        thread_id: str,
        replies: list[str],
        turn_ended: Callable[[], None] = lambda: None,
        next_turn: NextTurn | None = None,
    ) -> tuple[str | None, dict[str, Any]]:
        turns = case.conversation
        if not turns and next_turn is None:
            return "the case has no conversation turns", {"error_type": "EmptyCase"}
        session = case.session_input
        config: dict[str, Any] = {
            **session.config,
            "thread_id": thread_id,
            "run_id": f"{self._run_id}-{case.eval_id}",
            "user_id": session.user_id,
        }
        if session.app_name:
            config["app_name"] = session.app_name
        ends_at = asyncio.get_running_loop().time() + self.config.timeout
        deadline = asyncio.timeout_at(ends_at)
        stopped = self._stopped.get(case.eval_id)
        if stopped is not None:  # a later repeat of a case the user stopped
            return _stopped_outcome(stopped, 0, _known(turns, next_turn))
        control = CaseControl(deadline)
        self._controls.setdefault(case.eval_id, []).append(control)
        current = CURRENT_CASE.set(control)
        try:
            outcome = await self._turns_under(
                case, config, deadline, ends_at, control, replies, turn_ended, next_turn
            )
        finally:
            CURRENT_CASE.reset(current)
            running = self._controls.get(case.eval_id, [])
            if control in running:
                running.remove(control)
            if not running:
                self._controls.pop(case.eval_id, None)
        if not getattr(self.collector, "keep_threads", True):
            await _forget_thread(self.app, config)
        return outcome

    async def _turns_under(
        self,
        case: EvalCase,
        config: dict[str, Any],
        deadline: asyncio.Timeout,
        ends_at: float,
        control: CaseControl,
        replies: list[str],
        turn_ended: Callable[[], None],
        next_turn: NextTurn | None,
    ) -> tuple[str | None, dict[str, Any]]:
        """The turns of ``case`` under its ``deadline`` (see :meth:`_run_turns`)."""
        total = _known(case.conversation, next_turn)
        thread_id = config["thread_id"]
        session = case.session_input
        loop = asyncio.get_running_loop()
        index = 0
        try:
            async with deadline:
                for index in itertools.count():
                    invocation = await _next_invocation(case, index, replies, next_turn)
                    if invocation is None:
                        break
                    if next_turn is not None:  # a live view shows the written message at once
                        self._publish(
                            Event.GRAPH_EXECUTION,
                            EventType.PROGRESS,
                            thread_id,
                            {
                                "turn_index": index,
                                "simulated_user": True,
                                "user_message": invocation.user_content.get_text(),
                            },
                        )
                    if loop.time() >= ends_at:  # the last turn blocked the loop past it
                        index -= 1  # the turn that ran out of time
                        break
                    text = invocation.user_content.get_text()
                    state = session.state if index == 0 else None
                    reply = response_text(
                        await self.app.ainvoke(turn_input(self.app, text, state), config)
                    )
                    replies.append(reply)
                    turn_ended()
                    self._publish(
                        Event.GRAPH_EXECUTION,
                        EventType.END,
                        thread_id,
                        {
                            "turn_index": index,
                            "response_text": reply,
                            "messages": [
                                {"role": "user", "content": text},
                                {"role": "assistant", "content": reply},
                            ],
                        },
                    )
        except TimeoutError as exc:
            if not deadline.expired():
                return _describe(exc, index, total)
            if control.stopped is not None:
                self._stopped[case.eval_id] = control.stopped
                return _stopped_outcome(control.stopped, index, total)
            return _timed_out(self.config.timeout, index, total)
        except asyncio.CancelledError as exc:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the run is being cancelled
            return _describe(exc, index, total)  # the agent raised it itself
        except (Exception, SystemExit, KeyboardInterrupt) as exc:
            # sys.exit() or a KeyboardInterrupt raised by the agent ends its case, not the
            # run (a Ctrl-C of the run cancels it instead: asyncio turns it into a cancel).
            return _describe(exc, index, total)
        if control.stopped is not None:  # stopped as the last turn ended
            self._stopped[case.eval_id] = control.stopped
            return _stopped_outcome(control.stopped, index, total)
        # An agent that swallowed the timeout's cancel, or blocked the event loop with
        # sync code so that it never came, still ran out of time.
        if deadline.expired() or loop.time() >= ends_at:
            return _timed_out(self.config.timeout, index, total)
        return None, {}

    def _publish(
        self, event: Event, event_type: EventType, thread_id: str, data: dict[str, Any]
    ) -> None:
        # The end of each turn (and a failure) goes through the collector like the
        # agent's own events, so live views and the trajectory see turn boundaries.
        self.collector.on_event_sync(
            EventModel(
                event=event,
                event_type=event_type,
                data=data,
                thread_id=thread_id,
                run_id=self._run_id,
            )
        )

    def _announce_scoring(
        self,
        notify: ObserverGroup,
        eval_set_id: str,
        eval_id: str,
        repeat: int,
        thread_id: str,
        score: Scorer | None,
    ) -> None:
        """Tell observers the case is being scored now (a live view shows "judging ..."):
        a ``GRAPH_EXECUTION`` ``PROGRESS`` event whose ``data["judging"]`` names the
        criteria (empty for a caller's own scorer). It goes to observers only, never into
        the case's trajectory."""
        if not notify:
            return
        names = [] if score is not None else [c.name or type(c).__name__ for c in self.criteria]
        event = EventModel(
            event=Event.GRAPH_EXECUTION,
            event_type=EventType.PROGRESS,
            data={"judging": names},
            thread_id=thread_id,
            run_id=self._run_id,
        )
        notify.event(eval_set_id, eval_id, event, repeat)

    async def _score(self, execution: ExecutionResult, case: EvalCase) -> list[CriterionResult]:
        return await score_criteria(self.criteria, execution, case)

    def _report(
        self,
        eval_set: EvalSet,
        results: list[EvalCaseResult | None],
        *,
        partial: bool,
        stopped: dict[str, Any] | None = None,
        wall: float | None = None,
        provenance: dict[str, Any] | None = None,
    ) -> EvalReport:
        return EvalReport.create(
            eval_set_id=eval_set.eval_set_id,
            results=[r for r in results if r is not None],
            eval_set_name=eval_set.name,
            config_used=self.config.model_dump(mode="json"),
            metadata={
                **({PARTIAL_KEY: True} if partial else {}),
                **(stopped or {}),
                **({PROVENANCE_KEY: provenance} if provenance else {}),
            },
            wall_seconds=wall,
        )


class _Totals:
    """Running totals of a run's results (:meth:`AgentEvaluator.evaluate_stream`): what
    its summary counts, without the results."""

    def __init__(self) -> None:
        self.total = self.passed = self.errored = 0
        self.duration = 0.0

    def add(self, result: EvalCaseResult) -> None:
        self.total += 1
        self.errored += result.is_error
        self.passed += result.passed and not result.is_error
        self.duration += result.duration_seconds

    def summary(self) -> EvalSummary:
        """The summary's counts (as :meth:`EvalSummary.from_results` counts them)."""
        if not self.total:
            return EvalSummary()
        return EvalSummary(
            total_cases=self.total,
            passed_cases=self.passed,
            failed_cases=self.total - self.passed - self.errored,
            error_cases=self.errored,
            pass_rate=self.passed / self.total,
            avg_duration_seconds=self.duration / self.total,
            total_duration_seconds=self.duration,
        )


async def _next_invocation(
    case: EvalCase, index: int, replies: Sequence[str], next_turn: NextTurn | None
) -> Invocation | None:
    """Turn ``index`` of ``case``: the case's own, or one ``next_turn`` writes and appends."""
    if next_turn is None:
        return case.conversation[index] if index < len(case.conversation) else None
    text = await next_turn(index, list(replies))
    if text is None:
        return None
    invocation = Invocation(user_content=MessageContent.user(text))
    case.conversation.append(invocation)
    return invocation


async def score_criteria(
    criteria: Sequence[BaseCriterion], execution: ExecutionResult, case: EvalCase
) -> list[CriterionResult]:
    """Every criterion's result on ``case`` (judged ones concurrently); one that raises
    fails alone, with its error."""
    if len(criteria) <= 1 or not any(c.requires_judge for c in criteria):
        return [
            _score_sync(c, execution, case)
            if _plain_sync(c)
            else await _score_one(c, execution, case)
            for c in criteria
        ]
    return list(await asyncio.gather(*(_score_one(c, execution, case) for c in criteria)))


_SYNC_EVALUATE = SyncCriterion.evaluate
"""A criterion whose ``evaluate`` is this one only returns its ``evaluate_sync``: scored
by calling that (every case scores each criterion; a coroutine each cost more than the
exact match itself)."""


def _plain_sync(criterion: BaseCriterion) -> bool:
    """Whether ``criterion``'s ``evaluate`` is :class:`SyncCriterion`'s own (its class's
    and not one given to the instance)."""
    return type(criterion).evaluate is _SYNC_EVALUATE and "evaluate" not in getattr(
        criterion, "__dict__", ()
    )


def _score_sync(
    criterion: BaseCriterion, execution: ExecutionResult, case: EvalCase
) -> CriterionResult:
    """:func:`_score_one` of a :class:`SyncCriterion` that keeps its ``evaluate``."""
    try:
        return _checked(criterion.evaluate_sync(execution, case))  # type: ignore[attr-defined]
    except Exception as exc:
        return _failed(criterion, case, exc)


async def _score_one(
    criterion: BaseCriterion, execution: ExecutionResult, case: EvalCase
) -> CriterionResult:
    try:
        return _checked(await criterion.evaluate(execution, case))
    except Exception as exc:
        return _failed(criterion, case, exc)


def _checked(result: object) -> CriterionResult:
    if not isinstance(result, CriterionResult):
        raise TypeError(f"evaluate() returned {type(result).__name__}, not a CriterionResult")
    return result


def _failed(criterion: BaseCriterion, case: EvalCase, exc: Exception) -> CriterionResult:
    """The result of ``criterion``, which raised ``exc`` scoring ``case``."""
    logger.warning("criterion %s raised on case %s: %s", criterion.name, case.eval_id, exc)
    failed = CriterionResult.failure(
        criterion.name or type(criterion).__name__,
        f"{type(exc).__name__}: {exc}",
        criterion.threshold,
    )
    # A criterion of the user's own asking a judge (LLMCallerMixin) that got none.
    return without_verdict(failed) if isinstance(exc, JudgeError) else failed


async def _forget_thread(app: Any, config: dict[str, Any]) -> None:
    """The case's thread forgotten by its app (see the collector's ``keep_threads``): a
    failure to is logged, never the case's."""
    try:
        await forget_thread(app, config)
    except Exception as exc:
        logger.debug("thread %s not forgotten: %s", config.get("thread_id"), exc)


def _known(turns: Sequence[Invocation], next_turn: NextTurn | None) -> int | None:
    """How many turns the case has; ``None`` when a simulated user writes them (the
    conversation grows as it goes: "turn 2 of 1" would say nothing)."""
    return len(turns) if next_turn is None else None


def _turn_of(turn: int, turns: int | None) -> str:
    """``turn 2 of 3``, or ``turn 2`` when the number of turns is not known."""
    return f"turn {turn + 1} of {turns}" if turns is not None else f"turn {turn + 1}"


def _stopped_outcome(
    mode: StopMode, turn: int, turns: int | None
) -> tuple[str | None, dict[str, Any]]:
    """A case the user stopped: cancelled (an error case), or no error (scored as it is,
    marked :data:`STOPPED_EARLY_KEY`)."""
    if mode == StopMode.SCORE:
        return None, {STOPPED_EARLY_KEY: True, "turn_index": turn}
    return (
        f"cancelled by the user ({_turn_of(turn, turns)})",
        {"error_type": CANCELLED, "turn_index": turn},
    )


def _timed_out(seconds: float, turn: int, turns: int | None) -> tuple[str, dict[str, Any]]:
    return (
        f"timed out after {seconds:g}s ({_turn_of(turn, turns)})",
        {"error_type": "Timeout", "turn_index": turn},
    )


def _unbuildable_result(
    case: EvalCase, exc: Exception, duration: float, thread_id: str, eval_set_id: str
) -> EvalCaseResult:
    return EvalCaseResult(
        eval_id=case.eval_id,
        name=case.name,
        passed=False,
        duration_seconds=duration,
        error=f"the case's result could not be built: {type(exc).__name__}: {exc}",
        metadata=_case_metadata(case, eval_set_id, thread_id, {"error_type": type(exc).__name__}),
    )


def _agent_module(app: Any) -> str | None:
    """The module of a plain agent's code (the function or object the app wraps)."""
    if not isinstance(app, AgentApp):
        return None
    agent = app.agent
    module = getattr(agent, "__module__", None) or type(agent).__module__
    return module if isinstance(module, str) and module != "builtins" else None


def _case_metadata(
    case: EvalCase, eval_set_id: str, thread_id: str, error_info: dict[str, Any]
) -> dict[str, Any]:
    """A case result's metadata: its eval set, thread, tags and what went wrong."""
    metadata: dict[str, Any] = {EVAL_SET_ID_KEY: eval_set_id, "thread_id": thread_id}
    if case.tags:
        metadata["tags"] = list(case.tags)
    if error_info:
        metadata["error_info"] = error_info
    return metadata


def _describe(exc: BaseException, turn: int, turns: int | None) -> tuple[str, dict[str, Any]]:
    # 10xGraph wraps the agent's own error (NodeError): report the original. Anything
    # else is the agent's own exception, whatever it was raised from.
    wrapped = type(exc).__module__.startswith("tenxgraph") and exc.__cause__ is not None
    cause = exc.__cause__ if wrapped and exc.__cause__ is not None else exc
    what: object = cause
    if isinstance(cause, SystemExit):
        what = f"the agent tried to end the process (sys.exit({cause.code!r}))"
    said = f": {what}" if str(what) else ""  # KeyboardInterrupt() says nothing
    message = f"{type(cause).__name__}{said} ({_turn_of(turn, turns)})"
    info: dict[str, Any] = {"error_type": type(cause).__name__, "turn_index": turn}
    if cause is not exc:
        info["wrapped_by"] = f"{type(exc).__name__}: {exc}"
    return message, info


def _turn_results(
    case: EvalCase,
    execution: ExecutionResult,
    replies: list[str],
    turn_ends: list[tuple[int, int, int]],
) -> list[dict[str, Any]]:
    """One entry per turn that ran: our keys (``user_content``, ``response``,
    ``expected_response``) and 10xGraph's (``user_input``, ``agent_response``, and the
    turn's own ``tool_calls``, ``node_visits`` and number of ``trajectory_steps``)."""
    turns: list[dict[str, Any]] = []
    start = (0, 0, 0)
    for index, (invocation, reply) in enumerate(zip(case.conversation, replies, strict=False)):
        end = turn_ends[index] if index < len(turn_ends) else start
        text = invocation.user_content.get_text()
        expected = invocation.expected_final_response
        turns.append(
            {
                "turn_index": index,
                "user_content": text,
                "response": reply,
                "expected_response": expected.get_text() if expected is not None else None,
                "user_input": text,
                "agent_response": reply,
                "tool_calls": [
                    call.model_dump(mode="json") for call in execution.tool_calls[start[0] : end[0]]
                ],
                "node_visits": list(execution.node_visits[start[1] : end[1]]),
                "trajectory_steps": end[2] - start[2],
            }
        )
        start = end
    return turns


def _case_result(
    case: EvalCase,
    execution: ExecutionResult,
    criterion_results: list[CriterionResult],
    replies: list[str],
    turn_ends: list[tuple[int, int, int]],
    thread_id: str,
    eval_set_id: str,
    error: str | None,
    error_info: dict[str, Any],
    *,
    consume: bool = False,
    defer_views: bool = False,
) -> EvalCaseResult:
    """The result of a case; with ``consume``, ``execution`` gives up its node responses
    one by one as the result's views of them are made (a case of many nodes never holds
    both at once); with ``defer_views`` (and ``consume``) the result keeps the node
    responses and leaves its views of them pending (see :mod:`~tenxeval_tui.evaluation.results.node_views`)."""
    agent_tokens = execution.token_usage
    judge_tokens = TokenUsage.total(cr.token_usage for cr in criterion_results)
    turn_results = _turn_results(case, execution, replies, turn_ends)
    metadata = _case_metadata(case, eval_set_id, thread_id, error_info)
    result = EvalCaseResult(
        eval_id=case.eval_id,
        name=case.name,
        passed=error is None and all(cr.passed for cr in criterion_results),
        criterion_results=criterion_results,
        actual_tool_calls=execution.tool_calls,
        actual_response=execution.actual_response,
        messages=execution.messages,
        duration_seconds=execution.duration_seconds,
        error=error,
        metadata=metadata,
        turn_results=turn_results,
        token_usage=agent_tokens + judge_tokens,
        agent_token_usage=agent_tokens,
    )
    # The per-event lists are of their types already: assigned, not validated again
    # (validation would copy every step, node and message of the case once more).
    result.actual_trajectory = list(execution.trajectory)
    result.node_visits = list(execution.node_visits)
    if consume and defer_views:
        defer(result, execution.node_responses)
        execution.node_responses = []
    else:
        result.node_responses, result.node_details = _node_views(execution, consume)
    return result


def _node_views(
    execution: ExecutionResult, consume: bool
) -> tuple[list[dict[str, Any]], list[NodeDetail]]:
    """The report's two views of each node response: a dict and a :class:`NodeDetail`."""
    nodes = execution.node_responses
    if not consume:
        return [node_response_dict(n) for n in nodes], [node_detail(n) for n in nodes]
    responses: list[dict[str, Any]] = []
    details: list[NodeDetail] = []
    while nodes:  # from the end: each node is let go as soon as its views exist
        node = nodes.pop()
        responses.append(node_response_dict(node))
        details.append(node_detail(node))
    responses.reverse()
    details.reverse()
    return responses, details


def write_reports(report: EvalReport, config: EvalConfig, output_dir: str | None = None) -> Any:
    """Run the configured reporters once on ``report``; failures are logged, never raised.

    Returns the reporters' output, or ``None`` when reporting is disabled or unavailable.
    """
    if not config.reporter.enabled:
        return None
    try:
        from tenxeval_tui.evaluation.reporters import ReporterManager
    except ImportError:
        logger.debug("reporters are not available; no report written")
        return None
    try:
        output = ReporterManager(config.reporter).run_all(report, output_dir=output_dir)
    except Exception:
        logger.exception("reporters failed for %s", report.eval_set_id)
        return None
    for name, message in getattr(output, "errors", []) or []:
        logger.warning("reporter %s failed for %s: %s", name, report.eval_set_id, message)
    return output


__all__ = [
    "AgentEvaluator",
    "NextTurn",
    "Scorer",
    "score_criteria",
    "write_reports",
]
