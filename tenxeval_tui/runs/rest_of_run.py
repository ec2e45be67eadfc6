"""The run view's "run the rest" (``u``): a stopped run resumed as ``run --resume`` resumes
it, into the complete reports (no UI).

The run view follows its runs live in its own worker process
(:class:`~tenxeval_tui.runs.worker_process.WorkerProcess`), so it does not run a
:class:`~tenxeval_tui.runs.session.RunSession`; it takes the same steps with the same
pieces: what is left is the stopped run's selection less what its journals finished
(:func:`~tenxeval_tui.runs.resume.resume_point`), the rest runs with its reporters off,
and the reports written after are the journals' cases and the rest's put together
(:meth:`~tenxeval_tui.runs.resume.ResumePoint.reports`), one per eval set as the run
view writes them. A rest that is stopped again can be resumed again: the journals add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.evaluation.results.journal import read_journal_runs
from tenxeval_tui.runs.live_run import CaseStatus, LiveRun
from tenxeval_tui.runs.plan import RunPlan, selected_eval_sets
from tenxeval_tui.runs.reports import WrittenReports, marked_partial, write_reports
from tenxeval_tui.runs.resume import ResumePoint, resume_point


@dataclass
class StoppedRun:
    """A run the rest of which can run: its plan (whose complete reports the rest writes)
    and the journals of the runs that finished its cases so far, oldest first."""

    plan: RunPlan
    journals: list[Path] = field(default_factory=list)

    @classmethod
    def of(cls, plan: RunPlan) -> StoppedRun:
        """A run started anew: its own journal holds what it finished."""
        return cls(plan, [plan.journal] if plan.journal is not None else [])


@dataclass
class RestOfRun:
    """The rest of a stopped run: the plan that runs it, and where it starts from."""

    stopped: StoppedRun
    plan: RunPlan
    point: ResumePoint

    @property
    def after(self) -> StoppedRun:
        """The stopped run with this rest's journal too (to resume it if it stops again)."""
        journal = [self.plan.journal] if self.plan.journal is not None else []
        return StoppedRun(self.stopped.plan, [*self.stopped.journals, *journal])


def rest_of(stopped: StoppedRun, journal: Path) -> RestOfRun:
    """What is left of ``stopped`` (loads its eval sets and journals), run with
    ``journal`` and no reporters: :func:`write_complete` writes the reports after.
    Raises what loading the files and journals raises, and
    :class:`~tenxeval_tui.runs.problems.RunProblem` when the config changed since in how
    it scores (the journals' cases would not be scored as the rest)."""
    selected = [(path, s) for path, s in selected_eval_sets(stopped.plan) if s.eval_cases]
    config = stopped.plan.resolved_config()
    journals = [j for j in stopped.journals if j.is_file()]
    point = resume_point(selected, journals, config.model_dump(mode="json"))
    config.reporter.enabled = False
    plan = point.plan(stopped.plan).model_copy(update={"config": config, "journal": journal})
    return RestOfRun(stopped, plan, point)


def write_complete(rest: RestOfRun, *, finished: bool) -> WrittenReports:
    """The complete reports of the stopped run once its rest ran, one per eval set (each
    marked partial unless the rest ``finished``); the files written."""
    journal = rest.plan.journal
    newer = read_journal_runs(journal) if journal is not None and journal.is_file() else []
    config = rest.stopped.plan.resolved_config()
    reports = rest.point.reports(newer, config.model_dump(mode="json"))
    if not finished:
        reports = [marked_partial(r) for r in reports]
    return write_reports([r for r in reports if r.results], config.reporter, console=False)


def reports_hold(run: LiveRun, rest: RestOfRun | None = None) -> str:
    """What the reports of the ended ``run`` hold, said after where they are ("" when they
    hold just its cases). ``rest``: the run ran the rest of a stopped run (``u``), whose
    complete reports hold the cases its journals finished too.

    Counted from the cases themselves: those run now are the ones with a result (a case
    a cancel cut short has none, and is in no report); those finished before are the
    journals' (the cases carried over from before a stopped rerun, say the passed cases of
    the run it reran, are in the reports of the run that ran them, not in these).
    """
    carried = run.counts()["carried"]
    ran = sum(
        1 for s in run.cases.values() if s.status != CaseStatus.CARRIED and s.result is not None
    )
    if rest is None:
        if not carried:
            return ""
        return (
            f" They hold the {ran} cases run now; the {carried} carried over are in the "
            "reports of the runs that ran them."
        )
    before = rest.point.finished
    held = "the cases of the run finished so far" if run.partial else "every case of the run"
    elsewhere = carried - before
    return f" They hold {held}: the {ran} run now and the {before} finished before." + (
        f" The {elsewhere} carried over from earlier are in the reports of the runs that ran them."
        if elsewhere > 0
        else ""
    )


__all__ = ["RestOfRun", "StoppedRun", "reports_hold", "rest_of", "write_complete"]
