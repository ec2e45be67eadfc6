"""The report browser driven through Textual's Pilot: navigation, filters, case detail, compare."""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tenxeval_tui.screens.reports.baseline_picker import BaselinePicker
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.report_list import ReportList
from tenxeval_tui.widgets.reports.response_diff import ResponseDiff
from tests.report_samples import current_report, write_reports
from tests.tui.browser_app import (
    SIZE,
    BrowserApp,
    BrowserAppWithCaseActions,
    open_current_report,
    plain,
)
from tests.tui.conftest import notifications
from tests.waiting import wait_for


def showing(screen: ReportScreen) -> str | None:
    """The id of the case open under the report's table (``None`` when none is)."""
    case = screen.showing_case
    return None if case is None else case.eval_id


async def test_list_is_newest_first_and_broken_files_do_not_open(tmp_path: Path) -> None:
    base, cur = write_reports(tmp_path)
    (tmp_path / "zz_broken.json").write_text('{"eval_set_id": ', encoding="utf-8")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 3)
        entries = app.screen.query_one(ReportList).entries
        assert [e.path for e in entries if e.ok] == [cur, base]
        broken = next(e for e in entries if not e.ok)
        # a file that does not load is dated by its modification time (now): it lists first
        assert entries[0] == broken
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("zz_broken.json:1:17" in n for n in notifications(app)))
        assert isinstance(app.screen, ReportsScreen)  # said, and not opened
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))


async def test_a_rescored_report_is_listed_with_a_mark(tmp_path: Path) -> None:
    write_reports(tmp_path)
    rescored = current_report()
    rescored.metadata["rescored"] = {"original_timestamp": rescored.timestamp}
    rescored.timestamp += 60
    rescored.to_file(tmp_path / "weather-agent_20260520_142301.rescored.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one(ReportList)
        await wait_for(pilot, lambda: len(table.entries) == 3)
        titles = [table.get_row_at(row)[0].plain for row in range(3)]
        assert titles == [
            "Weather Agent Regression (rescored)",
            "Weather Agent Regression",
            "Weather Agent Regression",
        ]


async def test_status_tag_and_text_filters(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        ids = lambda: [r.eval_id for r in screen.visible_rows]  # noqa: E731
        assert ids() == ["london", "paris", "tokyo", "berlin", "oslo"]
        await pilot.press("f")
        await wait_for(pilot, lambda: ids() == ["paris", "berlin"])
        await pilot.press("f")
        await wait_for(pilot, lambda: ids() == [])  # nothing errored in the current run
        await pilot.press("f")
        await wait_for(pilot, lambda: len(ids()) == 5)
        await pilot.press("slash")
        await wait_for(pilot, lambda: screen.query_one("#case-filter").has_focus)
        await pilot.press(*"tag:smoke")
        await wait_for(pilot, lambda: ids() == ["london", "paris"])
        await pilot.press(*" par")
        await wait_for(pilot, lambda: ids() == ["paris"])
        await pilot.press("enter")  # back to the table with the filter kept
        await wait_for(pilot, lambda: screen.query_one("#case-table").has_focus)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        shown = screen.showing_case
        assert shown is not None and shown.eval_id == "paris"
        await pilot.press("slash")  # the filter box is in the overview: the case closes
        await wait_for(pilot, lambda: screen.showing_case is None)
        await wait_for(pilot, lambda: screen.query_one("#case-filter").has_focus)


async def test_case_detail_shows_diffs_criteria_and_escapes_markup(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        await pilot.press("down", "enter")
        screen = app.screen
        assert isinstance(screen, ReportScreen)
        await wait_for(pilot, lambda: screen.showing_case is not None)
        shown = screen.showing_case
        assert shown is not None and shown.eval_id == "paris"
        response = screen.query_one("#response-diff", ResponseDiff).plain
        # agent text with Rich markup in it is shown as typed, not interpreted
        assert "It is [bold]raining[/bold] in Paris today." in response
        assert "The weather in Paris is sunny." in response
        trajectory = plain(screen.query_one("#trajectory-diff", Static))
        assert "wrong args" in trajectory and 'location="Lyon"' in trajectory
        assert "missing" in trajectory and "get_forecast()" in trajectory
        assert "extra" in trajectory and "search_web" in trajectory
        criteria = plain(screen.query_one("#criteria-table", Static))
        assert "Says it rains; the forecast says sun." in criteria
        assert "factual_accuracy_v1" in criteria and "0.70" in criteria
        tokens = plain(screen.query_one("#case-tokens", Static))
        assert "480 total" in tokens and "judges  120 in, 30 out" in tokens
        assert "agent → tools → agent" in plain(screen.query_one("#node-order", Static))
        await pilot.press("down")  # with a case open, the cursor moves through cases
        await wait_for(pilot, lambda: showing(screen) == "tokyo")
        assert screen.showing_case is not None and screen.showing_case.eval_id == "tokyo"
        assert "get_forecast" not in plain(screen.query_one("#trajectory-diff", Static))
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.showing_case is None)
        assert screen.showing_case is None and app.screen is screen
        await wait_for(pilot, lambda: screen.query_one("#case-table").has_focus)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))


