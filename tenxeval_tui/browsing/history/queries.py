"""Reading histories out of the index: the eval sets of a folder, one eval set's runs
and its cases over the last runs (see :mod:`.series` for what they hold).

Runs are the reports of the eval set that loaded and are not another scoring of a run
(``rescore``, what-if), in time order; a run of some of the set's cases only (a rerun of
the failed ones, a filter: ``metadata.selection``) is one of them, marked
(:attr:`RunPoint.selection`), and its cases' marks are in their strips (real results of
those cases), but it is no point of the set's pass-rate series (:attr:`RunPoint.series`). Each query is a few indexed look-ups: the
history of a set of a thousand runs of a thousand cases reads its runs, the case rows
of the runs shown, and one row per case for its last change.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.browsing.history.series import (
    ABSENT,
    CaseStrip,
    EvalSetEntry,
    EvalSetHistory,
    RunPoint,
)
from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY, selection_of

_RUN_COLUMNS = (
    "id, file, timestamp, total, passed, failed, errored, cost, wall, duration, partial,"
    " git_commit, git_dirty, git_branch, agent_sha256, eval_set_sha256, selection"
)
_RUNS = "FROM reports WHERE problem IS NULL AND rescored = 0"


def _run(
    index: HistoryIndex, row: Sequence[Any], criteria: dict[str, tuple[float, float]]
) -> RunPoint:
    return RunPoint(
        report_id=row[0],
        path=index.folder / row[1],
        timestamp=row[2],
        total=row[3],
        passed=row[4],
        failed=row[5],
        errored=row[6],
        cost=row[7],
        wall=row[8],
        duration=row[9] or 0.0,
        partial=bool(row[10]),
        git_commit=row[11],
        git_dirty=None if row[12] is None else bool(row[12]),
        git_branch=row[13],
        agent_sha256=row[14],
        eval_set_sha256=row[15],
        criteria=criteria,
        selection=selection_of({SELECTION_KEY: json.loads(row[16])}) if row[16] else None,
    )


def eval_sets(index: HistoryIndex) -> list[EvalSetEntry]:
    """Every eval set with runs in the folder, most recently run first."""
    rows = index.db.execute(
        f"SELECT eval_set_id, count(*), max(timestamp) {_RUNS} GROUP BY eval_set_id"
    ).fetchall()
    entries = []
    for set_id, count, _ in sorted(rows, key=lambda r: r[2], reverse=True):
        last = index.db.execute(
            f"SELECT {_RUN_COLUMNS}, eval_set_name {_RUNS} AND eval_set_id = ?"
            " ORDER BY timestamp DESC, id DESC LIMIT 1",
            (set_id,),
        ).fetchone()
        entries.append(EvalSetEntry(set_id, last[-1] or set_id, count, _run(index, last, {})))
    return entries


def runs_of(index: HistoryIndex, eval_set_id: str) -> list[RunPoint]:
    """The runs of ``eval_set_id``, oldest first, with their criteria."""
    criteria: dict[int, dict[str, tuple[float, float]]] = {}
    for report_id, name, avg, rate in index.db.execute(
        "SELECT c.report_id, c.name, c.avg_score, c.pass_rate FROM criteria AS c"
        " JOIN reports AS r ON r.id = c.report_id WHERE r.eval_set_id = ?",
        (eval_set_id,),
    ):
        criteria.setdefault(report_id, {})[name] = (avg, rate)
    rows = index.db.execute(
        f"SELECT {_RUN_COLUMNS} {_RUNS} AND eval_set_id = ? ORDER BY timestamp, id",
        (eval_set_id,),
    )
    return [_run(index, row, criteria.get(row[0], {})) for row in rows]


def eval_set_history(
    index: HistoryIndex, eval_set_id: str, *, last: int = 20, case: str | None = None
) -> EvalSetHistory:
    """The history of ``eval_set_id``: all its runs, and its cases over the ``last`` runs
    (0: all) with the run where each last changed; ``case`` keeps the cases of that
    eval id only (whether or not the runs shown have it)."""
    runs = runs_of(index, eval_set_id)
    shown = runs[-last:] if last else runs
    position = {run.report_id: i for i, run in enumerate(shown)}
    marks: dict[int, list[str]] = {}
    for report_id, key, status in _case_rows(index.db, [r.report_id for r in shown]):
        marks.setdefault(key, [ABSENT] * len(shown))[position[report_id]] = status
    keys = _keys(index.db, eval_set_id, case)
    if case is None:
        keys = [k for k in keys if k[0] in marks]
    by_id = {run.report_id: (i, run) for i, run in enumerate(runs)}
    strips = []
    for key, case_set, eval_id, name in keys:
        change = _last_change(index.db, key)
        run = by_id.get(change[0]) if change else None
        before = _mark_before(index.db, key, run) if run is not None else None
        after = change[1] if change and run is not None else None
        strips.append(
            CaseStrip(
                case_set=case_set,
                eval_id=eval_id,
                name=name,
                marks="".join(marks.get(key, [ABSENT] * len(shown))),
                last_change=run[1] if run else None,
                last_change_from=before,
                last_change_to=after,
            )
        )
    title = _title(index.db, eval_set_id)
    return EvalSetHistory(eval_set_id, title, runs, last, strips)


def _case_rows(db: sqlite3.Connection, report_ids: Sequence[int]) -> list[tuple[int, int, str]]:
    rows: list[tuple[int, int, str]] = []
    for start in range(0, len(report_ids), 500):  # SQLite's limit of bound values
        ids = report_ids[start : start + 500]
        rows.extend(
            db.execute(
                "SELECT report_id, case_key, status FROM cases"
                f" WHERE report_id IN ({','.join('?' * len(ids))}) ORDER BY report_id, position",
                ids,
            )
        )
    return rows


def _keys(
    db: sqlite3.Connection, eval_set_id: str, case: str | None
) -> list[tuple[int, str, str, str]]:
    query = "SELECT id, case_set, eval_id, name FROM case_keys WHERE eval_set_id = ?"
    args: tuple[str, ...] = (eval_set_id,)
    if case is not None:
        query, args = query + " AND eval_id = ?", (eval_set_id, case)
    return [(k, c, e, n) for k, c, e, n in db.execute(query + " ORDER BY id", args)]


def _last_change(db: sqlite3.Connection, key: int) -> tuple[int, str] | None:
    """``(report id, mark)`` of the case's latest run that changed."""
    row = db.execute(
        "SELECT report_id, status FROM cases WHERE changed = 1 AND case_key = ?"
        " ORDER BY timestamp DESC, report_id DESC LIMIT 1",
        (key,),
    ).fetchone()
    return (row[0], row[1]) if row is not None else None


