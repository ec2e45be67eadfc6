"""With a case open, the report's case view follows the table's cursor in the key's own
step (one frame shows both), and after any burst of moves shows the case under it."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.report_samples import case
from tests.waiting import wait_for

CITIES = ["london", "paris", "tokyo", "berlin", "oslo", "lima"]


def shown(screen: ReportScreen) -> str | None:
    return screen.showing_case.eval_id if screen.showing_case is not None else None


async def test_the_case_view_follows_the_cursor_in_the_keys_step(tmp_path: Path) -> None:
    report = EvalReport.create("weather", [case(city) for city in CITIES])
    report.to_file(tmp_path / "eval_reports" / "weather_20260520_180000.json")
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=(130, 45)) as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        reports = app.screen
        await wait_for(pilot, lambda: len(reports.query_one(ReportList).entries) == 1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        screen = app.screen
        assert isinstance(screen, ReportScreen)
        table = screen.query_one(ReportCaseTable)
        await pilot.press("enter")
        await wait_for(pilot, lambda: shown(screen) == "london", what="london open")
        for expected in CITIES[1:4]:
            table.action_cursor_down()
            assert shown(screen) == expected  # no await: shown in the key's own step
        await pilot.press("down", "up", "down", "down", "up")  # berlin to oslo
        await wait_for(pilot, lambda: table.cursor == 4, what="the cursor on oslo")
        await pilot.pause()
        assert shown(screen) == "oslo"
