"""How the report browser looks: report list, one report, one case, a comparison.

Content is fixed (timestamps, durations, a relative folder) so the pictures only
change when the screens do. Update with ``pytest --snapshot-update``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tenxeval_tui.browsing.report_document import StatusFilter
from tenxeval_tui.screens.reports.baseline_picker import BaselinePicker
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.report_samples import BASELINE_TIME, write_reports
from tests.tui.browser_app import BrowserApp, wait_listed
from tests.waiting import wait_for

SIZE = (130, 40)


@pytest.fixture
def reports_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> BrowserApp:
    monkeypatch.chdir(tmp_path)
    write_reports(tmp_path / "eval_reports")
    broken = tmp_path / "eval_reports" / "weather-agent_20260518_000000.json"
    broken.write_text('{\n  "eval_set_id": "weather-agent",\n  "results": [\n', encoding="utf-8")
    os.utime(broken, (BASELINE_TIME - 86400, BASELINE_TIME - 86400))
    return BrowserApp("eval_reports")


async def _listed(pilot: Pilot[Any]) -> None:
    await wait_listed(pilot, 3)


async def _report(pilot: Pilot[Any]) -> None:
    await _listed(pilot)
    await pilot.press("enter")
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, ReportScreen) and pilot.app.screen.document
    )
    await pilot.pause()


def test_report_list_snapshot(snap_compare: Any, reports_app: BrowserApp) -> None:
    assert snap_compare(reports_app, terminal_size=SIZE, run_before=_listed)


def test_report_snapshot(snap_compare: Any, reports_app: BrowserApp) -> None:
    async def failed_only(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("f")
        await wait_for(pilot, lambda: pilot.app.screen.status_filter is not StatusFilter.ALL)

    assert snap_compare(reports_app, terminal_size=SIZE, run_before=failed_only)


def test_selected_cases_snapshot(snap_compare: Any, reports_app: BrowserApp) -> None:
    """Two cases selected (space): the ✓ gutter before the rows and the count."""

    async def two_selected(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("space", "down", "space")
        await wait_for(pilot, lambda: pilot.app.screen.query_one(ReportCaseTable).mark_count == 2)
        await pilot.pause()

    assert snap_compare(reports_app, terminal_size=SIZE, run_before=two_selected)


def test_case_detail_snapshot(snap_compare: Any, reports_app: BrowserApp) -> None:
    async def paris(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: pilot.app.screen.showing_case is not None)
        await pilot.pause()

    assert snap_compare(reports_app, terminal_size=(130, 60), run_before=paris)


def test_compare_snapshot(snap_compare: Any, reports_app: BrowserApp) -> None:
    async def compare(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, BaselinePicker))
        await wait_for(pilot, lambda: len(pilot.app.screen.query_one(ReportList).entries) == 2)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(pilot.app.screen, CompareScreen) and pilot.app.screen.comparison,
        )
        await pilot.pause()

    assert snap_compare(reports_app, terminal_size=SIZE, run_before=compare)


def test_compared_case_snapshot(snap_compare: Any, reports_app: BrowserApp) -> None:
    async def both_runs(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, BaselinePicker))
        await wait_for(pilot, lambda: len(pilot.app.screen.query_one(ReportList).entries) == 2)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(pilot.app.screen, CompareScreen) and pilot.app.screen.comparison,
        )
        await pilot.press("enter")  # paris: passed in the baseline, fails now
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CaseScreen))
        await pilot.pause()

    assert snap_compare(reports_app, terminal_size=(130, 60), run_before=both_runs)
