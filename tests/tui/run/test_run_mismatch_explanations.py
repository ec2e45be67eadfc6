"""Mismatch explanations from a real run with argument matchers: the run view's transcript
says which argument failed which matcher, and the case view (opened from the run view,
and in the report browser) shows per expected call which actual call matched it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.common.transcript_view import TranscriptPane
from tenxeval_tui.widgets.reports.case_detail_view import CaseDetailView
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.reports.trajectory_diff import TrajectoryDiff
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.tui.browser_app import plain
from tests.waiting import wait_for

from .conftest import write_workspace
from .test_run_transcript import follow, run_to_end

FAILED_MATCHER = 'city: "Rome" is none of ["Milan", "Turin"] ($in)'


def matcher_case(city: str, city_matcher: dict[str, Any]) -> dict[str, Any]:
    return {
        "eval_id": city.lower(),
        "conversation": [
            {
                "user_content": {"role": "user", "content": f"Weather in {city}?"},
                "expected_tool_trajectory": [
                    {"name": "get_weather", "args": {"city": city_matcher}},
                    {"name": "get_forecast", "args": {}},
                ],
            }
        ],
    }


def write_matcher_workspace(root: Path) -> Path:
    write_workspace(root)
    evals = root / "evals"
    for old in evals.glob("*.evalset.json"):
        old.unlink()
    cases = [
        matcher_case("Paris", {"$regex": "^Par"}),
        matcher_case("Rome", {"$in": ["Milan", "Turin"]}),
    ]
    (evals / "matchers.evalset.json").write_text(
        json.dumps({"eval_set_id": "matchers", "eval_cases": cases}, indent=2)
    )
    return root


def trajectory_lines(view: CaseDetailView) -> list[str]:
    """The trajectory section's rows (its title and column heads left out)."""
    shown = plain(view.query_one("#trajectory-diff", TrajectoryDiff)).splitlines()
    assert shown[0] == "Tool trajectory: expected vs actual"
    return [line.rstrip() for line in shown[2:]]


async def test_the_run_view_and_the_case_view_explain_each_mismatch(tmp_path: Path) -> None:
    root = write_matcher_workspace(tmp_path / "project")
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await run_to_end(pilot, preset="tool_usage")  # exact, arguments checked
        await follow(pilot, screen, "matchers::rome")
        await pilot.press("ctrl+t")
        pane = screen.query_one(TranscriptPane)
        await wait_for(pilot, lambda: "⚖ tool_trajectory_avg_score" in pane.plain)
        verdict = pane.plain.split("⚖ tool_trajectory_avg_score")[1]
        assert "  EXACT match with args: expected ['get_weather', 'get_forecast']" in verdict
        assert f"  expected #1 get_weather: call #1 get_weather: {FAILED_MATCHER}" in verdict
        assert (
            "  expected #2 get_forecast: there is no call #2; get_forecast is never called"
            in verdict
        )

        # Enter: the case's detail, from its report.
        await pilot.press("ctrl+t")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        lines = trajectory_lines(app.screen.query_one(CaseDetailView))
        assert lines[0].split() == ["≠", "wrong", "args", 'get_weather(city={"$in":', '["Milan",',
                                    '"Turin"]})', "#1", 'get_weather(city="Rome")']  # fmt: skip
        assert lines[1].strip() == f"↳ {FAILED_MATCHER}"
        assert lines[2].split() == ["-", "missing", "get_forecast()"]
        assert lines[3].strip() == "↳ there is no call #2; get_forecast is never called"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))

        # The report browser: Paris matched its $regex, and says which call matched.
        assert screen.query_one(RunCaseTable).move_to("matchers::paris")
        await pilot.press("v")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document is not None
        )
        report = app.screen
        assert isinstance(report, ReportScreen)
        table = report.query_one(ReportCaseTable)
        table.focus()
        await wait_for(pilot, lambda: table.row_count == 2)
        await _open(pilot, report, "paris")
        lines = trajectory_lines(report.query_one(CaseDetailView))
        assert lines[0].split() == ["✓", "match", 'get_weather(city={"$regex":', '"^Par"})', "#1",
                                    'get_weather(city="Paris")']  # fmt: skip


async def _open(pilot: Pilot[Any], report: ReportScreen, eval_id: str) -> None:
    while report.showing_case is None or report.showing_case.eval_id != eval_id:
        await pilot.press("enter" if report.showing_case is None else "down")
        await pilot.pause()
