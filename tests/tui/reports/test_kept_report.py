"""The report opened last from the list is kept: opened again, unchanged, it is the same
screen as it was left; a changed file, or another report, opens anew."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from rich.console import RenderableType
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from tenxeval_tui.browsing import report_document
from tenxeval_tui.browsing.report_document import ReportReader
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.reports import kept_report
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tests.report_samples import write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
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


async def test_a_report_read_ahead_shows_its_cases_and_keys_in_its_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enter on a report already read ahead: the first frame of its screen has the
    summary, the cases and the case list's keys, and the new screen is not styled twice
    (before: a "Loading" frame first, the cases a thread hop later, the keys a frame after
    them, and every widget restyled as the screen was first shown)."""
    write_reports(tmp_path)
    read_ahead: list[Path] = []
    reading = kept_report.open_first_page

    def counted(path: Path) -> tuple[ReportReader, report_document.ReportDocument]:
        result = reading(path)
        read_ahead.append(path)
        return result

    monkeypatch.setattr(kept_report, "open_first_page", counted)
    app = BrowserApp(tmp_path)
    frames: list[tuple[str, list[str], int]] = []
    restyled: list[object] = []
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(read_ahead) == 1)
        display, update_styles = app._display, app.update_styles

        def recording(screen: Screen[object], renderable: RenderableType | None) -> None:
            if isinstance(screen, ReportScreen):
                keys = [str(key.description) for key in screen.query(FooterKey)]
                header = plain(screen.query_one("#report-header", Static))
                frames.append((header, keys, len(screen.visible_rows)))
            display(screen, renderable)

        def updating(node: object, animate: bool = True) -> None:
            restyled.append(node)
            update_styles(node, animate=animate)  # type: ignore[arg-type]

        monkeypatch.setattr(app, "_display", recording)
        monkeypatch.setattr(app, "update_styles", updating)
        screen = await open_current_report(pilot)
        await wait_for(pilot, lambda: bool(frames))
        header, keys, rows = frames[0]
        assert "Loading" not in header and rows == len(screen.visible_rows) > 0
        assert "Status filter" in keys
        assert not [node for node in restyled if isinstance(node, Screen)]
