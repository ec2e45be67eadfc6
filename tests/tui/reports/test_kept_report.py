"""The report opened last from the list is kept: opened again, unchanged, it is the same
screen as it was left; a changed file, or another report, opens anew."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tenxeval_tui.browsing import report_document
from tenxeval_tui.browsing.report_document import ReportReader
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tests.report_samples import write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report
from tests.waiting import wait_for


def cursor_case(screen: ReportScreen) -> str:
    row = screen.query_one(ReportCaseTable).current
    assert row is not None
    return str(row.eval_id)


async def back_to_the_list(pilot: object, app: BrowserApp) -> None:
    await pilot.press("escape")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))  # type: ignore[arg-type]


async def test_the_same_report_opens_as_it_was_left(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        first = await open_current_report(pilot)
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: cursor_case(first) == "tokyo")
        await back_to_the_list(pilot, app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        assert app.screen is first  # not read nor built again
        assert cursor_case(first) == "tokyo"
        await pilot.press("down")  # and it answers keys as before
        await wait_for(pilot, lambda: cursor_case(first) == "berlin")


async def test_a_changed_report_or_another_one_opens_anew(tmp_path: Path) -> None:
    base, current = write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        first = await open_current_report(pilot)
        await back_to_the_list(pilot, app)
        report = EvalReport.from_file(current)
        EvalReport.create(report.eval_set_id, report.results[:2]).to_file(current)  # 2 cases
        mtime = current.stat().st_mtime_ns + 1_000_000_000  # changed, even on coarse clocks
        os.utime(current, ns=(mtime, mtime))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        second = app.screen
        assert isinstance(second, ReportScreen) and second is not first
        await wait_for(pilot, lambda: len(second.visible_rows) == 2)
        assert not first.is_attached  # the screen no longer kept is gone
        await back_to_the_list(pilot, app)
        await pilot.press("down", "enter")  # the other report (the baseline)
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        other = app.screen
        assert isinstance(other, ReportScreen) and other.path == base
        await back_to_the_list(pilot, app)
        await wait_for(pilot, lambda: not second.is_attached)


async def test_the_report_under_the_cursor_is_read_before_enter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list reads the report under its cursor ahead, in a thread: enter shows what was
    read then, without reading the file again; a report changed since is read anew."""
    base, current = write_reports(tmp_path)
    readings: list[tuple[Path, threading.Thread]] = []

    class CountedReader(ReportReader):
        def __init__(self, path: str | Path) -> None:
            readings.append((Path(path), threading.current_thread()))
            super().__init__(path)

    monkeypatch.setattr(report_document, "ReportReader", CountedReader)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: [path for path, _ in readings] == [current])
        assert readings[0][1] is not threading.main_thread()
        await pilot.press("down")  # the cursor on the baseline: read ahead in turn
        await wait_for(pilot, lambda: [path for path, _ in readings] == [current, base])
        screen = await open_current_report(pilot)
        assert screen.path == base and len(readings) == 2  # not read again
        await wait_for(pilot, lambda: len(screen.visible_rows) == 5)
        await back_to_the_list(pilot, app)
        report = EvalReport.from_file(current)
        EvalReport.create(report.eval_set_id, report.results[:2]).to_file(current)
        mtime = current.stat().st_mtime_ns + 1_000_000_000
        os.utime(current, ns=(mtime, mtime))
        await pilot.press("up")  # read ahead again: the file changed
        await wait_for(pilot, lambda: [path for path, _ in readings][2:] == [current])
        opened = await open_current_report(pilot)
        assert opened.path == current
        await wait_for(pilot, lambda: len(opened.visible_rows) == 2)
