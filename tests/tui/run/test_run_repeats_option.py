"""The repeats field of the run options bar: passed through the run plan to the worker."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.run_options import RunOptions
from tests.tui.run.conftest import open_run_screen
from tests.tui.run.test_run_live_steps import row_text
from tests.waiting import wait_for


async def test_repeats_run_each_case_that_many_times(workspace: Path) -> None:
    (workspace / "evals" / "more.evalset.json").unlink()  # cities: paris, rome, oslo
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        assert screen.query_one(RunOptions).choice().repeats is None  # empty: the config's own
        screen.query_one("#repeats").value = "3"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the run to finish")
        assert screen.request is not None and screen.request.repeats == 3
        assert screen.request.resolved_config().repeats == 3
        # each finished case says how many of its runs passed
        await wait_for(pilot, lambda: "✓ 3/3" in row_text(screen, "cities::paris"))
        assert "✗ 0/3" in row_text(screen, "cities::oslo")
    reports = sorted((workspace / "reports").glob("*.json"))
    assert len(reports) == 1
    report = EvalReport.from_file(reports[0])
    stats = {r.eval_id: r.repeat_stats for r in report.results}
    assert all(s is not None and s.repeats == 3 for s in stats.values())
    assert stats["paris"] is not None and stats["paris"].passed_repeats == 3
    assert stats["oslo"] is not None and stats["oslo"].passed_repeats == 0
    assert all(len(r.repeat_results or []) == 3 for r in report.results)


async def test_repeats_out_of_range_are_refused_before_anything_runs(workspace: Path) -> None:
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        screen.query_one("#repeats").value = "20000"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        said = "Repeats: 20000 is not a whole number from 1 to 10,000."
        run_message = screen.query_one("#run-message", Static)
        await wait_for(pilot, lambda: said in str(run_message.render()))
        message = str(run_message.render())
        assert "Repeats: 20000 is not a whole number from 1 to 10,000." in message
        assert screen.runs_started == 0
