"""Where watch mode's save-to-rerun time goes, step by step (target: at most 0.5 s in all).

Opens the workbench in watch mode on a one-case eval set (after a flood run of
``--flood`` events in the same process, as ``bench/tui_events.py`` does), saves the eval
set ``--saves`` times and times each step from the save to the new worker process:

- detect: the save until the watcher classifies the changed files (watchfiles' quiet time);
- classify: loading the changed eval set and diffing its cases;
- to launch: the rerun decided and handed to the screen's run worker;
- spawn: starting the child process (``popen``: the fork and exec itself; the rest is the
  event loop finishing other work, mostly repainting the screen, before the pipes connect);
- spawned: the save until the new worker process runs (the rerun has started);
- seen: until the benchmark's poll of the screen sees it (as ``bench/tui_events.py`` does).

``--profile`` also prints the functions that took the most time in those windows (cProfile).

Run: .venv/bin/python bench/watch_breakdown.py [--flood N] [--saves N] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support.own_settings import own_settings

sys.path.insert(0, str(Path(__file__).parent))

import tui_events

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs import watch, worker_process
from tenxeval_tui.screens.run.run import RunScreen

TARGET = 0.5
marks: dict[str, float] = {}


def timed(owner: Any, name: str, before: str, after: str) -> None:
    """Record ``perf_counter()`` around calls of ``owner.name`` (sync or async)."""
    original: Callable[..., Any] = getattr(owner, name)
    if asyncio.iscoroutinefunction(original):

        async def wrapper_async(*args: Any, **kwargs: Any) -> Any:
            marks[before] = time.perf_counter()
            result = await original(*args, **kwargs)
            marks[after] = time.perf_counter()
            return result

        setattr(owner, name, wrapper_async)
        return

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        marks[before] = time.perf_counter()
        result = original(*args, **kwargs)
        marks[after] = time.perf_counter()
        return result

    setattr(owner, name, wrapper)


def instrument() -> None:
    timed(watch.ChangeWatcher, "classify", "classify_in", "classify_out")
    timed(RunScreen, "launch", "launch_in", "launch_out")
    timed(worker_process.WorkerProcess, "start", "start_in", "start_out")
    timed(subprocess.Popen, "__init__", "popen_in", "popen_out")


def steps(saved: float, seen: float) -> dict[str, float]:
    return {
        "detect": marks["classify_in"] - saved,
        "classify": marks["classify_out"] - marks["classify_in"],
        "to launch": marks["start_in"] - marks["classify_out"],
        "spawn": marks["start_out"] - marks["start_in"],
        "  popen": marks["popen_out"] - marks["popen_in"],
        "spawned": marks["start_out"] - saved,
        "seen": seen - saved,
    }


async def saves(
    root: Path, count: int, profiler: cProfile.Profile | None
) -> list[dict[str, float]]:
    quick = root / "evals" / "quick.evalset.json"
    app = WorkbenchApp(quick, watch_runs=True)
    rows: list[dict[str, float]] = []
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await tui_events.wait(lambda: screen.runs_finished == 1, pilot, 60)
        for index in range(count):
            await pilot.pause(0.3)
            before = screen.process
            text = quick.read_text(encoding="utf-8")
            marks.clear()
            if profiler is not None:
                profiler.enable()
            saved = time.perf_counter()
            quick.write_text(text.replace('"hello', f'"hello {index}', 1), encoding="utf-8")
            await tui_events.wait(
                lambda before=before: (
                    screen.process is not before
                    and screen.process is not None
                    and screen.process.process is not None
                ),
                pilot,
                10,
                step=0.002,
            )
            seen = time.perf_counter()
            if profiler is not None:
                profiler.disable()
            rows.append(steps(saved, seen))
            await tui_events.wait(lambda runs=index + 2: screen.runs_finished == runs, pilot, 60)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", type=int, default=200_000, help="events of the run before")
    parser.add_argument("--saves", type=int, default=6)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    instrument()
    profiler = cProfile.Profile() if args.profile else None
    with tempfile.TemporaryDirectory() as folder:
        root = tui_events.workspace(Path(folder), max(args.flood, 1))
        if args.flood:
            asyncio.run(tui_events.flood(root, args.flood))
        rows = asyncio.run(saves(root, args.saves, profiler))
    print(f"watch mode after a run of {args.flood:,} events, {len(rows)} saves:")
    for step in rows[0]:
        values = [row[step] for row in rows]
        print(
            f"  {step:10s} median {statistics.median(values) * 1000:6.1f} ms   "
            f"worst {max(values) * 1000:6.1f} ms"
        )
    worst = max(row["spawned"] for row in rows)
    print(
        f"worst save -> rerun started {worst:.3f} s (target <= {TARGET} s) "
        f"{'OK' if worst <= TARGET else 'OVER'}"
    )
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