async def test_errored_case_shows_its_error(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        screen = app.screen
        await pilot.press("f", "f")  # errored only
        await wait_for(pilot, lambda: [r.eval_id for r in screen.visible_rows] == ["berlin"])
        await pilot.press("enter")
        await wait_for(pilot, lambda: showing(screen) == "berlin")
        assert "TimeoutError: agent took 30s" in plain(app.screen.query_one("#case-error", Static))


def a_browser(monkeypatch: pytest.MonkeyPatch, *, found: bool) -> None:
    """Whether this machine has a browser to open a report in, as ``webbrowser`` finds."""

    def get(using: str | None = None) -> object:
        if not found:
            raise webbrowser.Error("could not locate runnable browser")
        return object()

    monkeypatch.setattr(webbrowser, "get", get)


async def test_open_html_report_in_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a_browser(monkeypatch, found=True)
    _, cur = write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
        await pilot.press("o")
        assert app.opened == []  # no HTML file written for this run
        cur.with_suffix(".html").write_text("<html></html>", encoding="utf-8")
        await pilot.press("o")
        await wait_for(pilot, lambda: app.opened == [cur.with_suffix(".html").resolve().as_uri()])
        await open_current_report(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: len(app.opened) == 2)


async def test_without_a_browser_o_says_where_the_html_report_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an ssh session, a server: "Opened ... in the browser" was said, and nothing opened
    a_browser(monkeypatch, found=False)
    _, cur = write_reports(tmp_path)
    html = cur.with_suffix(".html")
    html.write_text("<html></html>", encoding="utf-8")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
        await pilot.press("o")
        said = f"No browser to open it in here; the HTML report is {html.resolve()}"
        await wait_for(pilot, lambda: said in notifications(app), what=said)
        assert app.opened == []
        assert not any(n.startswith("Opened") for n in notifications(app))


async def test_edit_and_rerun_go_to_the_app_actions(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserAppWithCaseActions(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        await pilot.press("down", "ctrl+e", "s")
        await pilot.press("enter", "ctrl+e")
        await wait_for(pilot, lambda: len(app.case_actions) == 3)
        assert app.case_actions == [
            ("edit", "weather-agent", "paris"),
            ("rerun", "weather-agent", "paris"),
            ("edit", "weather-agent", "paris"),
        ]


async def test_edit_and_rerun_are_disabled_without_app_actions(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        assert screen.check_action("edit_case", ()) is None
        assert screen.check_action("rerun_case", ()) is None
        assert screen.check_action("cycle_status", ()) is True


async def test_compare_with_a_picked_baseline(tmp_path: Path) -> None:
    write_reports(tmp_path)
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
        assert isinstance(screen, CompareScreen)
        assert [c.eval_id for c in screen.visible_cases] == [
            "paris",
            "tokyo",
            "oslo",
            "rome",
            "berlin",
        ]
        header = plain(screen.query_one("#compare-header", Static))
        assert "1 regressed" in header and "1 fixed" in header and "1 removed" in header
        criteria = plain(screen.query_one("#compare-criteria", Static))
        assert "rouge_match" in criteria and "-0.14" in criteria
        await pilot.press("2")  # sort by case name
        await wait_for(
            pilot,
            lambda: (
                [c.eval_id for c in screen.visible_cases]
                == ["berlin", "oslo", "paris", "rome", "tokyo"]
            ),
        )
        await pilot.press("2")  # the same key again: reversed
        await wait_for(pilot, lambda: screen.visible_cases[0].eval_id == "tokyo")
        await pilot.press("f")
        await wait_for(pilot, lambda: len(screen.visible_cases) == 6)
        await pilot.press("1", "f")  # back to change order, unchanged hidden
        await wait_for(
            pilot,
            lambda: len(screen.visible_cases) == 5 and screen.visible_cases[0].eval_id == "paris",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen) and app.screen.is_mounted)
        case_screen = app.screen
        assert isinstance(case_screen, CaseScreen)
        assert case_screen.baseline is not None and case_screen.baseline.passed
        both = case_screen.query_one("#baseline-response-diff", ResponseDiff).plain
        assert "Baseline (passed)" in both and "This run (failed)" in both
        assert "The weather in Paris is sunny." in both  # the baseline's reply
        criteria = plain(case_screen.query_one("#criteria-table", Static))
        assert "baseline" in criteria and "-0.60" in criteria


async def test_bad_report_shows_the_error_instead_of_crashing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "eval_set_id": "x",\n  "results": [{"eval_id": 3}]\n}', encoding="utf-8")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReportScreen(bad))
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ReportScreen)
                and any(
                    "Cannot open" in plain(h)
                    for h in app.screen.query(Static).filter("#report-header")
                )
            ),
        )
        header = plain(app.screen.query_one("#report-header", Static))
        assert "Cannot open this report" in header
        assert f"{bad}:3:27" in header.replace("\n", "")


