"""Flipped cases are marked in the editor's case list (driven through Textual's Pilot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.flakiness import FlakinessScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.browsing.test_flaky_cases import DAY
from tests.repeat_samples import repeats_report
from tests.report_samples import BASELINE_TIME
from tests.tui.conftest import notifications, search_palette, wait_for, wait_for_form

OK, BAD = [True], [False]


def write_run(folder: Path, number: int, cases: dict[str, list[bool]], set_id: str) -> Path:
    """The report of run ``number`` (a day after the one before) of eval set ``set_id``."""
    folder.mkdir(parents=True, exist_ok=True)
    report = repeats_report(cases, BASELINE_TIME + number * DAY)
    report.eval_set_id = set_id
    path = folder / f"{set_id}_{number:02d}.json"
    report.to_file(path)
    return path


def set_id_of(path: Path) -> str:
    """The eval set id of the file at ``path``."""
    return str(json.loads(path.read_text(encoding="utf-8"))["eval_set_id"])


def marks(app: Any) -> dict[str, str]:
    """eval_id -> the first cell of its row in the case list (the problem or flip mark)."""
    table = app.screen.query_one(CaseTable)
    document = app.screen.document
    found = {}
    for index, uid in enumerate(table.visible_uids):
        line = "".join(s.text for s in table.row_segments(index, 60))
        found[document.case(uid).eval_id] = line[0]
    return found


async def open_editor(pilot: Any) -> EditorScreen:
    await wait_for_form(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, EditorScreen)
    await wait_for(pilot, lambda: screen.flip_marks.reads > 0, what="the flip history read")
    return screen


async def test_the_flipped_case_is_marked_and_a_new_flip_joins_it(weather_set: Path) -> None:
    reports = weather_set.parent / "eval_reports"  # the workspace's default report folder
    weather = set_id_of(weather_set)
    write_run(reports, 0, {"london": OK, "paris": OK}, weather)
    write_run(reports, 1, {"london": OK, "paris": BAD}, weather)
    write_run(reports, 2, {"london": BAD, "paris": OK}, "another-set")  # not this set's
    app = WorkbenchApp(weather_set.parent)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_editor(pilot)
        await wait_for(pilot, lambda: marks(app) == {"london": " ", "paris": "~"})
        legend = screen.query_one("#case-legend", Static)
        assert legend.display and "~ flipped in recent runs" in str(legend.render())
        # the case form says how it flipped
        note = screen.query_one("#case-flips", Static)
        assert not note.display  # london is shown first: it did not flip
        await pilot.press("ctrl+l", "down")
        await wait_for(pilot, lambda: screen.query_one("#case-flips", Static).display)
        text = str(screen.query_one("#case-flips", Static).render())
        assert text == "~ flipped 1 time in its last 2 runs"

        # a new run in which london fails and paris passes again: london flipped too
        write_run(reports, 3, {"london": BAD, "paris": OK}, weather)
        await wait_for(
            pilot,
            lambda: marks(app) == {"london": "~", "paris": "~"},
            what="the new report's flip marked",
        )
        assert "~ flipped 2 times in its last 3 runs" in str(
            screen.query_one("#case-flips", Static).render()
        )


async def test_no_reports_no_marks(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_editor(pilot)
        assert marks(app) == {"london": " ", "paris": " "}
        assert not screen.query_one("#case-legend", Static).display
        assert not screen.query_one("#case-flips", Static).display
        assert not notifications(app)  # no error was shown


async def test_h_opens_the_flaky_cases_of_the_open_eval_set(weather_set: Path) -> None:
    reports = weather_set.parent / "eval_reports"
    weather = set_id_of(weather_set)
    write_run(reports, 0, {"london": OK, "paris": OK}, weather)
    write_run(reports, 1, {"london": OK, "paris": BAD}, weather)
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_editor(pilot)
        await pilot.press("ctrl+l", "h")
        await wait_for(pilot, lambda: isinstance(app.screen, FlakinessScreen) and app.screen.loaded)
        flaky = app.screen
        assert isinstance(flaky, FlakinessScreen)
        assert flaky.eval_set_id == weather
        assert [c.history.eval_id for c in flaky.visible_cases] == ["paris"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_the_palette_opens_the_flaky_cases(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_editor(pilot)
        await pilot.press("ctrl+l")
        await search_palette(pilot, "flaky", "Flaky cases (~ in the case list)  (h)")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FlakinessScreen) and app.screen.loaded)
        flaky = app.screen
        assert isinstance(flaky, FlakinessScreen)
        assert flaky.eval_set_id == set_id_of(weather_set) and flaky.visible_cases == []


async def test_marks_read_as_the_screen_goes_away_are_dropped(tmp_path: Path) -> None:
    """As the app quits, a screen's widgets go before a read in flight ends: its marks are
    dropped, with no error (the worker does not fail)."""
    from textual.app import App
    from textual.screen import Screen

    from tenxeval_tui.screens.common.flip_marks import FlipMarks

    write_run(tmp_path, 0, {"paris": OK}, "weather")
    write_run(tmp_path, 1, {"paris": BAD}, "weather")

    class Emptied(Screen[None]):
        """A screen whose case list is gone already."""

        def __init__(self) -> None:
            super().__init__()
            self.marks = FlipMarks(self, lambda _: self.query_one(CaseTable), folder=tmp_path)

    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = Emptied()
        await app.push_screen(screen)
        screen.marks.follow(["weather"])
        await wait_for(pilot, lambda: screen.marks.reads == 1, what="the read delivered")
        assert screen.marks.histories["weather"].flipped_ids == {"paris"}
