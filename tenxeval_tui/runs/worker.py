"""The run worker: one evaluation in a child process, streamed as JSON lines on stdout.

The run screen and ``tenxeval-tui run`` start ``python -m tenxeval_tui.runs.worker
PLAN_JSON`` (a :class:`~tenxeval_tui.runs.plan.RunPlan`) and read its stdout line by
line. The worker is the one execution path of every front end: it loads the eval sets and
selects their cases (:func:`~tenxeval_tui.runs.plan.select`), works out each one's
provenance (:mod:`~tenxeval_tui.runs.provenance`: in the journal and the reports), loads
the agents, runs :class:`EvaluationRunner` and writes the reports
(:func:`~tenxeval_tui.runs.reports.write_reports`). On stdout it writes:

- every observer call as :class:`JsonLinesObserver` writes it (``run_start``,
  ``case_start``, ``event``, ``case_end``, ``run_end``), except that ``case_end``
  results leave out their trajectories, messages and node details (every event is
  streamed already, and the reports and the journal keep the full results);
- ``worker_plan`` (``eval_sets``: each eval set with a case selected, its ``eval_set_id``,
  ``name`` and ``cases``, the ``[eval_id, name]`` pairs that will run) first, so the total
  is known when the run starts, not as each eval set begins (an eval set with no case
  selected is not run and gets no report);
- ``worker_error`` (``message``) when the agent, an eval set or the config cannot
  be loaded (exit status 3);
- ``worker_died`` (``message``) for each worker process (``plan.workers`` > 1) that died
  mid-run: the cases it was running are errors, the run went on;
- ``worker_reports`` (``files``, ``html``, ``partial``) once the reports are written;
- ``worker_journal_failed`` (``message``) when the journal could not be written: each case
  it could not keep comes whole on its ``case_end`` line (:mod:`~.journal_guard`);
- ``worker_ack`` for each command read on stdin (stop one case, end its tool call in
  flight: :mod:`~tenxeval_tui.runs.worker_commands`), with several workers too (the pool
  routes it to those running the case).

With ``plan.workers`` > 1 (or the Ray backend) the cases are handed out to several
workers (:mod:`tenxeval_tui.runs.pool`, :mod:`tenxeval_tui.runs.ray_backend`) and their
lines come back through this process, so the stream is the same.

File descriptor 1 is kept for these lines alone: the agent's prints (and the console
reporter) go to stderr, which the screen shows when the worker dies. SIGTERM cancels
the run cleanly: finished cases are kept and the reports are written marked partial.
A run journal (:class:`RunJournal`) is kept when ``journal`` is given, so a worker
killed outright still leaves what finished.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EVAL_SET_HASH_KEY, EvalCaseResult
from tenxeval_tui.evaluation.files.fileio import freeze_alive
from tenxeval_tui.evaluation.long_lived import long_lived_imports
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.results.json_stream import CASE_LISTS, json_object_text
from tenxeval_tui.runs.agent_parts import AgentParts
from tenxeval_tui.runs.brief_results import brief_case_end_line
from tenxeval_tui.runs.case_end_line import case_end_line
from tenxeval_tui.runs.child_setup import (
    ERROR_EXIT,
    NOT_RUN,
    load_agents,
    run_then_exit,
    set_up_logging,
    split_agentless,
)
from tenxeval_tui.runs.early_agent import EarlyAgent, take_environment
from tenxeval_tui.runs.journal_guard import JOURNAL_FAILED, GuardedJournal
from tenxeval_tui.runs.loop_exit import run_leaving_threads
from tenxeval_tui.runs.parent_watch import die_with_parent
from tenxeval_tui.runs.plan import (
    RunPlan,
    chosen_cases,
    load_eval_sets,
    shard_part,
    tool_run,
    unfound_choice,
)
from tenxeval_tui.runs.problems import RunProblem
from tenxeval_tui.runs.protocol_lines import ProtocolLines, protocol_stream
from tenxeval_tui.runs.provenance import (
    journal_metadata,
    plan_provenance,
    start_agent_parts,
    with_provenance,
)
from tenxeval_tui.runs.reports import marked_partial, named_variant, write_reports
from tenxeval_tui.runs.selection_report import selection_marks, with_selection
from tenxeval_tui.runs.spare_worker import GIT_PLACES_KEY, PLAN_ON_STDIN, PREPARE_KEY
from tenxeval_tui.runs.streamed_run import StreamedRunner, streamed_files, streams
from tenxeval_tui.runs.wanted_events import WantedEvents, WantedJsonLinesObserver
from tenxeval_tui.runs.worker_commands import listen

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig


PENDING_HASH = "-"
"""What a streamed file's hash is while the provenance is worked out (then ``None``)."""


