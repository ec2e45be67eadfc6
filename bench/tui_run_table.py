"""The run view's case table with 10,000 queued cases: the virtual table against the old
``DataTable`` one, side by side, and the whole run view.

Targets (issue 15): the run view shows 10,000 queued cases in at most 50 ms of UI time,
and repaints one changed row in at most 5 ms.

1. The table alone, old (``bench/legacy/datatable_run_table.py``, the ``DataTable`` table
   as it was) and new (:class:`~tenxeval_tui.widgets.run.run_case_table.RunCaseTable`):
   every case is shown with ``show()``, until the first frame composed with every row
   laid out (the ``DataTable`` measures its rows on idle, so that work counts). Then one
   row changes at a time: ``show()`` of that case to its repainted frame, median and
   worst of several rows on screen.
2. The run view (the real :class:`~tenxeval_tui.screens.run.run.RunScreen`): a live run
   whose worker planned 10,000 cases, painted by the screen's own ``repaint()`` (a few
   runs: the median); then one case at a time starts running and the screen repaints.

UI time is the CPU time of this process from the call to that frame (headless: Textual
composes the frame without a terminal to draw on); the wall time is printed next to it,
which also counts the wait for Textual's next frame tick and, on a shared machine, other
processes.
Run: .venv/bin/python bench/tui_run_table.py [--cases N] [--rows N] [--repeat N] [--skip-old]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from support.own_settings import own_settings
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
    """Notes when an app composes a frame: the wall and CPU time of the first frame
    composed once a condition holds (checked as each frame is composed)."""

    def __init__(self) -> None:
        self.condition: Callable[[], bool] | None = None
        self.hit: tuple[float, float] | None = None

    def install(self, app: App[Any]) -> None:
        display = app._display

        def recording(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            waiting = renderable is not None and self.hit is None
            if waiting and self.condition is not None and self.condition():
                self.hit = (time.perf_counter(), time.process_time())

        app._display = recording  # type: ignore[method-assign]

    def expect(self, condition: Callable[[], bool]) -> None:
        """Note the next frame composed while ``condition`` holds."""
        self.hit = None
        self.condition = condition

    async def wait(self, timeout: float = 120) -> tuple[float, float]:
        """The (wall, CPU) time of the expected frame, once composed."""
        deadline = time.monotonic() + timeout
        while self.hit is None:
            if time.monotonic() > deadline:
                raise SystemExit("timed out waiting for a frame")
            await asyncio.sleep(0.002)
        return self.hit


class TableApp(App[None]):
    """A screen holding one case table."""

    def __init__(self, table: Widget) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield self.table


def queued(count: int) -> list[CaseState]:
    return [CaseState("big", f"case-{i:05d}", f"case number {i}") for i in range(count)]


def flip(state: CaseState) -> None:
    """Queued to running, or back."""
    running = state.status == CaseStatus.QUEUED
    state.status = CaseStatus.RUNNING if running else CaseStatus.QUEUED


def laid_out(table: Any, rows: int) -> Callable[[], bool]:
    """Every row is in the table's scrollable area (the old table measures rows on idle)."""
    return lambda: table.virtual_size.height >= rows


async def timed(clock: FrameClock, action: Callable[[], None], done: Callable[[], bool]) -> Lap:
    """Run ``action``; the wall and CPU time until the first frame composed once ``done``."""
    clock.expect(done)
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    frame_wall, frame_cpu = await clock.wait()
    return Lap(frame_wall - wall, frame_cpu - cpu)


class Lap(NamedTuple):
    wall: float
    cpu: float


