"""The whole ``tenxeval-tui run`` command side by side with 10xGraph 0.10.3's own harness.

The same trivial agent (``bench/support/echo_graph.py``: a 10xGraph graph whose scripted
model answers each message with itself, zero latency), the same cases (case ``i`` asks
``m{i}`` and expects ``m{i}``), the same exact-match scoring, the same config (cases one at
a time: 10xGraph's default), JSON and HTML reports on both sides. 10xGraph ships no
command, so its side is ``bench/support/tenxgraph_eval.py``: ``create_eval_app``,
``AgentEvaluator.evaluate``, ``ReporterManager.run_all``, as its docs show. Each side is a
whole process started here; the two run interleaved (which goes first alternates), the
figure of each is the median of its rounds.

Printed per size: wall time, CPU time and peak resident memory of the whole process
tree (the command and every process under it: our worker too), and their ratios; from
1,000 cases on also the floor of both, the graph alone (``bench/support/bare_graph.py``: the
echo graph invoked once per case through 10xGraph's runtime in one process, no harness),
run interleaved with them; for the
1-case run also the time to first case (process start to the agent's first call), beside
its floor: a fresh interpreter that only imports the agent's module (:data:`FLOOR`), and
the same two for a plain Python agent that does not import 10xGraph (:data:`PLAIN_AGENT`,
ours only: 10xGraph's harness runs graphs). Sizes:
1, 1,000 and 10,000 cases; ``--big`` adds 100,000. Both sides write bytecode, as an
install does (``bench/support/process_tree.py``).

Targets (issue #38), exit 1 when one is missed:

- a 1-case run at most 1.0x 10xGraph's wall time;
- time to first case at most 0.3 s (the issue says on a quiet machine: the load is printed),
  for each agent whose floor allows it: the 10xGraph graph's own import took 0.45-0.5 s on
  the 2-core machine of the issue's later waves, so there the plain agent is judged and the
  graph is printed beside its floor (see :func:`first_case_verdict`);
- whole-process wall time at 10,000 cases at most 0.8x 10xGraph's (the graph alone, the
  floor under both, is about 0.8x of it already: the line "above the floor" restates the
  ratio as what each harness adds above the floor, printed, not a target; "floor 2" is
  the graph alone as our runner invokes it, ``bare_graph.py --ours``, the floor under
  ours only).

Run: .venv/bin/python bench/vs_10xgraph.py [--big] [--rounds N] [--sizes 1,1000,10000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.support.process_tree import Measured, run_measured  # noqa: E402

ONE_CASE_RATIO = 1.0
FIRST_CASE_S = 0.3
TEN_THOUSAND_RATIO = 0.8
CONFIG = {"criteria": {"exact_match": {"threshold": 1.0}}, "parallel": False}
AGENT = "bench.support.echo_graph:build_graph"
PLAIN_AGENT = "bench.support.echo_agent:agent"
"""A plain Python agent (no 10xGraph): the 1-case run's time to first case with it too,
beside its own floor (issue #38: most of a 10xGraph agent's floor is importing 10xGraph)."""


def write_eval_set(path: Path, cases: int) -> None:
    """``cases`` echo cases, written a case at a time (a million is 500 MB)."""
    with path.open("w", encoding="utf-8") as handle:
        handle.write(f'{{"eval_set_id": "echo{cases}", "name": "echo", "eval_cases": [')
        for i in range(cases):
            case = {
                "eval_id": f"c{i}",
                "conversation": [
                    {
                        "invocation_id": f"i{i}",
                        "user_content": {"role": "user", "content": f"m{i}"},
                        "expected_final_response": {"role": "assistant", "content": f"m{i}"},
                    }
                ],
            }
            handle.write(("," if i else "") + json.dumps(case))
        handle.write("]}")


def ours(eval_set: Path, out: Path, config: Path, agent: str = AGENT) -> list[str]:
    # --concurrency 1: run from the checkout, the command would take this project's own
    # `concurrency = 4` ([tool.tenxeval]) over the config's `parallel: false`; 10xGraph's
    # side runs its cases one at a time.
    script = Path(sys.executable).with_name("tenxeval-tui")
    return [str(script), "run", str(eval_set), "--agent", agent, "--config", str(config),
            "--output-dir", str(out), "--concurrency", "1", "-q"]  # fmt: skip


def ours_plain(eval_set: Path, out: Path, config: Path) -> list[str]:
    return ours(eval_set, out, config, PLAIN_AGENT)


def theirs(eval_set: Path, out: Path, config: Path) -> list[str]:
    script = ROOT / "bench/support/tenxgraph_eval.py"
    return [sys.executable, str(script), str(eval_set), str(out), str(config)]


FLOOR = """
import os, time
import bench.support.echo_graph
with open(os.environ["BENCH_FIRST_CASE"], "w", encoding="utf-8") as handle:
    handle.write(repr(time.time()))
"""
"""The floor of the time to first case: a fresh interpreter importing the agent's module and
nothing else (no harness reaches its first case sooner without a process started before)."""


def floor(eval_set: Path, out: Path, config: Path) -> list[str]:
    return [sys.executable, "-c", FLOOR]


def floor_plain(eval_set: Path, out: Path, config: Path) -> list[str]:
    return [sys.executable, "-c", FLOOR.replace("echo_graph", "echo_agent")]


Side = Callable[[Path, Path, Path], list[str]]


def bare_graph(size: int, *flags: str) -> Side:
    """The graph alone on ``size`` cases: the floor under both harnesses (``--ours``: as
    our runner invokes it, the floor under ours)."""

    def command(eval_set: Path, out: Path, config: Path) -> list[str]:
        return [sys.executable, str(ROOT / "bench/support/bare_graph.py"), str(size), *flags]

    return command


def rounds_of(size: int, rounds: int | None) -> int:
    if rounds is not None:
        return rounds
    return 5 if size == 1 else 3 if size <= 1_000 else 1


def compare(folder: Path, size: int, rounds: int, config: Path) -> dict[str, list[Measured]]:
    """Both sides on ``size`` cases, ``rounds`` times each, interleaved."""
    eval_set = folder / f"echo{size}.evalset.json"
    write_eval_set(eval_set, size)
    figures: dict[str, list[Measured]] = {"ours": [], "10xgraph": []}
    sides: list[tuple[str, Side]] = [("ours", ours), ("10xgraph", theirs)]
    if size == 1:  # the time to first case beside its floor, for a plain agent too
        extra: list[tuple[str, Side]] = [
            ("floor", floor),
            ("ours-plain", ours_plain),
            ("floor-plain", floor_plain),
        ]
        figures.update({name: [] for name, _ in extra})
        sides.extend(extra)
    elif size >= 1_000:  # what the graph itself costs, under either harness
        figures["graph"] = []
        figures["graph-ours"] = []
        sides.append(("graph", bare_graph(size)))
        sides.append(("graph-ours", bare_graph(size, "--ours")))
    for round_ in range(rounds):
        for name, side in sides if round_ % 2 == 0 else sides[::-1]:
            out = folder / f"out-{name}-{size}-{round_}"
            measured = run_measured(side(eval_set, out, config), cwd=ROOT)
            if measured.status not in (0,):
                raise SystemExit(
                    f"{name} on {size} cases exited {measured.status}: {measured.stderr[-2000:]}"
                )
            figures[name].append(measured)
    eval_set.unlink()
    return figures


def above_floor(ours: float, theirs: float, floor: float) -> str:
    """What each harness adds above the graph alone, ours against 10xGraph's: the target's
    ratio restated where the floor leaves room (at 10,000 cases the floor is 0.8x of
    10xGraph's whole time already)."""
    if theirs <= floor:
        return "above the floor: 10xGraph adds nothing measurable above it this run"
    return (
        f"above the floor: ours {ours - floor:.2f} s, 10xGraph {theirs - floor:.2f} s, "
        f"(ours - floor) / (10xGraph - floor) = {(ours - floor) / (theirs - floor):.2f}"
    )


FIRST_CASES = (
    ("the 10xGraph graph", "ours", "floor"),
    ("a plain Python agent (no 10xGraph)", "ours-plain", "floor-plain"),
)
"""The agents whose time to first case is measured: (label, ours, its floor)."""


def first_case_verdict(first: float, floor: float) -> str:
    """The target judged where the machine allows it: an agent whose own import (its
    floor) already takes longer than the target leaves no harness a way to meet it; its
    figure is printed beside the floor (how far above it we are), not judged."""
    if floor > FIRST_CASE_S:
        return "not judged: the agent's import alone is over the target on this machine"
    return "ok" if first <= FIRST_CASE_S else "MISSED"


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also 100,000 cases")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per size")
    parser.add_argument("--sizes", default="1,1000,10000", help="comma-separated case counts")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.big:
        sizes.append(100_000)
    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()}")
    missed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="vs-10xgraph-") as tmp:
        folder = Path(tmp)
        config = folder / "config.json"
        config.write_text(json.dumps(CONFIG), encoding="utf-8")
        print(
            f"\n{'cases':>8}  {'rounds':>6}  {'ours: wall':>10}  {'peak':>8}  "
            f"{'10xGraph: wall':>14}  {'peak':>8}  {'wall ratio':>10}  {'peak ratio':>10}"
        )
        for size in sizes:
            rounds = rounds_of(size, args.rounds)
            figures = compare(folder, size, rounds, config)
            wall = {name: median([m.wall for m in runs]) for name, runs in figures.items()}
            peak = {name: median([m.peak_mb for m in runs]) for name, runs in figures.items()}
            cpu = {name: median([m.cpu for m in runs]) for name, runs in figures.items()}
            ratio = wall["ours"] / wall["10xgraph"]
            print(
                f"{size:>8,}  {rounds:>6}  {wall['ours']:>8.2f} s  {peak['ours']:>5.0f} MB  "
                f"{wall['10xgraph']:>12.2f} s  {peak['10xgraph']:>5.0f} MB  "
                f"{ratio:>9.2f}x  {peak['ours'] / peak['10xgraph']:>9.2f}x"
            )
            print(
                f"          CPU of the process tree: ours {cpu['ours']:.2f} s, 10xGraph "
                f"{cpu['10xgraph']:.2f} s ({cpu['ours'] / cpu['10xgraph']:.2f}x)"
            )
            if "graph" in figures:
                print(
                    f"          floor, the graph alone: {wall['graph']:.2f} s wall, "
                    f"{cpu['graph']:.2f} s CPU ({wall['graph'] / wall['10xgraph']:.2f}x "
                    f"10xGraph's wall; ours {wall['ours'] - wall['graph']:.2f} s above it, "
                    f"10xGraph {wall['10xgraph'] - wall['graph']:.2f} s)"
                )
                print(f"          {above_floor(wall['ours'], wall['10xgraph'], wall['graph'])}")
                print(
                    f"          floor 2, the graph alone as our runner invokes it: "
                    f"{wall['graph-ours']:.2f} s wall, {cpu['graph-ours']:.2f} s CPU "
                    f"({wall['graph-ours'] / wall['10xgraph']:.2f}x 10xGraph's wall; ours "
                    f"{wall['ours'] - wall['graph-ours']:.2f} s above it)"
                )
            if size == 1:
                firsts = {
                    name: median([m.first_case for m in runs if m.first_case is not None] or [0])
                    for name, runs in figures.items()
                }
                verdict = "ok" if ratio <= ONE_CASE_RATIO else "MISSED"
                print(f"          1-case run: {ratio:.2f}x (target <= {ONE_CASE_RATIO}x) {verdict}")
                if ratio > ONE_CASE_RATIO:
                    missed.append(f"1-case run {ratio:.2f}x")
                for label, name, floor_name in FIRST_CASES:
                    first, its_floor = firsts[name], firsts[floor_name]
                    verdict = first_case_verdict(first, its_floor)
                    theirs_too = f"10xGraph {firsts['10xgraph']:.3f} s, " if name == "ours" else ""
                    print(
                        f"          time to first case, {label}: ours {first:.3f} s, {theirs_too}"
                        f"floor {its_floor:.3f} s (a fresh python importing the agent only; "
                        f"ours {first - its_floor:.3f} s above it; target <= {FIRST_CASE_S} s) "
                        f"{verdict}"
                    )
                    if verdict == "MISSED":
                        missed.append(f"time to first case, {label}, {first:.3f} s")
            if size == 10_000:
                verdict = "ok" if ratio <= TEN_THOUSAND_RATIO else "MISSED"
                print(
                    f"          10,000 cases: {ratio:.2f}x (target <= {TEN_THOUSAND_RATIO}x) "
                    f"{verdict}"
                )
                if ratio > TEN_THOUSAND_RATIO:
                    missed.append(f"10,000 cases {ratio:.2f}x")
    print(f"\nload average after: {os.getloadavg()}")
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
