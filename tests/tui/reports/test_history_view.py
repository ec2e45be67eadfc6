"""The history view of the report browser, driven through Textual's Pilot: reached by one
key, moved by keyboard, opening a run's report or comparing it with the latest, at 80x24."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from textual.widgets import Static

from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.history import HistoryScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.case_strips import CaseStrips, strip_text
from tenxeval_tui.widgets.reports.history_chart import HistoryChart
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.browsing.history.samples import write_run, write_series
from tests.tui.browser_app import BrowserApp, plain
from tests.waiting import wait_for

SMALL = (80, 24)
IDS = ["london", "paris", "tokyo"]
COLUMNS = ["PPP", "PFP", "PFE", "PPE", "PPP"]


async def open_history(pilot: Any, runs: int) -> HistoryScreen:
    app = pilot.app
    await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) >= runs)
    await pilot.press("H")
    await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
    assert isinstance(app.screen, HistoryScreen)
    return app.screen


def cells(table: CaseStrips) -> list[list[str]]:
    return [
        [str(getattr(c, "plain", c)) for c in table.get_row_at(i)] for i in range(table.row_count)
    ]


async def test_history_by_keyboard_at_80x24(tmp_path: Path) -> None:
    paths = write_series(tmp_path, COLUMNS, IDS, commit="ab" * 20, cost=0.02)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_history(pilot, runs=5)
        header = plain(screen.query_one("#history-header", Static))
        assert "History of Weather  5 run(s), the last 5 charted" in header
        chart = screen.query_one(HistoryChart)
        assert chart.has_focus and chart.selected == 4 and chart.metric == "pass rate"
        run_line = plain(screen.query_one("#history-run", Static))
        assert "Run 5/5" in run_line and "abababab" in run_line and "3/3 100.0%" in run_line
        table = screen.query_one(CaseStrips)
        assert cells(table) == [
            ["Paris", "✓✗✗✓✓", cells(table)[0][2]],
            ["Tokyo", "✓✓!!✓", cells(table)[1][2]],
            ["London", "✓✓✓✓✓", "never"],
        ]  # the cases that failed somewhere first
        for widget in (chart, table, screen.query_one("#history-run")):
            assert widget.region.height > 0 and widget.region.right <= SMALL[0]

        await pilot.press("left", "left")
        await wait_for(pilot, lambda: "Run 3/5" in plain(screen.query_one("#history-run", Static)))
        assert "1/3 33.3%" in plain(screen.query_one("#history-run", Static))
        strip = table.get_row_at(0)[1]
        assert [span.style for span in strip.spans][2].endswith("reverse")  # run 3 marked

        await pilot.press("m")
        await wait_for(pilot, lambda: chart.metric == "cost")
        assert "chart: cost" in plain(screen.query_one("#history-header", Static))
        await pilot.press("m", "m", "m")
        await wait_for(pilot, lambda: chart.metric == "pass rate")

        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        assert app.screen.path == paths[2]  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)

        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen))
        compare = app.screen
        assert isinstance(compare, CompareScreen)
        assert (compare.baseline_path, compare.current_path) == (paths[2], paths[4])
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("end", "c")  # the latest against itself: said, nothing opened
        await wait_for(pilot, lambda: chart.selected == 4)
        await pilot.pause()
        assert app.screen is screen

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))


async def test_a_report_landing_shows_in_the_open_view(tmp_path: Path) -> None:
    write_series(tmp_path, COLUMNS, IDS)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_history(pilot, runs=5)
        write_run(tmp_path, 5, {"london": "F", "paris": "P", "tokyo": "P"})
        await wait_for(pilot, lambda: screen.history is not None and len(screen.history.runs) == 6)
        await wait_for(pilot, lambda: "Run 6/6" in plain(screen.query_one("#history-run", Static)))
        london = next(row for row in cells(screen.query_one(CaseStrips)) if row[0] == "London")
        assert london[1] == "✓✓✓✓✓✗"
    with HistoryIndex(tmp_path) as index:
        assert index.sync().read == 0  # the view indexed it as it landed


async def test_a_long_history_charts_its_last_runs(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFP"] * 30, IDS)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_history(pilot, runs=60)
        chart = screen.query_one(HistoryChart)
        assert len(chart.runs) == 50
        await pilot.press("l")  # the last 20
        await wait_for(pilot, lambda: len(chart.runs) == 20)
        assert "the last 20 charted" in plain(screen.query_one("#history-header", Static))
        strip = cells(screen.query_one(CaseStrips))[0][1]
        assert len(strip) == 20
        await pilot.press("l", "l")  # 200, then every run
        await wait_for(pilot, lambda: screen.window == 0 and len(chart.runs) == 60)
        assert "every run charted" in plain(screen.query_one("#history-header", Static))
        assert len(cells(screen.query_one(CaseStrips))[0][1]) == 30  # a strip fits 80 columns


async def test_untrusted_names_reach_the_screen_inert(tmp_path: Path) -> None:
    hostile = "evil\x1b]0;owned\x07\x1b[2J"
    write_run(tmp_path, 0, {hostile: "P", "paris": "F"}, eval_set_id="weather")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_history(pilot, runs=1)
        shown = [row[0] for row in cells(screen.query_one(CaseStrips))]
        assert "\x1b" not in "".join(shown) and any("␛]0;Owned␇" in name for name in shown)


def test_a_strip_marks_each_run_and_the_selected_one() -> None:
    console = Console(width=80, record=True, color_system=None)
    text = strip_text("PFE-", 1)
    console.print(text)
    assert console.export_text().strip() == "✓✗!·"
    assert [span.style for span in text.spans] == ["green", "red reverse", "bold red", "dim"]


async def test_a_rerun_is_listed_marked_but_no_point_of_the_chart(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFF", "PFF"], IDS)
    rerun = {"selection": {"by": "rerun_failed", "cases": 2, "of": 3}}
    write_run(tmp_path, 3, {"paris": "F", "tokyo": "F"}, metadata=rerun)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_history(pilot, runs=4)
        chart = screen.query_one(HistoryChart)
        assert chart.selected == 3 and len(chart.runs) == 4  # its place: cursor and strips
        run_line = plain(screen.query_one("#history-run", Static))
        assert "Run 4/4" in run_line and "0/2 0.0%" in run_line
        assert "selection: rerun failed, 2 of 3 cases (not charted)" in run_line
        assert [run.series for run in chart.runs] == [True, True, True, False]
        await pilot.press("left")
        await wait_for(pilot, lambda: "Run 3/4" in plain(screen.query_one("#history-run", Static)))
        assert "selection" not in plain(screen.query_one("#history-run", Static))
