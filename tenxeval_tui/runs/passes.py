"""The passes of a run session (retrying errored cases, resuming from a journal, rerunning
some cases from the run view): which cases to run again, and the reports of several passes
put together (the core's :mod:`~tenxeval_tui.evaluation.subsets` does the matching and
merging). No UI import.

Reports and eval sets are matched by ``eval_set_id``, as in journals.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import NOT_RUN_KEY, RETRIED_KEY, STOPPED_KEY, EvalReport
from tenxeval_tui.evaluation.results.journal_results import is_streamed, none_holds
from tenxeval_tui.evaluation.results.streamed_reports import merged_streamed
from tenxeval_tui.evaluation.subsets import merge_results, unfinished

Selected = Sequence[tuple[Path, EvalSet]]
CaseId = tuple[str, str]
"""A case across eval sets: (eval set id, eval id)."""
STOP_KEYS = (STOPPED_KEY, NOT_RUN_KEY)
EARLIER_COST_KEY = "earlier_attempts_cost_usd"
"""A retried case's metadata: what its earlier attempts cost (its ``cost_usd`` counts them)."""


def errored_only(selected: Selected, reports: Sequence[EvalReport]) -> dict[Path, list[str]]:
    """Each eval set file of ``selected`` whose cases errored in ``reports``, with their ids
    (for :meth:`~tenxeval_tui.runs.plan.RunPlan.rerunning`); empty when none errored."""
    errored: dict[str, set[str]] = {}
    for report in reports:
        for result in report.results:
            if result.is_error:
                set_id = result.eval_set_id or report.eval_set_id
                errored.setdefault(set_id, set()).add(result.eval_id)
    only: dict[Path, list[str]] = {}
    for path, eval_set in selected:
        ids = errored.get(eval_set.eval_set_id, set())
        chosen = [c.eval_id for c in eval_set.eval_cases if c.eval_id in ids]
        if chosen:
            only[path] = chosen
    return only


def rerun_only(cases: Iterable[CaseId], files: Mapping[str, Path]) -> dict[Path, list[str]]:
    """``cases`` as :meth:`~tenxeval_tui.runs.plan.RunPlan.rerunning` takes them (as
    :func:`errored_only` gives them): the eval ids by eval set file (``files``: eval set id
    -> file), in the order given; cases of an eval set with no known file are left out."""
    only: dict[Path, list[str]] = {}
    for set_id, eval_id in cases:
        path = files.get(set_id)
        if path is not None and eval_id not in only.get(path, []):
            only.setdefault(path, []).append(eval_id)
    return only


def case_ids(selected: Selected, only: Mapping[Path, Sequence[str]]) -> set[CaseId]:
    """The cases ``only`` names (eval ids by eval set file of ``selected``, as
    :func:`errored_only` gives them), by eval set id."""
    set_ids = {path: eval_set.eval_set_id for path, eval_set in selected}
    return {(set_ids[path], eval_id) for path, ids in only.items() for eval_id in ids}


def retried_count(report: EvalReport, rerun: Collection[CaseId] = ()) -> int:
    """How many of ``report``'s cases ran more than once: run again by ``--retry-errors``
    (``rerun``) or retried after their worker died (their result says so), each counted once."""
    if not rerun and none_holds(report.results, metadata=RETRIED_KEY):  # not read again
        return 0
    count = 0
    for result in report.results:
        case = (result.eval_set_id or report.eval_set_id, result.eval_id)
        if case in rerun or result.metadata.get(RETRIED_KEY):
            count += 1
    return count


def merge_by_set(
    base: Sequence[EvalReport], newer: Sequence[EvalReport], selected: Selected = ()
) -> list[EvalReport]:
    """``base``'s reports with ``newer``'s results of the same eval set put in place (the
    core's :func:`~tenxeval_tui.evaluation.subsets.merge_results`, in the order of the
    eval set in ``selected`` when there); reports of sets only ``newer`` has are added."""
    sets = {eval_set.eval_set_id: eval_set for _, eval_set in selected}
    by_id = {report.eval_set_id: report for report in newer}
    merged = [
        _merged(report, by_id.pop(report.eval_set_id), sets.get(report.eval_set_id))
        if report.eval_set_id in by_id
        else report
        for report in base
    ]
    return merged + list(by_id.values())