def plan_line(eval_sets: Sequence[EvalSet]) -> str:
    """The ``worker_plan`` line: every case the run will evaluate, before the first starts.
    Its text is made a block of cases at a time: the ``[eval_id, name]`` pairs of a big
    run are never all built at once."""
    sets = [
        json_object_text(
            {"eval_set_id": eval_set.eval_set_id, "name": eval_set.name},
            "cases",
            ([case.eval_id, case.name] for case in eval_set.eval_cases),
        )
        for eval_set in eval_sets
    ]
    return '{"type": "worker_plan", "eval_sets": [' + ", ".join(sets) + "]}\n"


# What the screen does not need from a streamed case result (the reports keep all of it):
# with thousands of steps these make a line of megabytes to decode in the UI: the lists that
# grow with a case's events.
BULKY_RESULT_FIELDS = frozenset(CASE_LISTS)


class LeanJsonLinesObserver(WantedJsonLinesObserver):
    """A :class:`JsonLinesObserver` whose ``case_end`` lines leave out the bulky fields,
    but for the cases in :attr:`whole` (the journal could not keep them); only the
    ``events`` its reader wants (:mod:`~tenxeval_tui.runs.wanted_events`); ``brief``: the
    ``case_end`` lines hold only what a verdict needs (:mod:`~tenxeval_tui.runs.brief_results`),
    until :meth:`journal_failed`."""

    def __init__(self, write: Any, *, events: WantedEvents = "all", brief: bool = False) -> None:
        super().__init__(write, events=events)
        self.whole: set[tuple[str, str]] = set()
        self.brief = brief

    def journal_failed(self) -> None:
        """The journal could not be written: the reader keeps the results from the
        stream from now on (:class:`~tenxeval_tui.runs.journal_guard.KeptResults`), so
        every line is lean again."""
        self.brief = False

    def on_case_end(self, result: EvalCaseResult) -> None:
        key = (result.eval_set_id, result.eval_id)
        if key in self.whole:
            from tenxeval_tui.evaluation.results.node_views import fill

            self.whole.discard(key)
            super().on_case_end(fill(result))
            return
        line = brief_case_end_line(result) if self.brief else None
        if line is None:
            line = case_end_line(result, BULKY_RESULT_FIELDS)
        if line is None:
            lean = result.model_dump(mode="json", exclude=set(BULKY_RESULT_FIELDS))
            self._emit({"type": "case_end", "result": lean})
            return
        self._write(line)
        if self._flush is not None:
            self._flush()


class ForgetBulk(RunObserver):
    """Once a finished case is streamed and journalled, its result keeps only what the
    run's summary reads (its bulky lists are emptied): a run whose reports are made
    from the journal holds one case's steps at a time, not every case's."""

    def on_case_end(self, result: EvalCaseResult) -> None:
        from tenxeval_tui.evaluation.results.node_views import forget

        for one in [result, *(result.repeat_results or [])]:
            for name in BULKY_RESULT_FIELDS:
                setattr(one, name, [])
            forget(one)


def _journal_failed(out: ProtocolLines, stream: LeanJsonLinesObserver, message: str) -> None:
    """Tell the reader the journal failed; from then on, every ``case_end`` line lean."""
    stream.journal_failed()
    out.emit({"type": JOURNAL_FAILED, "message": message})


def _not_run(path: Path, eval_set_id: str, problem: str) -> dict[str, str]:
    return {"path": str(path), "eval_set_id": eval_set_id, "problem": problem}


def check_simulators(plan: RunPlan, config: EvalConfig, eval_sets: Sequence[EvalSet]) -> None:
    """The simulated user of every scenario file is set up (its model, its goal judge);
    ``ValueError`` naming the scenario set when one is not."""
    from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_eval_set

    for eval_set in eval_sets:
        if is_scenario_eval_set(eval_set) and eval_set.eval_cases:
            # lazy: the simulator (its evaluator and judges) only for a scenario file
            from tenxeval_tui.evaluation.simulators.runner import simulator_for

            try:
                simulator_for(eval_set, config, plan.user_model)
            except ValueError as exc:
                raise ValueError(f"scenarios {eval_set.eval_set_id!r}: {exc}") from None


