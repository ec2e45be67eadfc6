"""Report folders with a history: runs of one eval set, written as `run` writes them."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.eval_result import CASE_SHA256_KEY, PROVENANCE_KEY
from tenxeval_tui.evaluation.provenance import sha256_json

START = 1779200581.0  # 2026-05-19 14:23:01 UTC
HOUR = 3600.0


def result(eval_id: str, mark: str, *, cost: float | None = None) -> EvalCaseResult:
    """A case result: ``P`` passed, ``F`` failed (a criterion), ``E`` errored."""
    if mark == "E":
        failed = EvalCaseResult.failure(eval_id, "ServiceUnavailable: down", name=eval_id.title())
        failed.metadata[CASE_SHA256_KEY] = sha256_json(eval_id)
        return failed
    criterion = CriterionResult.success("rouge_match", 0.9 if mark == "P" else 0.2, 0.5)
    done = EvalCaseResult.success(
        eval_id, [criterion], name=eval_id.title(), duration_seconds=0.25,
        actual_response=f"{eval_id} says {'yes' if mark == 'P' else 'no'}",
        metadata={CASE_SHA256_KEY: sha256_json(eval_id)},
    )  # fmt: skip
    done.cost_usd = cost
    return done


def write_run(
    folder: Path,
    number: int,
    marks: Mapping[str, str],
    *,
    eval_set_id: str = "weather",
    commit: str | None = None,
    dirty: bool = False,
    cost: float | None = None,
    wall: float | None = 2.0,
    timestamp: float | None = None,
    metadata: Mapping[str, object] | None = None,
) -> Path:
    """Report number ``number`` (an hour apart) of ``eval_set_id``: each case's mark."""
    per_case = None if cost is None else cost / max(len(marks), 1)
    results = [result(eval_id, mark, cost=per_case) for eval_id, mark in marks.items()]
    provenance = (
        {"git_commit": commit, "git_dirty": dirty, "eval_set_sha256": "e" * 64}
        if commit is not None
        else None
    )
    report = EvalReport.create(
        eval_set_id,
        results,
        eval_set_name=eval_set_id.title(),
        metadata={**({PROVENANCE_KEY: provenance} if provenance else {}), **(metadata or {})},
        wall_seconds=wall,
    )
    report.summary.total_cost_usd = cost
    report.timestamp = START + number * HOUR if timestamp is None else timestamp
    path = folder / f"{eval_set_id}_{number:04d}.json"
    folder.mkdir(parents=True, exist_ok=True)
    report.to_file(path)
    os.utime(path, (report.timestamp, report.timestamp))
    return path


def write_series(
    folder: Path, columns: Sequence[str], ids: Sequence[str], **kwargs: object
) -> list[Path]:
    """One run per string of ``columns`` (oldest first), its letters the marks of ``ids``."""
    return [
        write_run(folder, n, dict(zip(ids, marks, strict=True)), **kwargs)  # type: ignore[arg-type]
        for n, marks in enumerate(columns)
    ]
