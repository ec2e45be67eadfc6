"""Repeats in the report browser: pass rates, stepping through repeats, where they part,
and the noise-aware comparison (driven through Textual's Pilot)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tenxeval_tui.screens.reports.baseline_picker import BaselinePicker
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.widgets.reports.case_detail_view import CaseDetailView
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tenxeval_tui.widgets.reports.response_diff import ResponseDiff
from tests.repeat_samples import write_repeat_reports
from tests.report_samples import write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
from tests.waiting import wait_for


def footer_keys(screen: object) -> set[str]:
    """The actions the footer shows on ``screen`` (enabled and shown bindings)."""
    return {
        b.binding.action
        for b in screen.active_bindings.values()  # type: ignore[attr-defined]
        if b.binding.show and b.enabled
    }


async def test_cases_show_their_pass_rate_and_repeats_step_with_divergence(
    tmp_path: Path,
) -> None:
    write_repeat_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        table = screen.query_one(ReportCaseTable)
        assert [c.title for c in table.columns][:2] == ["Status", "Runs"]
        assert [(r.eval_id, r.rate) for r in screen.visible_rows] == [
            ("london", "5/5"),
            ("paris", "1/5"),
            ("tokyo", "4/5"),
            ("oslo", "0/5"),
        ]
        assert table.row_cells(1)[1].plain == "1/5"
        assert "next_repeat" not in footer_keys(screen)  # no case open yet
        await pilot.press("down", "enter")
        view = screen.query_one(CaseDetailView)
        await wait_for(pilot, lambda: screen.showing_case is not None)
        assert "next_repeat" in footer_keys(screen)
        title = plain(screen.query_one("#case-title", Static))
        assert "1/5 repeats passed" in title
        repeats = plain(screen.query_one("#case-repeats", Static))
        assert "1/5 passed (20%)" in repeats and "rule: all" in repeats
        # repeat 2 passed (get_weather), the others failed like repeat 1 (search_web)
        assert (
            '#2   PASS   1.25s  parts from #1 at step 2: tool get_weather({"location": "Paris"})'
            ' instead of tool search_web({"q": "paris"}); reply differs' in repeats
        )
        assert "#3   FAIL   1.25s  same path and reply as #1" in repeats
        await pilot.press("right_square_bracket", "right_square_bracket")
        await wait_for(pilot, lambda: view.repeat == 1)
        assert "repeat 2 of 5" in plain(screen.query_one("#case-title", Static))
        response = screen.query_one("#response-diff", ResponseDiff).plain
        assert "The weather in Paris is sunny." in response and "could not find" not in response
        await pilot.press("left_square_bracket", "left_square_bracket")
        await wait_for(pilot, lambda: view.repeat is None)  # back at the case's top level
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: view.repeat == 4)  # wraps to the last repeat
        await pilot.press("down")  # the next case opens at its top level
        await wait_for(pilot, lambda: view.result is not None and view.result.eval_id == "tokyo")
        assert screen.showing_case is not None and screen.showing_case.eval_id == "tokyo"
        assert view.repeat is None


async def test_a_report_without_repeats_has_no_runs_column_nor_repeat_keys(
    tmp_path: Path,
) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        assert "Runs" not in [c.title for c in screen.query_one(ReportCaseTable).columns]
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        assert not screen.query_one("#case-repeats", Static).display
        assert screen.check_action("next_repeat", ()) is False
        await pilot.press("right_square_bracket")
        assert screen.query_one(CaseDetailView).repeat is None


async def test_comparison_tells_a_regression_from_a_flip_within_noise(tmp_path: Path) -> None:
    write_repeat_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, BaselinePicker))
        picker = app.screen
        await wait_for(pilot, lambda: len(picker.query_one(ReportList).entries) == 1)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison
        )
        screen = app.screen
        assert isinstance(screen, CompareScreen) and screen.comparison is not None
        shown = {c.eval_id: c for c in screen.visible_cases}
        # london (5/5 both) and oslo (0/5 both... still failing) aside: paris regressed,
        # tokyo flipped PASS -> FAIL but 5/5 -> 4/5 is within noise and stays listed
        assert shown["paris"].change == "regressed"
        assert shown["tokyo"].change == "unchanged" and shown["tokyo"].noise_flip
        assert "london" not in shown
        header = plain(screen.query_one("#compare-header", Static))
        assert "1 regressed" in header
        assert "Fisher's exact test, one-sided, alpha 0.05" in header
        assert "1 status flip within noise (not counted)" in header
        assert "95% CI" in header
        table = screen.query_one("#compare-table")
        titles = [c.title for c in table.columns]  # type: ignore[attr-defined]
        assert "Runs passed" in titles and "p" in titles
        cells = {
            c.eval_id: [t.plain for t in table.row_cells(i)]  # type: ignore[attr-defined]
            for i, c in enumerate(screen.visible_cases)
        }
        assert cells["tokyo"][0] == "noise flip" and cells["tokyo"][4] == "5/5 → 4/5"
        assert cells["paris"][4] == "5/5 → 1/5" and cells["paris"][5] == "0.024"
        await pilot.press("enter")  # paris, from both runs, steps through its repeats
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        case_screen = app.screen
        assert isinstance(case_screen, CaseScreen)
        await wait_for(pilot, lambda: bool(case_screen.query(CaseDetailView)))
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: case_screen.query_one(CaseDetailView).repeat == 0)
