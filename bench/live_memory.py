"""Memory of the run view for a run of many live events (target: at most 300 MB at 200,000).

The real worker runs a flood agent once (``--recorded`` events in one case) and its
protocol lines are recorded; the event lines are then repeated to ``--events`` and
replayed, in a fresh process each, into the real workbench: its run screen reads them
through the real :class:`WorkerProcess` (the worker command is swapped for a ``cat`` of
the recording), feeds its :class:`LiveRun` and follows the case in its events pane.
Prints the UI process's peak and final resident memory with no events and with
``--events``, the cost per event, and whether the pane shows every event. Then the
worker's own peak for a run of 1 and of ``--worker-events`` events (the evaluation keeps
each case's trajectory, node responses and result until the case ends).

Run: .venv/bin/python bench/live_memory.py [--events N] [--recorded N] [--worker-events N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from support.own_settings import own_settings

TARGET_MB = 300
TARGET_EVENTS = 200_000

AGENT = """
from tenxeval_tui.evaluation import Trace

EVENTS = {events}


async def agent(message: str, trace: Trace) -> str:
    for index in range(EVENTS):
        trace.node(f"N{{index % 7}}", response=f"step {{index}}")
    return "done"
"""


def record(root: Path, events: int) -> list[str]:
    """The real worker's protocol lines for a run of one case with ``events`` node events."""
    from tenxeval_tui.evaluation import EvalSetBuilder
    from tenxeval_tui.runs.plan import RunPlan

    (root / "flood_agent.py").write_text(AGENT.format(events=events), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.tenxeval]\nagent = "flood_agent:agent"\noutput_dir = "reports"\n', encoding="utf-8"
    )
    (root / "evals").mkdir()
    EvalSetBuilder("flood").add_case("flood please", "done", case_id="flood").save(
        root / "evals" / "flood.evalset.json"
    )
    request = RunPlan(
        agent="flood_agent:agent",
        eval_sets=[root / "evals" / "flood.evalset.json"],
        output_dir=root / "reports",
        search_path=root,
    )
    done = subprocess.run(request.command(), cwd=root, capture_output=True, check=True)
    return done.stdout.decode("utf-8").splitlines()


def worker_peak_mb(root: Path, events: int) -> float:
    """Peak resident memory (MB) of the real worker running the flood agent with ``events``."""
    from tenxeval_tui.runs.plan import RunPlan

    (root / "flood_agent.py").write_text(AGENT.format(events=events), encoding="utf-8")
    request = RunPlan(
        agent="flood_agent:agent",
        eval_sets=[root / "evals" / "flood.evalset.json"],
        output_dir=root / "reports-worker",
        search_path=root,
    )
    code = (
        "import resource, subprocess, sys\n"
        f"subprocess.run({request.command()!r}, stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1]) / 1024


def scaled(lines: list[str], events: int) -> list[str]:
    """``lines`` with their node events repeated (in order) until there are ``events``."""
    node = [line for line in lines if line.startswith('{"type": "event"') and "node_exec" in line]
    first = lines.index(node[0])
    last = lines.index(node[-1])
    body = [node[index % len(node)] for index in range(events)]
    return lines[:first] + body + lines[last + 1 :]


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MB, from /proc."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


async def replay_in_app(root: Path, replay: Path) -> dict[str, Any]:
    """Open the workbench, run (the worker is a cat of ``replay``), wait for the outcome."""
    from tenxeval_tui.app import WorkbenchApp
    from tenxeval_tui.runs.plan import RunPlan
    from tenxeval_tui.screens.run.run import RunScreen
    from tenxeval_tui.widgets.run.event_stream import EventStream

    def command(self: RunPlan) -> list[str]:
        return ["cat", str(replay)]

    RunPlan.command = command  # type: ignore[method-assign]
    app = WorkbenchApp(root / "evals" / "flood.evalset.json")
    started = time.perf_counter()
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await pilot.press("ctrl+r")
        while screen.runs_finished == 0:
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        stream = screen.query_one(EventStream)
        live = screen.live
        assert live is not None
        current, peak = rss_mb()
        return {
            "received": live.events_received,
            "shown": stream.shown,
            "current": current,
            "peak": peak,
            "seconds": time.perf_counter() - started,
        }


def measure(root: Path, lines: list[str], events: int) -> dict[str, Any]:
    """Replay ``lines`` scaled to ``events`` into the app, in a fresh interpreter."""
    replay = root / f"replay-{events}.jsonl"
    replay.write_text("\n".join(scaled(lines, events)) + "\n", encoding="utf-8")
    code = (
        "import asyncio, json, sys\n"
        "from pathlib import Path\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from live_memory import replay_in_app\n"
        f"print(json.dumps(asyncio.run(replay_in_app(Path({str(root)!r}), "
        f"Path({str(replay)!r})))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=TARGET_EVENTS)
    parser.add_argument("--recorded", type=int, default=2_000)
    parser.add_argument("--worker-events", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        lines = record(root, args.recorded)
        empty = measure(root, lines, 1)
        full = measure(root, lines, args.events)
        worker = [worker_peak_mb(root, count) for count in (1, args.worker_events)]
    # The node events and the rest of the recording's events (the evaluator's end of turn,
    # its "judging" progress); the pane shows them all but the progress, which the run
    # view shows in the case's status instead.
    replayed = [line for line in scaled(lines, args.events) if line.startswith('{"type": "event"')]
    sent = len(replayed)
    to_show = sent - sum('"event_type": "progress"' in line for line in replayed)
    per_event = (full["peak"] - empty["peak"]) * 1024 * 1024 / args.events
    projected = empty["peak"] + per_event * TARGET_EVENTS / 1024 / 1024
    every = full["received"] == sent and full["shown"] == to_show
    print(
        f"run view with 1 event: peak {empty['peak']:.0f} MB; with {args.events:,} events: "
        f"peak {full['peak']:.0f} MB, at the end {full['current']:.0f} MB "
        f"({full['seconds']:.1f} s to replay)"
    )
    print(
        f"{per_event:,.0f} bytes an event; {projected:.0f} MB at {TARGET_EVENTS:,} events "
        f"(target <= {TARGET_MB} MB) {'OK' if projected <= TARGET_MB else 'OVER'}"
    )
    print(
        f"events received {full['received']:,} of {sent:,} sent, shown in the pane "
        f"{full['shown']:,} of the {to_show:,} it shows  {'OK' if every else 'MISSING'}"
    )
    worker_per_event = (worker[1] - worker[0]) * 1024 * 1024 / args.worker_events
    print(
        f"worker: peak {worker[0]:.0f} MB with 1 event, {worker[1]:.0f} MB with "
        f"{args.worker_events:,} ({worker_per_event:,.0f} bytes an event: "
        f"{worker[0] + worker_per_event * TARGET_EVENTS / 1024 / 1024:.0f} MB at "
        f"{TARGET_EVENTS:,})"
    )
    return 0 if every and projected <= TARGET_MB else 1


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
