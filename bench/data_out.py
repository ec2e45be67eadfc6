"""CSV / JSON Lines reports and the judge cache's disk work, on realistic sizes.

Prints seconds and sizes for the CSV and JSON Lines reports of a 5,000-case report
(target: each <= 0.5 s), and for the judge cache: 2,000 atomic, fsynced writes, 2,000
reads, a summary (``cache list``) and a prune to half its size (target: a write
<= 5 ms on average; the judge call it saves takes 100x longer).
Run: .venv/bin/python bench/data_out.py [cases]
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

from reporters import make_case  # bench/reporters.py: the same realistic cases

from tenxeval_tui.evaluation import CsvReporter, EvalReport, JsonlReporter, TokenUsage
from tenxeval_tui.evaluation.judges.cache import (
    JudgeCache,
    cache_entries,
    cache_summary,
    prune_cache,
)
from tenxeval_tui.evaluation.judges.reply import JudgeReply

REPORT_TARGET_S = 0.5
WRITE_TARGET_MS = 5.0
ENTRIES = 2_000


def reports(cases: int, folder: Path) -> bool:
    rng = random.Random(42)
    report = EvalReport.create("bench", [make_case(i, rng) for i in range(cases)])
    rows = sum(max(1, len(r.criterion_results)) for r in report.results)
    ok = True
    for label, reporter, name in (
        ("CSV", CsvReporter(), "r.csv"),
        ("JSONL", JsonlReporter(), "r.jsonl"),
    ):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            path = reporter.save(report, folder / name)
            best = min(best, time.perf_counter() - start)
        size = path.stat().st_size / 1e6
        verdict = "OK" if best <= REPORT_TARGET_S else "OVER"
        print(
            f"{label:>6}: {best:6.3f} s best of 3, {size:6.2f} MB, {rows} rows "
            f"({cases} cases)  (target <= {REPORT_TARGET_S} s) {verdict}"
        )
        ok = ok and best <= REPORT_TARGET_S
    return ok


def cache(folder: Path) -> bool:
    store = JudgeCache(folder / "judge")
    reply = JudgeReply('{"reasoning": "' + "r" * 400 + '", "verdict": "valid"}', TokenUsage())
    keys = [JudgeCache.key("judge", f"prompt {i}", 0) for i in range(ENTRIES)]
    start = time.perf_counter()
    for key in keys:
        store.put(key, "judge", reply)
    write_ms = (time.perf_counter() - start) / ENTRIES * 1000
    start = time.perf_counter()
    hits = sum(store.get(key) is not None for key in keys)
    read_ms = (time.perf_counter() - start) / ENTRIES * 1000
    start = time.perf_counter()
    summary = cache_summary(store.directory)
    list_s = time.perf_counter() - start
    start = time.perf_counter()
    removed = prune_cache(store.directory, max_bytes=summary.bytes // 2)
    prune_s = time.perf_counter() - start
    left = len(cache_entries(store.directory))
    verdict = "OK" if write_ms <= WRITE_TARGET_MS else "OVER"
    print(
        f" cache: write {write_ms:.2f} ms each (atomic, fsync; target <= {WRITE_TARGET_MS} ms) "
        f"{verdict}, read {read_ms:.3f} ms each ({hits} hits)"
    )
    print(
        f"        list {list_s:.3f} s for {summary.entries} entries ({summary.bytes / 1e6:.2f} MB),"
        f" prune to half {prune_s:.3f} s ({removed.entries} removed, {left} left)"
    )
    return write_ms <= WRITE_TARGET_MS


def main() -> int:
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    cases = numbers[0] if numbers else 5_000
    with tempfile.TemporaryDirectory() as folder:
        ok = reports(cases, Path(folder))
        ok = cache(Path(folder)) and ok
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores while measuring)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