async def run(plan: RunPlan, out: ProtocolLines, early: EarlyAgent | None = None) -> int:
    """Run ``plan``, writing protocol lines through ``out``; returns the exit status.
    ``early``: what a spare worker did before its plan came (:mod:`~.early_agent`)."""
    from tenxeval_tui.evaluation.criteria import build_criteria
    from tenxeval_tui.evaluation.evaluator import EvaluationRunner
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError
    from tenxeval_tui.runs.criteria_modules import import_criteria_modules

    try:
        import_criteria_modules(plan.criteria_modules, plan.search_path)
        config = plan.resolved_config()
        build_criteria(config)  # a criterion that cannot run (no judge set up) stops here
        walked = streamed_files(plan, config) if streams(plan, config) else None
        loaded: Sequence[tuple[Path, EvalSet]]
        # An eval set none of whose cases is selected is not run: no empty report of it.
        chosen: Sequence[tuple[Path, EvalSet]]  # before the shard split: metadata.selection
        if walked is not None:  # each case built when it is about to run (streamed_run)
            loaded = scanned = [(path, found.scanned) for path, found in walked]
            chosen = picked = chosen_cases(plan, scanned)
            streamed = [(path, s) for path, s in shard_part(plan, picked) if s.eval_cases]
            files_and_sets: list[tuple[Path, EvalSet]] = list(streamed)
        else:
            loaded = load_eval_sets(plan.eval_sets)
            chosen = chosen_cases(plan, loaded)
            files_and_sets = [(path, s) for path, s in shard_part(plan, chosen) if s.eval_cases]
        if (unfound := unfound_choice(plan, loaded)) is not None:
            raise RunProblem(unfound)
        # A set with no agent at all is left out, said, and the others run.
        files_and_sets, agentless = split_agentless(plan, files_and_sets)
        if agentless:
            out.emit({"type": NOT_RUN, "sets": [_not_run(*one) for one in agentless]})
            left_out = {path for path, _, _ in agentless}
            if walked is not None:
                streamed = [(path, s) for path, s in streamed if path not in left_out]
            plan = plan.model_copy(
                update={"eval_sets": [p for p in plan.eval_sets if p not in left_out]}
            )
        # The cases live as long as the run: later collections leave them alone (at
        # 100,000 cases each full collection walked them again: 8 s of the plan line).
        freeze_alive()
        tools = tool_run(plan, files_and_sets)
        out.write(plan_line([eval_set for _, eval_set in files_and_sets]))
        # The agents' code is hashed as found before they are imported, beside the import.
        parts = early.parts if early is not None else AgentParts(fork=not plan.pooled)
        start_agent_parts(plan, loaded, parts)
        check_simulators(plan, config, [eval_set for _, eval_set in files_and_sets])
        # Several workers each load the agents (the first error is told once): not here.
        evaluations: list[tuple[Any, Any, EvalSet]] = (
            [(None, None, eval_set) for _, eval_set in files_and_sets]
            if plan.pooled
            else load_agents(plan, files_and_sets, early.failed if early is not None else None)
        )
        # A streamed file's hash is known once it has been read to its end (streamed_run).
        hashes = {path: PENDING_HASH for path, _ in walked or []}
        provenances = plan_provenance(plan, config, loaded, hashes, parts)
        for provenance in provenances.values():
            if provenance.get(EVAL_SET_HASH_KEY) == PENDING_HASH:
                provenance[EVAL_SET_HASH_KEY] = None
        selections = selection_marks(plan, loaded, chosen)  # a run of some cases says so
    except AgentLoadError as exc:
        out.emit({"type": "worker_error", "message": str(exc), "usage": True})
        return ERROR_EXIT
    except (EvalFileError, RunProblem) as exc:  # its message names the file and the problem
        out.emit({"type": "worker_error", "message": str(exc)})
        return ERROR_EXIT
    except Exception as exc:  # everything that stops a run from starting, told in one line
        out.emit({"type": "worker_error", "message": f"{type(exc).__name__}: {exc}"})
        return ERROR_EXIT
    stream = LeanJsonLinesObserver(out.write, events=plan.events, brief=plan.case_end == "brief")
    observers: list[RunObserver] = [stream]
    if plan.pooled and tools.settings.records:  # the workers record; the cassette is ours
        observers.append(tools.writer())
    if plan.journal is not None:
        # Before the stream: a case the journal could not keep is streamed whole.
        journal = GuardedJournal(
            plan.journal,
            journal_metadata(provenances, selections),
            started=plan.journal_started,
            failed=lambda message: _journal_failed(out, stream, message),
            unwritten=lambda r: stream.whole.add((r.eval_set_id, r.eval_id)),
            config_used=config.model_dump(mode="json"),
        )
        observers.insert(0, journal)
        if not config.reporter.enabled:  # `run`: its reports are made from the journal
            observers.append(ForgetBulk())
    runner: EvaluationRunner | StreamedRunner
    if walked is not None:
        runner = StreamedRunner(
            config,
            streamed,
            dict(walked),
            observers=observers,
            tools=tools,
            provenances=provenances,
        )
    else:
        runner = EvaluationRunner(
            config,
            observers=observers,
            user_model=plan.user_model,
            tools=tools,
            provenances=provenances,
        )
    pool = _pool(plan, config, evaluations, observers, out) if plan.pooled else None
    loop = asyncio.get_running_loop()
    cancelled = False

    def cancel() -> None:
        nonlocal cancelled
        cancelled = True
        if pool is not None:
            pool.cancel()
        runner.cancel()

    loop.add_signal_handler(signal.SIGTERM, cancel)

    def cancel_soon() -> None:  # a write may fail off the loop (a tool's thread)
        loop.call_soon_threadsafe(cancel)

    out.on_broken = cancel_soon
    loop.add_signal_handler(signal.SIGINT, cancel)  # Ctrl-C of a terminal's `run` reaches us too
    # Stop one case, end a tool call (see worker_commands): carried out here, or routed by
    # the pool to the workers running the case.
    listen(pool if pool is not None else runner, out.emit, loop)
    reporting = config.reporter.model_copy()
    config.reporter = config.reporter.model_copy(update={"enabled": False})
    if pool is not None:
        reports = await pool.run()
        if pool.worker_error is not None:
            out.emit({"type": "worker_error", "message": pool.worker_error})
            return ERROR_EXIT
        for death in pool.deaths:
            out.emit({"type": "worker_died", "message": death})
    elif isinstance(runner, StreamedRunner):
        try:
            reports = await runner.run(evaluations)
        except (EvalFileError, RunProblem, OSError) as exc:  # a case of the file that does not load
            out.emit({"type": "worker_error", "message": str(exc)})
            return ERROR_EXIT
    else:
        reports = list((await runner.run(evaluations, config)).values())
    if cancelled:
        reports = [marked_partial(r) for r in reports]
    reports = [plan.with_report_marks(r) for r in with_provenance(reports, provenances)]
    reports = [
        with_selection(r, selections[r.eval_set_id]) if r.eval_set_id in selections else r
        for r in reports
    ]
    if plan.variant is not None:
        reports = [named_variant(r, plan.variant) for r in reports]
    written = write_reports(reports, reporting)
    out.emit(
        {
            "type": "worker_reports",
            "files": written.files,
            "html": written.html,
            "partial": cancelled or any(r.is_partial for r in reports),
        }
    )
    return 0


