"""The flaky-cases view of the report browser, driven through Textual's Pilot."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.flakiness import FlakinessScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.flaky_table import FlakyTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.browsing.test_flaky_cases import write_history
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
from tests.waiting import scaled, wait_for

OK, BAD = [True], [False]
HISTORY = [
    {"london": OK, "paris": OK, "tokyo": OK, "oslo": [True, False, True]},
    {"london": OK, "paris": BAD, "tokyo": OK, "oslo": [True, True, True]},
    {"london": OK, "paris": OK, "tokyo": BAD, "oslo": [True, True, True]},
]


async def open_flaky(pilot: Any) -> FlakinessScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, FlakinessScreen) and app.screen.loaded)
    assert isinstance(app.screen, FlakinessScreen)
    return app.screen


async def test_flaky_cases_sort_filter_and_open(tmp_path: Path) -> None:
    write_history(tmp_path, HISTORY)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 3)
        await pilot.press("h")
        screen = await open_flaky(pilot)
        ids = lambda: [c.history.eval_id for c in screen.visible_cases]  # noqa: E731
        assert ids() == ["paris", "oslo", "tokyo"]  # london never flipped: hidden
        caption = lambda: plain(screen.query_one("#flaky-sort", Static))  # noqa: E731
        # the caption says what the listing does: the most unstable first
        assert "Sorted by instability (most unstable first)" in caption()
        header = plain(screen.query_one("#flaky-header", Static))
        assert "over the last 10 runs: 3 report(s)" in header
        assert "3 of 4 cases flipped" in header
        table = screen.query_one(FlakyTable)
        paris = [t.plain for t in table.row_cells(0)]
        assert paris[:6] == ["2", "100%", "0", "2/3 67%", "+0.0 pts", "✓✗✓"]
        oslo = [t.plain for t in table.row_cells(1)]
        assert oslo[2] == "2" and oslo[3] == "8/9 89%" and oslo[5] == "✗✓✓"
        await pilot.press("f")
        await wait_for(pilot, lambda: ids()[-1] == "london")
        await pilot.press("3")  # by pass rate, lowest first
        await wait_for(pilot, lambda: ids() == ["paris", "tokyo", "oslo", "london"])
        assert "Sorted by pass rate (lowest first)" in caption()
        await pilot.press("3")  # the same key again: reversed
        await wait_for(pilot, lambda: ids()[0] == "london")
        assert "Sorted by pass rate (highest first)" in caption()
        await pilot.press("l")  # the last 20 runs: the same three here, read again
        # loaded was already true before the key: wait for the new window's reading
        await wait_for(pilot, lambda: screen.last == 20 and screen.loaded)
        assert "the last 20 runs" in plain(screen.query_one("#flaky-header", Static))
        await pilot.press("end", "enter")  # paris (reversed pass-rate order: last)
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        case_screen = app.screen
        assert isinstance(case_screen, CaseScreen)
        assert case_screen.result.eval_id == "paris" and case_screen.result.passed
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))


async def test_flaky_cases_from_a_report(tmp_path: Path) -> None:
    write_history(tmp_path, HISTORY[:1])
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot, count=1)
        await pilot.press("h")
        screen = await open_flaky(pilot)
        # one run: only the repeats of oslo disagreed
        assert [c.history.eval_id for c in screen.visible_cases] == ["oslo"]


async def test_an_older_window_read_late_does_not_replace_the_newer_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """l while the first reading is still going: the first reading (the last 10 runs) ends
    after the second (the last 20); what shows stays the second's, as the header says."""
    from tenxeval_tui.screens.reports import flakiness

    write_history(tmp_path, HISTORY)
    reading, release = threading.Event(), threading.Event()
    history = flakiness.eval_set_history

    def slow_first_window(summaries: Any, eval_set_id: str, last: int | None) -> Any:
        if last == 10:  # the window the screen opens with: held until the test lets it go
            reading.set()
            release.wait(timeout=scaled(60))
            return history(summaries, eval_set_id, last)[:1]  # told apart by its size
        return history(summaries, eval_set_id, last)

    monkeypatch.setattr(flakiness, "eval_set_history", slow_first_window)
    shown: list[int] = []
    show = FlakinessScreen._show

    def counting_show(self: FlakinessScreen, runs: Any, *rest: Any) -> None:
        shown.append(len(runs))
        show(self, runs, *rest)

    monkeypatch.setattr(FlakinessScreen, "_show", counting_show)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 3)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, FlakinessScreen) and reading.is_set())
        screen = app.screen
        assert isinstance(screen, FlakinessScreen)
        await pilot.press("l")  # the last 20 runs, read while the first reading is held
        await wait_for(pilot, lambda: screen.last == 20 and screen.loaded)
        assert len(screen.runs) == 3
        release.set()
        await wait_for(pilot, lambda: len(shown) == 2)  # the late reading has been delivered
        assert len(screen.runs) == 3
        assert "the last 20 runs: 3 report(s)" in plain(screen.query_one("#flaky-header", Static))
