"""The run view's case table: j/k move, enter opens the case's detail (its full result,
from the run's report), esc comes back; the run view's own keys do not shadow global ones."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.waiting import wait_for

from .conftest import open_run_screen


async def test_enter_opens_the_case_and_j_k_move(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.runs_finished == 1)
        table = run.query_one(RunCaseTable)
        table.focus()
        await pilot.press("j", "j")
        await wait_for(pilot, lambda: table.cursor == 2)
        await pilot.press("k")
        await wait_for(pilot, lambda: table.cursor == 1)
        key = table.selected_key
        assert key == "cities::rome"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        detail = app.screen
        assert isinstance(detail, CaseScreen)
        assert detail.result.eval_id == "rome"
        assert detail.result.actual_tool_calls  # the full result, from the report
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is run)
        await pilot.press("b")  # the reports key works from the run view too
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))


async def test_scores_show_at_100_columns(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.runs_finished == 1)
        table = run.query_one(RunCaseTable)
        plan = table.plan
        assert "scores" in plan.widths and "case" in plan.widths
        shown = sum(width + 2 for width in plan.widths.values())
        assert shown <= table.size.width  # no column pushed off the right edge
        row = table.cells_of("cities::paris")
        scores = str(row[list(plan.widths).index("scores")])
        assert "1.00" in scores and scores.count(".") == 2  # both criteria's numbers
        assert len(scores) <= plan.widths["scores"]  # and nothing of them is cut
