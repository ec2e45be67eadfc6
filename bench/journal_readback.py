"""Reading a run back: the journal ``run`` makes its reports from, beside the JSON report of
the same results loaded with ``EvalReport.from_file`` (issue #38: the read-back was 2.4x
slower).

10,000 results of a one-node agent (as the echo graph's run journals them) are written
to a journal (:class:`RunJournal`) and to a JSON report; each is read 5 times, the two
interleaved, and the median CPU times are compared. Target: the journal read at most
1.3x the report's. Also printed: the journal's write time per case.

Run: .venv/bin/python bench/journal_readback.py [--cases N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenxeval_tui.evaluation import EvalReport  # noqa: E402
from tenxeval_tui.evaluation.eval_result import EvalCaseResult  # noqa: E402
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs  # noqa: E402

TARGET_RATIO = 1.3
ROUNDS = 5
USAGE = {"input_tokens": 1, "output_tokens": 1, "cache_read_tokens": 0, "cache_creation_tokens": 0}
EXACT = {"reason": "reply equals the expected response", "match": True}
NODE = {"node_name": "MAIN", "response_text": "m", "token_usage": USAGE, "timestamp": 1.0}


def result(i: int) -> EvalCaseResult:
    """Case ``i`` as the echo graph's run journals it: one node, one criterion."""
    text = f"m{i}"
    return EvalCaseResult.model_validate(
        {
            "eval_id": f"c{i}",
            "passed": True,
            "criterion_results": [
                {"criterion": "exact_match", "score": 1.0, "passed": True, "threshold": 1.0,
                 "details": {**EXACT, "actual_response": text, "expected_response": text}}
            ],
            "actual_trajectory": [{"step_type": "node", "name": "MAIN", "timestamp": 1.0}],
            "actual_response": text,
            "messages": [{"role": "user", "content": text}, {"role": "assistant", "content": text}],
            "node_responses": [{**NODE, "input_messages": [{"role": "user", "content": text}]}],
            "node_visits": ["MAIN"],
            "duration_seconds": 0.04,
            "metadata": {"eval_set_id": "echo", "case_sha256": f"{i:064x}"},
            "token_usage": USAGE,
            "agent_token_usage": USAGE,
            "node_details": [{**NODE, "input_messages": [{"role": "user", "content": text}]}],
        }
    )  # fmt: skip


def cpu_of(read: Callable[[], object]) -> float:
    start = time.process_time()
    read()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()}")
    results = [result(i) for i in range(args.cases)]
    with tempfile.TemporaryDirectory(prefix="journal-readback-") as tmp:
        journal = RunJournal(Path(tmp) / "run.journal.jsonl")
        start = time.process_time()
        for one in results:
            journal.on_case_end(one)
        write_us = (time.process_time() - start) / args.cases * 1e6
        report_path = Path(tmp) / "report.json"
        report_path.write_text(
            json.dumps(
                EvalReport.create(eval_set_id="echo", results=results).model_dump(mode="json")
            ),
            encoding="utf-8",
        )
        del results
        journal_s: list[float] = []
        report_s: list[float] = []
        for _ in range(ROUNDS):
            journal_s.append(cpu_of(lambda: read_journal_runs(journal.path)))
            report_s.append(cpu_of(lambda: EvalReport.from_file(report_path)))
    read_journal, read_report = statistics.median(journal_s), statistics.median(report_s)
    ratio = read_journal / read_report
    verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
    print(f"{args.cases:,} results, CPU, medians of {ROUNDS} interleaved:")
    print(f"  journal written:            {write_us:.0f} us a case")
    print(f"  journal read back:          {read_journal:.3f} s")
    print(f"  report EvalReport.from_file: {read_report:.3f} s")
    print(f"  ratio {ratio:.2f}x (target <= {TARGET_RATIO}x) {verdict}")
    print(f"load average after: {os.getloadavg()}")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
