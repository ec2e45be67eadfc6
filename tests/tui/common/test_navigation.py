"""One navigation model on every screen: esc goes back one step, a screen's key shows that
screen itself (the reports key from everywhere), j/k and home/end move in every table, and
the palette names keys as typed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable, OptionList

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.screens.common.help import HelpScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.common.virtual_table import VirtualTable
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.report_samples import write_reports
from tests.tui.conftest import wait_for

Reach = Callable[[Pilot[Any]], Awaitable[Screen[Any]]]

MODE_SCREENS: dict[str, type[Screen[Any]]] = {
    "e": EditorScreen,
    "r": RunScreen,
    "b": ReportsScreen,
}


@pytest.fixture
def workspace(weather_set: Path) -> Path:
    """The weather eval set with two reports (a baseline and a current run) beside it."""
    write_reports(weather_set.parent / "eval_reports")
    return weather_set.parent


def reports_of(workspace: Path) -> tuple[Path, Path]:
    base, cur = sorted((workspace / "eval_reports").glob("*.json"))
    return base, cur


async def shows(pilot: Pilot[Any], kind: type[Screen[Any]]) -> Screen[Any]:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, kind))
    return pilot.app.screen


async def editor(pilot: Pilot[Any]) -> Screen[Any]:
    await pilot.press("e")
    screen = await shows(pilot, EditorScreen)
    await wait_for(pilot, lambda: bool(screen.query_one(CaseTable).visible_uids))
    return screen


async def run_view(pilot: Pilot[Any]) -> Screen[Any]:
    await pilot.press("r")
    return await shows(pilot, RunScreen)


async def report_list(pilot: Pilot[Any]) -> Screen[Any]:
    await pilot.press("b")
    screen = await shows(pilot, ReportsScreen)
    await wait_for(pilot, lambda: len(screen.query_one(ReportList).entries) == 2)
    return screen


async def one_report(pilot: Pilot[Any]) -> Screen[Any]:
    await report_list(pilot)
    await pilot.press("enter")
    screen = await shows(pilot, ReportScreen)
    await wait_for(pilot, lambda: screen.document is not None)  # type: ignore[attr-defined]
    return screen


async def comparison(pilot: Pilot[Any]) -> Screen[Any]:
    await report_list(pilot)
    base, cur = reports_of(Path(pilot.app.workspace.root))  # type: ignore[attr-defined]
    await pilot.app.push_screen(CompareScreen(base, cur))
    screen = await shows(pilot, CompareScreen)
    await wait_for(pilot, lambda: screen.comparison is not None)  # type: ignore[attr-defined]
    return screen


async def one_case(pilot: Pilot[Any]) -> Screen[Any]:
    await report_list(pilot)
    _, cur = reports_of(Path(pilot.app.workspace.root))  # type: ignore[attr-defined]
    await pilot.app.push_screen(CaseScreen(ReportDocument.open(cur).case(0)))
    return await shows(pilot, CaseScreen)


async def help_screen(pilot: Pilot[Any]) -> Screen[Any]:
    await run_view(pilot)
    await pilot.press("question_mark")
    screen = await shows(pilot, HelpScreen)
    await wait_for(pilot, lambda: bool(screen.query(DataTable)))
    return screen


SCREENS: dict[str, Reach] = {
    "editor": editor,
    "run view": run_view,
    "report list": report_list,
    "one report": one_report,
    "one case": one_case,
    "comparison": comparison,
    "help": help_screen,
}


@pytest.mark.parametrize("where", list(SCREENS))
async def test_every_screen_key_shows_that_screen_itself(workspace: Path, where: str) -> None:
    """From each screen, e, r and b show the editor, run view and report list themselves
    (the report list, not the report or case last opened from it)."""
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await shows(pilot, EditorScreen)
        for key, kind in MODE_SCREENS.items():
            start = await SCREENS[where](pilot)
            await pilot.press(key)
            await wait_for(pilot, lambda kind=kind: type(app.screen) is kind)  # type: ignore[misc]
            assert len(app.screen_stack) == 1, f"{key} from {where}: {app.screen_stack}"
            assert app.screen is not start or type(start) is kind


@pytest.mark.parametrize(
    ("where", "back_to"),
    [
        ("one report", ReportsScreen),
        ("one case", ReportsScreen),
        ("comparison", ReportsScreen),
        ("help", RunScreen),
    ],
)
async def test_esc_closes_what_was_opened_on_top(
    workspace: Path, where: str, back_to: type[Screen[Any]]
) -> None:
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await shows(pilot, EditorScreen)
        opened = await SCREENS[where](pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not opened)
        assert isinstance(app.screen, back_to)


async def test_esc_at_a_screen_of_its_own_goes_back_to_the_screen_before(
    workspace: Path,
) -> None:
    """editor -> run view -> report list, then esc, esc: run view, editor; the footer offers
    no esc on the editor's case list once there is nowhere to go back to."""
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await editor(pilot)
        assert not app.can_go_back
        run = await run_view(pilot)
        await report_list(pilot)
        await pilot.press("escape")  # the report list used to ignore it
        await wait_for(pilot, lambda: app.screen is run)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is first)
        first.query_one(CaseTable).focus()
        await wait_for(pilot, lambda: first.query_one(CaseTable).has_focus)  # focus() is queued
        assert first.check_action("back", ()) is False  # hidden: nowhere to go
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is first


