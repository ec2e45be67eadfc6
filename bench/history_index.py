"""The history index over 1,000 reports of 1,000 cases: build, add one, open a history.

Writes 1,000 synthetic reports of one eval set (1,000 cases each, the shape `run`
writes: criterion results, durations, costs, case hashes, provenance with a commit;
each case passes by a seeded draw, a tenth of them flaky, so cases flip), then times:

1. build: the index made from nothing (every report read once; no target, printed);
2. add one: a new report landing (``HistoryIndex.add``), against reading that report's
   JSON alone (the floor: what indexing a report cannot go below);
3. open: what the ``history`` command and the history view do once indexed: open the
   index, ``sync`` (a ``stat`` of every file, nothing to read), the eval sets, and the
   eval set's history (1,000 runs, the case strips of the last 20 with each case's last
   change). Median of 5, against the floor of listing and ``stat``-ing the folder.
   Target: at most 1 s (issue 35). Exits 1 when missed.

The machine may be shared: wall and CPU time printed, with ``uptime``'s load.

Run: .venv/bin/python bench/history_index.py [--runs N] [--cases N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tenxeval_tui.browsing.history.index import INDEX_NAME, HistoryIndex
from tenxeval_tui.browsing.history.queries import eval_set_history, eval_sets
from tenxeval_tui.browsing.history.report_rows import read_report_rows

TARGET_S = 1.0
START = 1_780_000_000.0


def _case(index: int, passed: bool) -> dict[str, Any]:
    score = 0.9 if passed else 0.3
    return {
        "eval_id": f"case_{index:04d}",
        "name": f"Case {index}",
        "passed": passed,
        "criterion_results": [
            {"criterion": "tool_trajectory_avg_score", "score": 1.0, "passed": True,
             "threshold": 1.0, "details": {"reason": "EXACT match"}},
            {"criterion": "rouge_match", "score": score, "passed": passed, "threshold": 0.5,
             "details": {"reason": f"ROUGE-1 F1 {score:.2f}"}},
        ],
        "actual_response": f"The answer to case {index} is {'right' if passed else 'wrong'}.",
        "duration_seconds": 0.2 + (index % 7) / 10,
        "error": None,
        "metadata": {"thread_id": f"t-{index}", "case_sha256": f"{index:064x}"},
        "cost_usd": 0.0004,
    }  # fmt: skip


def write_report(folder: Path, run: int, cases: int, rng: random.Random) -> Path:
    results = []
    for i in range(cases):
        flaky = i % 10 == 0
        results.append(_case(i, rng.random() < 0.6 if flaky else i % 17 != 0))
    passed = sum(1 for r in results if r["passed"])
    timestamp = START + run * 3600
    report = {
        "eval_set_id": "orders",
        "eval_set_name": "Orders",
        "results": results,
        "summary": {
            "total_cases": cases, "passed_cases": passed, "failed_cases": cases - passed,
            "error_cases": 0, "pass_rate": passed / cases, "total_cost_usd": 0.0004 * cases,
            "wall_seconds": 30.0 + run % 5,
            "criterion_stats": {
                "rouge_match": {"total": cases, "passed": passed, "failed": cases - passed,
                                "avg_score": 0.8, "pass_rate": passed / cases},
            },
        },
        "config_used": {},
        "timestamp": timestamp,
        "metadata": {"provenance": {"git_commit": f"{run:040x}", "git_dirty": False,
                                    "eval_set_sha256": "e" * 64, "agent_sha256": "a" * 64,
                                    "config_sha256": "c" * 64}},
    }  # fmt: skip
    path = folder / f"orders_{run:05d}.json"
    path.write_text(json.dumps(report, indent=2))
    os.utime(path, (timestamp, timestamp))
    return path


def timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def open_history(folder: Path) -> None:
    with HistoryIndex(folder) as index:
        index.sync()
        eval_sets(index)
        found = eval_set_history(index, "orders", last=20)
        assert len(found.runs) >= 2 and found.cases


def list_folder(folder: Path) -> None:
    for entry in os.scandir(folder):
        entry.stat()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1_000)
    parser.add_argument("--cases", type=int, default=1_000)
    parser.add_argument("--keep", type=Path, help="write the reports here and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp) / "reports"
        folder.mkdir(parents=True, exist_ok=True)
        rng = random.Random(35)
        if not any(folder.glob("orders_*.json")):
            wall, _ = timed(
                lambda: [write_report(folder, r, args.cases, rng) for r in range(args.runs)]
            )
            print(f"wrote {args.runs} reports x {args.cases} cases in {wall:.1f} s")
        (folder / INDEX_NAME).unlink(missing_ok=True)
        size = sum(p.stat().st_size for p in folder.glob("*.json")) / 1e6
        print(f"load: {os.getloadavg()[0]:.2f} (1 min); reports: {size:.0f} MB")

        wall, cpu = timed(lambda: HistoryIndex(folder).sync())
        db = (folder / INDEX_NAME).stat().st_size / 1e6
        print(f"build: {wall:.1f} s wall, {cpu:.1f} s CPU; index {db:.0f} MB")

        new = write_report(folder, args.runs, args.cases, rng)
        floor, _ = timed(lambda: read_report_rows(new))
        with HistoryIndex(folder) as index:
            add, add_cpu = timed(lambda: index.add([new]))
        print(
            f"add one report of {args.cases} cases: {add:.3f} s wall, {add_cpu:.3f} s CPU "
            f"(floor, reading it alone: {floor:.3f} s)"
        )

        opens = [timed(lambda: open_history(folder)) for _ in range(5)]
        wall = statistics.median(o[0] for o in opens)
        cpu = statistics.median(o[1] for o in opens)
        floors = statistics.median(timed(lambda: list_folder(folder))[0] for _ in range(5))
        verdict = "OK" if wall <= TARGET_S else "MISSED"
        print(
            f"open a history of {args.runs + 1} runs x {args.cases} cases: {wall:.3f} s wall, "
            f"{cpu:.3f} s CPU, median of 5 (floor, listing the folder: {floors:.3f} s); "
            f"target {TARGET_S:.1f} s: {verdict}"
        )
    return 0 if wall <= TARGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
