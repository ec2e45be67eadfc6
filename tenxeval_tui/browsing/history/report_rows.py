"""One JSON report as the rows the history index keeps of it.

The report is parsed as plain JSON (no model validation: a 1,000-case report is
indexed in milliseconds), and only what a history shows is kept: the run's figures
and provenance, each criterion's average score and pass rate, and each case's status,
repeat counts, score, duration, cost and content hash. A file that is not a report is
kept as its problem, so the index knows it and does not read it again until it changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.browsing.report_document import repeat_counts
from tenxeval_tui.evaluation.analysis.compare import criterion_figures
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import (
    CASE_SHA256_KEY,
    EVAL_SET_ID_KEY,
    PARTIAL_KEY,
    PROVENANCE_KEY,
    RESCORED_KEY,
    EvalReport,
)
from tenxeval_tui.evaluation.files.fileio import parse_json, read_text
from tenxeval_tui.evaluation.selection_marks import selection_of

STATUS_CODES = {"passed": "P", "failed": "F", "error": "E"}
"""How a case's status is stored (one letter; the history's strips show the same)."""


@dataclass(frozen=True, slots=True)
class CaseRow:
    """What the index keeps of one case of a run."""

    case_set: str
    """The case's own eval set (a combined report's cases name theirs), else the report's."""
    eval_id: str
    name: str
    status: str
    """``P``, ``F`` or ``E`` (:data:`STATUS_CODES`)."""
    passes: int | None
    runs: int | None
    score: float | None
    duration: float
    cost: float | None
    case_sha256: str | None


@dataclass(slots=True)
class ReportRows:
    """What the index keeps of one report file."""

    eval_set_id: str = ""
    eval_set_name: str = ""
    timestamp: float = 0.0
    total: int = 0
    passed: int = 0
    failed: int = 0
    errored: int = 0
    cost: float | None = None
    wall: float | None = None
    duration: float = 0.0
    partial: bool = False
    rescored: bool = False
    selection: str | None = None
    """The report's ``metadata.selection`` as JSON: a run of some of the set's cases
    (``None``: of every case; see evaluation.selection_marks)."""
    provenance: dict[str, Any] = field(default_factory=dict)
    criteria: dict[str, tuple[float, float]] = field(default_factory=dict)
    """``criterion -> (avg score, pass rate)``."""
    cases: list[CaseRow] = field(default_factory=list)
    problem: str | None = None
    """Why the file is not a report (then nothing else is set)."""


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _case(data: Any, report_set: str) -> CaseRow:
    if not isinstance(data, dict) or not isinstance(data.get("eval_id"), str):
        raise ValueError("a result is not a case result (no eval_id)")
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    error = data.get("error")
    status = "error" if error is not None else ("passed" if data.get("passed") else "failed")
    scores = [
        s
        for c in data.get("criterion_results") or []
        if isinstance(c, dict) and (s := _number(c.get("score"))) is not None
    ]
    passes, runs, _ = repeat_counts(data)
    digest = metadata.get(CASE_SHA256_KEY)  # type: ignore[union-attr]
    return CaseRow(
        case_set=str(metadata.get(EVAL_SET_ID_KEY) or report_set),  # type: ignore[union-attr]
        eval_id=data["eval_id"],
        name=str(data.get("name") or ""),
        status=STATUS_CODES[status],
        passes=passes,
        runs=runs,
        score=sum(scores) / len(scores) if scores else None,
        duration=_number(data.get("duration_seconds")) or 0.0,
        cost=_number(data.get("cost_usd")),
        case_sha256=digest if isinstance(digest, str) else None,
    )


def rows_of(data: Any, mtime: float) -> ReportRows:
    """The rows of a parsed report (``ValueError``/``KeyError``/``TypeError`` when it is
    not one); ``mtime`` is its time when it says none."""
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ValueError("not a report: no 'results' list")
    set_id = data["eval_set_id"]
    if not isinstance(set_id, str):
        raise TypeError("eval_set_id is not a string")
    summary = data.get("summary") if isinstance(data.get("summary"), dict) else {}
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    cases = [_case(item, set_id) for item in data["results"]]
    stats = summary.get("criterion_stats")  # type: ignore[union-attr]
    provenance = metadata.get(PROVENANCE_KEY)  # type: ignore[union-attr]
    return ReportRows(
        eval_set_id=set_id,
        eval_set_name=str(data.get("eval_set_name") or ""),
        timestamp=_number(data.get("timestamp")) or mtime,
        total=len(cases),
        passed=sum(1 for c in cases if c.status == "P"),
        failed=sum(1 for c in cases if c.status == "F"),
        errored=sum(1 for c in cases if c.status == "E"),
        cost=_number(summary.get("total_cost_usd")),  # type: ignore[union-attr]
        wall=_number(summary.get("wall_seconds")),  # type: ignore[union-attr]
        duration=sum(c.duration for c in cases),
        partial=bool(metadata.get(PARTIAL_KEY)),  # type: ignore[union-attr]
        rescored=RESCORED_KEY in metadata,  # type: ignore[operator]
        selection=_selection_json(metadata),
        provenance=provenance if isinstance(provenance, dict) else {},
        criteria=criterion_figures(stats) if isinstance(stats, dict) else {},
        cases=cases,
    )


def _selection_json(metadata: Any) -> str | None:
    mark = selection_of(metadata)
    return json.dumps(mark.to_json()) if mark is not None else None


def read_report_rows(path: Path) -> ReportRows:
    """The rows of the report at ``path``; a file that is not a report gives its problem
    (file, line, column where known), never an exception. ``OSError`` when it cannot be
    read at all."""
    mtime = path.stat().st_mtime
    try:
        return rows_of(parse_json(path, read_text(path)), mtime)
    except EvalFileError as exc:
        return ReportRows(problem=str(exc.first))
    except (ValueError, KeyError, TypeError, RecursionError):
        try:
            EvalReport.from_file(path)  # names the place of the problem
        except EvalFileError as exc:
            return ReportRows(problem=str(exc.first))
        return ReportRows(problem=f"{path}: not a report this index can read")


def provenance_json(rows: ReportRows) -> str | None:
    """The provenance as the index stores it (``None`` when the report has none)."""
    return json.dumps(rows.provenance, sort_keys=True) if rows.provenance else None


__all__ = [
    "STATUS_CODES",
    "CaseRow",
    "ReportRows",
    "provenance_json",
    "read_report_rows",
    "rows_of",
]
