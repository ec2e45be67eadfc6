"""Replaying tools: the per-call cost of a replayed call against calling a no-op tool
directly, and the sample suite's run time live against replayed.

1. Per call, in one process: a plain agent makes ``--calls`` calls of a no-op tool through
   ``trace.tool`` (each with its own arguments), run by ``AgentEvaluator`` with no tools
   control (the floor: the tool is called directly), then recorded, then replayed from
   the cassette. Printed: microseconds per call of each (the best of ``--rounds``), and
   replay's against the floor. Target: replay within 2x of the floor (exit 1 when missed).
2. The sample suite (``sample_evals/*.evalset.json``) through the console script, each set
   with its own agent: ``--tools live`` against ``--tools replay`` (after a ``record``),
   wall seconds of each, printed side by side (no target: the samples' tools are instant).

Run: .venv/bin/python bench/tools_replay.py [--calls N] [--rounds R]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet, Trace  # noqa: E402
from tenxeval_tui.evaluation.evaluator import AgentEvaluator  # noqa: E402
from tenxeval_tui.evaluation.targets import make_eval_app  # noqa: E402
from tenxeval_tui.evaluation.tools import ToolRun, ToolSettings  # noqa: E402

TARGET = 2.0
SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


def noop(index: int, city: str) -> str:
    return city


def agent_of(calls: int) -> Any:
    async def agent(message: str, trace: Trace) -> str:
        for index in range(calls):
            await trace.tool("noop", {"index": index, "city": "Paris"}, noop)
        trace.node("MAIN", response="done")
        return "done"

    return agent


async def per_call(calls: int, tools: ToolRun | None, the_set: EvalSet, path: Path) -> float:
    """Seconds per tool call of one case of ``calls`` calls (the agent's own work included)."""
    app, collector = make_eval_app(agent_of(calls))
    collector.capture_all_events = False
    config = EvalConfig(
        criteria=EvalConfig.default().criteria.model_copy(
            update={"trajectory": None, "response_match": None}
        )
    )
    config.reporter.enabled = False
    if tools is not None:
        tools.add_eval_set(the_set, path)
    evaluator = AgentEvaluator(app, collector, config, tools=tools)
    started = time.perf_counter()
    report = await evaluator.evaluate(the_set)
    elapsed = time.perf_counter() - started
    assert not report.results[0].error, report.results[0].error
    return elapsed / calls


def per_call_figures(calls: int, rounds: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "noop.evalset.json"
        the_set = EvalSet(eval_set_id="noop", eval_cases=[EvalCase.single_turn("c", "go", "done")])
        the_set.to_file(path)
        asyncio.run(per_call(calls, ToolRun(ToolSettings(mode="record")), the_set, path))
        direct, replay = [], []
        for _ in range(rounds):
            direct.append(asyncio.run(per_call(calls, None, the_set, path)))
            tools = ToolRun(ToolSettings(mode="replay"))
            replay.append(asyncio.run(per_call(calls, tools, the_set, path)))
        return min(direct), min(replay)


def suite_figures() -> dict[str, float]:
    """Wall seconds of the sample suite with --tools live, record and replay."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        shutil.copytree(ROOT / "sample_evals", work / "sample_evals")
        sets = sorted(p.name for p in (work / "sample_evals").glob("*.evalset.json"))
        (work / "sample_evals/support_tools.tools.jsonl").unlink(missing_ok=True)
        times: dict[str, float] = {}
        for mode in ("live", "record", "replay"):
            started = time.perf_counter()
            for name in sets:
                subprocess.run(
                    [str(SCRIPT), "run", f"sample_evals/{name}", "--tools", mode, "-q",
                     "--output-dir", "out"],
                    cwd=work, capture_output=True, text=True, check=False, timeout=600,
                )  # fmt: skip
            times[mode] = time.perf_counter() - started
        return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    direct, replay = per_call_figures(args.calls, args.rounds)
    ratio = replay / direct
    print(f"per tool call, {args.calls} calls in one case, best of {args.rounds}:")
    print(f"  no-op tool called directly (live): {direct * 1e6:8.1f} us")
    print(f"  replayed from the cassette:        {replay * 1e6:8.1f} us")
    print(f"  replay / direct: {ratio:.2f}x (target: within {TARGET:.0f}x)")
    times = suite_figures()
    print("sample suite (sample_evals/*.evalset.json, console script, wall seconds):")
    for mode, seconds in times.items():
        print(f"  --tools {mode:<7} {seconds:6.2f} s")
    if ratio > TARGET:
        print(f"MISSED: replay costs {ratio:.2f}x a direct call (target {TARGET:.0f}x)")
        return 1
    return 0


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        raise SystemExit(main())
