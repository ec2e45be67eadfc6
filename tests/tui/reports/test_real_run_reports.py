"""A real run of the sample weather agent writes reports that the browser lists and opens."""

from __future__ import annotations

from pathlib import Path

from sample_evals.weather_graph import build_graph
from tenxeval_tui.browsing.report_document import ReportDocument, StatusFilter
from tenxeval_tui.browsing.reports_index import list_reports
from tenxeval_tui.evaluation import EvalConfig, EvaluationRunner, create_eval_app
from tenxeval_tui.evaluation.analysis.compare import compare_reports
from tenxeval_tui.widgets.reports.case_detail_view import CaseDetailView
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report
from tests.waiting import wait_for

SAMPLE = Path(__file__).parents[3] / "sample_evals" / "weather_graph.evalset.json"


async def test_reports_of_a_real_run_browse(tmp_path: Path) -> None:
    config = EvalConfig.model_validate(
        {
            "criteria": {
                "tool_trajectory_avg_score": {"threshold": 1.0},
                "response_match_score": {"threshold": 0.5},
            },
            "reporter": {"output_dir": str(tmp_path), "console": False, "html": True},
        }
    )
    app, collector = create_eval_app(build_graph())
    [report] = (await EvaluationRunner(config).run([(app, collector, SAMPLE)])).values()
    [entry] = list_reports(tmp_path)
    assert entry.ok and entry.total == report.summary.total_cases > 0
    assert entry.html_path.is_file()
    doc = ReportDocument.open(entry.path)
    failing = doc.filter_rows(StatusFilter.FAILED)
    assert failing, "the sample set has a failing and a raising case"
    assert not compare_reports(report, report).has_regressions

    browser = BrowserApp(tmp_path)
    async with browser.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot, count=1)
        await pilot.press("f", "enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        shown = screen.showing_case
        assert shown is not None and shown.status in ("failed", "error")
        assert screen.query_one(CaseDetailView).result is shown