def _mark_before(db: sqlite3.Connection, key: int, run: tuple[int, RunPoint]) -> str | None:
    row = db.execute(
        "SELECT status FROM cases WHERE case_key = ? AND (timestamp, report_id) < (?, ?)"
        " ORDER BY timestamp DESC, report_id DESC LIMIT 1",
        (key, run[1].timestamp, run[1].report_id),
    ).fetchone()
    return str(row[0]) if row is not None else None


def _title(db: sqlite3.Connection, eval_set_id: str) -> str:
    row = db.execute(
        f"SELECT eval_set_name {_RUNS} AND eval_set_id = ? ORDER BY timestamp DESC LIMIT 1",
        (eval_set_id,),
    ).fetchone()
    return (row[0] if row and row[0] else "") or eval_set_id


def case_marks(
    index: HistoryIndex, report_ids: Sequence[int]
) -> dict[int, dict[tuple[str, str], tuple[str, str]]]:
    """For each run (by report id): ``(case set, eval id) -> (mark, name)`` of its cases."""
    names = (
        {
            key: (case_set, eval_id, name)
            for key, case_set, eval_id, name in index.db.execute(
                "SELECT k.id, k.case_set, k.eval_id, k.name FROM case_keys AS k"
                " JOIN reports AS r ON r.eval_set_id = k.eval_set_id"
                f" WHERE r.id IN ({','.join('?' * len(report_ids))})",
                list(report_ids),
            )
        }
        if report_ids
        else {}
    )
    found: dict[int, dict[tuple[str, str], tuple[str, str]]] = {}
    for report_id, key, status in _case_rows(index.db, list(report_ids)):
        case_set, eval_id, name = names[key]
        found.setdefault(report_id, {})[(case_set, eval_id)] = (status, name)
    return found


def provenance_of(index: HistoryIndex, report_id: int) -> dict[str, Any]:
    """The whole provenance a run's report recorded (empty when it has none)."""
    row = index.db.execute("SELECT provenance FROM reports WHERE id = ?", (report_id,)).fetchone()
    return json.loads(row[0]) if row and row[0] else {}


__all__ = ["case_marks", "eval_set_history", "eval_sets", "provenance_of", "runs_of"]
