"""Stopping one case: how long the worker child takes to answer ``end_tool_call`` and
``stop_case`` (the run view's ``t`` and ``x``), in one process and routed to 2 worker
processes (and 2 Ray actors with ``--ray``).

A run of ``--held`` cases whose tool call waits until ended, and as many quick ones, through
the worker child exactly as the workbench starts it (``RunPlan.command()``, commands on its
stdin). Once every held tool call is in flight, each held case gets ``end_tool_call``, then
(its agent now waiting in a second call) ``stop_case``, one command at a time; the time is
from writing the command to reading its ``worker_ack``. Printed: median and worst per
command and setup. With workers the command goes driver -> pooled worker -> driver -> out.

Run: .venv/bin/python bench/stop_one.py [--held N] [--ray]
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenxeval_tui.evaluation import EvalCase, EvalSet  # noqa: E402
from tenxeval_tui.evaluation.config.presets import preset_by_name  # noqa: E402
from tenxeval_tui.runs.plan import RunPlan  # noqa: E402
from tenxeval_tui.runs.worker_commands import (  # noqa: E402
    end_tool_call_command,
    stop_case_command,
)

AGENT = """
import asyncio
from pathlib import Path

HERE = Path(__file__).parent


async def lookup(q):
    (HERE / ("in-" + q)).touch()
    await asyncio.Event().wait()


async def agent(message, trace):
    if message.startswith("hold"):
        try:
            await trace.tool("lookup", {"q": message}, lookup)
        except TimeoutError:
            await trace.tool("lookup", {"q": message + "-again"}, lookup)
    return message
"""


def one_setup(folder: Path, held: int, workers: int | None, backend: str) -> dict[str, list[float]]:
    (folder / "held_agent.py").write_text(AGENT)
    messages = [f"hold{i}" for i in range(held)] + [f"quick{i}" for i in range(held)]
    cases = [EvalCase.single_turn(f"c{i}", m, m) for i, m in enumerate(messages)]
    EvalSet(eval_set_id="held", eval_cases=cases).to_file(folder / "h.evalset.json")
    config = preset_by_name("quick_check")
    # parallel: EvalConfig's default runs cases one at a time (as 10xGraph 0.10.3's), and
    # the first held case would then hold the run forever
    config.parallel = True
    config.max_concurrency = 2 * held
    config.reporter.enabled = False
    plan = RunPlan(
        agent="held_agent:agent",
        agent_explicit=True,
        eval_sets=[folder / "h.evalset.json"],
        config=config,
        search_path=folder,
        workers=workers,
        backend=backend,
    )
    child = subprocess.Popen(
        plan.command(),
        cwd=folder,
        env=plan.worker_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    acks: queue.Queue[dict[str, Any]] = queue.Queue()

    def read() -> None:
        assert child.stdout is not None
        for raw in child.stdout:
            if raw.startswith(b'{"type": "worker_ack"'):
                acks.put(json.loads(raw))

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 180
    while not all((folder / f"in-hold{i}").exists() for i in range(held)):
        if time.monotonic() > deadline:
            raise SystemExit("the held tool calls did not start within 180 s")
        time.sleep(0.01)  # polling for the files, not timing anything
    times: dict[str, list[float]] = {"end_tool_call": [], "stop_case": []}
    assert child.stdin is not None
    for i in range(held):
        for kind, command in (
            ("end_tool_call", end_tool_call_command("held", f"c{i}")),
            ("stop_case", stop_case_command("held", f"c{i}")),
        ):
            if kind == "stop_case":  # its agent is in its second call now
                while not (folder / f"in-hold{i}-again").exists():
                    time.sleep(0.005)
            started = time.perf_counter()
            child.stdin.write((json.dumps(command) + "\n").encode())
            child.stdin.flush()
            ack = acks.get(timeout=60)
            times[kind].append((time.perf_counter() - started) * 1000)
            assert ack.get("ok") or ack.get("tool_calls"), ack
    child.stdin.close()
    child.wait(timeout=120)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held", type=int, default=8)
    parser.add_argument("--ray", action="store_true", help="also 2 Ray actors")
    args = parser.parse_args()
    setups: list[tuple[str, int | None, str]] = [
        ("one process", None, "process"),
        ("2 worker processes", 2, "process"),
    ]
    if args.ray:
        setups.append(("2 Ray actors", 2, "ray"))
    print(f"{args.held} held cases, {args.held} quick ones; ack time per command, ms")
    for name, workers, backend in setups:
        with tempfile.TemporaryDirectory() as tmp:
            times = one_setup(Path(tmp), args.held, workers, backend)
        for kind, values in times.items():
            print(
                f"{name:20} {kind:14} median {statistics.median(values):6.1f}"
                f"  worst {max(values):6.1f}  (n={len(values)})"
            )


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        main()