async def table_alone(kind: str, count: int, rows: int) -> dict[str, list[Lap]]:
    table: Any = LegacyRunCaseTable(id="t") if kind == "old" else RunCaseTable(id="t")
    app = TableApp(table)
    clock = FrameClock()
    clock.install(app)
    states = queued(count)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()

        def show_every_case() -> None:
            for state in states:
                table.show(state, "big")

        shown = await timed(clock, show_every_case, laid_out(table, count))
        await pilot.pause()
        repaints = []
        for index in range(rows):
            state = states[index % 20]
            flip(state)
            repaints.append(await timed(clock, lambda s=state: table.show(s, "big"), lambda: True))
            await pilot.pause()
    return {"shown": [shown], "repaints": repaints}


async def run_view(count: int, rows: int, repeat: int) -> dict[str, list[Lap]]:
    with tempfile.TemporaryDirectory() as folder:
        app = WorkbenchApp(Path(folder), watch_files=False)
        clock = FrameClock()
        clock.install(app)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            screen = app.screen
            assert isinstance(screen, RunScreen)
            await pilot.pause()
            table = screen.query_one(RunCaseTable)
            cases = [[f"case-{i:05d}", f"case number {i}"] for i in range(count)]
            shown: list[Lap] = []
            run = LiveRun()
            for _ in range(repeat):  # each time a new run of ``count`` queued cases
                run = LiveRun()
                run.on_worker_line(
                    {
                        "type": "worker_plan",
                        "eval_sets": [{"eval_set_id": "big", "name": "Big", "cases": cases}],
                    }
                )

                def start(run: LiveRun = run) -> None:
                    screen.live = run
                    screen.repaint()

                shown.append(await timed(clock, start, laid_out(table, count)))
                await pilot.pause(0.2)
            repaints: list[Lap] = []
            for index in range(rows):
                key = f"big::case-{index % 20:05d}"
                flip(run.cases[key])
                run.dirty.add(key)
                repaints.append(await timed(clock, screen.repaint, lambda: True))
                await pilot.pause()
            assert table.row_count == count
    return {"shown": shown, "repaints": repaints}


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else f"over the {target * 1000:.0f} ms target"


def report(label: str, result: dict[str, list[Lap]], count: int) -> tuple[float, float]:
    """Two lines: showing every case, then repainting one; UI time is the CPU time of the
    app's loop until the frame (the wall time also counts the wait for Textual's next
    frame tick, and other processes on a shared machine). Returns the two medians."""
    shown = statistics.median(lap.cpu for lap in result["shown"])
    shown_wall = statistics.median(lap.wall for lap in result["shown"])
    row = statistics.median(lap.cpu for lap in result["repaints"])
    worst = max(lap.cpu for lap in result["repaints"])
    row_wall = statistics.median(lap.wall for lap in result["repaints"])
    times = len(result["shown"])
    print(
        f"{label}: {count} queued cases shown in {shown * 1000:.1f} ms UI time"
        f"{f' (median of {times})' if times > 1 else ''} [{verdict(shown, SHOW_TARGET)}], "
        f"{shown_wall * 1000:.1f} ms wall to the frame\n"
        f"{' ' * len(label)}  one changed row repainted in {row * 1000:.2f} ms UI time median, "
        f"{worst * 1000:.2f} ms worst [{verdict(row, ROW_TARGET)}], "
        f"{row_wall * 1000:.2f} ms wall"
    )
    return shown, row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=30, help="single-row repaints to time")
    parser.add_argument("--repeat", type=int, default=5, help="runs shown in the run view")
    parser.add_argument("--skip-old", action="store_true", help="not the old DataTable table")
    args = parser.parse_args()
    new = asyncio.run(table_alone("new", args.cases, args.rows))
    report("table, virtual (new)   ", new, args.cases)
    if not args.skip_old:
        old = asyncio.run(table_alone("old", args.cases, args.rows))
        report("table, DataTable (old) ", old, args.cases)
    view = asyncio.run(run_view(args.cases, args.rows, args.repeat))
    shown, row = report("run view (new table)   ", view, args.cases)
    return 0 if shown <= SHOW_TARGET and row <= ROW_TARGET else 1


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        raise SystemExit(main())
