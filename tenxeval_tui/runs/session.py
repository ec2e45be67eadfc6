"""One run session: a plan run to its end, for every front end (no UI import).

``tenxeval-tui run`` builds a :class:`~tenxeval_tui.runs.plan.RunPlan` (what to run) and
:class:`SessionOptions` (how to run it and judge the outcome) from its flags, then hands
both to :class:`RunSession`, which goes through its steps and returns a
:class:`~tenxeval_tui.runs.outcome.RunOutcome`; the CLI only parses and prints (through a
:class:`~tenxeval_tui.runs.display.RunDisplay`). The steps, in order:

1. **select**: the plan's files scanned (each case's id, name and tags: the worker loads
   the cases) and their cases chosen as the worker will choose them
   (:func:`~tenxeval_tui.runs.run_selection.chosen_for_run`);
2. **resume** (``SessionOptions.resume``): less the cases the journal finished;
   **reuse** (``SessionOptions.reuse``): less the cases whose newest earlier result in the
   output folder has their fingerprint (:mod:`tenxeval_tui.runs.reuse`), put back at the end;
3. **passes**: the cases run in a worker child (:func:`~tenxeval_tui.runs.child_run.run_in_child`),
   then (``retry_errors``) the errored ones again, each in a new child;
4. **finish**: the passes and the journal's cases put together, a ``--shard`` part marked,
   one report written (its ``outputs`` too), the journal dropped or kept, the exit code.

``from_journal`` replaces all four: the reports a journal kept are written. A new way of
running (another pass, another source of finished cases) is one field of
:class:`SessionOptions` and one step here. The workbench, which follows its runs live in
its own worker process, uses the same pieces for its reruns and resumes
(:mod:`tenxeval_tui.runs.passes`, :func:`resume_point`, :func:`resumed_reports`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import (
    NOT_RUN_KEY,
    PARTIAL_KEY,
    STOPPED_KEY,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.variant_spec import Variant
from tenxeval_tui.runs.budget import RunBudget
from tenxeval_tui.runs.case_scan import ScannedSet, scan_run_files
from tenxeval_tui.runs.child_run import child_reports, run_in_child
from tenxeval_tui.runs.display import RunDisplay, SilentDisplay
from tenxeval_tui.runs.outcome import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Published,
    RunOutcome,
    exit_code,
    incomplete_reason,
)
from tenxeval_tui.runs.passes import (
    CaseId,
    Selected,
    case_ids,
    errored_only,
    merge_by_set,
    retried_count,
    with_earlier_costs,
)
from tenxeval_tui.runs.plan import RunPlan, load_eval_sets
from tenxeval_tui.runs.problems import EmptyShard, RunProblem, journal_problems
from tenxeval_tui.runs.report_writers import load_report_writers, page_cases
from tenxeval_tui.runs.reports import marked_partial, named_variant, write_outputs, write_reports
from tenxeval_tui.runs.resume import ResumePoint, resume_point
from tenxeval_tui.runs.run_selection import chosen_for_run
from tenxeval_tui.runs.selection_report import run_selection_mark, with_selection
from tenxeval_tui.runs.shards import mark_shard, run_positions
from tenxeval_tui.runs.spare_worker import SpareWorker

# Imported where used (a --reuse run, a report written): `run`'s parent hands its plan to
# its worker child without them and what they import (provenance, issue #38).
if TYPE_CHECKING:
    from tenxeval_tui.runs.reuse import ReuseMode, ReuseSplit


@dataclass(frozen=True)
class SessionOptions:
    """How a session runs its plan and judges the outcome (what it runs is the plan's)."""

    threshold: float = 1.0
    """The pass rate needed to exit 0."""
    error_exit_code: int | None = None
    """The exit code when a case errored (``None``: 1, as for a failed run)."""
    retry_errors: int = 0
    """Run the errored cases again, up to this many times (each keeps its last result)."""
    resume: Path | None = None
    """Run only what this journal has no result of, into one report of them all."""
    reuse: ReuseMode | None = None
    """Take each case's newest earlier result of the same fingerprint from the reports in
    the output folder instead of running it (``passed``: only passing results)."""
    from_journal: Path | None = None
    """Run nothing: write the reports of the cases this journal recorded."""
    outputs: tuple[str, ...] = ()
    """More report files, each in the format its ending names (``-o``)."""
    verbose: bool = False
    """The worker's log records from INFO up, on stderr."""
    log_level: str | None = None
    """The worker's log records from this level up, whatever ``verbose`` says."""
    variant: str | None = None
    """The variant this run is of: named in its report's ``metadata.variant``."""
    variants: tuple[Variant, ...] = ()
    """Several variants of the agent to run side by side: a
    :class:`~tenxeval_tui.runs.variant_session.VariantSession` runs them (each a session
    of its own), not this session."""
    baseline: str | None = None
    """With ``variants``: the variant the others are judged against (the exit code)."""
    keep_journal: bool = False
    """Keep the journal even when the run finished (the outcome names it; a variant run
    drops its variants' journals once all of them finished)."""


@dataclass
class _Passes:
    """What the passes of a run have done so far."""

    finished: list[EvalReport] = field(default_factory=list)
    interrupted: bool = False
    died: bool = False
    journal: Path | None = None
    rerun: set[CaseId] = field(default_factory=set)
    """The cases run more than once by ``retry_errors``."""
    wall: float = 0.0
    """Seconds the passes took, each from its first case's start to its last case's end."""
    budget: RunBudget | None = None
    """``max_cost`` over every pass, the journal's cases counted."""

    @property
    def stopped(self) -> bool:
        return self.interrupted or self.died


class _PassClock(RunObserver):
    """When a pass's first case started and its last case ended, whatever ran it (one
    evaluator, worker processes, Ray actors): the wall time of the cases of every eval set
    of the pass together (their reports each hold their own)."""

    reads_brief_results = True
    """Reads no result (:mod:`~tenxeval_tui.runs.brief_results`)."""
    reads_case_ids = True
    """Reads no started case (:mod:`~tenxeval_tui.runs.case_starts`)."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last: float | None = None

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        if self.first is None:
            self.first = time.perf_counter()

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.last = time.perf_counter()

    @property
    def seconds(self) -> float:
        if self.first is None or self.last is None:
            return 0.0
        return max(self.last - self.first, 0.0)


class RunSession:
    """A plan run with its options to one report and an exit code (see the module)."""

    def __init__(
        self,
        plan: RunPlan,
        options: SessionOptions,
        display: RunDisplay | None = None,
        *,
        stop: threading.Event | None = None,
        spare: SpareWorker | None = None,
        scanned: Mapping[Path, ScannedSet] | None = None,
    ) -> None:
        self.plan = plan
        self.options = options
        self.display: RunDisplay = display if display is not None else SilentDisplay()
        self.stop = stop
        """Set from another thread, it stops the run as Ctrl-C would (a session run off
        the main thread never sees Ctrl-C)."""
        self.spare = spare
        """A worker started already: the first pass runs in it (the caller discards it
        when no pass ran)."""
        self.scanned = scanned
        """Eval set files the caller scanned already (``run``'s parent, as it checked
        their keys): the selection reads them from here instead of the files."""
        self.selection: dict[str, Any] | None = None
        """The report's ``metadata.selection`` (``None``: a run of every case; see
        :mod:`~tenxeval_tui.runs.selection_report`), known once the cases are selected."""

    def run(self) -> RunOutcome:
        """Every step; :class:`RunProblem` when the run cannot start or go on as asked. A
        ``--shard`` part that holds no case runs nothing and exits 0."""
        if self.options.from_journal is not None:
            return self.report_journal(self.options.from_journal)

        def scan(paths: Sequence[Path]) -> list[tuple[Path, ScannedSet]]:
            return scan_run_files(paths, self.scanned)

        try:
            cases = chosen_for_run(self.plan, self.display.note, scan)
            selected = cases.selected
            # what the selection chose of every case, before --limit/--resume narrow the
            # worker's plan: the report's metadata.selection
            self.selection = run_selection_mark(self.plan, cases.loaded, cases.chosen)
        except EmptyShard as exc:
            self.display.note(f"{exc}: nothing to run")
            return RunOutcome(EXIT_OK)
        point = self._resume(selected)
        reuse = self._reuse(point.todo)
        return self._run_passes(reuse.todo if reuse else point.todo, point, reuse)

    def _resume(self, selected: Selected) -> ResumePoint:
        """With ``resume``: ``selected`` less the cases its journal finished, and those."""
        journal = self.options.resume
        if journal is None:
            return ResumePoint(list(selected), [])
        config_used = self.plan.resolved_config().model_dump(mode="json")
        point = resume_point(selected, [journal], config_used)
        self.display.note(
            f"resuming {journal}: {point.finished} case(s) finished, {point.left} to run"
        )
        return point

    def _reuse(self, todo: Selected) -> ReuseSplit | None:
        """With ``reuse``: which of ``todo`` take an earlier result instead of running."""
        mode = self.options.reuse
        if mode is None or not todo:
            return None
        from tenxeval_tui.runs.provenance import plan_provenance
        from tenxeval_tui.runs.reuse import (
            earlier_reports,
            earlier_results,
            reuse_split,
            why_reused_none,
        )

        config = self.plan.resolved_config()
        set_ids = {eval_set.eval_set_id for _, eval_set in todo}
        loaded = load_eval_sets([path for path, _ in todo])
        todo = _whole_cases(todo, loaded)  # the fingerprints hash each case's content
        provenances = {
            set_id: provenance
            for set_id, provenance in plan_provenance(self.plan, config, loaded).items()
            if set_id in set_ids
        }
        hashes = [p.get("agent_sha256") for p in provenances.values()]
        refused = why_reused_none(hashes, self.plan.tools.mode)
        if refused is not None:
            self.display.note(f"--reuse: {refused}: every case runs")
            return None
        folder = Path(config.reporter.output_dir)
        earlier = earlier_results(earlier_reports(folder))
        split = reuse_split(todo, provenances, earlier, config, mode)
        total = sum(len(eval_set.eval_cases) for _, eval_set in todo)
        why = "; ".join(f"{reason}: {count}" for reason, count in split.reasons().items())
        self.display.note(
            f"--reuse: {split.count} of {total} case(s) reused from the reports in {folder}, "
            f"{total - split.count} to run" + (f" ({why})" if why else "")
        )
        return split

    def _run_passes(
        self,
        selected: Selected,
        resumed: ResumePoint | None = None,
        reuse: ReuseSplit | None = None,
    ) -> RunOutcome:
        """Run the ``selected`` eval sets (their passes), then :meth:`_finish`; ``resumed``:
        the cases a resumed run's journal had are put back in the report; ``reuse``: the
        results reused too."""
        done = resumed.done if resumed is not None else []
        reused = reuse is not None and reuse.count > 0
        by_id = self.plan.limit is not None or self.plan.sample is not None or bool(done) or reused
        plan = self.plan.narrowed_to(selected, by_id=by_id)
        config = plan.resolved_config()
        passes = _Passes(budget=RunBudget.of(config))
        if passes.budget is not None:
            passes.budget.add(report for _, report in done)
        if selected:
            total = sum(len(s.eval_cases) for _, s in selected)
            if passes.budget is not None and not passes.budget.fits():
                passes.finished = self._not_run(selected, passes.budget, total)
            else:
                passes.journal, passes.finished = self._run_pass(plan, total, config, passes)
        self._retry_errors(plan, selected, config, passes)
        return self._finish(selected, resumed, config, passes, reuse)

    def _not_run(self, selected: Selected, budget: RunBudget, total: int) -> list[EvalReport]:
        """The reports of ``selected`` when ``max_cost`` was spent before they could run:
        no result, every case not run."""
        self.display.note(f"not running the {total} case(s) left: {_over_budget(budget)}")
        return [
            EvalReport.create(
                eval_set_id=s.eval_set_id,
                results=[],
                eval_set_name=s.name,
                metadata={
                    PARTIAL_KEY: True,
                    STOPPED_KEY: "max_cost",
                    NOT_RUN_KEY: [c.eval_id for c in s.eval_cases],
                },
            )
            for _, s in selected
        ]

    def _run_pass(
        self, plan: RunPlan, total: int, config: EvalConfig, passes: _Passes
    ) -> tuple[Path | None, list[EvalReport]]:
        """One run of ``plan`` in a child: its journal and reports; how it ended goes into
        ``passes`` and is told to the display."""
        clock = _PassClock()
        if passes.budget is not None:  # what is left of the run's max_cost
            plan = plan.model_copy(update={"config": passes.budget.pass_config(config, total)})
        page = page_cases(config.reporter)  # made as the child runs the cases
        with self.display.progress(total) as observers:
            child = run_in_child(
                plan,
                [*observers, clock],
                verbose=self.options.verbose,
                log_level=self.options.log_level,
                stderr=self.display.child_stderr,
                stop=self.stop,
                spare=self.spare,
                on_journal_case=page.add if page is not None else None,
                # while the child runs; not before it has the plan: the import held this
                # process's GIL from the plan's hand-over (issue #38)
                on_handed=(
                    (lambda: load_report_writers(config.reporter))
                    if config.reporter.enabled
                    else None
                ),
            )
        self.spare = None
        if page is not None:
            page.attach(child.reports)
        if child.worker_error is not None:
            if child.journal is not None and any(r.summary.total_cases for r in child.reports):
                # a case broken mid-file stopped a streamed run: what ran before it is kept
                self.display.journal_kept(child.journal, resumable=True)
            raise RunProblem(child.worker_error)
        for line in [*child.worker_deaths, *child.warnings]:
            self.display.warning(line)
        if child.interrupted:
            self.display.notice("interrupted: writing the report of the finished cases")
        elif child.died:
            self.display.warning(
                f"the agent's process {child.how_it_ended()} before the run finished "
                "(os._exit, a crash or a kill): writing the report of the finished cases"
            )
        passes.interrupted, passes.died = child.interrupted, child.died
        passes.wall += clock.seconds
        reports = child_reports(child, config.model_dump(mode="json"))
        if passes.budget is not None:
            passes.budget.add(reports)
        return child.journal, reports

    def _retry_errors(
        self, plan: RunPlan, selected: Selected, config: EvalConfig, passes: _Passes
    ) -> None:
        """``retry_errors``: the errored cases again, each time in a new child, each keeping
        its last result."""
        retries = self.options.retry_errors
        for attempt in range(1, retries + 1):
            again = {} if passes.stopped else errored_only(selected, passes.finished)
            if not again:
                return
            count = sum(len(ids) for ids in again.values())
            budget = passes.budget
            if budget is not None and not budget.fits():
                self.display.note(f"not retrying {count} errored case(s): {_over_budget(budget)}")
                return
            passes.rerun |= case_ids(selected, again)
            self.display.note(f"retrying {count} errored case(s) (retry {attempt} of {retries})")
            journal, newer = self._run_pass(plan.rerunning(again), count, config, passes)
            _drop_journal(journal)  # its results are merged into the reports
            newer = with_earlier_costs(passes.finished, newer)  # the cost of every attempt
            passes.finished = merge_by_set(passes.finished, newer, selected)

    def _finish(
        self,
        selected: Selected,
        resumed: ResumePoint | None,
        config: EvalConfig,
        passes: _Passes,
        reuse: ReuseSplit | None = None,
    ) -> RunOutcome:
        """Put the passes, the reused results and the journal's cases together, write the
        report, keep or drop the journal; the outcome."""
        finished = passes.finished
        if reuse is not None and reuse.reused:
            finished = reuse.reports(finished)
        if resumed is not None and resumed.done:
            finished = resumed.reports(finished, config.model_dump(mode="json"))
        if not finished or not any(r.results for r in finished):
            _drop_journal(passes.journal)
            code = EXIT_INTERRUPTED if passes.interrupted else EXIT_FAILED
            return RunOutcome(code, selected=list(selected))
        # one report, marked as the whole run chose its cases (the worker's marks were of
        # what it was handed: a --limit pick, what --resume left)
        reports = [with_selection(_one(finished), self.selection)]
        if self.plan.shard is not None:
            reports = [self._shard_report(reports)]
        if passes.wall:  # the eval sets' own wall times overlap when several ran at once
            before = sum(r.summary.wall_seconds or 0.0 for _, r in resumed.done) if resumed else 0
            reports = [_with_wall(_one(reports), passes.wall + before)]
        published = self.publish(reports, config, rerun=passes.rerun, ended=passes)
        journal = passes.journal
        if self.options.keep_journal:
            pass  # the caller decides (the outcome names it)
        elif not published.errors and not passes.stopped:
            _drop_journal(journal)
            journal = None
        elif journal is not None:
            self.display.journal_kept(journal, resumable=passes.stopped)
        if passes.interrupted:
            code = EXIT_INTERRUPTED
        elif passes.died or published.errors:
            code = EXIT_FAILED
        else:
            code = published.exit_code
        return RunOutcome(code, published, list(selected), finished, journal=journal)

    def _shard_report(self, reports: Sequence[EvalReport]) -> EvalReport:
        """The one report of a ``--shard`` run: which part it is, each case's place in the
        whole."""
        report = _one(reports)
        plan = self.plan
        return mark_shard(report, plan, run_positions(plan, scan_run_files(plan.eval_sets)))

    def publish(
        self,
        reports: Sequence[EvalReport],
        config: EvalConfig,
        rerun: Collection[CaseId] = (),
        ended: _Passes | None = None,
    ) -> Published:
        """Write ``reports`` as one report (combined when several), its ``outputs`` too, and
        show it. Files come first: a closed stdout (``| head``) must not cost the reports.
        ``rerun`` holds the cases ``retry_errors`` ran again, counted as retried; ``ended``
        says how the passes ended (why the report is incomplete, when it is)."""
        from tenxeval_tui.runs.reused_counts import reused_count, with_reused_count

        report = with_reused_count(_one(reports))
        if self.options.variant is not None:
            report = named_variant(report, self.options.variant)
        written = write_reports([report], config.reporter, console=False)
        extra, failed = write_outputs(report, self.options.outputs, config.reporter)
        published = Published(
            report,
            files=[*written.files, *extra],
            retried=retried_count(report, rerun),
            reused=reused_count(report),
            html=written.html,
            errors=[*written.errors, *((f"-o {path}", problem) for path, problem in failed)],
            threshold=self.options.threshold,
            exit_code=exit_code(
                report, self.options.threshold, error_code=self.options.error_exit_code
            ),
            incomplete=incomplete_reason(
                report,
                interrupted=ended is not None and ended.interrupted,
                died=ended is not None and ended.died,
            ),
        )
        self.display.published(published, config)
        return published

    def report_journal(self, journal: Path) -> RunOutcome:
        """``from_journal``: write the reports of the cases ``journal`` recorded. Exit code
        as a run's (1 when the journal's run did not finish: the report is partial)."""
        from tenxeval_tui.evaluation.results.journal_results import read_journal_parts_streamed
        from tenxeval_tui.evaluation.results.streamed_reports import combined_streamed

        with journal_problems(journal):
            parts = [
                (r, planned) for r, planned in read_journal_parts_streamed(journal) if r.results
            ]
        if not parts:
            raise RunProblem(f"{journal}: no finished case in this journal")
        runs = [r for r, _ in parts]
        # a set whose run did not end counts the cases it was to run (its selection mark)
        report = (
            runs[0] if len(runs) == 1 else combined_streamed(runs, planned=[p for _, p in parts])
        )
        if any(r.is_partial for r in runs):
            report = marked_partial(report)
        published = self.publish([report], self.plan.resolved_config())
        return RunOutcome(EXIT_FAILED if published.errors else published.exit_code, published)


def _over_budget(budget: RunBudget) -> str:
    """Why no more case starts: what was spent of ``max_cost``."""
    return (
        f"${budget.spent:.4f} of max_cost ${budget.max_cost:g} spent, and a case costs "
        f"${budget.average or 0:.4f} on average"
    )


def _whole_cases(selected: Selected, loaded: Selected) -> list[tuple[Path, EvalSet]]:
    """``selected`` (scanned) with the whole cases of the ``loaded`` eval sets it holds."""
    whole = {eval_set.eval_set_id: eval_set for _, eval_set in loaded}
    chosen: list[tuple[Path, EvalSet]] = []
    for path, eval_set in selected:
        ids = {case.eval_id for case in eval_set.eval_cases}
        full = whole[eval_set.eval_set_id]
        cases = [case for case in full.eval_cases if case.eval_id in ids]
        chosen.append((path, full.model_copy(update={"eval_cases": cases})))
    return chosen


def _one(reports: Sequence[EvalReport]) -> EvalReport:
    """``reports`` as one: the only one, or all combined (their results left in their
    journal when they are there)."""
    if len(reports) == 1:
        return reports[0]
    from tenxeval_tui.evaluation.results.journal_results import is_streamed
    from tenxeval_tui.evaluation.results.streamed_reports import combined_streamed

    if any(is_streamed(report) for report in reports):
        return combined_streamed(reports)
    return EvalReport.combine(list(reports))


def _with_wall(report: EvalReport, seconds: float) -> EvalReport:
    """``report`` saying its run took ``seconds`` (its summary a copy)."""
    summary = report.summary.model_copy(update={"wall_seconds": seconds})
    return report.model_copy(update={"summary": summary})


def _drop_journal(journal: Path | None) -> None:
    """The journal of a run whose reports are written holds nothing more: remove it."""
    if journal is not None:
        with contextlib.suppress(OSError):  # a folder gone read-only: the journal stays
            journal.unlink(missing_ok=True)


__all__ = ["RunSession", "SessionOptions"]
