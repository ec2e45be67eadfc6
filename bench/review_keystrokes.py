"""A 200-case review in the workbench: keystrokes, and seconds per label, next to floors.

The report list of a 200-case report (one judged criterion and two others a case) in a
headless app at 80x24; the review is driven by Pilot as a reviewer drives it: ``R`` from
the list, then one key a case (``p`` or ``f``, auto-advance on) until every case is
labelled, then ``esc``. Each key is timed until its label is on disk (appended and
fsynced) and the next case is on screen. Then the same per criterion (``c``: three
criteria a case). Floors of the same run: ``s`` (skip: the screen moves, nothing is
written) per key, and ``append_label`` alone (the write and fsync) per label.

Target: a label (median, key to the next case painted) at most MARGIN_S over the skip
floor of the same run: giving a label costs little more than moving on. Absolute times
follow the machine's load (shared: the load average is printed); the floor moves with it.

Run: .venv/bin/python bench/review_keystrokes.py [--cases N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agreement_labels import order_results, write_eval_set
from support.own_settings import own_settings
from textual.app import App
from textual.pilot import Pilot

from tenxeval_tui.browsing.labels import Label, append_label
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.screens.reports.review import ReviewScreen
from tenxeval_tui.widgets.reports.report_list import ReportList

MARGIN_S = 0.030
SIZE = (80, 24)


class BenchApp(App[None]):
    """The report list of ``folder``, as the workbench's reports mode shows it."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def on_mount(self) -> None:
        self.push_screen(ReportsScreen(self.folder))


def write_files(folder: Path, cases: int) -> None:
    """The eval set, and its report in ``reports/``."""
    write_eval_set(folder, cases)
    (folder / "reports").mkdir()
    report = EvalReport.create("orders", order_results(cases, checks=True))
    report.to_file(folder / "reports" / "orders_1.json")


UNTIL_S = 60.0
"""How long one awaited screen change may take before the bench stops with an error (a key
that no longer does what the bench presses it for must not hang ``make bench``)."""


async def until(pilot: Pilot[Any], condition: Any) -> None:
    deadline = time.monotonic() + UNTIL_S
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"the screen did not change within {UNTIL_S:.0f} s: {condition}")
        await pilot.pause(0.001)


async def review(pilot: Pilot[Any], screen: ReviewScreen, keys: list[str]) -> list[float]:
    """Press ``keys`` one at a time; each timed until the next item is on screen."""
    session = screen.session
    assert session is not None
    times = []
    for key in keys:
        before = (session.position, session.reviewed)
        started = time.perf_counter()
        await pilot.press(key)
        await until(pilot, lambda b=before: (session.position, session.reviewed) != b)
        times.append(time.perf_counter() - started)
    return times


async def run(folder: Path, cases: int) -> dict[str, Any]:
    os.chdir(folder)
    os.environ["TENXEVAL_REVIEWER"] = "bench"
    app = BenchApp(folder / "reports")
    keystrokes = 0
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 1)
        started = time.perf_counter()
        await pilot.press("R")
        keystrokes += 1
        await until(
            pilot,
            lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None,
        )
        opened = time.perf_counter() - started
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.session is not None
        skips = await review(pilot, screen, ["space"] * (cases - 1))
        await pilot.press("home")  # the view's own key: nothing to do with the queue
        screen.session.position = 0
        screen.show_item()
        whole = time.perf_counter()
        per_case = await review(pilot, screen, ["p" if i % 3 else "f" for i in range(cases - 1)])
        await pilot.press("p")  # the last: auto-advance has nowhere to go, nothing moves
        await until(pilot, lambda: screen.session is not None and screen.session.reviewed == cases)
        whole = time.perf_counter() - whole
        keystrokes += cases
        await pilot.press("c")
        await until(
            pilot, lambda: screen.session is not None and screen.session.chosen.by_criterion
        )
        criteria = len(screen.session.items)
        per_criterion = await review(pilot, screen, ["p"] * (criteria - 1))
        await pilot.press("escape")
        keystrokes += 1
    return {
        "opened": opened,
        "skips": skips,
        "per_case": per_case,
        "whole": whole,
        "keystrokes": keystrokes,
        "criteria": criteria,
        "per_criterion": per_criterion,
    }


def write_floor(folder: Path, count: int) -> list[float]:
    path = folder / "floor.labels.jsonl"
    times = []
    for i in range(count):
        label = Label(f"case_{i:05d}", None, "pass", "bench", "orders_1.json", "0" * 64)
        started = time.perf_counter()
        append_label(path, label)
        times.append(time.perf_counter() - started)
    return times


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:6.1f} ms, max {max(values) * 1000:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_files(folder, args.cases)
        found = asyncio.run(run(folder, args.cases))
        floor = write_floor(folder, args.cases)
    cases = args.cases
    print(f"a {cases}-case review, blind, one label a case, auto-advance on, at 80x24:")
    print(
        f"  keystrokes: {found['keystrokes']} (R to open, 1 a case, esc to leave); "
        f"per criterion: {found['criteria']} labels for {found['criteria']} keys (+ c)"
    )
    print(f"  review mode open (R to the first case):  {found['opened'] * 1000:6.1f} ms")
    print(f"  a label (key to the next case painted):  {ms(found['per_case'])}")
    print(f"  the whole review's keys, end to end:     {found['whole']:6.2f} s")
    print(f"  a label per criterion:                   {ms(found['per_criterion'])}")
    print(f"  floor: skip (space; no write) per key:   {ms(found['skips'])}")
    print(f"  floor: append_label + fsync alone:       {ms(floor)}")
    print(f"load average after: {os.getloadavg()}")
    median = statistics.median(found["per_case"])
    bar = statistics.median(found["skips"]) + MARGIN_S
    print(
        f"target: a label at most {bar * 1000:.1f} ms (the skip floor + {MARGIN_S * 1000:.0f} ms)"
    )
    if median > bar:
        print(f"MISSED: a label took {median * 1000:.1f} ms > {bar * 1000:.1f} ms")
        return 1
    return 0


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
