"""The report browser inside the workbench: its key, the palette, help, and jumping to the editor."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.common.help import HelpScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.report_samples import case
from tests.tui.conftest import notifications, search_palette
from tests.waiting import wait_for


def write_report(workspace: Path, eval_set_file: Path) -> Path:
    eval_set_id = json.loads(eval_set_file.read_text(encoding="utf-8"))["eval_set_id"]
    report = EvalReport.create(
        eval_set_id, [case("london"), case("paris", rouge=0.1)], eval_set_name="weather"
    )
    report.timestamp = 1779300000.0
    path = workspace / "eval_reports" / "weather_20260520_180000.json"
    report.to_file(path)
    return path


async def test_b_lists_the_workspace_reports_and_ctrl_e_opens_the_case_in_the_editor(
    weather_set: Path,
) -> None:
    write_report(weather_set.parent, weather_set)
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(130, 45)) as pilot:
        await pilot.pause()
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        reports = app.screen
        assert isinstance(reports, ReportsScreen)
        await wait_for(pilot, lambda: len(reports.query_one(ReportList).entries) == 1)
        assert reports.folder == weather_set.parent / "eval_reports"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        report_screen = app.screen
        assert isinstance(report_screen, ReportScreen)
        assert report_screen.check_action("rerun_case", ()) is True  # the run view reruns it
        await pilot.press("down", "enter", "ctrl+e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.document)
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.document is not None
        uid = editor.query_one(CaseTable).highlighted_uid
        chosen = next(c for c in editor.document.cases if c.uid == uid)
        assert chosen.eval_id == "paris"
        editor.query_one(CaseTable).focus()
        await pilot.press("escape")  # one step back: the report, as it was left
        await wait_for(pilot, lambda: app.screen is report_screen)
        assert report_screen.showing_case is not None
        await pilot.press("b")  # the reports key shows the list itself
        await wait_for(pilot, lambda: app.screen is reports)


async def test_unknown_eval_set_says_so(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(130, 45)) as pilot:
        await pilot.pause()
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        await app.run_action("edit_case('not-here', 'x')")
        await wait_for(
            pilot, lambda: any("No eval set 'not-here'" in n for n in notifications(app))
        )
        assert isinstance(app.screen, ReportsScreen)  # said, and stays where it was


async def test_help_and_palette_know_the_report_browser(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert isinstance(app.screen, HelpScreen)
        rows = {(where, keys) for where, keys, _ in app.screen.rows}
        assert ("everywhere", "b") in rows
        assert ("report list", "c") in rows
        assert ("comparison", "1") in rows
        await pilot.press("escape")
        await search_palette(pilot, "reports", "Reports")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