async def test_big_report_shows_its_first_cases_then_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenxeval_tui.browsing import report_document

    monkeypatch.setattr(report_document, "FIRST_PAGE", 2)
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        await wait_for(pilot, lambda: screen.document is not None and screen.document.complete)
        await pilot.pause()
        assert [r.eval_id for r in screen.visible_rows] == [
            "london",
            "paris",
            "tokyo",
            "berlin",
            "oslo",
        ]
        assert "reading cases" not in plain(screen.query_one("#report-header", Static))


async def test_the_list_follows_the_folder_even_before_it_exists(tmp_path: Path) -> None:
    folder = tmp_path / "eval_reports"  # no run has written a report yet
    app = BrowserApp(folder)
    async with app.run_test(size=SIZE) as pilot:
        title = app.screen.query_one("#reports-title", Static)
        await wait_for(pilot, lambda: "No reports" in plain(title))

        base, cur = write_reports(folder)  # a run writes its reports

        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
        assert [e.path for e in app.screen.query_one(ReportList).entries] == [cur, base]
        assert "No reports" not in plain(title)

        (folder / "notes.txt").write_text("not a report", encoding="utf-8")
        later = folder / "weather-agent_20260521_142301.json"
        later.write_bytes(cur.read_bytes())
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 3)
        assert app.screen.query_one(ReportList).entries[0].path == later


