"""Peak memory of ``tenxeval-tui run`` (its own process and its worker), before and after.

``run`` evaluates in a worker child that keeps a run journal; the parent then reads the
journal back and writes the reports from it (the console summary, JSON and HTML). This
runs ``tenxeval-tui run`` on a flood agent (``--events`` node events over ``--cases``
cases, as ``bench/worker_memory.py`` does) with the code of ``--baseline`` (a git revision)
and of this tree, each at 1 event and at ``--events``, and prints the peak resident memory
of the parent process and of its worker side by side, and whether the two trees' JSON
reports hold the same results and their HTML reports show the same cases (timings and ids
aside).

Run: .venv/bin/python bench/run_memory.py [--events N] [--cases N] [--baseline REV]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from worker_memory import (
    AGENT,
    HERE,
    check_imports_from,
    comparable,
    extract,
    html_cases,
    tree_env,
    write_flood_set,
)

# The CLI in this process; at exit, its own peak and its waited-for children's (the worker).
PEAKS = """
import atexit, resource, sys
def peaks():
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"PEAKS {own} {children}", file=sys.stderr)
atexit.register(peaks)
sys.argv = ["tenxeval-tui", *sys.argv[1:]]
from tenxeval_tui.cli.main import main
sys.exit(main())
"""


def peaks_mb(tree: Path, root: Path, events: int, cases: int, label: str) -> tuple[float, float]:
    """``(parent, worker)`` peak resident memory (MB) of ``run`` on ``tree``."""
    (root / "flood_agent.py").write_text(
        AGENT.format(events=events, cases=min(cases, events)), encoding="utf-8"
    )
    out = root / f"out-{label}-{events}"
    command = [sys.executable, "-c", PEAKS, "run", "--agent", "flood_agent:agent", "-q"]
    command += ["--output-dir", str(out), str(root / "evals")]
    done = subprocess.run(
        command, cwd=root, env=tree_env(tree, root), capture_output=True, text=True
    )
    line = next((s for s in done.stderr.splitlines() if s.startswith("PEAKS ")), None)
    if line is None or done.returncode != 0:
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    own, children = (int(v) / 1024 for v in line.split()[1:])
    return own, children


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--cases", type=int, default=1)
    parser.add_argument("--baseline", default="main", help="git revision (default: main)")
    args = parser.parse_args()
    rows = []
    reports = []
    with tempfile.TemporaryDirectory(prefix="run-memory-") as folder:
        root = Path(folder)
        write_flood_set(root, args.cases)
        baseline = root / "baseline"
        sha = extract(args.baseline, baseline)
        trees = {f"before ({args.baseline} {sha[:9]})": baseline, "after (this tree)": HERE}
        for label, tree in trees.items():
            check_imports_from(tree, root)
            tag = "before" if tree == baseline else "after"
            empty = peaks_mb(tree, root, 1, args.cases, tag)
            full = peaks_mb(tree, root, args.events, args.cases, tag)
            rows.append((label, empty, full))
        # Read only once every run is done: a process forked while this one holds a big
        # report would count this one's memory as its own peak (Linux keeps the larger
        # of the two across exec).
        for tag in ("before", "after"):
            out = root / f"out-{tag}-{args.events}"
            reports.append((comparable(out), html_cases(out)))
    shape = "one case" if args.cases == 1 else f"{args.cases:,} cases"
    print(f"tenxeval-tui run, peak memory, {shape} of {args.events:,} node events in all:")
    print(f"{'':28} {'parent, 1 event':>16} {f'{args.events:,} events':>15}   worker: 1 / N")
    for label, (own0, child0), (own, child) in rows:
        print(f"{label:28} {own0:13.0f} MB {own:12.0f} MB   {child0:6.0f} / {child:.0f} MB")
    same = reports[0][0] == reports[1][0]
    same_html = reports[0][1] == reports[1][1]
    print(f"JSON reports of the two trees hold the same results: {'yes' if same else 'NO'}")
    print(f"HTML reports of the two trees show the same cases: {'yes' if same_html else 'NO'}")
    return 0 if same and same_html else 1


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
