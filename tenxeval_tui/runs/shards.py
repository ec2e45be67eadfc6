"""Static shards: what a ``run --shard K/N`` report records, and ``merge`` of such reports.

A sharded run (:attr:`~tenxeval_tui.runs.plan.RunPlan.shard`) runs one stable part of the
cases its plan selects. Its report says which part it is (``metadata.shard``: ``index``,
``count``, ``total``: the cases of the whole run, and ``run``: a digest of those cases, the
same in every part of one run) and each result its place in the whole run
(``metadata.run_position``), so :func:`merge_reports` can put the parts back in eval-set
order without the eval set files. It refuses reports run with different configs (the
settings of how a run is carried out aside:
:data:`~tenxeval_tui.runs.config_match.EXECUTION_FIELDS` change no score),
parts of different runs, a ``metadata.shard`` that is no shard mark, or reports holding the
same case twice, with a :class:`MergeError` naming the files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
    NOT_RUN_KEY,
    PARTIAL_KEY,
    PROVENANCE_KEY,
    STOPPED_KEY,
    EvalCaseResult,
    EvalReport,
    combined_provenance,
)
from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY, SHARD_KEY
from tenxeval_tui.runs.config_match import config_difference
from tenxeval_tui.runs.plan import RunPlan, select

# SHARD_KEY: report metadata of a sharded run, ``{"index": K, "count": N, "total": cases,
# "run": digest}``; its readers (history, trend, compare) take such a part for a selection
# of the run's cases (evaluation.selection_marks), the merged report for a full run.
POSITION_KEY = "run_position"
"""Result metadata of a sharded run: the case's place (0-based) in the whole run."""
MERGED_KEY = "merged_from"
"""Report metadata of a merged report: the files it was merged from."""


class MergeError(ValueError):
    """Reports that cannot be merged; the message names the files and the problem."""


def run_positions(
    plan: RunPlan, loaded: Sequence[tuple[Path, EvalSet]]
) -> dict[tuple[str, str], int]:
    """``(eval set id, eval id) -> place`` of every case the whole (unsharded) plan runs."""
    whole = select(plan.model_copy(update={"shard": None}), loaded)
    keys = [(s.eval_set_id, c.eval_id) for _, s in whole for c in s.eval_cases]
    return {key: index for index, key in reversed(list(enumerate(keys)))}


def _key(report: EvalReport, result: EvalCaseResult) -> tuple[str, str]:
    return (result.eval_set_id or report.eval_set_id, result.eval_id)


def mark_shard(
    report: EvalReport, plan: RunPlan, positions: dict[tuple[str, str], int]
) -> EvalReport:
    """``report`` of the sharded ``plan``, saying which part it is and each case's place."""
    if plan.shard is None:
        return report
    results = [
        r.model_copy(update={"metadata": {**r.metadata, POSITION_KEY: positions[_key(report, r)]}})
        if _key(report, r) in positions
        else r
        for r in report.results
    ]
    shard = {
        "index": plan.shard.index,
        "count": plan.shard.count,
        "total": len(positions),
        "run": run_digest(positions, plan.shard.count),
    }
    return report.model_copy(
        update={"results": results, "metadata": {**report.metadata, SHARD_KEY: shard}}
    )


def run_digest(positions: dict[tuple[str, str], int], count: int) -> str:
    """Which run a part is of: a digest of the cases the whole run splits, in their order,
    and of how many parts (two runs of other cases never share it)."""
    ordered = sorted(positions, key=positions.__getitem__)
    text = json.dumps([count, [list(key) for key in ordered]])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def shard_mark(name: str, report: EvalReport) -> dict[str, Any] | None:
    """``report``'s ``metadata.shard`` (``None``: a report of no sharded run);
    :class:`MergeError` naming the file when it is no shard mark."""
    mark = report.metadata.get(SHARD_KEY)
    if mark is None:
        return None
    numbers = ("index", "count", "total")
    problem = None
    if not isinstance(mark, dict):
        problem = f"{mark!r} is not an object"
    elif bad := [k for k in numbers if type(mark.get(k)) is not int]:
        problem = f"{', '.join(bad)} not a whole number"
    elif not 1 <= mark["index"] <= mark["count"] or mark["total"] < 0:
        problem = f"part {mark['index']} of {mark['count']} ({mark['total']} cases)"
    elif not isinstance(mark.get("run", ""), str):
        problem = "run is not text"
    if problem is not None:
        raise MergeError(
            f"{name}: metadata.shard is no shard mark ({problem}); `run --shard K/N` writes "
            '{"index": K, "count": N, "total": CASES, "run": ...}'
        )
    return mark