def _pool(
    plan: RunPlan,
    config: Any,
    evaluations: Sequence[tuple[Any, Any, EvalSet]],
    observers: Sequence[Any],
    out: ProtocolLines,
) -> Any:
    """The backend that hands the run's cases out to ``plan.workers`` workers: local
    processes (:class:`~tenxeval_tui.runs.pool.ProcessPool`) or Ray actors."""
    from tenxeval_tui.evaluation.observers import ObserverGroup

    eval_sets = [eval_set for _, _, eval_set in evaluations]
    group = _Group(ObserverGroup(observers))
    if plan.backend == "ray":
        from tenxeval_tui.runs.ray_backend import RayPool

        return RayPool(plan, config, eval_sets, plan.workers or 1, group, raw_events=out.write)
    from tenxeval_tui.runs.pool import ProcessPool

    return ProcessPool(plan, config, eval_sets, plan.workers or 1, group, raw_events=out.write)


class _Group(RunObserver):
    """One observer calling an :class:`ObserverGroup` (failures logged, never raised)."""

    def __init__(self, group: Any) -> None:
        self.group = group

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[Any]) -> None:
        self.group.run_start(eval_set, cases)

    def on_case_start(self, eval_set_id: str, case: Any) -> None:
        self.group.case_start(eval_set_id, case)

    def on_repeat_start(self, eval_set_id: str, case: Any, repeat: int, repeats: int) -> None:
        self.group.repeat_start(eval_set_id, case, repeat, repeats)

    def on_repeat_event(self, eval_set_id: str, eval_id: str, repeat: int, event: Any) -> None:
        self.group.event(eval_set_id, eval_id, event, repeat)

    def on_repeat_end(self, eval_set_id: str, eval_id: str, result: Any, repeats: int) -> None:
        self.group.repeat_end(eval_set_id, eval_id, result, repeats)

    def on_case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        self.group.case_retry(eval_set_id, eval_id, reason)

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.group.case_end(result)

    def on_run_end(self, report: Any) -> None:
        self.group.run_end(report)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tenxeval_tui.runs.worker PLAN_JSON`` (or ``@FILE`` holding it, or ``-``:
    a spare worker, its plan the first line of stdin, see :mod:`~.spare_worker`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = ProtocolLines(protocol_stream())
    if len(args) != 1:
        out.emit({"type": "worker_error", "message": "usage: tenxeval_tui.runs.worker PLAN_JSON"})
        return ERROR_EXIT
    try:
        if args[0] == PLAN_ON_STDIN:
            # One event loop from the start: the agent, imported before the plan comes,
            # is imported in the loop its cases run in, as any worker's is.
            return run_leaving_threads(_spare(out))
        try:
            # "@FILE": the plan is in FILE (one argument is limited to 128 kB on Linux).
            raw = Path(args[0][1:]).read_text("utf-8") if args[0].startswith("@") else args[0]
        except OSError as exc:
            out.emit({"type": "worker_error", "message": f"bad run plan: {exc}"})
            return ERROR_EXIT
        plan = _plan(raw, out)
        if plan is None:
            return ERROR_EXIT
        set_up_logging(plan.verbose, plan.log_level)
        return run_leaving_threads(run(plan, out))
    finally:
        out.flush()  # what waits for the timer: the process ends with os._exit


def _plan(raw: str, out: ProtocolLines) -> RunPlan | None:
    """The plan of ``raw`` (its JSON); ``None`` when it is not one (told on ``out``). The
    journal keeps each finished case as it ends: its line on stdout may wait."""
    try:
        plan = RunPlan.model_validate_json(raw)
    except ValueError as exc:
        out.emit({"type": "worker_error", "message": f"bad run plan: {exc}"})
        return None
    out.results_wait = plan.journal is not None
    return plan


WARM_IMPORTS = (
    "tenxeval_tui.evaluation.criteria",
    "tenxeval_tui.evaluation.criteria.response",
    "tenxeval_tui.evaluation.criteria.trajectory",
    "tenxeval_tui.evaluation.evaluator",
    "tenxeval_tui.evaluation.targets.loader",
    "tenxeval_tui.runs.criteria_modules",
)
"""What :func:`run` imports for every run (the default criteria's modules too), imported
by a spare worker before its plan comes."""


async def _spare(
    out: ProtocolLines, early: EarlyAgent | None = None, first: str | None = None
) -> int:
    """A spare worker: what every run imports, imported while the parent reads its flags;
    then the lines its parent hands it (:mod:`~.spare_worker`), each with the environment
    to take (the judges' variables the parent's settings set; ``PYTHONPATH``'s new
    folders, the agent's, go on ``sys.path`` where the interpreter would have put them):
    the agent to start on (:mod:`~.early_agent`), then the plan, run. Exits 0 without a
    line when stdin ends before a plan (the parent found a usage error). ``early`` and
    ``first``: what :mod:`.spare_start` did and the line it read (``""``: stdin ended)."""
    with long_lived_imports():  # what they build lives as long as the worker
        for name in WARM_IMPORTS:
            importlib.import_module(name)
    early = early or EarlyAgent()
    while line := first if first is not None else sys.stdin.readline():
        first = None
        try:
            handed = json.loads(line)
            take_environment(handed["env"])
        except (ValueError, KeyError, TypeError) as exc:
            out.emit({"type": "worker_error", "message": f"bad run plan: {exc}"})
            return ERROR_EXIT
        if PREPARE_KEY in handed:
            early.prepare(handed[PREPARE_KEY], handed.get(GIT_PLACES_KEY) or ())
            continue
        plan = _plan(str(handed.get("plan")), out)
        if plan is None:
            return ERROR_EXIT
        if (plan.verbose, plan.log_level) != early.logging:
            set_up_logging(plan.verbose, plan.log_level)
        return await run(plan, out, early)
    return 0


def spare_main(out: ProtocolLines, early: EarlyAgent, first: str | None) -> int:
    """The rest of a spare worker started by :mod:`.spare_start` (``early``: what it did,
    ``first``: the line it read, ``None`` when none yet); the exit status."""
    try:
        return run_leaving_threads(_spare(out, early, first))
    finally:
        out.flush()


def _main_then_exit() -> None:
    die_with_parent()  # a run killed outright takes its worker with it
    run_then_exit(main)


if __name__ == "__main__":
    _main_then_exit()
