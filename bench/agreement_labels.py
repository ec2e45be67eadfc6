"""`tenxeval-tui agreement` on 10,000 labels: seconds, next to the floors of the same run.

A 10,000-case report whose judged criterion passed 70% of the replies, and a labels file
of LABELS labels of those replies (one reviewer; with --reviewers 2 a second reviewer
labels the first half again, so the reviewers' agreement is computed too). Timed:

- the command as a user runs it (the console script in a subprocess, ``--json``);
- the same work in this process: reading the report's verdicts, the labels, the table
  (every bootstrap interval included);
- the floors: the console script doing nothing (``--version``: Python and the package
  starting), and parsing the two files with ``json`` alone.

Target: the command in at most 5.0 s (median of REPEATS). The machine may be shared: the
load average is printed.

Run: .venv/bin/python bench/agreement_labels.py [--labels N] [--reviewers 1|2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tenxeval_tui.browsing.agreement_table import agreement_table
from tenxeval_tui.browsing.labels import Label, LabelIndex, read_labels, reply_sha256
from tenxeval_tui.browsing.verdicts import read_verdicts
from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult, EvalReport, EvalSet
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase

TARGET_S = 5.0
REPEATS = 3
APP = Path(sys.executable).parent / "tenxeval-tui"
JUDGED = "factual_accuracy_v1"


def reply(i: int) -> str:
    return f"Order {i} ships on {'Monday' if i % 10 < 7 else 'Friday'} from Berlin."


def write_eval_set(folder: Path, count: int) -> None:
    """``orders.evalset.json``: COUNT cases ``case_00000``..., each asking about an order."""
    EvalSet(
        eval_set_id="orders",
        eval_cases=[
            EvalCase.single_turn(
                f"case_{i:05d}", f"Where is order {i}?", f"Order {i} ships Monday."
            )
            for i in range(count)
        ],
    ).to_file(folder / "orders.evalset.json")


def order_results(count: int, *, checks: bool = False) -> list[EvalCaseResult]:
    """The cases' results: the judge passed 70% of the replies (with ``checks``, two
    deterministic criteria passed each case too)."""
    results = []
    for i in range(count):
        judged = i % 10 < 7
        criteria = [
            CriterionResult.success(
                JUDGED,
                0.9 if judged else 0.2,
                0.7,
                {"reason": f"The reply about order {i} " + "is checked. " * 6},
            )
        ]
        if checks:
            criteria[:0] = [
                CriterionResult.success("exact_match", 1.0, 1.0),
                CriterionResult.success("rouge_match", 0.9, 0.5),
            ]
        results.append(
            EvalCaseResult(
                eval_id=f"case_{i:05d}",
                passed=judged,
                criterion_results=criteria,
                actual_response=reply(i),
                messages=[{"role": "user", "content": f"Where is order {i}?"}],
            )
        )
    return results


def write_files(folder: Path, count: int, reviewers: int) -> Path:
    """The eval set, the report and the labels file; returns the report's path."""
    write_eval_set(folder, count)
    results = order_results(count)
    report = folder / "orders_20260520_142301.json"
    EvalReport.create("orders", results).to_file(report)
    with (folder / "orders.labels.jsonl").open("w", encoding="utf-8") as out:
        for reviewer in range(reviewers):
            for i in range(count if reviewer == 0 else count // 2):
                # the human disagrees with the judge on every 8th reply
                human = (i % 10 < 7) != (i % 8 == 0)
                label = Label(
                    eval_id=f"case_{i:05d}",
                    criterion=JUDGED,
                    label="pass" if human else "fail",
                    reviewer=f"reviewer{reviewer}",
                    report=report.name,
                    reply_sha256=reply_sha256(reply(i)),
                    time="2026-05-20T15:00:00Z",
                )
                out.write(label.to_line() + "\n")
    return report


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr}")
    return elapsed


def in_process(report: Path, labels: Path) -> float:
    started = time.perf_counter()
    verdicts = read_verdicts(report)
    index = LabelIndex(read_labels(labels).labels)
    table = agreement_table([(verdicts, index)])
    assert table.criteria[JUDGED].n == len(index)
    return time.perf_counter() - started


def json_floor(report: Path, labels: Path) -> float:
    started = time.perf_counter()
    json.loads(report.read_text(encoding="utf-8"))
    for line in labels.read_text(encoding="utf-8").splitlines():
        json.loads(line)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=10_000)
    parser.add_argument("--reviewers", type=int, choices=(1, 2), default=1)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        count = args.labels
        report = write_files(folder, count, args.reviewers)
        labels = folder / "orders.labels.jsonl"
        lines = len(labels.read_text().splitlines())
        command = [str(APP), "agreement", report.name, "--json"]
        runs = [timed(command, folder) for _ in range(REPEATS)]
        startup = [timed([str(APP), "--version"], folder) for _ in range(REPEATS)]
        work = [in_process(report, labels) for _ in range(REPEATS)]
        parse = [json_floor(report, labels) for _ in range(REPEATS)]
        result = json.loads(subprocess.run(command, cwd=folder, capture_output=True).stdout)
    figures = result["criteria"][JUDGED]
    print(
        f"{count:,}-case report, {lines:,} labels by {args.reviewers} reviewer(s): "
        f"n={figures['n']:,}, kappa {figures['kappa']:.3f} "
        f"[{figures['kappa_low']:.3f}, {figures['kappa_high']:.3f}] (median of {REPEATS})"
    )
    command_s = statistics.median(runs)
    print(f"  tenxeval-tui agreement --json        {command_s:6.2f} s   (target <= {TARGET_S} s)")
    print(f"  the same, in this process            {statistics.median(work):6.2f} s")
    print(f"  floor: tenxeval-tui --version        {statistics.median(startup):6.2f} s")
    print(f"  floor: json.loads of both files      {statistics.median(parse):6.2f} s")
    print(f"load average after: {os.getloadavg()}")
    if command_s > TARGET_S:
        print(f"MISSED: {command_s:.2f} s > {TARGET_S} s")
        return 1
    return 0


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