def _merged(base: EvalReport, newer: EvalReport, eval_set: EvalSet | None) -> EvalReport:
    """``merge_results``; a report whose results are read from its journal as they are
    needed stays so when only some of its cases were run again."""
    if is_streamed(base) and (streamed := merged_streamed(base, newer, eval_set)) is not None:
        return streamed
    return merge_results(base, newer, eval_set)


def resume_split(
    selected: Selected, done: dict[str, EvalReport]
) -> tuple[list[tuple[Path, EvalSet]], list[tuple[EvalSet, EvalReport]]]:
    """``selected`` without the cases the journal's reports ``done`` (by eval set id) have
    results for (sets left with none are dropped), and each selected set that ``done``
    has a report of, with that report."""
    todo: list[tuple[Path, EvalSet]] = []
    finished: list[tuple[EvalSet, EvalReport]] = []
    for path, eval_set in selected:
        report = done.get(eval_set.eval_set_id)
        if report is not None:  # only its results of the cases selected now
            ids = {case.eval_id for case in eval_set.eval_cases}
            report = EvalReport.create(
                eval_set_id=report.eval_set_id,
                results=[r for r in report.results if r.eval_id in ids],
                eval_set_name=report.eval_set_name,
                metadata=report.metadata,
            )
        rest = unfinished(eval_set, report)
        if rest.eval_cases:
            todo.append((path, rest))
        if report is not None:
            finished.append((eval_set, report))
    return todo, finished


def with_finished(
    finished: Sequence[tuple[EvalSet, EvalReport]], reports: Sequence[EvalReport]
) -> list[EvalReport]:
    """The reports of a resumed run: each journal report with the new results of its set
    (complete unless a case of the set still has no result; stopped when the new run of
    the set was, by ``max_cost``), then the other new reports."""
    by_id = {report.eval_set_id: report for report in reports}
    merged = []
    for eval_set, report in finished:
        newer = by_id.pop(eval_set.eval_set_id, None)
        empty = EvalReport.create(eval_set_id=eval_set.eval_set_id, results=[])
        both = merge_results(report, newer or empty, eval_set)
        stop = {k: v for k, v in (newer.metadata if newer else {}).items() if k in STOP_KEYS}
        if stop:
            both = both.model_copy(update={"metadata": {**both.metadata, **stop}})
        merged.append(both)
    return merged + list(by_id.values())


def with_earlier_costs(base: Sequence[EvalReport], newer: Sequence[EvalReport]) -> list[EvalReport]:
    """``newer``'s reports (a retry's), each result costing what its earlier attempts in
    ``base`` cost too (said in its metadata, :data:`EARLIER_COST_KEY`): a report's cost
    counts every attempt."""
    earlier = {
        (r.eval_set_id or report.eval_set_id, r.eval_id): r.cost_usd
        for report in base
        for r in report.results
        if r.cost_usd
    }
    out = []
    for report in newer:
        results = []
        for result in report.results:
            before = earlier.get((result.eval_set_id or report.eval_set_id, result.eval_id))
            if before:
                metadata = {**result.metadata, EARLIER_COST_KEY: before}
                cost = (result.cost_usd or 0.0) + before
                result = result.model_copy(update={"cost_usd": cost, "metadata": metadata})
            results.append(result)
        out.append(report.model_copy(update={"results": results}))
    return out


__all__ = [
    "EARLIER_COST_KEY",
    "STOP_KEYS",
    "case_ids",
    "errored_only",
    "merge_by_set",
    "rerun_only",
    "resume_split",
    "retried_count",
    "with_earlier_costs",
    "with_finished",
]
