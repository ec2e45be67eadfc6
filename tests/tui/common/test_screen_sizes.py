"""Every screen at 80x24, 100x30 and 160x45: editor, run view during and after a run, report
list, one report, one case, comparison and help (pytest-textual-snapshot).

Content is fixed (timestamps, durations hidden, relative folders) so the pictures change only
when the screens do. Update with ``pytest --snapshot-update`` and look at the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.screens.common.help import HelpScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.event_stream import EventStream
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.report_samples import write_reports
from tests.tui.browser_app import BrowserApp, wait_listed
from tests.tui.conftest import wait_for, wait_for_form
from tests.tui.run.conftest import open_run_screen, write_workspace
from tests.tui.run.test_run_snapshots import PAUSING_AGENT, StableApp

SIZES = [(80, 24), (100, 30), (160, 45)]
sizes = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


@pytest.fixture
def reports_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> BrowserApp:
    monkeypatch.chdir(tmp_path)
    write_reports(tmp_path / "eval_reports")
    return BrowserApp("eval_reports")


async def _listed(pilot: Pilot[Any]) -> None:
    await wait_listed(pilot, 2)


async def _report(pilot: Pilot[Any]) -> None:
    await _listed(pilot)
    await pilot.press("enter")
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, ReportScreen) and pilot.app.screen.document
    )
    await pilot.pause()


@sizes
def test_editor(snap_compare: Any, weather_set: Path, size: tuple[int, int]) -> None:
    async def opened(pilot: Pilot[Any]) -> None:
        await wait_for_form(pilot)
        await pilot.pause()

    app = WorkbenchApp(weather_set.parent, watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=opened)


@sizes
def test_help(snap_compare: Any, weather_set: Path, size: tuple[int, int]) -> None:
    async def helped(pilot: Pilot[Any]) -> None:
        await wait_for_form(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()

    app = WorkbenchApp(weather_set.parent, watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=helped)


@sizes
def test_report_list(snap_compare: Any, reports_app: BrowserApp, size: tuple[int, int]) -> None:
    assert snap_compare(reports_app, terminal_size=size, run_before=_listed)


@sizes
def test_one_report(snap_compare: Any, reports_app: BrowserApp, size: tuple[int, int]) -> None:
    assert snap_compare(reports_app, terminal_size=size, run_before=_report)


@sizes
def test_one_case(snap_compare: Any, reports_app: BrowserApp, size: tuple[int, int]) -> None:
    async def case(pilot: Pilot[Any]) -> None:
        await _listed(pilot)
        current = ReportDocument.open(Path("eval_reports/weather-agent_20260520_142301.json"))
        await pilot.app.push_screen(CaseScreen(current.case(1), report_title=current.title))
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CaseScreen))
        await pilot.pause()

    assert snap_compare(reports_app, terminal_size=size, run_before=case)


@sizes
def test_comparison(snap_compare: Any, reports_app: BrowserApp, size: tuple[int, int]) -> None:
    async def compared(pilot: Pilot[Any]) -> None:
        await _listed(pilot)
        base, cur = sorted(Path("eval_reports").glob("*.json"))
        screen = CompareScreen(base, cur)
        await pilot.app.push_screen(screen)
        await wait_for(pilot, lambda: screen.comparison is not None)
        await pilot.pause()

    assert snap_compare(reports_app, terminal_size=size, run_before=compared)


def painted(screen: RunScreen, key: str, status: str) -> bool:
    """The run view shows ``key``'s row with ``status``, and every event of the selected case."""
    live = screen.live
    table = screen.query_one(RunCaseTable)
    selected = table.selected_key
    if live is None or not table.has_key(key) or selected not in live.cases:
        return False
    stream = screen.query_one(EventStream)
    row = table.cells_of(key)
    return str(row[0]).startswith(status) and stream.shown == len(live.cases[selected].events)


def _run_view(pilot: Pilot[Any]) -> RunScreen:
    screen = pilot.app.screen
    assert isinstance(screen, RunScreen)
    return screen


@sizes
def test_run_view_during_a_run(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    root = write_workspace(tmp_path / "project", agent_code=PAUSING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()

    async def mid_run(pilot: Pilot[Any]) -> None:
        await open_run_screen(pilot)
        screen = _run_view(pilot)
        screen.query_one("#concurrency").value = "1"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")

        def rome_started() -> bool:  # Paris done, Rome waiting after its first event
            live = screen.live
            return (
                live is not None
                and live.completed == 1
                and "cities::rome" in live.cases
                and len(live.cases["cities::rome"].events) == 1
            )

        await wait_for(pilot, rome_started, timeout=120)
        await wait_for(pilot, lambda: painted(screen, "cities::rome", "▶"))
        await pilot.pause()

    assert snap_compare(StableApp(root), terminal_size=size, run_before=mid_run)


@sizes
def test_run_view_after_a_run(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    root = write_workspace(tmp_path / "project")

    async def finished(pilot: Pilot[Any]) -> None:
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        screen = _run_view(pilot)
        await wait_for(pilot, lambda: screen.runs_finished == 1, timeout=120)
        await pilot.press("down", "down")  # Oslo: the failed case
        await wait_for(
            pilot,
            lambda: (
                screen.query_one(RunCaseTable).selected_key == "cities::oslo"
                and painted(screen, "cities::oslo", "✗")
            ),
        )
        await pilot.pause()

    assert snap_compare(StableApp(root), terminal_size=size, run_before=finished)
