"""Run view under an event flood, and watch-mode reaction time.

1. An agent emits 20,000 events within 2 s (bursts of 500 every 50 ms) in one case.
   Prints events sent vs received vs shown in the event stream (must be equal), the
   worst input latency while they stream (a key posted every 20 ms, measured until its
   binding runs; target at most 100 ms), and the peak memory of the UI and the worker.
2. Watch mode: the time from saving an eval set to the rerun starting (the new worker
   process spawned; target at most 0.5 s), median and worst of several saves.

With ``--transcript`` the events pane shows the case's transcript (``ctrl+t``) during the
flood instead of its event lines (the transcript keeps the last 2,000 blocks).

Run: .venv/bin/python bench/tui_events.py [--events N] [--saves N] [--transcript]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from support.own_settings import own_settings
from textual import events
from textual.binding import Binding

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSetBuilder
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.common.transcript_view import TranscriptPane
from tenxeval_tui.widgets.run.event_stream import EventStream

LATENCY_TARGET = 0.100
WATCH_TARGET = 0.5

AGENT = """
import asyncio

from tenxeval_tui.evaluation import Trace

EVENTS = {events}
BURST = 500


async def agent(message: str, trace: Trace) -> str:
    if "flood" not in message:
        trace.node("MAIN", response="ok")
        return "ok"
    for start in range(0, EVENTS, BURST):
        for index in range(start, min(start + BURST, EVENTS)):
            trace.node(f"N{{index % 7}}", response=f"step {{index}}")
        await asyncio.sleep(0.05)
    return "done"
"""


def workspace(root: Path, events_count: int) -> Path:
    (root / "pyproject.toml").write_text(
        '[tool.tenxeval]\nagent = "flood_agent:agent"\noutput_dir = "reports"\nconcurrency = 1\n',
        encoding="utf-8",
    )
    (root / "flood_agent.py").write_text(AGENT.format(events=events_count), encoding="utf-8")
    evals = root / "evals"
    evals.mkdir()
    EvalSetBuilder("flood").add_case("flood please", "done", case_id="flood").save(
        evals / "flood.evalset.json"
    )
    EvalSetBuilder("quick").add_case("hello", "ok", case_id="hello").save(
        evals / "quick.evalset.json"
    )
    return root


class ProbeApp(WorkbenchApp):
    """The workbench with one extra key whose handler records how late it ran."""

    BINDINGS = [*WorkbenchApp.BINDINGS, Binding("f12", "probe", show=False, priority=True)]

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.posted_at: float | None = None
        self.latencies: list[float] = []

    def action_probe(self) -> None:
        if self.posted_at is not None:
            self.latencies.append(time.perf_counter() - self.posted_at)
            self.posted_at = None

    def probe(self) -> None:
        if self.posted_at is None:
            self.posted_at = time.perf_counter()
            self.post_message(events.Key("f12", None))


async def wait(condition: Any, pilot: Any, timeout: float, step: float = 0.005) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        await pilot.pause(step)


async def flood(root: Path, events_count: int, transcript: bool = False) -> dict[str, Any]:
    app = ProbeApp(root / "evals" / "flood.evalset.json")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        if transcript:
            await pilot.press("ctrl+t")
        await pilot.press("ctrl+r")
        await wait(lambda: screen.live is not None and screen.live.events_received > 0, pilot, 60)
        started = time.perf_counter()
        while screen.runs_finished == 0:
            app.probe()
            await asyncio.sleep(0.02)
        streamed = time.perf_counter() - started
        await pilot.pause(0.2)
        live = screen.live
        assert live is not None
        stream = screen.query_one(EventStream)
        return {
            # the agent's nodes, the evaluator's end-of-turn event and its "judging" one
            # (which the view shows as the step in flight, not as a line)
            "sent": events_count + 2,
            "received": live.events_received,
            "shown": stream.shown,
            "lines": stream.line_count,
            "latencies": app.latencies,
            "seconds": streamed,
            "blocks": screen.query_one(TranscriptPane).written,
        }


async def watch_latency(root: Path, saves: int) -> tuple[list[float], list[float]]:
    quick = root / "evals" / "quick.evalset.json"
    app = WorkbenchApp(quick, watch_runs=True)
    delays: list[float] = []
    detected: list[float] = []
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await wait(lambda: screen.runs_finished == 1, pilot, 60)
        for index in range(saves):
            await pilot.pause(0.3)
            before = screen.process
            text = quick.read_text(encoding="utf-8")
            saved = time.perf_counter()
            quick.write_text(text.replace('"hello', f'"hello {index}', 1), encoding="utf-8")
            await wait(
                lambda before=before: (
                    screen.process is not before
                    and screen.process is not None
                    and screen.process.process is not None
                ),
                pilot,
                10,
                step=0.002,
            )
            delays.append(time.perf_counter() - saved)
            if screen.watcher.last_change_at is not None:
                detected.append(screen.watcher.last_change_at - saved)
            await wait(lambda runs=index + 2: screen.runs_finished == runs, pilot, 60)
    return delays, detected


def worker_alone(root: Path) -> float:
    """Seconds the worker takes to stream the flood with no UI reading it."""
    request = RunPlan(
        agent="flood_agent:agent",
        eval_sets=[root / "evals" / "flood.evalset.json"],
        output_dir=root / "reports-alone",
        search_path=root,
    )
    started = time.perf_counter()
    subprocess.run(
        request.command(),
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--saves", type=int, default=5)
    parser.add_argument("--transcript", action="store_true", help="the transcript pane shows")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = workspace(Path(folder), args.events)
        result = asyncio.run(flood(root, args.events, args.transcript))
        delays, detected = asyncio.run(watch_latency(root, args.saves))
        alone = worker_alone(root)
    worst = max(result["latencies"], default=0.0)
    ui_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    ok_count = result["sent"] == result["received"] == result["shown"] + 1 == result["lines"] + 1
    print(
        f"events sent {result['sent']}, received {result['received']}, "
        f"shown {result['shown']} ({result['lines']} lines)  "
        f"{'OK' if ok_count else 'MISMATCH'} (must be equal, but for the scoring's step)"
    )
    print(
        f"streaming took {result['seconds']:.2f} s with the UI reading it; the worker alone "
        f"(output to /dev/null) takes {alone:.2f} s for the same run"
    )
    print(
        f"input latency during the flood: worst {worst * 1000:.1f} ms, median "
        f"{statistics.median(result['latencies']) * 1000:.1f} ms over "
        f"{len(result['latencies'])} keys  (target <= {LATENCY_TARGET * 1000:.0f} ms) "
        f"{'OK' if worst <= LATENCY_TARGET else 'OVER'}"
    )
    if args.transcript:
        print(f"transcript pane: {result['blocks']} blocks written (one a model step)")
    print(f"peak memory: UI process {ui_peak:.0f} MiB, worker {worker_peak:.0f} MiB")
    print(
        f"watch mode, save -> rerun started: median {statistics.median(delays):.3f} s, "
        f"worst {max(delays):.3f} s over {len(delays)} saves  (target <= {WATCH_TARGET} s) "
        f"{'OK' if max(delays) <= WATCH_TARGET else 'OVER'}; change detected after "
        f"{statistics.median(detected):.3f} s (median)"
    )
    ok = ok_count and worst <= LATENCY_TARGET and max(delays) <= WATCH_TARGET
    return 0 if ok else 1


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
