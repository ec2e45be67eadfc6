"""Peak memory of the run worker for a case of many events, before and after (one run).

The real worker child (``python -m tenxeval_tui.runs.worker``) runs a flood agent: one
case whose agent reports ``--events`` node events (or ``--cases`` cases sharing them), with
a run journal and the default reporters, as the workbench runs it (``--no-reports``: as
``tenxeval-tui run`` runs it, which makes its reports from the journal). The same plan runs on the code of ``--baseline``
(a git revision, extracted with ``git archive`` into a temporary folder and put first on
``PYTHONPATH``) and on this tree; each at 1 event and at ``--events``. Prints the peak
resident memory of each, the cost per event and the projection at 200,000 events
(target: at most 300 MB), side by side; and whether the two trees' JSON reports hold
the same results and their HTML reports show the same cases (timings and ids aside).

Run: .venv/bin/python bench/worker_memory.py [--events N] [--baseline REV]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
TARGET_MB = 300
TARGET_EVENTS = 200_000

AGENT = """
from tenxeval_tui.evaluation import Trace

EVENTS = {events}
CASES = {cases}


async def agent(message: str, trace: Trace) -> str:
    for index in range(EVENTS // CASES):
        trace.node(f"N{{index % 7}}", response=f"step {{index}}")
    return "done"
"""

PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def extract(revision: str, into: Path) -> str:
    """The package as it was at ``revision``, extracted into ``into``; its full hash."""
    sha = subprocess.run(
        ["git", "rev-parse", revision], cwd=HERE, capture_output=True, text=True, check=True
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "archive", sha, "tenxeval_tui"], cwd=HERE, capture_output=True, check=True
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return sha


def tree_env(tree: Path, root: Path) -> dict[str, str]:
    """The environment that imports ``tenxeval_tui`` from ``tree`` and the agent from ``root``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(root)])
    env["PYTHONUNBUFFERED"] = "1"
    return env


def check_imports_from(tree: Path, root: Path) -> None:
    """Fail unless the worker would import the package from ``tree``."""
    found = subprocess.run(
        [sys.executable, "-c", "import tenxeval_tui; print(tenxeval_tui.__file__)"],
        cwd=root,
        env=tree_env(tree, root),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the package is imported from {found}, not from {tree}")


def peak_mb(
    tree: Path, root: Path, events: int, label: str, cases: int, reports: bool
) -> tuple[float, Path]:
    """Peak resident memory (MB) of the worker on ``tree`` running ``events`` node events,
    and the folder of its reports."""
    from tenxeval_tui.runs.plan import RunPlan

    (root / "flood_agent.py").write_text(
        AGENT.format(events=events, cases=min(cases, events)), encoding="utf-8"
    )
    out = root / f"out-{label}-{events}"
    config = RunPlan(agent="-", eval_sets=[]).resolved_config()
    config.reporter.enabled = reports
    config.reporter.output_dir = str(out / "reports")
    plan = RunPlan(
        config=config,
        agent="flood_agent:agent",
        eval_sets=[root / "evals" / "flood.evalset.json"],
        output_dir=out / "reports",
        journal=out / "run.journal.jsonl",
        search_path=root,
    )
    plan_file = root / f"plan-{label}-{events}.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    worker = [sys.executable, "-m", "tenxeval_tui.runs.worker", f"@{plan_file}"]
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *worker],
        cwd=root,
        env=tree_env(tree, root),
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1]) / 1024, out


def comparable(report_dir: Path) -> list[dict[str, Any]]:
    """The results of the JSON report in ``report_dir`` (or of the run journal beside it)
    without what differs run to run."""
    found = list(report_dir.glob("*.json"))
    if found:
        data = json.loads(found[0].read_text(encoding="utf-8"))
    else:
        from tenxeval_tui.evaluation.results.journal import report_from_journal

        report = report_from_journal(report_dir.parent / "run.journal.jsonl")
        data = report.model_dump(mode="json")
    varying = {"timestamp", "duration_seconds"}

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in varying}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    results = strip(data["results"])
    for result in results:
        result["metadata"].pop("thread_id", None)
    return list(results)


def html_cases(report_dir: Path) -> list[Any] | None:
    """The cases' data of the HTML report in ``report_dir`` (what its page shows) without
    what differs run to run; ``None`` when there is no HTML report."""
    found = list(report_dir.glob("*.html"))
    if not found:
        return None
    page = found[0].read_text(encoding="utf-8")
    block = page.split('id="case-data">', 1)[1].split("</script>", 1)[0]

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "duration"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return list(strip(json.loads(block)))


def write_flood_set(root: Path, cases: int) -> None:
    """``root/evals/flood.evalset.json``: ``cases`` cases for the flood agent."""
    from tenxeval_tui.evaluation import EvalSetBuilder

    (root / "evals").mkdir()
    builder = EvalSetBuilder("flood")
    for index in range(cases):
        builder.add_case("flood please", "done", case_id=f"flood-{index}")
    builder.save(root / "evals" / "flood.evalset.json")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--baseline", default="main", help="git revision (default: main)")
    parser.add_argument("--cases", type=int, default=1, help="cases sharing the events")
    parser.add_argument("--no-reports", action="store_true", help="as `run` runs the worker")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="worker-memory-") as folder:
        root = Path(folder)
        write_flood_set(root, args.cases)
        baseline = root / "baseline"
        sha = extract(args.baseline, baseline)
        trees = {f"before ({args.baseline} {sha[:9]})": baseline, "after (this tree)": HERE}
        rows = []
        reports = []
        for label, tree in trees.items():
            check_imports_from(tree, root)
            tag = "before" if tree == baseline else "after"
            reporting = not args.no_reports
            empty, _ = peak_mb(tree, root, 1, tag, args.cases, reporting)
            full, out = peak_mb(tree, root, args.events, tag, args.cases, reporting)
            per_event = (full - empty) * 1024 * 1024 / args.events
            projected = empty + per_event * TARGET_EVENTS / 1024 / 1024
            rows.append((label, empty, full, per_event, projected))
            reports.append((comparable(out / "reports"), html_cases(out / "reports")))
    shape = "one case" if args.cases == 1 else f"{args.cases:,} cases"
    writes = "journal only, as `run`" if args.no_reports else "journal + reports"
    print(f"worker peak memory, {shape} of {args.events:,} node events in all ({writes}):")
    print(
        f"{'':28} {'1 event':>9} {f'{args.events:,} events':>15} {'per event':>11} "
        f"{f'at {TARGET_EVENTS:,}':>12}"
    )
    for label, empty, full, per_event, projected in rows:
        verdict = "OK" if projected <= TARGET_MB else "OVER"
        print(
            f"{label:28} {empty:7.0f} MB {full:12.0f} MB {per_event:8,.0f} B "
            f"{projected:8.0f} MB  {verdict} (target <= {TARGET_MB} MB)"
        )
    same = reports[0][0] == reports[1][0]
    print(f"JSON reports of the two trees hold the same results: {'yes' if same else 'NO'}")
    same_html = reports[0][1] == reports[1][1]
    if reports[0][1] is not None:
        print(f"HTML reports of the two trees show the same cases: {'yes' if same_html else 'NO'}")
    return 0 if same and same_html and rows[-1][-1] <= TARGET_MB else 1


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
