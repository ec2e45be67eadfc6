"""The run view's case table with 10,000 queued cases: the virtual table against the old
``DataTable`` one, side by side, and the whole run view.

Targets (issue 15): the run view shows 10,000 queued cases in at most 50 ms of UI time,
and repaints one changed row in at most 5 ms.

1. The table alone, old (``bench/legacy/datatable_run_table.py``, the ``DataTable`` table as it
   was) and new (:class:`~tenxeval_tui.widgets.run.run_case_table.RunCaseTable`): every
   case is shown with ``show()`` as the run view does, then the time to the last frame
   Textual composed once the table settled (the ``DataTable`` measures its rows on idle,
   so that work counts). Then one row changes at a time: ``show()`` of that case to its
   repainted frame, median and worst of several rows on screen.
2. The run view (the real :class:`~tenxeval_tui.screens.run.run.RunScreen`): a live run
   whose worker planned 10,000 cases, painted by the screen's own ``repaint()``; then a
   case starts running and the screen repaints it.

Times are to the last frame composed (headless: without a terminal's drawing); the CPU
time of this process is printed next to them, as the machine may be shared.
Run: .venv/bin/python bench/tui_run_table.py [--cases N] [--rows N] [--skip-old]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widget import Widget

sys.path.insert(0, str(Path(__file__).parent / "legacy"))

from datatable_run_table import LegacyRunCaseTable

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseState, CaseStatus, LiveRun
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable

SHOW_TARGET = 0.050
ROW_TARGET = 0.005
SIZE = (160, 45)


class FrameClock:
    """Notes the time of the last frame an app composed."""

    def __init__(self) -> None:
        self.last = 0.0
        self.count = 0

    def install(self, app: App[Any]) -> None:
        display = app._display

        def recording(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None:
                self.last = time.perf_counter()
                self.count += 1

        app._display = recording  # type: ignore[method-assign]


class TableApp(App[None]):
    """A screen holding one case table."""

    def __init__(self, table: Widget) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield self.table


def queued(count: int) -> list[CaseState]:
    return [CaseState("big", f"case-{i:05d}", f"case number {i}") for i in range(count)]


async def settle(pilot: Any, table: Any, rows: int) -> None:
    """Until every row is laid out (the scrollable area holds them) and the app is idle."""
    deadline = time.monotonic() + 120
    while table.virtual_size.height < rows and time.monotonic() < deadline:
        await pilot.pause()
    await pilot.pause()


async def repaint_one_row(
    pilot: Any, table: Any, states: list[CaseState], clock: FrameClock, rows: int
) -> tuple[list[float], list[float]]:
    """Seconds from ``show()`` of one changed case (on screen) to its repainted frame, and
    the CPU seconds of it."""
    times: list[float] = []
    cpus: list[float] = []
    for index in range(rows):
        state = states[index % 20]
        state.status = (
            CaseStatus.RUNNING if state.status == CaseStatus.QUEUED else CaseStatus.QUEUED
        )
        frames = clock.count
        start, cpu = time.perf_counter(), time.process_time()
        table.show(state, "big")
        while clock.count == frames:
            await asyncio.sleep(0)
        cpus.append(time.process_time() - cpu)
        times.append(clock.last - start)
        await pilot.pause()
    return times, cpus


async def table_alone(kind: str, count: int, rows: int) -> dict[str, Any]:
    table: Widget = LegacyRunCaseTable(id="t") if kind == "old" else RunCaseTable(id="t")
    app = TableApp(table)
    clock = FrameClock()
    clock.install(app)
    states = queued(count)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start, cpu = time.perf_counter(), time.process_time()
        for state in states:
            table.show(state, "big")  # type: ignore[attr-defined]
        shown_sync = time.perf_counter() - start
        await settle(pilot, table, count)
        shown = clock.last - start
        shown_cpu = time.process_time() - cpu
        repaints, repaint_cpus = await repaint_one_row(pilot, table, states, clock, rows)
    return {
        "sync": shown_sync,
        "shown": shown,
        "cpu": shown_cpu,
        "repaints": repaints,
        "repaint_cpus": repaint_cpus,
    }


async def run_view(count: int, rows: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        app = WorkbenchApp(Path(folder), watch_files=False)
        clock = FrameClock()
        clock.install(app)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            screen = app.screen
            assert isinstance(screen, RunScreen)
            await pilot.pause()
            run = LiveRun()
            cases = [[f"case-{i:05d}", f"case number {i}"] for i in range(count)]
            run.on_worker_line(
                {
                    "type": "worker_plan",
                    "eval_sets": [{"eval_set_id": "big", "name": "Big", "cases": cases}],
                }
            )
            table = screen.query_one(RunCaseTable)
            start, cpu = time.perf_counter(), time.process_time()
            screen.live = run
            screen.repaint()
            await settle(pilot, table, count)
            shown = clock.last - start
            shown_cpu = time.process_time() - cpu
            times: list[float] = []
            cpus: list[float] = []
            for index in range(rows):
                key = f"big::case-{index % 20:05d}"
                state = run.cases[key]
                state.status = (
                    CaseStatus.RUNNING if state.status == CaseStatus.QUEUED else CaseStatus.QUEUED
                )
                run.dirty.add(key)
                frames = clock.count
                begin, cpu = time.perf_counter(), time.process_time()
                screen.repaint()
                while clock.count == frames:
                    await asyncio.sleep(0)
                cpus.append(time.process_time() - cpu)
                times.append(clock.last - begin)
                await pilot.pause()
            assert table.row_count == count
    return {"shown": shown, "cpu": shown_cpu, "repaints": times, "repaint_cpus": cpus}


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else f"over the {target * 1000:.0f} ms target"


def report(label: str, result: dict[str, Any], count: int) -> None:
    """One line per measure: UI time is the CPU time of the app's loop (the wall time to
    the frame also counts the wait for Textual's next frame tick)."""
    median = statistics.median(result["repaint_cpus"])
    worst = max(result["repaint_cpus"])
    wall = statistics.median(result["repaints"])
    sync = f", show() calls {result['sync'] * 1000:.1f} ms" if "sync" in result else ""
    print(
        f"{label}: {count} queued cases shown in {result['cpu'] * 1000:.1f} ms UI time "
        f"[{verdict(result['cpu'], SHOW_TARGET)}] ({result['shown'] * 1000:.1f} ms wall "
        f"to the frame{sync})\n"
        f"{' ' * len(label)}  one changed row repainted in {median * 1000:.2f} ms UI time "
        f"median, {worst * 1000:.2f} ms worst [{verdict(median, ROW_TARGET)}] "
        f"({wall * 1000:.2f} ms wall to the frame)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=30, help="single-row repaints to time")
    parser.add_argument("--skip-old", action="store_true", help="not the old DataTable table")
    args = parser.parse_args()
    new = asyncio.run(table_alone("new", args.cases, args.rows))
    report("table, virtual (new)   ", new, args.cases)
    if not args.skip_old:
        old = asyncio.run(table_alone("old", args.cases, args.rows))
        report("table, DataTable (old) ", old, args.cases)
    view = asyncio.run(run_view(args.cases, args.rows))
    report("run view (new table)   ", view, args.cases)
    ok = view["cpu"] <= SHOW_TARGET and statistics.median(view["repaint_cpus"]) <= ROW_TARGET
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
