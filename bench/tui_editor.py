"""Editor responsiveness on a 10,000-case eval set.

Prints two figures next to their targets:
- seconds from creating the app to the first frame that shows the cases and takes keys
  (target: at most 1.0 s);
- median milliseconds from a keystroke in the filter box to the repainted frame
  (target: at most 50 ms).

With ``--history RUNS``, the workspace's report folder first gets RUNS reports of the
set (every tenth case passing or failing by a seeded draw, so some flip): the editor
reads them in the background to mark the flipped cases, and the bench also prints when
the marks showed, on a first look (every report read and its summary cached) and on a
second (the summaries from the cache).

Run: ``.venv/bin/python bench/tui_editor.py [--history 10]`` (``make bench`` runs it too). Headless, so
the frame time is Textual's composing of the update, without a terminal's drawing. The
start time counts importing the app, reading and parsing the file and drawing; it is
also given as CPU seconds, which a busy machine inflates less than wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from support.own_settings import own_settings

CASES = 10_000
TARGET_START_S = 1.0
TARGET_FILTER_MS = 50.0
FILTER_KEYS = [*"case_12", *["backspace"] * 7, *"#fast", "space", *"london", *["backspace"] * 12]


def write_eval_set(path: Path) -> None:
    """A realistic big file: every case with a tool call, tags and two turns for some."""
    from tenxeval_tui.evaluation import EvalCase, EvalSet, ToolCall

    cases = []
    for index in range(CASES):
        city = ["London", "Paris", "Tokyo", "Lima"][index % 4]
        tools = [ToolCall(name="get_weather", args={"city": city, "day": index % 7})]
        tags = ["smoke", "fast"] if index % 10 == 0 else ["weather"]
        if index % 3 == 0:
            case = EvalCase.multi_turn(
                f"case_{index}",
                [("Hi", "Hello!"), (f"Weather in {city}?", f"Sunny in {city}.")],
                expected_tools=tools,
                name=f"{city} chat {index}",
                tags=tags,
            )
        else:
            case = EvalCase.single_turn(
                f"case_{index}",
                f"Weather in {city} on day {index % 7}?",
                f"Sunny in {city}.",
                expected_tools=tools,
                name=f"{city} {index}",
                tags=tags,
            )
        cases.append(case)
    EvalSet(eval_set_id="big", name="big", eval_cases=cases).to_file(path)


def write_history(folder: Path, runs: int) -> int:
    """``runs`` reports of the set in ``folder``; how many cases flipped in them."""
    from tenxeval_tui.evaluation import EvalCaseResult, EvalReport
    from tenxeval_tui.evaluation.eval_result import CriterionResult

    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(18)
    outcomes: dict[int, set[bool]] = {}
    for run in range(runs):
        results = []
        for index in range(CASES):
            passed = rng.random() < 0.6 if index % 10 == 0 else index % 7 != 0
            outcomes.setdefault(index, set()).add(passed)
            score = 1.0 if passed else 0.0
            criterion = CriterionResult.success("tool_trajectory_avg_score", score, 1.0)
            results.append(
                EvalCaseResult(
                    eval_id=f"case_{index}", passed=passed, criterion_results=[criterion]
                )
            )
        report = EvalReport.create("big", results, eval_set_name="big")
        report.timestamp = 1_780_000_000 + run * 3600
        report.to_file(folder / f"big_{run:03d}.json")
    return sum(1 for seen in outcomes.values() if len(seen) == 2)


async def measure(path: Path) -> tuple[float, float, list[float], int, float | None, int]:
    started = time.perf_counter()
    cpu_started = time.process_time()
    from tenxeval_tui.app import WorkbenchApp
    from tenxeval_tui.widgets.editor.case_table import CaseTable

    app = WorkbenchApp(path, watch_files=False)
    frames: list[float] = []
    display = app._display

    def recording_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            frames.append(time.perf_counter())

    app._display = recording_display  # type: ignore[method-assign]
    async with app.run_test(size=(160, 45)) as pilot:
        while True:
            screen = app.screen
            table = screen.query(CaseTable)
            if (
                table
                and len(table.first().visible_uids) == CASES
                and screen.focused is table.first()
            ):
                break
            await asyncio.sleep(0.005)
        ready = time.perf_counter()
        while not frames or frames[-1] < ready:
            await asyncio.sleep(0.001)
        first_frame = frames[-1] - started
        first_frame_cpu = time.process_time() - cpu_started
        marks = screen.flip_marks  # type: ignore[attr-defined]
        while marks.reads == 0:
            await asyncio.sleep(0.005)
        marked_at = time.perf_counter() - started
        flipped = len(screen.query_one(CaseTable).flipped_uids)

        await pilot.press("ctrl+f")
        await pilot.pause()
        latencies: list[float] = []
        for key in FILTER_KEYS:
            before = len(frames)
            sent = time.perf_counter()
            await pilot.press(key)
            while len(frames) == before:
                await asyncio.sleep(0.0005)
            latencies.append((frames[before] - sent) * 1000)
        shown = len(app.screen.query_one(CaseTable).visible_uids)
    return first_frame, first_frame_cpu, latencies, shown, marked_at, flipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--history", type=int, default=0, metavar="RUNS")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TENXEVAL_STATE_DIR"] = str(Path(folder) / "state")  # a cold cache
        path = Path(folder) / "big.evalset.json"
        write_eval_set(path)
        size_mb = path.stat().st_size / 1e6
        if args.history:
            flipped = write_history(Path(folder) / "eval_reports", args.history)
            print(f"history: {args.history} reports of the set ({flipped} cases flipped)")
            cold = asyncio.run(measure(path))
            print(
                f"first look: first interactive frame {cold[0]:.2f} s, flip marks shown at "
                f"{cold[4]:.2f} s ({cold[5]} cases marked), filter key median "
                f"{statistics.median(cold[2]):.1f} ms"
            )
        first_frame, first_frame_cpu, latencies, shown, marked_at, flipped = asyncio.run(
            measure(path)
        )
    if args.history:
        print(f"from the cache: flip marks shown at {marked_at:.2f} s ({flipped} cases marked)")
    median = statistics.median(latencies)
    start_ok = first_frame <= TARGET_START_S
    filter_ok = median <= TARGET_FILTER_MS
    print(f"eval set: {CASES} cases, {size_mb:.1f} MB")
    print(
        f"first interactive frame: {first_frame:.2f} s wall, {first_frame_cpu:.2f} s CPU "
        f"(target <= {TARGET_START_S:.1f} s) {'OK' if start_ok else 'MISSED'}"
    )
    print(
        f"filter keystroke -> repaint: median {median:.1f} ms, max {max(latencies):.1f} ms "
        f"over {len(latencies)} keys (target median <= {TARGET_FILTER_MS:.0f} ms) "
        f"{'OK' if filter_ok else 'MISSED'}"
    )
    print(f"(after the last key the filter is empty again: {shown} rows shown)")
    load = os.getloadavg()[0]
    print(f"machine load average (1 min): {load:.1f} on {os.cpu_count()} CPUs")
    return 0 if start_ok and filter_ok else 1


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