async def test_the_list_follows_a_folder_made_twice_below_missing_parents(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "out" / "eval_reports"  # its parent does not exist either
    app = BrowserApp(folder)
    async with app.run_test(size=SIZE) as pilot:

        def listed() -> int:
            return len(app.screen.query_one(ReportList).entries)

        write_reports(folder)
        await wait_for(pilot, lambda: listed() == 2)
        shutil.rmtree(folder)  # cleaned up by hand...
        await wait_for(pilot, lambda: listed() == 0)
        write_reports(folder)  # ...and written again by the next run
        await wait_for(pilot, lambda: listed() == 2)


def test_the_baseline_guessed_is_the_newest_earlier_run_of_the_same_set() -> None:
    from tenxeval_tui.browsing.reports_index import ReportEntry
    from tenxeval_tui.screens.reports.baseline_picker import default_baseline

    def entry(day: int, set_id: str = "weather") -> ReportEntry:
        return ReportEntry(path=Path(f"{set_id}_{day}.json"), eval_set_id=set_id, timestamp=day)

    tuesday = entry(2)
    others = [entry(3), entry(2, "other"), entry(1), entry(0)]  # newest first, Tuesday left out
    assert default_baseline(others, tuesday, "weather") == 2  # Monday, not Wednesday
    assert default_baseline(others, entry(0), "weather") == 0  # nothing earlier: the first


def test_the_baseline_guessed_is_a_run_of_every_case_a_rerun_is_marked_if_picked() -> None:
    from tenxeval_tui.browsing.reports_index import ReportEntry
    from tenxeval_tui.screens.reports.baseline_picker import baseline_warning, default_baseline

    def entry(day: int, selection: str = "") -> ReportEntry:
        return ReportEntry(
            path=Path(f"weather_{day}.json"),
            eval_set_id="weather",
            timestamp=day,
            total=3,
            selection=selection,
        )

    rerun = entry(3, "rerun failed, 1 of 3 cases")
    part = entry(2, "shard 2/2 of 3 cases")
    others = [rerun, part, entry(1), entry(0)]  # newest first
    assert default_baseline(others, entry(4), "weather") == 2  # before: the rerun (0)
    # only selections earlier: the newest of them rather than nothing of the set
    assert default_baseline([rerun, part], entry(4), "weather") == 0
    warning = baseline_warning(rerun, "weather")
    assert warning is not None and "some of the eval set's cases (rerun failed" in warning
    assert "not run" in warning and baseline_warning(entry(1), "weather") is None


async def open_baseline_picker(pilot: Any, reports: int) -> BaselinePicker:
    """Open the newest of ``reports`` reports, press ``c``: the picker, its list filled."""
    app = pilot.app
    await open_current_report(pilot, count=reports)
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(app.screen, BaselinePicker))
    picker = app.screen
    assert isinstance(picker, BaselinePicker)
    await wait_for(pilot, lambda: len(picker.query_one(ReportList).entries) == reports - 1)
    return picker


async def test_the_baseline_picker_warns_about_another_eval_sets_report(tmp_path: Path) -> None:
    _, current = write_reports(tmp_path)
    other = tmp_path / "support_20260518_000000.json"
    report = current_report()
    report.eval_set_id = "support-agent"
    report.timestamp -= 10 * 86400  # older than both: listed last
    report.to_file(other)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_baseline_picker(pilot, reports=3)
        warning = picker.query_one("#baseline-warning", Static)
        await wait_for(pilot, lambda: picker.query_one(ReportList).cursor_row == 0)
        assert plain(warning).strip() == ""  # the guess: the same eval set's earlier run
        await pilot.press("down")  # the support agent's report
        await wait_for(pilot, lambda: "another eval set" in plain(warning))
        assert "'support-agent', not 'weather-agent'" in plain(warning)
        await pilot.press("up")
        await wait_for(pilot, lambda: plain(warning).strip() == "")
        await pilot.press("down")  # it may still be picked
        await wait_for(pilot, lambda: "another eval set" in plain(warning))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen))
        compare = app.screen
        assert isinstance(compare, CompareScreen) and compare.baseline_path == other
        assert compare.current_path == current


