"""The case view says how often a judged criterion's samples disagreed."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tenxeval_tui.evaluation import CriterionResult, EvalReport
from tests.report_samples import CURRENT_TIME, case
from tests.tui.browser_app import SIZE, BrowserApp, open_first_case, plain
from tests.waiting import wait_for


async def test_split_votes_are_shown_under_the_criterion(tmp_path: Path) -> None:
    judged = case("london")
    judged.criterion_results[2] = CriterionResult.success(
        "factual_accuracy_v1",
        0.5,
        0.7,
        details={
            "reason": "One claim of two holds.",
            "votes": {"claim 1": "3/3", "claim 2": "1/3"},
        },
    )
    single = case("paris")  # a judge without votes: nothing to say
    report = EvalReport.create("weather-agent", [judged, single])
    report.timestamp = CURRENT_TIME
    report.to_file(tmp_path / "weather-agent_20260520_142301.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_case(pilot, count=1)
        criteria = plain(screen.query_one("#criteria-table", Static))
        assert "judge samples disagreed on 50% of 2 item(s)" in criteria
        await pilot.press("down")
        await wait_for(
            pilot,
            lambda: screen.showing_case is not None and screen.showing_case.eval_id == "paris",
        )
        assert "disagreed" not in plain(screen.query_one("#criteria-table", Static))
