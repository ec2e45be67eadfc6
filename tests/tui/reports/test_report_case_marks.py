"""What a report's case says of itself in the browser: a case stopped by hand and scored
on what it did so far says so (not a plain failure), and an expected node order the
report did not record (no node-order criterion ran) is read from the case's eval set."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.evaluation.case_control import STOPPED_EARLY_KEY
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tests.authoring.test_accept_actual import run
from tests.report_samples import case
from tests.tui.accept_setup import report_project
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, open_first_case, plain
from tests.waiting import wait_for

NODES_SET = """{
  "eval_set_id": "weather",
  "eval_cases": [
    {"eval_id": "rome", "conversation": [{"user_content": {"role": "user", "content": "Rome?"},
      "expected_final_response": {"role": "assistant", "content": "Sunny in Rome."},
      "expected_node_order": ["agent", "answer"]}]}
  ]
}
"""


async def test_a_case_stopped_early_is_shown_as_such(tmp_path: Path) -> None:
    stopped = case("rome", rouge=0.1)
    stopped.metadata[STOPPED_EARLY_KEY] = True
    EvalReport.create("weather", [case("paris"), stopped]).to_file(tmp_path / "r.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot, count=1)
        table = screen.query_one(ReportCaseTable)
        rows = [[cell.plain for cell in table.row_cells(i)] for i in range(2)]
        assert rows[0][0] == "PASS" and "stopped" not in " ".join(rows[0])
        assert rows[1][0] == "FAIL⏹"
        assert rows[1][-1].startswith("stopped early · ")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        title = plain(screen.query_one("#case-title", Static))
        assert "FAIL⏹ rome" in title
        assert "stopped early: scored on what it did so far" in title


async def test_the_expected_node_order_comes_from_the_file_when_the_report_lacks_it(
    tmp_path: Path,
) -> None:
    await report_project(tmp_path, "weather", NODES_SET, run)  # no node-order criterion
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        screen = await open_first_case(pilot, count=1)
        nodes = screen.query_one("#node-order", Static)
        await wait_for(pilot, lambda: "agent → answer" in plain(nodes))
        shown = plain(nodes)
        assert "(from weather.evalset.json: not checked in this run)" in shown
        assert "(not recorded)" not in shown
