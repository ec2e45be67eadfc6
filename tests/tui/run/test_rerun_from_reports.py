"""From a report of a run to the run view: rerun one case, then browse the new report."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.run.run import RunScreen
from tests.waiting import wait_for

from .conftest import open_run_screen


async def test_rerun_a_case_of_a_report_in_the_run_view(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 45)) as pilot:
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.runs_finished == 1)
        await pilot.press("v")  # the run view's key for its report
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        report = app.screen
        assert isinstance(report, ReportScreen) and report.document is not None
        if report.document.eval_set_id != "cities":
            app.pop_screen()
            cities = next(workspace.joinpath("reports").glob("cities_*.json"))
            app.push_screen(ReportScreen(cities))
            await wait_for(
                pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document
            )
            report = app.screen
            assert isinstance(report, ReportScreen)
        await pilot.press("f")  # failed only: oslo (a wrong expectation)
        await wait_for(pilot, lambda: [r.eval_id for r in report.visible_rows] == ["oslo"])
        assert report.check_action("rerun_case", ()) is True
        await pilot.press("s")  # rerun the case
        await wait_for(pilot, lambda: app.screen is run and run.runs_finished == 2)
        assert run.request is not None
        assert list(run.request.only.values()) == [["oslo"]]
        assert run.request.eval_sets == [(workspace / "evals" / "cities.evalset.json").resolve()]