def check_mergeable(reports: Sequence[tuple[str, EvalReport]]) -> None:
    """:class:`MergeError` when the reports (each with its file name) were run with
    different configs, are parts of different splits, or share a case."""
    if not reports:
        raise MergeError("no reports to merge")
    first_name, first = reports[0]
    for name, report in reports[1:]:
        difference = config_difference(first.config_used, report.config_used)
        if difference is not None:
            raise MergeError(
                f"{name}: was run with another config than {first_name} "
                f"({difference}); merge only parts of one run"
            )
    marks = {name: mark for name, report in reports if (mark := shard_mark(name, report))}
    counts = {name: mark["count"] for name, mark in marks.items()}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{name} (of {count})" for name, count in counts.items())
        raise MergeError(f"the reports are parts of different splits: {shown}")
    runs = {name: mark["run"] for name, mark in marks.items() if mark.get("run")}
    if runs:  # reports written before parts named their run have no "run": not compared
        first_part, run = next(iter(runs.items()))
        for name, other in runs.items():
            if other != run:
                raise MergeError(
                    f"{name}: is a part of another run than {first_part} (they split other "
                    "cases); merge only the parts of one run"
                )
    seen: dict[tuple[str, str], str] = {}
    for name, report in reports:
        for result in report.results:
            key = _key(report, result)
            if key in seen:
                raise MergeError(
                    f"{name}: case {key[1]!r} of eval set {key[0]!r} is in {seen[key]} too "
                    "(overlapping reports: merge each part once)"
                )
            seen[key] = name


def missing_shards(reports: Sequence[EvalReport]) -> list[str]:
    """The parts (``"K/N"``) of the split the reports come from that none of them is, when
    cases of the whole run are missing (a part holding no case writes no report)."""
    shards = [r.metadata[SHARD_KEY] for r in reports if isinstance(r.metadata.get(SHARD_KEY), dict)]
    if not shards:
        return []
    total = max(int(s.get("total", 0)) for s in shards)
    if sum(len(r.results) for r in reports) >= total:
        return []
    count = int(shards[0]["count"])
    have = {int(s["index"]) for s in shards}
    return [f"{k}/{count}" for k in range(1, count + 1) if k not in have]


def merge_reports(reports: Sequence[tuple[str, EvalReport]]) -> EvalReport:
    """One report of the parts (each with its file name), cases in the whole run's order.

    Checked first by :func:`check_mergeable`. Cases without a place (a report not from a
    sharded run) follow, in their reports' order. The merged report is partial when a
    part is, or when a part of the split is missing.
    """
    check_mergeable(reports)
    tagged: list[tuple[float, int, EvalCaseResult]] = []
    for name_index, (_, report) in enumerate(reports):
        for result in report.results:
            place = result.metadata.get(POSITION_KEY)
            kept = {k: v for k, v in result.metadata.items() if k != POSITION_KEY}
            kept.setdefault(EVAL_SET_ID_KEY, report.eval_set_id)
            order = float(place) if isinstance(place, int) else float("inf")
            tagged.append((order, name_index, result.model_copy(update={"metadata": kept})))
    tagged.sort(key=lambda item: (item[0], item[1]))
    parts = [report for _, report in reports]
    set_ids = list(dict.fromkeys(i for r in parts for i in _set_ids(r)))
    one_set = len({r.eval_set_id for r in parts}) == 1
    partial = any(r.is_partial for r in parts) or bool(missing_shards(parts))
    stopped = next((r.metadata[STOPPED_KEY] for r in parts if r.metadata.get(STOPPED_KEY)), None)
    provenance = combined_provenance([r.metadata.get(PROVENANCE_KEY) or {} for r in parts])
    # the parts of a run of some cases (--tags with --shard) each say what the run chose
    selection = next(
        (r.metadata[SELECTION_KEY] for r in parts if SELECTION_KEY in r.metadata), None
    )
    metadata: dict[str, Any] = {
        MERGED_KEY: [name for name, _ in reports],
        **({"eval_set_ids": set_ids} if len(set_ids) > 1 else {}),
        **({PARTIAL_KEY: True} if partial else {}),
        **({PROVENANCE_KEY: provenance} if provenance else {}),
        **({SELECTION_KEY: selection} if selection is not None else {}),
    }
    if stopped:
        metadata[STOPPED_KEY] = stopped
        metadata[NOT_RUN_KEY] = [i for r in parts for i in r.metadata.get(NOT_RUN_KEY) or []]
    return EvalReport.create(
        eval_set_id=parts[0].eval_set_id if one_set else "combined_eval",
        eval_set_name=parts[0].eval_set_name if one_set else "Combined Evaluation",
        results=[result for _, _, result in tagged],
        config_used=parts[0].config_used,
        metadata=metadata,
    )


def _set_ids(report: EvalReport) -> list[str]:
    listed = report.metadata.get("eval_set_ids")
    if isinstance(listed, list) and listed:
        return [str(i) for i in listed]
    return [report.eval_set_id]


__all__ = [
    "MERGED_KEY",
    "POSITION_KEY",
    "SHARD_KEY",
    "MergeError",
    "check_mergeable",
    "mark_shard",
    "merge_reports",
    "missing_shards",
    "run_digest",
    "run_positions",
    "shard_mark",
]
