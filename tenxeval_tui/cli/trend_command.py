"""``tenxeval-tui trend [FOLDER] --eval-set ID``: the CI gate on a fall of the pass rate.

Runs the trend test of :mod:`tenxeval_tui.browsing.history.trend` over the eval set's
last ``--window`` complete runs (partial runs left out): a permutation test of the
largest drop over every cut of the window, so a noisy agent trips it by chance at most
``--alpha`` of the time, and one bad run never does. Exit 1 when the pass rate fell
significantly, naming the run where the drop began and the cases that flipped there;
0 when it did not (or when there are too few runs to tell: said so); 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys

from tenxeval_tui.browsing.history.defaults import MIN_AFTER, MIN_BEFORE, PERMUTATIONS
from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.browsing.history.queries import eval_sets
from tenxeval_tui.browsing.history.trend import TEST_NAME, Trend, trend_of
from tenxeval_tui.cli.history_command import report_folder
from tenxeval_tui.evaluation.inert import inert, inert_json


def _fail(message: str) -> int:
    print(inert(f"tenxeval-tui trend: {message}", multiline=True), file=sys.stderr)
    return 2


def trend_lines(trend: Trend, title: str) -> list[str]:
    """The verdict in words."""
    runs = trend.runs
    if not runs:
        return [f"{title}: no complete runs"]
    head = f"{title}: the last {len(runs)} complete run(s), {runs[0].when} to {runs[-1].when}"
    change, began, before = trend.change, trend.began, trend.before
    if change is None or began is None or before is None:
        need = MIN_BEFORE + MIN_AFTER
        return [head, f"  too few runs to test: the test needs {need} (no verdict, exit 0)"]
    if change.statistic <= 0:
        return [head, f"  no drop in the window: {change.before:.1%} -> {change.after:.1%}",
                "OK: no significant drop"]  # fmt: skip
    words = "fell" if trend.dropped else "largest drop"
    lines = [
        head,
        f"  pass rate {words}: {change.before:.1%} before -> {change.after:.1%} from the run of "
        f"{began.when} ({began.commit}, {began.path.name}); previous run {before.when} "
        f"({before.commit})",
        f"  p = {change.p_value:.4f} ({TEST_NAME}, {PERMUTATIONS} shufflings); "
        f"alpha {trend.alpha:g}",
    ]
    if trend.dropped:
        flipped = [f"{c.eval_id} ({c.mark})" for c in trend.flipped]
        lines.append(
            "  cases that flipped there (passed in the run before, not in it): "
            + (", ".join(flipped) if flipped else "none (the drop is spread over the runs)")
        )
        lines.append("DROP: the pass rate fell significantly")
    else:
        lines.append("OK: no significant drop")
    return lines


def trend_json(trend: Trend) -> dict[str, object]:
    """The verdict as ``trend --json`` prints it."""
    change = trend.change
    return {
        "eval_set_id": trend.eval_set_id,
        "dropped": trend.dropped,
        "test": TEST_NAME,
        "alpha": trend.alpha,
        "permutations": PERMUTATIONS,
        "runs": [run.to_json() for run in trend.runs],
        "p_value": change.p_value if change else None,
        "before_pass_rate": change.before if change else None,
        "after_pass_rate": change.after if change else None,
        "began": trend.began.to_json() if trend.began else None,
        "flipped": [
            {"eval_set_id": c.case_set, "eval_id": c.eval_id, "name": c.name, "mark": c.mark}
            for c in trend.flipped
        ],
    }


def trend_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui trend``: 1 on a significant drop, 0 otherwise, 2 on a usage error."""
    folder = report_folder(args.folder)
    if not folder.is_dir():
        return _fail(f"{folder}: no such report folder")
    if args.window < MIN_BEFORE + MIN_AFTER:
        return _fail(f"--window: at least {MIN_BEFORE + MIN_AFTER} runs")
    if not 0 < args.alpha < 1:
        return _fail("--alpha: between 0 and 1")
    with HistoryIndex(folder) as index:
        index.sync()
        titles = {e.eval_set_id: e.title for e in eval_sets(index)}
        if args.eval_set not in titles:
            listed = ", ".join(sorted(titles)) or "none"
            return _fail(f"{folder}: no runs of eval set {args.eval_set!r} (eval sets: {listed})")
        trend = trend_of(index, args.eval_set, window=args.window, alpha=args.alpha)
    if args.json:
        print(inert_json(json.dumps(trend_json(trend), indent=2)))
    else:
        title = f"{titles[args.eval_set]} ({args.eval_set})"
        print(inert("\n".join(trend_lines(trend, title)), multiline=True))
    return 1 if trend.dropped else 0


__all__ = ["trend_command", "trend_json", "trend_lines"]