async def test_esc_in_the_editor_form_goes_to_the_case_list_first(workspace: Path) -> None:
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await editor(pilot)
        run = await run_view(pilot)
        await pilot.press("e")
        await shows(pilot, EditorScreen)
        await wait_for(pilot, lambda: bool(screen.query("#f-eval_id")))
        screen.query_one("#f-eval_id").focus()
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.query_one(CaseTable).has_focus)
        assert app.screen is screen
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is run)


async def test_a_dialog_is_answered_before_going_anywhere(workspace: Path) -> None:
    from tenxeval_tui.screens.common.choice import ChoiceScreen

    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await editor(pilot)
        dialog = ChoiceScreen("Sure?", {"yes": "Yes", "no": "No"}, title="Ask")
        await app.push_screen(dialog)
        assert app.check_action("go", ("reports",)) is False
        await pilot.press("b")
        await pilot.pause()
        assert app.screen is dialog


async def moves_with_j_and_k(pilot: Pilot[Any], table: Any, cursor: Callable[[], int]) -> None:
    table.focus()
    await pilot.pause()
    start = cursor()
    await pilot.press("j")
    await wait_for(pilot, lambda: cursor() == start + 1)
    await pilot.press("k")
    await wait_for(pilot, lambda: cursor() == start)


async def test_j_and_k_move_in_every_table(workspace: Path) -> None:
    """The editor's file and case lists, the report list, a report's cases, a comparison
    and the help (the run view's table: tests/tui/run/test_run_navigation.py)."""
    second = workspace / "more.evalset.json"
    second.write_text((workspace / "weather.evalset.json").read_text("utf-8"), "utf-8")
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await editor(pilot)
        cases = screen.query_one(CaseTable)

        def case_row() -> int:
            uid = cases.highlighted_uid
            return cases.visible_uids.index(uid) if uid is not None else -1

        await moves_with_j_and_k(pilot, cases, case_row)
        files = screen.query_one(OptionList)
        await wait_for(pilot, lambda: files.option_count == 2)
        await moves_with_j_and_k(pilot, files, lambda: files.highlighted or 0)
        screen = await report_list(pilot)
        listed = screen.query_one(ReportList)
        await moves_with_j_and_k(pilot, listed, lambda: listed.cursor_row)
        screen = await one_report(pilot)
        table = screen.query_one(VirtualTable)
        await moves_with_j_and_k(pilot, table, lambda: table.cursor)
        screen = await comparison(pilot)
        await pilot.press("a")  # the unchanged cases too, so there is a row below the first
        compared = screen.query_one(VirtualTable)
        await wait_for(pilot, lambda: len(compared.items) > 1)
        await moves_with_j_and_k(pilot, compared, lambda: compared.cursor)
        screen = await help_screen(pilot)
        keys = screen.query_one(DataTable)
        await moves_with_j_and_k(pilot, keys, lambda: keys.cursor_row)


