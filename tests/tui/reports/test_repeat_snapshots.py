"""How repeats look in the report browser: a case stepped to a repeat, and a noise-aware
comparison. Update with ``pytest --snapshot-update``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tenxeval_tui.screens.reports.baseline_picker import BaselinePicker
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.reports.case_detail_view import CaseDetailView
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.repeat_samples import write_repeat_reports
from tests.tui.browser_app import BrowserApp
from tests.waiting import wait_for

SIZE = (130, 40)


@pytest.fixture
def repeats_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> BrowserApp:
    monkeypatch.chdir(tmp_path)
    write_repeat_reports(tmp_path / "eval_reports")
    return BrowserApp("eval_reports")


async def _report(pilot: Pilot[Any]) -> None:
    await wait_for(pilot, lambda: len(pilot.app.screen.query_one(ReportList).entries) == 2)
    await pilot.press("enter")
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, ReportScreen) and pilot.app.screen.document
    )
    await pilot.pause()


def test_repeat_of_a_case_snapshot(snap_compare: Any, repeats_app: BrowserApp) -> None:
    async def second_repeat(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: pilot.app.screen.showing_case is not None)
        await pilot.press("right_square_bracket", "right_square_bracket")
        view = pilot.app.screen.query_one(CaseDetailView)
        await wait_for(pilot, lambda: view.repeat == 1)
        await pilot.pause()

    assert snap_compare(repeats_app, terminal_size=SIZE, run_before=second_repeat)


def test_noise_aware_comparison_snapshot(snap_compare: Any, repeats_app: BrowserApp) -> None:
    async def compared(pilot: Pilot[Any]) -> None:
        await _report(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, BaselinePicker))
        picker = pilot.app.screen
        await wait_for(pilot, lambda: len(picker.query_one(ReportList).entries) == 1)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(pilot.app.screen, CompareScreen) and pilot.app.screen.comparison,
        )
        await pilot.pause()

    assert snap_compare(repeats_app, terminal_size=SIZE, run_before=compared)


def test_flaky_cases_snapshot(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.browsing.test_flaky_cases import write_history
    from tests.tui.reports.test_flakiness_view import HISTORY, open_flaky

    monkeypatch.chdir(tmp_path)
    write_history(tmp_path / "eval_reports", HISTORY)

    async def flaky(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: len(pilot.app.screen.query_one(ReportList).entries) == 3)
        await pilot.press("h")
        await open_flaky(pilot)
        await pilot.pause()

    assert snap_compare(BrowserApp("eval_reports"), terminal_size=SIZE, run_before=flaky)


def test_what_if_snapshot(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from tenxeval_tui.screens.reports.what_if import WhatIfScreen
    from tests.browsing.test_what_if import judged, real_report

    monkeypatch.chdir(tmp_path)
    (tmp_path / "eval_reports").mkdir()
    report = judged(asyncio.run(real_report()), 0.9)
    report.timestamp = 1779200581.0
    report.to_file(tmp_path / "eval_reports" / "coins_20260519_142301.json")

    async def raised(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: len(pilot.app.screen.query_one(ReportList).entries) == 1)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(pilot.app.screen, ReportScreen) and pilot.app.screen.document
        )
        await pilot.press("i")
        await wait_for(
            pilot, lambda: isinstance(pilot.app.screen, WhatIfScreen) and pilot.app.screen.result
        )
        await pilot.press(*["plus"] * 6)
        await wait_for(
            pilot, lambda: pilot.app.screen.result is not None and pilot.app.screen.changes
        )
        await pilot.pause()

    assert snap_compare(BrowserApp("eval_reports"), terminal_size=SIZE, run_before=raised)
