"""Reports written by 10xGraph's own JSON reporter list, open and compare like ours."""

from __future__ import annotations

from pathlib import Path

from tenxgraph.qa.evaluation import (
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    JSONReporter,
    ToolCall,
)
from tenxgraph.qa.evaluation.token_usage import TokenUsage
from textual.widgets import Static

from tenxeval_tui.browsing.reports_index import list_reports
from tenxeval_tui.evaluation.analysis.compare import CaseChange, compare_reports
from tenxeval_tui.evaluation.eval_result import EvalReport as OurReport
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.reports.response_diff import ResponseDiff
from tests.report_samples import write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
from tests.waiting import wait_for


def tenxgraph_report() -> EvalReport:
    """A 10xGraph report built by hand: one pass, one failure with a judge's reason."""
    weather = ToolCall(name="get_weather", args={"location": "Paris"})
    passed = EvalCaseResult(
        eval_id="london",
        name="London weather",
        passed=True,
        criterion_results=[CriterionResult.success("tool_trajectory_avg_score", 1.0, 1.0)],
        actual_tool_calls=[ToolCall(name="get_weather", args={"location": "London"})],
        actual_response="Sunny in London.",
        node_visits=["agent", "tools", "agent"],
    )
    failed = EvalCaseResult(
        eval_id="paris",
        name="Paris weather",
        passed=False,
        criterion_results=[
            CriterionResult.success(
                "tool_trajectory_avg_score",
                0.0,
                1.0,
                details={
                    "reason": "Expected ['get_weather'], got ['search'].",
                    "expected_trajectory": [weather.model_dump()],
                },
            ),
            CriterionResult.success(
                "rouge_match",
                0.2,
                0.5,
                details={"expected_response": "It is sunny in Paris."},
            ),
            CriterionResult.success(
                "factual_accuracy_v1",
                0.1,
                0.7,
                details={"reason": "Invents a storm."},
                token_usage=TokenUsage(input_tokens=90, output_tokens=10),
            ),
        ],
        actual_tool_calls=[ToolCall(name="search", args={"q": "paris"})],
        actual_response="A storm hits Paris.",
    )
    report = EvalReport.create(
        "weather-agent", [passed, failed], eval_set_name="Weather (10xGraph)"
    )
    report.timestamp = 1779300000.0
    return report


def write_tenxgraph_report(folder: Path) -> Path:
    path = folder / "weather-agent_20260520_180000.json"
    JSONReporter(indent=2).save(tenxgraph_report(), str(path))
    return path


async def test_tenxgraph_report_lists_opens_and_shows_a_case(tmp_path: Path) -> None:
    path = write_tenxgraph_report(tmp_path)
    [entry] = list_reports(tmp_path)
    assert (
        entry.ok and entry.title == "Weather (10xGraph)" and (entry.passed, entry.failed) == (1, 1)
    )
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot, count=1)
        assert isinstance(screen, ReportScreen) and screen.path == path
        await pilot.press("f")
        await wait_for(pilot, lambda: [r.eval_id for r in screen.visible_rows] == ["paris"])
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        assert screen.showing_case is not None and screen.showing_case.eval_id == "paris"
        case = screen
        response = case.query_one("#response-diff", ResponseDiff).plain
        assert "It is sunny in Paris." in response and "A storm hits Paris." in response
        trajectory = plain(case.query_one("#trajectory-diff", Static))
        assert "missing" in trajectory and "extra" in trajectory
        assert "Invents a storm." in plain(case.query_one("#criteria-table", Static))


def test_tenxgraph_report_compares_with_ours(tmp_path: Path) -> None:
    theirs = OurReport.from_file(write_tenxgraph_report(tmp_path))
    base, _ = write_reports(tmp_path / "ours")
    comparison = compare_reports(OurReport.from_file(base), theirs)
    changes = {c.eval_id: c.change for c in comparison.cases}
    assert changes["paris"] == CaseChange.REGRESSED
    assert changes["london"] == CaseChange.UNCHANGED
    assert changes["tokyo"] == CaseChange.REMOVED