async def help_moves_with_home_and_end(pilot: Pilot[Any], where: str) -> None:
    await pilot.press("question_mark")
    help_shown = await shows(pilot, HelpScreen)
    assert isinstance(help_shown, HelpScreen)
    assert help_shown.rows[0][0] == where
    await wait_for(pilot, lambda: bool(help_shown.query(DataTable)))
    table = help_shown.query_one(DataTable)
    # laid out on a later refresh than the screen's push: wait for its scrollbar
    await wait_for(pilot, lambda: table.show_vertical_scrollbar, what="the help's scrollbar")
    assert table.row_count > table.size.height  # it scrolls: a scrollbar shows
    assert table.show_vertical_scrollbar
    await pilot.press("end")
    await wait_for(pilot, lambda: table.cursor_row == table.row_count - 1)
    await wait_for(pilot, lambda: table.scroll_y > 0)  # scrolled after the cursor moved
    await pilot.press("home")
    await wait_for(pilot, lambda: table.cursor_row == 0 and table.scroll_y == 0)
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(pilot.app.screen, HelpScreen))


async def test_help_lists_this_screens_keys_first_and_moves_with_home_and_end(
    workspace: Path,
) -> None:
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await shows(pilot, EditorScreen)
        await run_view(pilot)
        await help_moves_with_home_and_end(pilot, "run view")
        await report_list(pilot)
        await help_moves_with_home_and_end(pilot, "report list")


async def test_palette_names_keys_as_typed_and_has_one_quit(workspace: Path) -> None:
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await report_list(pilot)
        await pilot.press("ctrl+p")
        palette = await shows(pilot, CommandPalette)
        options = palette.query_one(CommandList)
        await wait_for(pilot, lambda: options.option_count > 5)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any(p.startswith("Help") and "(?)" in p for p in prompts), prompts
        assert any(p.startswith("Reports") and "(b)" in p for p in prompts)
        assert not any("question_mark" in p or "slash" in p for p in prompts)
        assert len([p for p in prompts if p.split("  (")[0] == "Quit"]) == 1, prompts


async def test_a_screen_shown_again_by_its_key_is_not_masked_by_a_pause_of_updates(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual pauses the screen's updates for 50 ms at each mode switch, to mask a screen
    being built; a mode's screen shown again as it was left has nothing to mask, and each
    switch took 50 ms more. The first showing of each keeps the pause."""
    from textual.app import App

    paused: list[str] = []
    delay_update = App.delay_update

    def recording(app: App[Any], delay: float = 0.05) -> None:
        paused.append(app.current_mode)
        delay_update(app, delay)

    monkeypatch.setattr(App, "delay_update", recording)
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        for key in ("r", "b", "e", "r", "b", "e", "r"):
            await pilot.press(key)
            await wait_for(pilot, lambda key=key: isinstance(app.screen, MODE_SCREENS[key]))
        # (the mode switched from) the start building the editor, the first switches to the
        # run view and to the reports; none for a screen shown again
        assert paused == ["_default", "editor", "run"]


async def test_the_other_modes_screens_are_imported_in_the_background_after_start(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Most of a first ``r`` was the import of the run view's screen: a moment after the
    start, the app imports the screens of the modes not shown yet, in a thread, and stays
    where it is; then it freezes what is alive."""
    import threading

    from tenxeval_tui import app as app_module

    loaded: list[tuple[str, bool]] = []
    load = app_module.LazyScreen.load

    def recording(screen: app_module.LazyScreen) -> type[Screen[Any]]:
        loaded.append((screen.target, threading.current_thread() is threading.main_thread()))
        return load(screen)

    monkeypatch.setattr(app_module.LazyScreen, "load", recording)
    monkeypatch.setattr(app_module, "freeze_alive", lambda: loaded.append(("frozen", False)))
    monkeypatch.setattr(app_module, "WARM_UP_AFTER_S", 0.01)
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: len(loaded) == 3)
        # then what is alive is left out of later full collections (30-60 ms each)
        assert loaded.pop() == ("frozen", False)
        assert sorted(target.rsplit(":", 1)[1] for target, _ in loaded) == [
            "ReportsScreen",
            "RunScreen",
        ]
        assert not any(on_main for _, on_main in loaded)
        assert isinstance(app.screen, EditorScreen)