async def test_the_baseline_picker_passes_over_a_partial_or_empty_report_and_warns_of_them(
    tmp_path: Path,
) -> None:
    """#29: a filtered run's empty report (and a cancelled run's partial one), written between
    the baseline and the current run, was preselected as "the previous run"."""
    from tenxeval_tui.evaluation.eval_result import EvalReport

    base, _ = write_reports(tmp_path)
    partial = current_report()
    partial.metadata["partial"] = True
    partial.timestamp -= 3600  # earlier than the current run, later than the baseline
    partial.to_file(tmp_path / "weather-agent_20260520_132301.json")
    empty = EvalReport.create("weather-agent", [])
    empty.timestamp = partial.timestamp + 60
    empty.to_file(tmp_path / "weather-agent_20260520_132401.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_baseline_picker(pilot, reports=4)
        table = picker.query_one(ReportList)
        # newest first: the empty, the partial, the baseline; the guess is the baseline
        await wait_for(pilot, lambda: table.current_entry is not None)
        assert table.current_entry is not None and table.current_entry.path == base
        warning = picker.query_one("#baseline-warning", Static)
        await pilot.press("up")
        await wait_for(pilot, lambda: "is partial (its run did not finish)" in plain(warning))
        await pilot.press("up")
        await wait_for(pilot, lambda: "holds no case" in plain(warning))
        rates = [str(table.get_row_at(i)[2]) for i in range(3)]
        assert rates[0] == "no cases" and rates[1].endswith("% partial")


async def test_with_sixty_reports_the_other_eval_set_warning_stays_on_screen(
    tmp_path: Path,
) -> None:
    write_reports(tmp_path)
    for day in range(60):  # a long history of the same eval set
        older = current_report()
        older.timestamp -= (day + 2) * 86400
        older.to_file(tmp_path / f"weather-agent_history_{day:02}.json")
    other = current_report()
    other.eval_set_id = "support-agent"
    for result in other.results:
        result.metadata.pop("eval_set_id", None)
    other.timestamp -= 100 * 86400  # the oldest: the last row
    other.to_file(tmp_path / "support_20260101_000000.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot, count=63)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, BaselinePicker))
        picker = app.screen
        table = picker.query_one(ReportList)
        await wait_for(pilot, lambda: len(table.entries) == 62)
        await pilot.press("end")  # the other eval set's report
        warning = picker.query_one("#baseline-warning", Static)
        await wait_for(pilot, lambda: "another eval set" in plain(warning))
        await pilot.pause()
        dialog = picker.query_one("#baseline-dialog")
        assert warning.region.height >= 1
        assert dialog.region.contains_region(warning.region)  # drawn, not pushed off
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison
        )
        header = plain(app.screen.query_one("#compare-header", Static))
        assert header.startswith("⚠ different eval sets: baseline 'support-agent', current")


async def test_b_then_c_compares_the_newest_report_not_the_last_highlighted(
    tmp_path: Path,
) -> None:
    from tenxeval_tui.app import WorkbenchApp

    reports = tmp_path / "eval_reports"
    _, newest = write_reports(reports)
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        table = app.screen.query_one(ReportList)
        await wait_for(pilot, lambda: len(table.entries) == 2)
        await pilot.press("down")  # the older report, highlighted on this visit
        await wait_for(pilot, lambda: table.cursor_row == 1)
        await pilot.press("e")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReportsScreen))
        await pilot.press("b", "c")
        await wait_for(pilot, lambda: isinstance(app.screen, BaselinePicker))
        picker = app.screen
        assert isinstance(picker, BaselinePicker) and picker.current == newest


async def test_a_listing_overtaken_by_a_newer_one_does_not_replace_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is read again (a report written, f5) while the first reading still runs:
    when the first ends last, the list keeps the newer reading's reports."""
    import threading

    from tenxeval_tui.screens.reports import reports
    from tests.waiting import scaled

    write_reports(tmp_path)
    first, release = threading.Event(), threading.Event()
    list_reports = reports.list_reports

    def slow_first_listing(folder: Path, *known: Any) -> Any:
        if not first.is_set():  # the listing on opening: held until the test lets it go
            first.set()
            release.wait(timeout=scaled(60))
            return list_reports(folder, *known)[:1]  # told apart by its size
        return list_reports(folder, *known)

    monkeypatch.setattr(reports, "list_reports", slow_first_listing)
    shown: list[int] = []
    show = ReportsScreen._show

    def counting_show(self: ReportsScreen, entries: Any, *rest: Any) -> None:
        shown.append(len(entries))
        show(self, entries, *rest)

    monkeypatch.setattr(ReportsScreen, "_show", counting_show)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen) and first.is_set())
        await pilot.press("f5")  # read again while the first reading is held
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
        release.set()
        await wait_for(pilot, lambda: len(shown) == 2)  # the late reading has been delivered
        assert len(app.screen.query_one(ReportList).entries) == 2


async def test_a_listing_delivered_while_the_list_is_taken_down_is_dropped(
    tmp_path: Path,
) -> None:
    """The folder's reading (a report landed) ends while the app quits: the screen's widgets
    are being removed, the title already gone. It is dropped; it raised NoMatches on the
    title, which ended the app with a traceback (seen in test_history_view under load)."""
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
        listing = app.screen
        assert isinstance(listing, ReportsScreen)
        entries = app.screen.query_one(ReportList).entries
        await listing.query_one("#reports-title").remove()  # as the app's teardown does
        listing._show(list(entries), listing._reading)
        await pilot.pause()
    assert app.return_code in (None, 0)
