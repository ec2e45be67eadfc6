"""Memory of a whole ``tenxeval-tui run`` as the number of cases grows (issue #38).

A zero-latency plain agent (it answers each message with itself), exact-match scoring,
the default reports (JSON and HTML), through the real console script. Printed for each
size: wall time, CPU time, the time to first case (the command's start to the agent's
first call), the peak resident memory of the whole process tree (the command, its worker
and anything under them, summed; sampled from ``/proc``), and the peak per case beyond the
smallest run's.

Targets, exit 1 when one is missed:

- the 200,000-case peak at most 1.5x the 20,000-case peak (memory flat in the cases);
- with ``--million``: 1,000,000 cases complete with the whole tree at most 1 GB.

Run: .venv/bin/python bench/flat_memory.py [--sizes 20000,200000] [--million]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.support.process_tree import Measured, run_measured  # noqa: E402
from bench.vs_10xgraph import write_eval_set  # noqa: E402

GROWTH_TARGET = 1.5
MILLION_TARGET_MB = 1024
CONFIG = {"criteria": {"exact_match": {"threshold": 1.0}}, "parallel": False}
AGENT = """
import os, time

_first_case = os.environ.get("BENCH_FIRST_CASE")


async def agent(message, trace):
    global _first_case
    if _first_case:  # the time to first case, as bench/support/echo_graph.py marks it
        marker, _first_case = _first_case, None
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write(repr(time.time()))
    return message
"""


def run(folder: Path, size: int) -> Measured:
    eval_set = folder / f"echo{size}.evalset.json"
    write_eval_set(eval_set, size)
    script = Path(sys.executable).with_name("tenxeval-tui")
    command = [str(script), "run", str(eval_set), "--agent", "echo_agent:agent",
               "--config", str(folder / "config.json"), "--output-dir",
               str(folder / f"out{size}"), "-q"]  # fmt: skip
    measured = run_measured(command, cwd=folder)
    eval_set.unlink()
    if measured.status != 0:
        raise SystemExit(f"{size} cases: exit {measured.status}: {measured.stderr[-2000:]}")
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,200000", help="comma-separated case counts")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 cases")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.million:
        sizes.append(1_000_000)
    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()}")
    missed: list[str] = []
    peaks: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="flat-memory-") as tmp:
        folder = Path(tmp)
        (folder / "echo_agent.py").write_text(AGENT, encoding="utf-8")
        (folder / "config.json").write_text(json.dumps(CONFIG), encoding="utf-8")
        print(
            f"\n{'cases':>10}  {'wall':>9}  {'CPU':>9}  {'first case':>10}  {'peak (tree)':>11}"
            "  per case"
        )
        for size in sizes:
            measured = run(folder, size)
            peaks[size] = measured.peak_mb
            smallest = min(peaks)
            per_case = (
                (measured.peak_mb - peaks[smallest]) * 1024 / (size - smallest)
                if size > smallest
                else 0.0
            )
            first = measured.first_case if measured.first_case is not None else float("nan")
            print(
                f"{size:>10,}  {measured.wall:>7.1f} s  {measured.cpu:>7.1f} s  "
                f"{first:>8.2f} s  {measured.peak_mb:>8.0f} MB  {per_case:.2f} kB beyond "
                f"{smallest:,}",
                flush=True,
            )
    if 20_000 in peaks and 200_000 in peaks:
        growth = peaks[200_000] / peaks[20_000]
        verdict = "ok" if growth <= GROWTH_TARGET else "MISSED"
        print(f"200,000 / 20,000 cases peak: {growth:.2f}x (target <= {GROWTH_TARGET}x) {verdict}")
        if growth > GROWTH_TARGET:
            missed.append(f"growth {growth:.2f}x")
    if 1_000_000 in peaks:
        peak = peaks[1_000_000]
        verdict = "ok" if peak <= MILLION_TARGET_MB else "MISSED"
        print(f"1,000,000 cases peak: {peak:.0f} MB (target <= {MILLION_TARGET_MB} MB) {verdict}")
        if peak > MILLION_TARGET_MB:
            missed.append(f"1,000,000 cases {peak:.0f} MB")
    print(f"load average after: {os.getloadavg()}")
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
