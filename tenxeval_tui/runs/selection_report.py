"""The ``metadata.selection`` mark of a run over some of its eval sets' cases (no UI).

See :mod:`tenxeval_tui.evaluation.selection_marks` for what the mark says and who reads
it. A plan says how its cases were chosen (:func:`chosen_by`: the front end's
``RunPlan.chosen_by``, else its case ids, tags, ``limit`` or ``sample``); the mark
counts the cases that choice selected for the run (handed in, not selected again) against
those the eval set holds, before a ``--shard`` split (a shard has its own mark). The worker marks the reports (and the
journal's ``run_start`` lines, so a report rebuilt from the journal is marked too);
``run``'s session marks its one report over every file, as what it hands its worker may
be narrowed further (``--limit``, ``--resume``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY, SelectionMark
from tenxeval_tui.runs.plan import RunPlan


def chosen_by(plan: RunPlan) -> str | None:
    """How ``plan`` chose its cases (a key of
    :data:`~tenxeval_tui.evaluation.selection_marks.SELECTION_KINDS`), ``None`` when it
    runs every case of its files (its ``only`` alone is a resumed or continued run's)."""
    if plan.chosen_by:
        return plan.chosen_by
    if plan.selection.eval_ids is not None:
        return "cases"
    if plan.selection.tags:
        return "tags"
    if plan.limit is not None:
        return "limit"
    if plan.sample is not None:
        return "sample"
    return None


def _counts(sets: Sequence[tuple[Path, EvalSet]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, eval_set in sets:
        counts[eval_set.eval_set_id] = counts.get(eval_set.eval_set_id, 0) + len(
            eval_set.eval_cases
        )
    return counts


def _chosen(
    plan: RunPlan, loaded: Sequence[tuple[Path, EvalSet]], chosen: Sequence[tuple[Path, EvalSet]]
) -> tuple[str, dict[str, int], dict[str, int]] | None:
    """``(by, cases of each set, cases chosen of each set)``; ``None``: every case runs."""
    by = chosen_by(plan)
    if by is None:
        return None
    return by, _counts(loaded), _counts(chosen)


def selection_marks(
    plan: RunPlan, loaded: Sequence[tuple[Path, EvalSet]], chosen: Sequence[tuple[Path, EvalSet]]
) -> dict[str, dict[str, Any]]:
    """``eval set id -> metadata.selection`` of each of the ``loaded`` eval sets (whole)
    of which ``plan`` chose some cases but not all (``chosen``: those cases, before a
    shard split, as :func:`~tenxeval_tui.runs.plan.chosen_cases` gave them to the run);
    empty for a run of every case."""
    found = _chosen(plan, loaded, chosen)
    if found is None:
        return {}
    by, whole, counts = found
    return {
        set_id: SelectionMark(by, count, whole[set_id]).to_json()
        for set_id, count in counts.items()
        if count < whole[set_id]
    }


def run_selection_mark(
    plan: RunPlan, loaded: Sequence[tuple[Path, EvalSet]], chosen: Sequence[tuple[Path, EvalSet]]
) -> dict[str, Any] | None:
    """The mark of the one report of every file of ``plan`` (``run``'s): the cases it
    ``chosen`` of all the ``loaded`` eval sets together (as :func:`selection_marks`);
    ``None`` when it runs every case."""
    found = _chosen(plan, loaded, chosen)
    if found is None:
        return None
    by, whole, counts = found
    cases, of = sum(counts.values()), sum(whole.values())
    return SelectionMark(by, cases, of).to_json() if cases < of else None


def with_selection(report: EvalReport, mark: dict[str, Any] | None) -> EvalReport:
    """``report`` marked with ``mark`` (``None``: no mark, one it had is taken off)."""
    if mark is None:
        if SELECTION_KEY not in report.metadata:
            return report
        metadata = {k: v for k, v in report.metadata.items() if k != SELECTION_KEY}
    else:
        metadata = {**report.metadata, SELECTION_KEY: mark}
    return report.model_copy(update={"metadata": metadata})


__all__ = ["chosen_by", "run_selection_mark", "selection_marks", "with_selection"]
