"""``tenxeval-tui history [FOLDER]``: each eval set's runs over time and its cases' records.

Reads the folder's history index (:mod:`tenxeval_tui.browsing.history`, brought up to
date first: only reports new or changed since are read). For each eval set: its last
runs (time, commit, pass rate with its 95% interval, cost, wall time), then each case's
pass/fail string over those runs and the run where it last changed, with that run's
commit. A run of some of the cases only (``metadata.selection``: a rerun of the failed
ones, a filter) is listed marked ``(selection: ...)``; its cases' marks are in their
strings, as real results of those cases. Cases that passed in every run shown are counted, not listed, unless ``--all``
or ``--case``. ``--json`` prints everything (every case). Exit 0; 2 when the folder, the
eval set or the case is not there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.browsing.history.queries import eval_set_history, eval_sets
from tenxeval_tui.browsing.history.series import CaseStrip, EvalSetHistory
from tenxeval_tui.evaluation.inert import inert, inert_json


def report_folder(raw: str | None) -> Path:
    """FOLDER, or where ``run`` writes reports."""
    if raw:
        return Path(raw)
    from tenxeval_tui.cli.report_names import default_output_dir

    return default_output_dir()


def _fail(message: str) -> int:
    print(inert(f"tenxeval-tui: {message}", multiline=True), file=sys.stderr)
    return 2


def history_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui history``: the exit code."""
    folder = report_folder(args.folder)
    if not folder.is_dir():
        return _fail(f"{folder}: no such report folder")
    if args.last < 0:
        return _fail("--last: must be 0 (every run) or more")
    with HistoryIndex(folder) as index:
        index.sync()
        known = {entry.eval_set_id: entry for entry in eval_sets(index)}
        if args.eval_set is not None and args.eval_set not in known:
            listed = ", ".join(sorted(known)) or "none"
            return _fail(f"{folder}: no runs of eval set {args.eval_set!r} (eval sets: {listed})")
        ids = [args.eval_set] if args.eval_set is not None else list(known)
        histories = [eval_set_history(index, i, last=args.last, case=args.case) for i in ids]
    if args.case is not None:
        histories = [h for h in histories if h.cases]
        if not histories:
            return _fail(f"{folder}: no case {args.case!r} in the runs there")
    if args.json:
        out = {"folder": str(folder), "eval_sets": [_json(h) for h in histories]}
        print(inert_json(json.dumps(out, indent=2)))
        return 0
    if not histories:
        print(inert(f"{folder}: no reports yet"))
    for number, found in enumerate(histories):
        if number:
            print()
        every_case = args.all or args.case is not None
        print(inert("\n".join(history_lines(found, folder, every_case=every_case)), multiline=True))
    return 0


def history_lines(found: EvalSetHistory, folder: Path, *, every_case: bool) -> list[str]:
    """The text of one eval set's history."""
    shown = found.shown
    lines = [
        f"{found.title} ({found.eval_set_id}): {len(found.runs)} run(s) in {folder}"
        + (f", the last {len(shown)}:" if len(shown) < len(found.runs) else ":"),
        f"  {'time':<16}  {'commit':<9}  {'pass rate':<14}  {'95% interval':<14}  "
        f"{'cost':>9}  {'wall':>7}",
    ]
    for run in shown:
        marks = [
            *(["partial"] if run.partial else []),
            *([run.selection_text] if run.selection else []),
        ]
        lines.append(
            f"  {run.when:<16}  {run.commit:<9}  {run.rate_text:<14}  {run.interval_text:<14}  "
            f"{run.cost_text:>9}  {run.wall_text:>7}" + (f"  ({'; '.join(marks)})" if marks else "")
        )
    if any(run.selection for run in shown):
        lines.append(
            "  (selection: a run of some of the eval set's cases, such as a rerun of the failed "
            "ones; not a point of the pass-rate series nor of trend)"
        )
    listed = found.cases if every_case else [c for c in found.cases if c.failing]
    lines.append("Cases over these runs, oldest first (P passed, F failed, E errored, - not run):")
    width = max((len(c.label) for c in listed), default=0)
    lines.extend(f"  {c.label:<{width}}  {c.marks}  {_changed(c)}" for c in listed)
    if len(listed) < len(found.cases):
        lines.append(
            f"  {len(found.cases) - len(listed)} case(s) passed in every run shown (--all lists them)"
        )
    return lines


def _changed(case: CaseStrip) -> str:
    run = case.last_change
    if run is None:
        return "never changed"
    return (
        f"last changed {case.last_change_from}->{case.last_change_to} in the run of "
        f"{run.when} ({run.commit}, {run.path.name})"
    )


def _json(found: EvalSetHistory) -> dict[str, object]:
    return {
        "eval_set_id": found.eval_set_id,
        "title": found.title,
        "runs": [run.to_json() for run in found.shown],
        "all_runs": len(found.runs),
        "cases": [
            {
                "eval_set_id": case.case_set,
                "eval_id": case.eval_id,
                "name": case.name,
                "marks": case.marks,
                "last_change": None
                if case.last_change is None
                else {
                    "file": str(case.last_change.path),
                    "time": case.last_change.to_json()["time"],
                    "git_commit": case.last_change.git_commit,
                    "from": case.last_change_from,
                    "to": case.last_change_to,
                },
            }
            for case in found.cases
        ],
    }


__all__ = ["history_command", "history_lines", "report_folder"]
