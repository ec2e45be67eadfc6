"""Cost in the workbench where prices are configured: the run view's figures and the report
header; nothing about cost without a price table."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.evaluation.cost import format_cost
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.screens.reports.report_detail import summary_text
from tenxeval_tui.widgets.run.run_progress import summary_text as run_summary
from tests.tui.run.conftest import open_run_screen
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[3]
PRICED = {
    "prices": {"agent-model": {"input": 1000, "output": 1000}},
    "agent_model": "agent-model",
    "criteria": {"response_match_score": {"threshold": 0.5}},
}


def _project(tmp_path: Path, *, priced: bool) -> Path:
    shutil.copy(ROOT / "sample_evals/plain_agent.py", tmp_path / "support_agent.py")
    eval_set = json.loads((ROOT / "sample_evals/plain_agent.evalset.json").read_text())
    del eval_set["metadata"]["agent"]
    eval_set["eval_cases"] = eval_set["eval_cases"][:3]
    (tmp_path / "plain.evalset.json").write_text(json.dumps(eval_set))
    (tmp_path / "config.json").write_text(
        json.dumps(PRICED if priced else {"criteria": PRICED["criteria"]})
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tenxeval]\nagent = "support_agent:support_agent"\nconfig = "config.json"\n'
        'output_dir = "reports"\n'
    )
    return tmp_path


async def _run(tmp_path: Path) -> tuple[str, EvalReport]:
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        run = screen.live
        assert run is not None
        figures = run_summary(run).plain
    (report_file,) = sorted((tmp_path / "reports").glob("*.json"))
    return figures, EvalReport.from_file(report_file)


async def test_the_run_view_totals_the_cost_the_report_has(tmp_path: Path) -> None:
    figures, report = await _run(_project(tmp_path, priced=True))
    total = report.summary.total_cost_usd
    assert total is not None and total > 0
    assert f"cost {format_cost(total)}" in figures


async def test_without_prices_no_cost_is_shown(tmp_path: Path) -> None:
    figures, report = await _run(_project(tmp_path, priced=False))
    assert report.summary.total_cost_usd is None
    assert "cost" not in figures


def test_the_report_header_shows_the_run_s_cost(tmp_path: Path) -> None:
    """The header of a report in the browser (``ReportScreen``)."""
    report = EvalReport.create(eval_set_id="s", results=[])
    path = tmp_path / "r.json"
    report.model_copy(
        update={"summary": report.summary.model_copy(update={"total_cost_usd": 0.0123})}
    ).to_file(path)
    assert "$0.0123 cost" in summary_text(ReportDocument.open(path)).plain
    report.to_file(path)
    assert "cost" not in summary_text(ReportDocument.open(path)).plain
